"""What a match keeps of each hand: the log a record stores, and the scored result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spades.engine.actions import BID_BASE, BLIND_NIL, whole_number
from spades.engine.errors import check_flag
from spades.engine.rules import Rules
from spades.engine.scoring import SideScore, nil_score


@dataclass(frozen=True, slots=True)
class HandResult:
    """One scored hand: a row of the score sheet."""

    number: int  # 1-based
    dealer: int
    bids: tuple[int, ...]  # per seat, 0 = Nil
    blind: tuple[bool, ...]
    tricks: tuple[int, ...]  # per seat
    sides: tuple[SideScore, ...]
    points: tuple[int, ...]  # per side, this hand, timer penalties included
    scores: tuple[int, ...]  # per side, after this hand
    bags: tuple[int, ...]  # per side, after this hand
    timeout_bags: tuple[int, ...]  # per side, penalty bags from the turn timer this hand

    def nil_bids(self, rules: Rules, side: int, blind: bool = False) -> tuple[int, ...]:
        """What each Nil bid of ``side`` scored (``blind``: each Blind Nil), in seat order:
        ``(100, -100)`` for two Nils on one side, one made and one broken. Rules that are
        not a :class:`Rules`, a side not at the table, or ``blind`` that is not ``True`` or
        ``False``, are refused by name."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, like profile('cardems'), not {rules!r}"[:200])
        number = whole_number(side)
        if number is None or not 0 <= number < len(rules.sides):
            raise ValueError(f"side: a side from 0 to {len(rules.sides) - 1}, not {side!r}"[:200])
        side = number
        check_flag("blind", blind)
        return tuple(nil_score(rules, blind, self.tricks[s]) for s in rules.sides[side]
                     if self.bids[s] == 0 and self.blind[s] == blind)

    def to_json(self) -> dict[str, Any]:
        """``{"tricks": [5, 2, 4, 2], "points": [81, 31], "scores": [81, 31], "bags": [1, 1]}``:
        ``tricks`` per seat; ``points`` (this hand), ``scores`` and ``bags`` (after it) per
        side. An observation's ``results`` and ``spades replay --json``'s ``hands``."""
        return {
            "tricks": list(self.tricks),
            "points": list(self.points),
            "scores": list(self.scores),
            "bags": list(self.bags),
        }


@dataclass(slots=True)
class HandLog:
    """Everything that happened in one hand, as a record stores it."""

    dealer: int
    deal: tuple[int, ...]  # card masks per seat
    actions: list[int]  # bids (and LOOK) and plays, in order
    timeouts: list[int]  # indexes into ``actions`` of actions taken by the turn timer
    scores_before: tuple[int, ...]
    bags_before: tuple[int, ...]

    @property
    def bids(self) -> list[int]:
        """The bid actions (Blind Nil included, ``LOOK`` not), in order."""
        return [a for a in self.actions if BID_BASE <= a <= BLIND_NIL]

    @property
    def plays(self) -> list[int]:
        """The cards played, in order."""
        return [a for a in self.actions if a < BID_BASE]


__all__ = ["HandLog", "HandResult"]
