"""Rules as the server's database holds them (``games.rules``: ``Rules.to_json()`` plus
``teams``): rows written before rules had a ``"name"`` still read, and named rules come back
with their name."""

from __future__ import annotations

import pytest

from spades.engine import Rules, profile
from spades.store import _rules_from_db, _rules_to_db


@pytest.mark.parametrize(("stored", "rules"), [
    ({"preset": "cardems", "teams": [[0, 2], [1, 3]]}, profile("cardems")),
    ({"preset": "race400", "players": 3, "teams": None}, profile("race400", players=3)),
    ({"preset": "cards4net", "target": 300, "bidding": "mirror", "teams": [[0, 2], [1, 3]]},
     profile("cards4net", target=300, bidding="mirror")),
    ({"preset": "custom", "players": 4, "spades_break": "trump", "target": 300,
      "teams": [[0, 2], [1, 3]]}, Rules(spades_break="trump", target=300)),
])
def test_rules_stored_before_names_still_read(stored: dict[str, object], rules: Rules) -> None:
    assert _rules_from_db(stored) == rules


@pytest.mark.parametrize("rules", [Rules(name="mine", target=250), profile("game93"),
                                   Rules(name="trio", players=3, teams=None)])
def test_rules_come_back_from_the_database_with_their_name(rules: Rules) -> None:
    back = _rules_from_db(_rules_to_db(rules))
    assert back == rules and back.name == rules.name
