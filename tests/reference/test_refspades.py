"""Tests of the reference replay on the seed documents' worked examples."""

from __future__ import annotations

from typing import Any

from tests.reference.refspades import (
    BLIND_NIL,
    NIL,
    Rules,
    build_rules,
    replay,
    settle_bags,
    side_hand_result,
)

RANKS = "23456789TJQKA"


def rules_for(preset: str, players: int = 4, **overrides: Any) -> Rules:
    return build_rules(preset, overrides, players)


def suit_deal() -> list[list[str]]:
    """Seat 0 all spades, 1 hearts, 2 diamonds, 3 clubs: seat 0 takes every trick."""
    return [[r + s for r in RANKS] for s in "SHDC"]


def suit_plays(dealer: int) -> list[str]:
    """Each seat plays its cards upwards; seat 0 wins every trick and leads after trick 1."""
    deal = suit_deal()
    plays: list[str] = []
    leader = (dealer + 1) % 4
    for t in range(13):
        plays += [deal[(leader + i) % 4][t] for i in range(4)]
        leader = 0
    return plays


def suit_hand(dealer: int, bids: list[Any], **extra: Any) -> dict[str, Any]:
    return {"dealer": dealer, "deal": suit_deal(), "bids": bids, "plays": suit_plays(dealer),
            **extra}


# ------------------------------------------------------------------ scoring (seed 000 table)

def test_cardems_table() -> None:
    r = rules_for("cardems")
    assert side_hand_result(r, [3, 3], [4, 4]) == (62, 2)
    assert side_hand_result(r, [2, 4], [5, 0]) == (-60, 0)
    assert side_hand_result(r, [NIL, 5], [0, 5]) == (150, 0)
    assert side_hand_result(r, [2, 2], [3, 2]) == (41, 1)
    assert settle_bags(r, 9 + 1) == (-100, 0)
    # failed-nil tricks count toward the contract in cardems, not in cardgames-club
    assert side_hand_result(r, [NIL, 4], [2, 3]) == (41 - 100, 1)
    assert side_hand_result(rules_for("cardgames-club"), [NIL, 4], [2, 3]) == (-40 - 100 + 2, 2)


def test_cards4net_bags_reset_505_to_405() -> None:
    r = rules_for("cards4net")
    gained, new = side_hand_result(r, [4, 3], [4, 4])
    assert (gained, new) == (71, 1)
    penalty, bags = settle_bags(r, 9 + new)
    assert 434 + gained + penalty == 405 and bags == 0
    assert settle_bags(r, 23) == (-200, 0)
    assert settle_bags(rules_for("cardems"), 23) == (-200, 3)
    assert side_hand_result(r, [BLIND_NIL, 3], [0, 3]) == (230, 0)
    assert side_hand_result(rules_for("cards4net", ten_for_200=True), [6, 4], [6, 5]) == (201, 1)


def test_race400_bonuses() -> None:
    four = rules_for("race400", 4)
    assert side_hand_result(four, [6], [6]) == (60, 0)
    assert side_hand_result(four, [7], [7]) == (80, 0)
    assert side_hand_result(four, [10], [10]) == (140, 0)
    assert side_hand_result(four, [4], [6]) == (42, 2)
    assert side_hand_result(four, [2], [2]) == (40, 0)
    assert side_hand_result(four, [2], [3]) == (21, 1)
    assert side_hand_result(four, [7], [6]) == (-70, 0)
    assert side_hand_result(four, [NIL], [2]) == (-98, 2)
    three = rules_for("race400", 3)
    assert [side_hand_result(three, [b], [b])[0] for b in (9, 10, 13)] == [90, 110, 170]
    five = rules_for("race400", 5)
    assert [side_hand_result(five, [b], [b])[0] for b in (5, 6, 9, 2)] == [50, 70, 130, 20]
    six = rules_for("race400", 6)
    assert [side_hand_result(six, [b], [b])[0] for b in (4, 5, 8)] == [40, 60, 120]


# ------------------------------------------------------------------ whole records

def test_cardems_match_to_500() -> None:
    hands = [suit_hand(3, [13, 1, "nil", 1]), suit_hand(0, [1, "nil", 1, 13]),
             suit_hand(1, ["nil", 1, 13, 1])]
    out = replay({"format": "spades-record/1", "rules": "cardems", "hands": hands})
    assert out["hands"][0] == {"tricks": [13, 0, 0, 0], "points": [230, -20],
                               "scores": [230, -20], "bags": [0, 0]}
    assert out["scores"] == [690, -60] and out["finished"] and out["winner"] == 0
    more = replay({"rules": "cardems", "hands": [*hands, suit_hand(2, [1, 13, 1, "nil"])]})
    assert more == {"error": "hand 4: the match is already over"}


def test_nil_partner_and_bags() -> None:
    out = replay({"rules": "cardems", "hands": [suit_hand(3, [6, 1, 0, 1])]})
    assert out["hands"][0]["points"] == [167, -20] and out["bags"] == [7, 0]
    assert not out["finished"] and out["winner"] is None


def test_one_hand_draw_and_win() -> None:
    rules = {"preset": "game93", "match": "one-hand", "bag_limit": 100}
    out = replay({"rules": rules, "hands": [suit_hand(3, [2, "nil", 1, 6])]})
    assert out["scores"] == [40, 40] and out["finished"] and out["winner"] is None
    out = replay({"rules": rules, "hands": [suit_hand(3, [13, 0, 0, 0])]})
    assert out["scores"] == [230, 200] and out["winner"] == 0


