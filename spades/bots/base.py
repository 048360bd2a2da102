"""What every CPU player is: something that picks an action from a seat's observation."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from spades.engine import Observation


@runtime_checkable
class Bot(Protocol):
    """A player. ``act`` sees only the acting seat's :class:`Observation` and returns one of
    ``obs.legal_actions``. The same seed gives the same decisions."""

    name: str

    def act(self, obs: Observation) -> int: ...


class RandomBot:
    """Uniformly random legal actions (for tests and as the weakest level)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> int:
        return self.rng.choice(obs.legal_actions)
