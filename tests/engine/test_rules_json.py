"""Rules to JSON and back: ``rules_from_json(rules.to_json(teams=True)) == rules`` for every
profile and house variant, seating included."""

from __future__ import annotations

import json

import pytest

from spades.engine import PROFILES, Rules, profile, rules_from_json

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
