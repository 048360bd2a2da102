"""Someone watching a table not started sits down by the usual join (role player) while a
place is free; a full table (or a match started meanwhile) says why, and that they watch on:
before, it told them to "join as a spectator", which they were."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import Player
from tests.server.test_seats import table_of_three


def test_a_watcher_sits_down_at_the_free_place_and_is_told_why_not_at_a_full_table(
        client: TestClient) -> None:
    ann, _, _ = table_of_three(client)
    tid = ann.table["id"] if ann.table else ""
    dan, eve = Player(client, "Dan"), Player(client, "Eve")
    for p in (dan, eve):
        assert p.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
        p.until(lambda m: m["type"] == "table")
        assert p.you == {"role": "spectator", "seat": None}, p.you
    # Eve, watching, sits down at the free place (place 1)
    assert eve.request({"type": "join", "table_id": tid, "role": "player"})["type"] == "ack"
    eve.until(lambda m: m["type"] == "table")
    assert eve.you == {"role": "player", "seat": 1}, eve.you
    told = ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined"
                     and m["event"]["text"].startswith("Eve"))
    assert told["event"]["text"].startswith("Eve sits down at "), told
    # Dan, watching, finds no place: told why, and that he watches on
    full = dan.request({"type": "join", "table_id": tid, "role": "player"})
    assert full["type"] == "error", full
    assert full["message"] == "the table is full: you go on watching it", full
    # someone not watching is still told they may watch it
    fay = Player(client, "Fay").request({"type": "join", "table_id": tid, "role": "player"})
    assert fay["message"] == "the table is full: join as a spectator", fay

