"""Every kind of table: each profile, each player count and kind of sides, and the house
variants, as (profile, rule knobs) for tests that run something under all of them."""

from __future__ import annotations

from typing import Any

EVERY_TABLE: list[tuple[str, dict[str, Any]]] = [
    ("cardems", {}),
    ("cardgames-club", {}),
    ("game93", {}),
    ("cards4net", {}),
    ("cards4net", {"jokers": True}),
    ("cards4net", {"bidding": "mirror", "blind_nil": False}),
    ("cards4net", {"bidding": "suicide"}),
    ("cards4net", {"bidding": "whiz"}),
    ("race400", {"players": 3}),
    ("race400", {"players": 4}),
    ("race400", {"players": 4, "teams": [[0, 2], [1, 3]]}),
    ("race400", {"players": 5}),
    ("race400", {"players": 6}),
    ("race400", {"players": 6, "teams": [[0, 2, 4], [1, 3, 5]]}),
    ("race400", {"players": 6, "teams": [[0, 3], [1, 4], [2, 5]]}),
]

#: Test ids for :data:`EVERY_TABLE`: the profile, then each knob as ``-name=value``.
EVERY_TABLE_IDS = [name + "".join(f"-{k}={v}" for k, v in knobs.items())
                   for name, knobs in EVERY_TABLE]
