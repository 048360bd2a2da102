"""What one seat may see: its own hand (once looked at) and everything public.

Bots decide from an :class:`Observation` only; the server sends each seat only its own.
:meth:`spades.engine.match.Match.observation` builds one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spades.engine.actions import action_str
from spades.engine.cards import card_str, sorted_for_display
from spades.engine.hands import HandResult
from spades.engine.phase import Phase
from spades.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the match."""

    rules: Rules
    seat: int
    phase: Phase  # equal to "deal", "bid", "play", "over"
    hand_number: int  # 1-based
    dealer: int
    current_player: int  # a seat, CHANCE (-1) or TERMINAL (-2)
    hand: int | None  # card mask; None while the seat may still bid blind nil unseen
    hand_sizes: tuple[int, ...]  # cards left per seat
    bids: tuple[int | None, ...]  # per seat; 0 = Nil; None = not yet
    blind: tuple[bool, ...]
    tricks: tuple[int, ...]  # tricks taken per seat this hand
    leader: int  # seat that led the current trick (or leads next)
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the open trick
    spades_broken: bool
    plays: tuple[tuple[int, int], ...]  # every (seat, card) played this hand, in order
    scores: tuple[int, ...]  # per side
    bags: tuple[int, ...]  # per side
    results: tuple[HandResult, ...]  # every scored hand (from hand ``results_from`` on)
    legal_actions: tuple[int, ...]  # empty unless it is this seat's turn
    winner: int | None
    #: Every scored hand's deal (card mask per seat) and its actions in order (bids, LOOK
    #: and cards, as a record has them). Public: every card of a scored hand was played, and
    #: a card's player is the seat it was dealt to.
    past_deals: tuple[tuple[int, ...], ...] = ()
    past_actions: tuple[tuple[int, ...], ...] = ()
    #: How many scored hands, the first ones, are left out of ``results``, ``past_deals``
    #: and ``past_actions`` (``Match.observation(seat, recent=n)``): 0, every one.
    results_from: int = 0

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (``rules.sides``)."""
        return self.rules.sides

    @property
    def my_side(self) -> int:
        """The side of this seat."""
        return self.rules.side_of[self.seat]

    def to_json(self, results_from: int | None = None) -> dict[str, Any]:
        """Plain JSON, cards spelled ``AS`` and bids as in records (a number, ``"nil"``,
        ``"blind-nil"``): ``seat``, ``phase`` (``"deal"``, ``"bid"``, ``"play"``, ``"over"``),
        ``hand_number``, ``dealer``, ``current_player``, ``hand`` (the seat's cards sorted for
        display, or ``null`` while it may bid blind nil unseen), ``hand_sizes``, ``bids`` per
        seat (``null``: not yet), ``tricks`` per seat, ``leader``, ``trick`` (``[seat, card]``
        of the open trick), ``spades_broken``, ``plays`` (``[seat, card]`` this hand),
        ``scores`` and ``bags`` per side, ``results`` (:meth:`HandResult.to_json` per scored
        hand), ``legal_actions`` (empty unless it is this seat's turn) and ``winner``. The
        rules and the past hands' deals are not in it.

        ``results_from``: for a client that keeps the scored hands itself, ``results`` only
        from that hand on (0-based: the first ``results_from`` hands are left out, and not
        converted), and last ``results_from`` (that number). None (the default): every
        scored hand the observation has, and ``results_from`` only when it leaves some out
        (:attr:`results_from` above 0). A number below :attr:`results_from` or above the
        scored hands is a ``ValueError``."""
        results = self.results
        first = self.results_from
        if results_from is not None:
            last = first + len(results)
            if not first <= results_from <= last:
                raise ValueError(f"results_from must be {first} to {last} (the scored "
                                 f"hands{' this observation has' if first else ''}), not "
                                 f"{results_from}")
            results = results[results_from - first:]
            first = results_from
        view: dict[str, Any] = {
            "seat": self.seat,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "hand": None if self.hand is None else [card_str(c) for c in
                                                   sorted_for_display(self.hand)],
            "hand_sizes": list(self.hand_sizes),
            "bids": [None if b is None else ("blind-nil" if bl else "nil" if b == 0 else b)
                     for b, bl in zip(self.bids, self.blind, strict=True)],
            "tricks": list(self.tricks),
            "leader": self.leader,
            "trick": [[s, card_str(c)] for s, c in self.trick],
            "spades_broken": self.spades_broken,
            "plays": [[s, card_str(c)] for s, c in self.plays],
            "scores": list(self.scores),
            "bags": list(self.bags),
            "results": [r.to_json() for r in results],
            "legal_actions": [action_str(a) for a in self.legal_actions],
            "winner": self.winner,
        }
        if results_from is not None or first:
            view["results_from"] = first
        return view


def unseen_cards(obs: Observation) -> int:
    """Cards this seat has not seen: not in its hand and not yet played."""
    if not isinstance(obs, Observation):
        raise TypeError(f"unseen_cards takes an Observation (match.observation(seat)), "
                        f"not a {type(obs).__name__}")
    played = 0
    for _, c in obs.plays:
        played |= 1 << c
    return obs.rules.deck & ~played & ~(obs.hand or 0)


__all__ = ["Observation", "unseen_cards"]
