"""Moves per client address (hostile-guest trial, 2026-12-07, medium): nothing limited how
fast one address's players made moves. One address seated its own guests at 16 tables with
no CPUs and made about 295 moves a second, the whole server's measured capacity, each stored
on the database thread that every table's moves use; everyone else's moves waited. Now an
address makes at most ``move_address_rate`` moves a second (bursts of
``move_address_burst``), all its players together; a move past it is refused, saying so,
and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient

from tests.server.helpers import Player
from tests.server.test_tables import new_table, started


def _my_turn(p: Player) -> dict[str, Any]:
    while not p.my_turn():
        p.recv()
    assert p.view is not None
    return p.view


def test_an_addresss_moves_are_refused_past_its_rate(make: Callable[..., TestClient]) -> None:
    client = make(move_address_rate=0.001, move_address_burst=3)
    ann, bob = Player(client, "Ann"), Player(client, "Bob")  # two guests, one address
    new_table(ann, {"profile": "cardems", "one_hand": True})
    new_table(bob, {"profile": "cardems", "one_hand": True})
    started(ann)
    started(bob)
    made = 0
    for p in (ann, bob, ann):  # three moves, of both players together
        view = _my_turn(p)
        assert p.request({"type": "act", "action": view["legal_actions"][0]})["type"] == "ack"
        made += 1
    view = _my_turn(bob)
    before = bob.seq
    ans = bob.request({"type": "act", "action": view["legal_actions"][0]})
    assert ans["type"] == "error" and ans["code"] == "rate_limit", ans
    assert ans["message"].startswith("your address may make at most 0.001 moves a second, all "
                                     "its players together: try again in "), ans["message"]
    # nothing changed: still Bob's turn, no event sent
    assert bob.seq == before and bob.my_turn()
    assert made == 3
    ann.close()
    bob.close()
