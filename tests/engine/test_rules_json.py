"""Rules to JSON and back: ``rules_from_json(rules.to_json(teams=True)) == rules`` for every
profile and house variant, seating included."""

from __future__ import annotations

import json
import random
import re

import pytest

from spades.engine import PROFILES, Match, Rules, RulesError, profile, replay, rules_from_json

VARIANTS: list[Rules] = [
    *(profile(name) for name in PROFILES),
    *(profile("race400", players=p) for p in (3, 5, 6)),
    profile("race400", players=4, teams=((0, 2), (1, 3))),
    profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5))),
    profile("race400", players=6, teams=((0, 2, 4), (1, 3, 5)), turn_timer=20),
    profile("cardems", teams=None),
    profile("cards4net", jokers=True, bidding="whiz", ten_for_200=True),
    profile("game93", one_hand=True),
    Rules(),
    Rules(players=3, teams=None, target=300),
    Rules(players=6, teams=((0, 3), (1, 4), (2, 5)), spades_break="trump"),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.players}-{r.teams}")
def test_rules_come_back_from_their_json_with_their_teams(rules: Rules) -> None:
    # rules_from_json(rules.to_json()) made race400 in teams solo, and a solo cardems house
    # game partners, without a word: to_json leaves the teams to the record beside it.
    data = json.loads(json.dumps(rules.to_json(teams=True)))
    assert rules_from_json(data) == rules
    if rules.teams is not None:  # (the record's way: teams beside the rules)
        assert rules_from_json(rules.to_json(), rules.teams) == rules


def test_to_json_without_teams_is_as_before() -> None:
    rules = profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5)))
    assert rules.to_json() == {"preset": "race400", "players": 6}
    assert rules.to_json(teams=True) == {"preset": "race400", "players": 6,
                                         "teams": [[0, 3], [1, 4], [2, 5]]}
    assert profile("cardems").to_json(teams=True) == {"preset": "cardems"}
    assert profile("cardems", teams=None).to_json(teams=True) == {"preset": "cardems",
                                                                  "teams": None}


NAMED: list[Rules] = [
    Rules(name="mine"),
    Rules(name="mine", players=3, teams=None, target=300),
    Rules(name="Friday night", players=6, teams=((0, 3), (1, 4), (2, 5)), jokers=True),
    Rules(name="cardems", players=3, teams=None),  # a profile's name, not played by three
]


@pytest.mark.parametrize("rules", NAMED, ids=lambda r: f"{r.name}-{r.players}")
def test_rules_of_no_profile_keep_their_name(rules: Rules) -> None:
    # Rules(name="mine").to_json() wrote {"preset": "custom", ...}: the name was lost, and a
    # record or a stored table came back as "custom".
    data = json.loads(json.dumps(rules.to_json(teams=True)))
    assert data["preset"] == "custom" and data["name"] == rules.name
    back = rules_from_json(data)
    assert back == rules and back.name == rules.name
    if rules.teams is not None:
        assert rules_from_json(rules.to_json(), rules.teams).name == rules.name


def test_a_named_match_keeps_its_name_through_its_record() -> None:
    match = Match(Rules(name="mine", target=200), rng=random.Random(3))
    record = json.loads(json.dumps(match.to_record()))
    assert record["rules"]["name"] == "mine"
    assert replay(record).rules == match.rules


@pytest.mark.parametrize("name", list(PROFILES))
def test_profiles_and_custom_are_written_without_a_name(name: str) -> None:
    assert profile(name).to_json() == {"preset": name}
    assert "name" not in profile(name, target=321).to_json()
    assert "name" not in Rules().to_json() and rules_from_json(Rules().to_json()).name == "custom"
    changed = profile(name).replace(target=777)  # a profile's name, other values
    assert rules_from_json(changed.to_json(teams=True)) == changed


# Rules as records and the server's database held them before rules had a "name".
OLD_RULES = [
    ("cardems", None, Rules(name="cardems", failed_nil_tricks_count=True)),
    ({"preset": "game93", "match": "one-hand"}, None, profile("game93", one_hand=True)),
    ({"preset": "race400", "players": 6, "turn_timer": 20}, None,
     profile("race400", players=6, turn_timer=20)),
    ({"preset": "custom", "players": 4, "spades_break": "trump", "target": 300}, None,
     Rules(spades_break="trump", target=300)),
    ({"preset": "custom", "players": 3, "jokers": False, "nil": True, "blind_nil": False,
      "nil_points": 100, "blind_nil_points": 200, "bidding": "standard", "spades_break": "any",
      "failed_nil_tricks_count": False, "bag_limit": 10, "bag_penalty": 100,
      "bags_reset": False, "small_contract_bonus": 0, "hard_contract_from": None,
      "ten_for_200": False, "target": 500, "match": "target", "turn_timer": None,
      "timeout_penalty_bags": 1, "teams": None}, None, Rules(players=3, teams=None)),
    ({"preset": "cardems", "teams": None}, None, profile("cardems", teams=None)),
]


@pytest.mark.parametrize(("data", "teams", "rules"), OLD_RULES)
def test_old_rules_json_still_reads(data: object, teams: object, rules: Rules) -> None:
    assert rules_from_json(data, teams) == rules


def test_an_old_record_still_replays() -> None:
    record = {"rules": {"preset": "custom", "players": 4, "spades_break": "trump",
                        "target": 300},
              "hands": []}
    assert replay(record).rules == Rules(spades_break="trump", target=300)


@pytest.mark.parametrize(("data", "error"), [
    ({"preset": "cardems", "name": "mine"}, "name: 'mine' is not the preset 'cardems'"),
    ({"preset": "custom", "name": ""}, "name: must be text of 1 to 100 characters"),
    ({"preset": "custom", "name": None}, "name: must be text of 1 to 100 characters"),
    ({"preset": "custom", "name": "x" * 101}, "name: must be text of 1 to 100 characters"),
])
def test_a_bad_name_is_refused(data: object, error: str) -> None:
    with pytest.raises(RulesError, match="^" + re.escape(error)):
        rules_from_json(data)
