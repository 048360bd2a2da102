"""What a client may see: per-seat views, the public view, the score, the sheet."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from spades.engine import HandResult, Match, Rules, action_str
from spades.engine.actions import BLIND_NIL, NIL
from spades.present.rules import deck_sentence
from spades.present.sheet import SheetWriter, bag_warning, points_detail, score_sheet


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


class ResultsJson:
    """The scored hands of a table's match as the JSON of a view's ``results``, each hand
    converted and serialised once (they never change) and shared by every view sent.

    Before, each member's view converted every scored hand again at each event, for a client
    that takes them all (``Hello.results``: "all"): 9 ms a member an event at a match of
    1,600 hands (a long record continued), on the event loop."""

    def __init__(self) -> None:
        self._match: Match | None = None
        self._rows: list[str] = []
        self._all: tuple[int, str] = (0, "[]")

    def text(self, match: Match, start: int = 0) -> str:
        """``results`` from hand ``start`` on (0-based), as JSON text."""
        results = match.results
        if match is not self._match or len(results) < len(self._rows):
            self._match, self._rows, self._all = match, [], (0, "[]")
        rows = self._rows
        for r in results[len(rows):]:
            rows.append(json.dumps(r.to_json()))
        if start:
            return "[" + ", ".join(rows[start:]) + "]"
        if self._all[0] != len(rows):
            self._all = (len(rows), "[" + ", ".join(rows) + "]")
        return self._all[1]


def view_text(match: Match, seat: int | None, results_from: int | None,
              results: ResultsJson) -> str:
    """:func:`seat_view` (``seat`` None: :func:`public_view`) as JSON text, its ``results``
    taken from ``results``: what an event sends each member."""
    scored = len(match.results)
    view = seat_view(match, seat, scored) if seat is not None else public_view(match, scored)
    view["results"] = _RESULTS  # (in its place: the keys keep their order)
    if results_from is None:
        del view["results_from"]
    else:
        view["results_from"] = results_from
    return json.dumps(view).replace(_RESULTS_JSON, results.text(match, results_from or 0), 1)


#: What stands for the results in a view until their JSON takes its place (a view has no
#: text of anyone's: nothing else in it can be this)
_RESULTS = "\x00results"
_RESULTS_JSON = json.dumps(_RESULTS)


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


def sheet_fields(match: Match, names: list[str]) -> dict[str, Any]:
    """The sheet's fields but ``hands`` and ``text``."""
    info = score_info(match)
    return {"scores": info["scores"], "bags": info["bags"], "bag_warning": info["bag_warning"],
            "sides": info["sides"], "names": names, "finished": match.is_over(),
            "winner": match.winner}


class SheetParts:
    """A table's score sheet, hand by hand: each scored hand's row (its JSON) and lines of
    text are made once, so that the sheet made again after each scored hand costs the new
    hand and the totals, not every hand (160 ms of the event loop at a match of 1,600
    hands, a long record continued, at each scored hand)."""

    def __init__(self) -> None:
        self._for: tuple[Match, list[str]] | None = None
        self._rows: list[str] = []
        self._hands = "[]"
        self._writer: SheetWriter | None = None

    def parts(self, match: Match, names: list[str]) -> tuple[dict[str, Any], str, str]:
        """:func:`sheet_fields`, ``hands`` as JSON text and ``text``."""
        if (self._for is None or self._for[0] is not match
                or len(match.results) < len(self._rows)):
            self._for, self._rows, self._hands = (match, list(names)), [], "[]"
            self._writer = SheetWriter(match.rules, names)
        elif self._for[1] != names:  # (the rows name nobody: only the lines are new)
            self._for = (match, list(names))
            self._writer = SheetWriter(match.rules, names)
        assert self._writer is not None
        rows = self._rows
        if len(match.results) > len(rows):
            rows.extend(json.dumps(sheet_row(match.rules, r))
                        for r in match.results[len(rows):])
            self._hands = "[" + ", ".join(rows) + "]"
        return sheet_fields(match, names), self._hands, self._writer.text(match)


def sheet(match: Match, names: list[str]) -> dict[str, Any]:
    """The whole sheet at once (a finished game's, or a table's that another process runs):
    :func:`sheet_fields` with every hand's row and the text."""
    return {**sheet_fields(match, names),
            "hands": [sheet_row(match.rules, r) for r in match.results],
            "text": score_sheet(match, names)}


def rules_info(rules: Rules) -> dict[str, Any]:
    data = rules.to_json()
    data["players"] = rules.players
    data["teams"] = None if rules.teams is None else [list(s) for s in rules.teams]
    data["hand_size"] = rules.hand_size
    # which cards leave the deck and come in, in the words the terminal uses too
    data["deck_words"] = deck_sentence(rules)
    return data
