"""What one seat may see: its own hand (once looked at) and everything public.

Bots decide from an :class:`Observation` only; the server sends each seat only its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spades.engine.actions import BID_BASE, action_str
from spades.engine.cards import card_str, cards_of, sorted_for_display
from spades.engine.rules import Rules

if TYPE_CHECKING:
    from spades.engine.match import HandResult, Match


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the match."""

    rules: Rules
    seat: int
    phase: str  # "deal", "bid", "play", "over"
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
    results: tuple[HandResult, ...]  # every scored hand
    legal_actions: tuple[int, ...]  # empty unless it is this seat's turn
    winner: int | None
    #: Every scored hand's deal (card mask per seat) and its actions in order (bids, LOOK
    #: and cards, as a record has them). Public: every card of a scored hand was played, and
    #: a card's player is the seat it was dealt to.
    past_deals: tuple[tuple[int, ...], ...] = ()
    past_actions: tuple[tuple[int, ...], ...] = ()

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.rules.sides

    @property
    def my_side(self) -> int:
        return self.rules.side_of[self.seat]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (cards as ``AS``, bids as numbers, ``"nil"``, ``"blind-nil"``)."""
        return {
            "seat": self.seat,
            "phase": self.phase,
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
            "results": [r.to_json() for r in self.results],
            "legal_actions": [action_str(a) for a in self.legal_actions],
            "winner": self.winner,
        }


def observe(match: Match, seat: int) -> Observation:
    if not 0 <= seat < match.n:
        raise ValueError(f"seat must be 0 to {match.n - 1}, not {seat}")
    log = match.log[-1] if match.log else None
    plays: list[tuple[int, int]] = []
    trick: tuple[tuple[int, int], ...] = ()
    if log is not None and match.phase in ("bid", "play"):
        seat_to_play = (log.dealer + 1) % match.n
        leader = seat_to_play
        current: list[tuple[int, int]] = []
        winners = match.trick_winners
        for card in log.plays:
            if not current:
                seat_to_play = leader
            current.append((seat_to_play, card))
            plays.append((seat_to_play, card))
            seat_to_play = (seat_to_play + 1) % match.n
            if len(current) == match.n:
                leader = winners[len(plays) // match.n - 1]
                current = []
        trick = tuple(current)
    hand = match.hands[seat] if match.looked[seat] else None
    mine = match.current_player == seat
    return Observation(
        rules=match.rules,
        seat=seat,
        phase=match.phase,
        hand_number=match.hand_number,
        dealer=match.dealer,
        current_player=match.current_player,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in match.hands),
        bids=tuple(None if b < 0 else b for b in match.bids),
        blind=tuple(match.blind),
        tricks=tuple(match.tricks),
        leader=match.leader if match.phase == "play" else (match.dealer + 1) % match.n,
        trick=trick,
        spades_broken=match.broken,
        plays=tuple(plays),
        scores=tuple(match.scores),
        bags=tuple(match.bags),
        results=tuple(match.results),
        legal_actions=match.legal_actions() if mine else (),
        winner=match.winner,
        past_deals=tuple(h.deal for h in match.log[:len(match.results)]),
        past_actions=tuple(tuple(h.actions) for h in match.log[:len(match.results)]),
    )


def unseen_cards(obs: Observation) -> int:
    """Cards this seat has not seen: not in its hand and not yet played."""
    played = 0
    for _, c in obs.plays:
        played |= 1 << c
    return obs.rules.deck & ~played & ~(obs.hand or 0)


__all__ = ["BID_BASE", "Observation", "cards_of", "observe", "unseen_cards"]