def test_race400_solo_and_timeouts() -> None:
    rules = {"preset": "race400", "turn_timer": 30}
    hand = suit_hand(3, [13, "nil", "nil", "nil"], timeouts=[{"bid": 2}])
    out = replay({"rules": rules, "hands": [hand]})
    assert out["hands"][0]["points"] == [200, 100, 100, 100]
    assert out["bags"] == [0, 1, 0, 0]
    out = replay({"rules": {**rules, "bag_limit": 1}, "hands": [hand]})
    assert out["hands"][0]["points"] == [200, 0, 100, 100] and out["bags"] == [0, 0, 0, 0]
    out = replay({"rules": "race400", "hands": [hand]})
    assert out == {"error": "hand 1: timeouts recorded but the turn timer is off"}


def test_race400_three_players_removes_two_of_clubs() -> None:
    deck = [r + s for s in "SHDC" for r in RANKS]
    deck.remove("2C")
    hand = {"dealer": 0, "deal": [deck[0:17], deck[17:34], deck[34:51]], "bids": [], "plays": []}
    out = replay({"rules": "race400", "hands": [hand]})
    assert out["hands"] == [] and out["scores"] == [0, 0, 0]
    hand["deal"] = [deck[0:17], deck[17:34], ["2C", *deck[34:50]]]
    assert replay({"rules": "race400", "hands": [hand]}) == {
        "error": "hand 1: card 2C is not in the deck"}


def break_test_hand() -> dict[str, Any]:
    """Seat 0 wins two aces, leads spades from an all-spade hand; seat 1 wins with AS."""
    spades = [r + "S" for r in RANKS]
    deal = [["AH", "AD", *spades[1:12]],
            ["AS", "2S", *[r + "C" for r in RANKS[:11]]],
            [*[r + "H" for r in RANKS[:12]], "AC"],
            [*[r + "D" for r in RANKS[:12]], "KC"]]
    plays = ["AH", "2C", "2H", "2D", "AD", "3C", "3H", "3D", "3S", "AS", "4H", "4D", "2S"]
    return {"dealer": 3, "deal": deal, "bids": [3, 3, 3, 3], "plays": plays}


def test_spades_breaking() -> None:
    hand = break_test_hand()
    assert replay({"rules": "cardems", "hands": [hand]})["hands"] == []
    assert replay({"rules": "game93", "hands": [hand]}) == {
        "error": "hand 1, play 13: seat 1 may not lead a spade before spades are broken"}
    hand["plays"] = ["2S"]
    assert replay({"rules": "cardems", "hands": [hand]}) == {
        "error": "hand 1, play 1: seat 0 does not hold 2S"}
    hand["plays"] = ["AH", "AS", "AC"]  # seat 1 is void in hearts; seat 2 is not
    assert replay({"rules": "cardems", "hands": [hand]}) == {
        "error": "hand 1, play 3: seat 2 must follow hearts"}


def test_bidding_errors() -> None:
    def err(rules: Any, bids: list[Any]) -> str:
        out = replay({"rules": rules, "hands": [suit_hand(3, bids)]})
        return str(out.get("error"))

    assert err("cardems", ["blind-nil", 1, 1, 1]).startswith("hand 1, bid 1:")
    assert "error" not in replay({"rules": "cards4net", "hands": [suit_hand(3, ["blind-nil", 1,
                                                                              1, 1])]})
    assert err("cards4net", [13, "blind-nil", 1, 1]).startswith("hand 1, bid 2:")
    assert err("cardems", [13, 1, 1, 1, 1]).startswith("hand 1, bid 5:")
    assert err("cardems", [14, 1, 1, 1]).startswith("hand 1, bid 1:")
    assert err("cardems", [13, "x", 1, 1]).startswith("hand 1, bid 2: cannot parse")
    assert err({"preset": "cardems", "nil": False}, [13, 0, 1, 1]).startswith("hand 1, bid 2:")
    mirror = {"preset": "cards4net", "bidding": "mirror"}
    assert err(mirror, [13, "nil", 0, "nil"]) == "None"
    assert err(mirror, [12, "nil", 0, "nil"]).startswith("hand 1, bid 1:")
    suicide = {"preset": "cards4net", "bidding": "suicide"}
    assert err(suicide, [13, "nil", "nil", 1]) == "None"
    assert err(suicide, [13, "nil", 3, 1]).startswith("hand 1, bid 3:")
    assert err(suicide, [13, "nil", "nil", "nil"]).startswith("hand 1, bid 4:")


def test_record_errors() -> None:
    good = suit_hand(3, [13, 1, "nil", 1])
    assert replay({"rules": "cardems", "hands": [good, suit_hand(1, [1, 1, 1, 1])]}) == {
        "error": "hand 2: dealer must be seat 0"}
    partial = {**good, "plays": good["plays"][:5]}
    assert replay({"rules": "cardems", "hands": [partial, suit_hand(0, [1, 1, 1, 13])]}) == {
        "error": "hand 1: incomplete, but it is not the last hand"}
    assert replay({"rules": "bridge", "hands": []})["error"].startswith("rules:")
    assert replay({"rules": "cardems", "format": "x", "hands": []})["error"].startswith("record:")
    extra = {**good, "plays": [*good["plays"], "2S"]}
    assert replay({"rules": "cardems", "hands": [extra]})["error"].startswith("hand 1, play 53:")
