"""What every CPU player is: something that picks an action from a seat's observation."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from spades.engine import TERMINAL, Observation, SpadesError


@runtime_checkable
class Bot(Protocol):
    """A player. ``act`` sees only the acting seat's :class:`Observation` and returns one of
    ``obs.legal_actions``. The same seed gives the same decisions."""

    name: str

    def act(self, obs: Observation) -> int:
        """One of ``obs.legal_actions`` for the seat of ``obs``, which is to act."""
        ...


class RandomBot:
    """Uniformly random legal actions (for tests and as the weakest level)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> int:
        """This level's choice among ``obs.legal_actions``, for the seat of ``obs``, which is
        to act (else a ``SpadesError`` or ``TypeError``: :func:`check_turn`)."""
        check_turn(obs)
        return self.rng.choice(obs.legal_actions)


def check_turn(obs: Observation, what: str = "act") -> None:
    """Refuse to decide for ``obs`` unless it is an observation of the seat to act:
    ``TypeError`` for something else (a Match: ``what`` takes an Observation...),
    :class:`SpadesError` (a ``ValueError``) naming the seat and whose turn it is."""
    if not isinstance(obs, Observation):
        raise TypeError(f"{what} takes an Observation (match.observation(seat)), "
                        f"not a {type(obs).__name__}")
    if obs.current_player != obs.seat:
        now = obs.current_player
        why = (f"seat {now} is to act" if now >= 0 else
               "the match is over" if now == TERMINAL else "the next hand is not dealt")
        raise SpadesError(f"it is not seat {obs.seat}'s turn: {why}")  # hint's words, extended
