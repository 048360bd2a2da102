"""The plain score sheet (``spades show``, ``spades replay``): one line per hand and side."""

from __future__ import annotations

import random

import pytest

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


def test_points_made_of_more_than_the_contract_say_their_parts() -> None:
    """A hand's points hid a bag penalty or a Nil in their sum ("points -37, total 261, bags
    1" after a made contract of 6 with 3 overtricks): the parts are given, and add up."""
    import json
    import re
    from pathlib import Path

    from spades.engine import replay

    path = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
    sheet = score_sheet(replay(json.loads(path.read_text(encoding="utf-8"))))
    assert ("  North and South: North bid 3 took 6, South bid 3 took 3; points -37 (contract +60, "
            "overtricks +3, bag penalty -100), total 261, bags 1") in sheet, sheet
    assert "points +132 (contract +30, overtricks +2, Nil +100), total 386" in sheet, sheet
    # a hand of contracts and overtricks alone reads as before
    assert ("  North and South: North bid 4 took 5, South bid 4 took 4; points +81, total 81, "
            "bags 1") in sheet, sheet
    lines = re.findall(r"points ([+-]\d+) \(([^)]*)\)", sheet)
    assert len(lines) == 4
    for points, parts in lines:
        assert sum(int(p.rsplit(" ", 1)[1]) for p in parts.split(", ")) == int(points)


def test_a_sheet_of_a_record_says_to_replay_it_first() -> None:
    # score_sheet(record) was AttributeError: 'dict' object has no attribute 'rules'.
    with pytest.raises(TypeError, match=r"^score_sheet takes a Match \(replay\(record\) gives "
                                        r"one\), not a dict$"):
        score_sheet({"rules": "cardems", "hands": []})  # type: ignore[arg-type]
