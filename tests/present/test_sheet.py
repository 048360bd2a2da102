"""The plain score sheet (``spades show``, ``spades replay``): one line per hand and side."""

from __future__ import annotations

import random

from spades.engine import Match, profile
from spades.present.sheet import score_sheet


def _one_hand(rules_name: str, names: list[str]) -> str:
    rng = random.Random(3)
    match = Match(profile(rules_name), rng=rng)
    while not match.results:
        match.apply(rng.choice(match.legal_actions()))
    return score_sheet(match, names)


def test_a_solo_sides_line_names_its_player_once() -> None:
    """In a game where everyone plays alone a side is one seat: its line read
    "Ann: Ann bid 4 took 4; points…", the name twice."""
    sheet = _one_hand("race400", ["Ann", "Bob", "Cid", "Dee"])
    lines = [line.strip() for line in sheet.splitlines() if line.startswith("  ")]
    assert len(lines) == 4, sheet
    for line, name in zip(lines, ["Ann", "Bob", "Cid", "Dee"], strict=True):
        assert line.startswith(f"{name}: bid "), sheet
        assert line.count(name) == 1, sheet


def test_a_partnerships_line_names_each_seat_with_its_bid() -> None:
    sheet = _one_hand("cardems", ["Ann", "Bob", "Cid", "Dee"])
    lines = [line.strip() for line in sheet.splitlines() if line.startswith("  ")]
    assert len(lines) == 2, sheet
    assert "Ann bid " in lines[0] and "Cid bid " in lines[0], sheet
