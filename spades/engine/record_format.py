"""Writing the ``spades-record/1`` format (see docs/records.md) from a match's hand logs.

This module knows nothing of :class:`~spades.engine.match.Match`, so that the match can use
it and :mod:`spades.engine.records` (which replays records into matches) can use both:
the engine's modules import one another without a cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spades.engine.actions import BLIND_NIL, LOOK, NIL, action_str
from spades.engine.cards import card_str, cards_of_int
from spades.engine.errors import SpadesError
from spades.engine.hands import HandLog
from spades.engine.rules import Rules, profile_base

FORMAT = "spades-record/1"


#: The fields a record is made of: ``extra`` fields may not replace them.
OWN_FIELDS = ("format", "rules", "teams", "hands")


def record_of(rules: Rules, logs: Sequence[HandLog], /, **extra: Any) -> dict[str, Any]:
    """The record of the hands ``logs`` played under ``rules``; ``extra`` fields (``players``
    names, ``id``...) are added."""
    taken = [k for k in OWN_FIELDS if k in extra]
    if taken:
        raise SpadesError(f"{', '.join(taken)}: a record's own field, made from the match; "
                          f"extra fields may not replace {'it' if len(taken) == 1 else 'them'}")
    record: dict[str, Any] = {"format": FORMAT, "rules": rules_json(rules)}
    if rules.teams is not None:
        record["teams"] = [list(side) for side in rules.teams]
    hands = []
    for log in logs:
        hand: dict[str, Any] = {
            "dealer": log.dealer,
            "deal": [[card_str(c) for c in cards_of_int(m)] for m in log.deal],
            "bids": [action_str(a) if a in (NIL, BLIND_NIL) else a - NIL for a in log.bids],
            "plays": [card_str(c) for c in log.plays],
        }
        if log.timeouts:
            hand["timeouts"] = _timeouts_json(log.actions, log.timeouts)
        if log.actions and log.actions[-1] == LOOK:  # the seat to act has seen its cards
            hand["looked"] = True
        hands.append(hand)
    record["hands"] = hands
    record.update(extra)
    return record


def rules_json(rules: Rules) -> str | dict[str, Any]:
    """A profile name when the rules are exactly a profile's, else ``{"preset": ...}``."""
    data = rules.to_json()
    base = profile_base(rules)
    if rules.teams is None and (base is None or base.teams is not None):
        data["teams"] = None  # solo where no "teams" would mean partners (custom: 0+2, 1+3)
    return data["preset"] if len(data) == 1 else data


def _timeouts_json(actions: list[int], timeouts: list[int]) -> list[dict[str, int]]:
    out = []
    for i in timeouts:
        before = [a for a in actions[:i] if a != LOOK]
        bids = sum(1 for a in before if a >= NIL)
        if actions[i] >= NIL:
            out.append({"bid": bids + 1})
        else:
            out.append({"play": len(before) - bids + 1})
    return out


__all__ = ["FORMAT", "record_of", "rules_json"]
