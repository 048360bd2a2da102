"""What a client may see: per-seat views, the public view, the score, the sheet."""

from __future__ import annotations

import dataclasses
from typing import Any

from spades.engine import HandResult, Match, Rules, action_str
from spades.engine.actions import BLIND_NIL, NIL
from spades.present.rules import deck_sentence
from spades.present.sheet import bag_warning, points_detail, score_sheet


def seat_view(match: Match, seat: int, results_from: int | None = None) -> dict[str, Any]:
    """``Observation.to_json()`` of ``seat``: its own hand and public information only.
    ``results_from``: for a client that keeps the scored hands itself (``Hello.results``:
    "new"), ``results`` only from hand ``results_from`` on (0-based; the hands scored since
    the table's previous event) and ``results_from`` (that number); the hands before are
    not converted. None: every scored hand."""
    # (the past hands' deals and actions are not in the view: not gathered for it)
    return match.observation(seat, past=False).to_json(results_from)


def public_view(match: Match, results_from: int | None = None) -> dict[str, Any]:
    """What a spectator sees: a seat's view with the hand and the legal actions taken out
    (``results_from``: as for :func:`seat_view`)."""
    view = match.observation(0, past=False).to_json(results_from)
    view["seat"] = None
    view["hand"] = None
    view["legal_actions"] = []
    return view


def score_info(match: Match) -> dict[str, Any]:
    rules = match.rules
    warnings = [bag_warning(rules, b) for b in match.bags]
    return {
        "scores": list(match.scores),
        "bags": list(match.bags),
        "bag_warning": warnings,
        "near_bag_limit": [bool(w) for w in warnings],
        "sides": [list(s) for s in rules.sides],
    }


def bid_text(bid: int, blind: bool) -> str | int:
    if bid < 0:
        return ""
    if bid == 0:
        return action_str(BLIND_NIL if blind else NIL)
    return bid


def result_row(r: HandResult) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "bids": [bid_text(b, bl) for b, bl in zip(r.bids, r.blind, strict=True)],
        "tricks": list(r.tricks),
        "points": list(r.points),
        "scores": list(r.scores),
        "bags": list(r.bags),
        "timeout_bags": list(r.timeout_bags),
        "sides": [dataclasses.asdict(s) for s in r.sides],
    }


def sheet_row(rules: Rules, r: HandResult) -> dict[str, Any]:
    """A hand's row of the score sheet: :func:`result_row`, and ``parts_text``: for each side
    what its points are made of, in the words of the terminal's sheet (``10 for 200, set``,
    ``contract +40, bonus +20 for a contract of 1 or 2 made exactly``; '' when the contract
    and its overtricks alone make them), so that the page says what the terminal says
    without knowing the rules itself."""
    return {**result_row(r),
            "parts_text": [points_detail(rules, r, k) for k in range(len(rules.sides))]}


def sheet(match: Match, names: list[str]) -> dict[str, Any]:
    info = score_info(match)
    return {
        "hands": [sheet_row(match.rules, r) for r in match.results],
        "scores": info["scores"],
        "bags": info["bags"],
        "bag_warning": info["bag_warning"],
        "sides": info["sides"],
        "names": names,
        "text": score_sheet(match, names),
        "finished": match.is_over(),
        "winner": match.winner,
    }


def rules_info(rules: Rules) -> dict[str, Any]:
    data = rules.to_json()
    data["players"] = rules.players
    data["teams"] = None if rules.teams is None else [list(s) for s in rules.teams]
    data["hand_size"] = rules.hand_size
    # which cards leave the deck and come in, in the words the terminal uses too
    data["deck_words"] = deck_sentence(rules)
    return data
