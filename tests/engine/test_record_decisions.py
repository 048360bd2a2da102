"""The rules decisions of ../shared/rules-profiles.md that records follow (issue 15).

- A timed-out play may be any of the equally weakest legal cards (lowest rank among
  non-spades; a spade only when nothing else is legal); the game itself picks clubs, then
  diamonds, then hearts.
- Choosing Mirror turns blind nil off: in a record's rules, on a table, on the command line.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_support import RANKS

from spades.engine import RecordError, RulesError, parse_card, profile, replay
from spades.engine.rules import rules_from_json

# Seat 0 holds every 2, 3 and 4 and the 5 of clubs; the others share the rest in order.
LOW = [r + s for r in "234" for s in "CDHS"] + ["5C"]
REST = [r + s for s in "CDHS" for r in RANKS if r + s not in LOW]
DEAL = [LOW, REST[0:13], REST[13:26], REST[26:39]]
TIMED = {"preset": "cards4net", "turn_timer": 20}


def timed_record(plays: list[str], timeouts: list[dict[str, int]]) -> dict[str, Any]:
    return {"rules": TIMED, "hands": [{"dealer": 3, "deal": DEAL, "bids": [1, 3, 3, 3],
                                        "plays": plays, "timeouts": timeouts}]}


@pytest.mark.parametrize("card", ["2C", "2D", "2H"])
def test_a_timed_out_lead_may_be_any_of_the_equally_weakest_cards(card: str) -> None:
    match = replay(timed_record([card], [{"play": 1}]))
    assert match.trick == [parse_card(card)]
    assert match.timeout_bags == [1, 0]
    # The record says which one; the match is the same as the one the timer played.
    assert match.to_record()["hands"][0]["plays"] == [card]
    assert match.to_record()["hands"][0]["timeouts"] == [{"play": 1}]


@pytest.mark.parametrize("card", ["2S", "3C", "5C", "4D"])
def test_a_timed_out_play_stronger_than_the_weakest_is_refused(card: str) -> None:
    with pytest.raises(RecordError, match=f"hand 1, play 1: the turn timer cannot play {card} "
                       "here; it plays 2C"):
        replay(timed_record([card], [{"play": 1}]))


def deal_with(low: str) -> list[list[str]]:
    """Seat 0 holds the cards of ``low`` and then the highest spades; the others the rest."""
    mine = low.split()
    mine += [r + "S" for r in reversed(RANKS) if r + "S" not in mine][: 13 - len(mine)]
    rest = [r + s for s in "CDHS" for r in RANKS if r + s not in mine]
    return [mine, rest[0:13], rest[13:26], rest[26:39]]


@pytest.mark.parametrize(("low", "picked", "also"), [
    ("2C 2D 2H", "2C", ["2D", "2H"]),
    ("2D 2H 3C", "2D", ["2H"]),
    ("2H 3C 3D", "2H", []),
    ("3C 3D 3H 4C", "3C", ["3D", "3H"]),
])
def test_the_game_itself_still_picks_clubs_then_diamonds_then_hearts(
        low: str, picked: str, also: list[str]) -> None:
    record: dict[str, Any] = {"rules": TIMED, "hands": [
        {"dealer": 3, "deal": deal_with(low), "bids": [1, 3, 3, 3], "plays": []}]}
    match = replay(record)
    assert match.timeout_action() == parse_card(picked)
    assert match.clone().apply_timeout() == parse_card(picked)
    for card in [picked, *also]:
        record["hands"][0].update(plays=[card], timeouts=[{"play": 1}])
        assert replay(record).trick == [parse_card(card)]
    for card in {c for c in low.split() if c != picked} - set(also):
        record["hands"][0].update(plays=[card], timeouts=[{"play": 1}])
        with pytest.raises(RecordError, match=f"it plays {picked}"):
            replay(record)


def test_a_spade_is_timed_out_only_when_nothing_else_is_legal() -> None:
    # Seat 0 holds spades and two hearts: a heart, though the 2 of spades is lower.
    spades = [r + "S" for r in RANKS[:11]] + ["2H", "3H"]
    rest = [c for c in (r + s for s in "CDHS" for r in RANKS) if c not in spades]
    hand = {"dealer": 3, "deal": [spades, rest[0:13], rest[13:26], rest[26:39]],
            "bids": [1, 3, 3, 3], "plays": ["2S"], "timeouts": [{"play": 1}]}
    with pytest.raises(RecordError, match="it plays 2H"):
        replay({"rules": TIMED, "hands": [hand]})
    hand["plays"] = ["2H"]
    assert replay({"rules": TIMED, "hands": [hand]}).trick == [parse_card("2H")]
    # Only trumps held (jokers too): the lowest spade, and no other.
    trumps = ["BJ", "LJ"] + [r + "S" for r in RANKS[:11]]
    rest = [c for c in (r + s for s in "CDHS" for r in RANKS) if c not in trumps
            and c not in ("2C", "2D")]
    hand = {"dealer": 3, "deal": [trumps, rest[0:13], rest[13:26], rest[26:39]],
            "bids": [1, 3, 3, 3], "plays": ["2S"], "timeouts": [{"play": 1}]}
    rules = {**TIMED, "jokers": True}
    assert replay({"rules": rules, "hands": [hand]}).trick == [parse_card("2S")]
    for card in ("3S", "LJ"):
        hand["plays"] = [card]
        with pytest.raises(RecordError, match="it plays 2S"):
            replay({"rules": rules, "hands": [hand]})


def test_choosing_mirror_turns_blind_nil_off_in_a_record() -> None:
    rules = rules_from_json({"preset": "cards4net", "bidding": "mirror"})
    assert rules.bidding == "mirror" and rules.blind_nil is False
    # cards4net has blind nil on; the record says nothing about it.
    record = {"rules": {"preset": "cards4net", "bidding": "mirror"}, "hands": []}
    assert replay(record).rules == profile("cards4net", bidding="mirror", blind_nil=False)
    # Asking for both at once is still an impossible combination.
    with pytest.raises(RecordError, match="rules: blind_nil: mirror bidding has no blind nil"):
        replay({"rules": {"preset": "cards4net", "bidding": "mirror", "blind_nil": True},
                "hands": []})


def test_choosing_mirror_turns_blind_nil_off_on_a_table_and_the_command_line() -> None:
    from spades.cli import build_parser
    from spades.cli.play import build_rules as cli_rules
    from spades.server.options import build_rules as table_rules
    from spades.server.protocol import TableOptions

    assert profile("cards4net", bidding="mirror").blind_nil is False
    table = table_rules(TableOptions(profile="cards4net", bidding="mirror"))
    assert table.bidding == "mirror" and table.blind_nil is False
    with pytest.raises(RulesError, match="blind"):
        table_rules(TableOptions(profile="cards4net", bidding="mirror", blind_nil=True))
    args = build_parser().parse_args(["play", "--rules", "cards4net", "--bidding", "mirror"])
    assert cli_rules(args).blind_nil is False
