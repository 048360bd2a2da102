"""The plain score sheet (``spades show``, ``spades replay``): one line per hand and side."""

from __future__ import annotations

import random
import re

import pytest

from spades.engine import Match, profile
from spades.present.sheet import score_sheet
from tests.tables import first_hand


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


def test_a_contract_of_10_under_10_for_200_names_the_rule_on_the_sheet() -> None:
    """Under 10 for 200 the sheet said "points -200, total -200" for a contract of 10 set
    (or +200 made), without the rule that made it worth 200, which only the hand's details
    named: it says "points -200 (10 for 200, set)", and with more parts "(10 for 200, set:
    contract -200, Nil -100)"; the words are the rules' own."""
    from spades.present.rules import TEN_FOR_200

    match = first_hand("cards4net", {0: 5, 2: 5}, 3, one_hand=True, ten_for_200=True)
    r = match.results[0]
    made = "made" if r.sides[0].made else "set"
    sheet = score_sheet(match)
    line = next(x for x in sheet.splitlines() if x.startswith("  North and South: "))
    assert f"; points {r.points[0]:+d} ({TEN_FOR_200}, {made}), total " in line, sheet
    assert sheet.count(TEN_FOR_200) == 1, sheet  # East and West bid 2: not said
    match = first_hand("cards4net", {0: 10, 2: 0}, 3, one_hand=True, ten_for_200=True)
    r = match.results[0]
    s = r.sides[0]
    made = "made" if s.made else "set"
    line = next(x for x in score_sheet(match).splitlines() if x.startswith("  North and "))
    assert f"; points {r.points[0]:+d} ({TEN_FOR_200}, {made}: contract " in line, line
    assert ", Nil " in line, line
    # without the rule the sheet reads as before
    line = next(x for x in score_sheet(first_hand("cards4net", {0: 5, 2: 5}, 3, one_hand=True)).splitlines()
                if x.startswith("  North and "))
    assert "10 for 200" not in line and re.search(r"; points [+-]\d+, total ", line), line


def test_a_bonus_on_the_sheet_says_which_bonus() -> None:
    """race400's sheet said "points +60 (contract +40, bonus +20)" without the rule that
    earned the bonus (the hand's details name it): it says "bonus +20 for a contract of 1
    or 2 made exactly", "bonus +30 for a made contract above 6", in the rules' words."""
    from spades.present.rules import bonus_note

    rules = profile("race400")
    assert bonus_note(rules, 2) == "for a contract of 1 or 2 made exactly"
    assert bonus_note(rules, 9) == f"for a made contract above {rules.hard_contract_from}"
    seen = set()
    for seed in range(40):  # a seat bids what it took when every seat bid 1 (the same play)
        tricks = first_hand("race400", {}, seed, one_hand=True).results[0].tricks
        best = max(range(4), key=lambda s: tricks[s])
        sheet = score_sheet(first_hand("race400", {best: tricks[best]}, seed, one_hand=True))
        for said in re.findall(r"bonus [+-]\d+[^,)]*", sheet):
            assert said in ("bonus +20 for a contract of 1 or 2 made exactly",
                            *(f"bonus +{10 * n} for a made contract above "
                              f"{rules.hard_contract_from}" for n in range(1, 8))), sheet
            seen.add("small" if "+20 for a contract" in said else "hard")
        if len(seen) == 2:
            break
    assert seen == {"small", "hard"}, seen


def test_a_draw_of_sides_of_partners_tells_the_sides_apart() -> None:
    """A draw of three sides of two said "Seat 0 and Seat 3 and Seat 2 and Seat 5 tie",
    which hides who is with whom: the sides are told apart by "with", as the play does."""
    rules = profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5)), one_hand=True)
    for seed in range(300):
        match = Match(rules, rng=random.Random(seed))
        rng = random.Random(seed)
        while not match.is_over():
            if match.phase == "deal":
                match.deal()
            else:
                match.apply(rng.choice(match.legal_actions()))
        if match.winner is None:
            break
    else:
        pytest.skip("no draw in the seeds tried")
    top = max(match.scores)
    tied = [k for k in range(3) if match.scores[k] == top]
    names = {0: "Seat 0 and Seat 3", 1: "Seat 1 and Seat 4", 2: "Seat 2 and Seat 5"}
    end = score_sheet(match).splitlines()[-1]
    assert end == (f"The match is a draw: {names[tied[0]]} tie with "
                   + " and with ".join(names[k] for k in tied[1:]) + f" at {top} points."), end


def test_two_nils_on_a_side_are_said_apart() -> None:
    """North and South both bid Nil; North made it, South took 10 tricks: the sheet said
    "points -90 (overtricks +10, bag penalty -100)", and the end of the hand the same: the
    Nil made and the Nil broken summed to nothing and were not said. Each is said now, and
    the parts still add up to the points."""
    from spades.engine import HandScored, replay
    from spades.present import Narrator

    match = first_hand("cardems", {0: 0, 2: 0}, 0, one_hand=True)
    r = match.results[0]
    assert (r.tricks[0], r.tricks[2], r.points[0]) == (0, 10, -90)  # (the deal of seed 0)
    assert r.nil_bids(match.rules, 0) == (100, -100) and r.nil_bids(match.rules, 1) == ()
    line = next(x for x in score_sheet(match).splitlines() if x.startswith("  North and "))
    assert "; points -90 (overtricks +10, Nil +100, Nil -100, bag penalty -100), total " in line, line
    # the end of the hand, told from the same event the server and the terminal tell
    scored = next(e for e in replay(match.to_record(), events=True).events
                  if isinstance(e, HandScored))
    assert scored.sides[0].nil_bids == (100, -100) and scored.sides[0].blind_nil_bids == ()
    assert scored.to_json()["sides"][0]["nil_bids"] == [100, -100]
    said = Narrator(match.rules).say(scored)
    assert "North and South -90 (overtricks +10, Nil +100, Nil -100, bag penalty -100)" in said, said
