from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import Player, play_to_end


def test_two_humans_two_cpus_play_a_whole_match(client: TestClient) -> None:
    ann = Player(client, "Ann")
    bob = Player(client, "Bob")
    ack = ann.request({"type": "create", "options": {"profile": "game93", "one_hand": True,
                                                      "cpu": "random"}})
    assert ack["type"] == "ack", ack
    ann.until(lambda m: m["type"] == "table")
    table_id = ann.table["id"]  # type: ignore[index]
    assert bob.request({"type": "join", "table_id": table_id})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    last = play_to_end([ann, bob])
    assert last["event"]["kind"] == "match_over"
    assert ann.table is not None and ann.table["status"] == "finished"
    rec = client.get(f"/api/games/{table_id}/record")
    assert rec.status_code == 200 and rec.json()["format"] == "spades-record/1"
    uid = ann.welcome["user"]["id"]
    stats = client.get(f"/api/users/{uid}/stats").json()["stats"]
    assert stats["total"]["matches_played"] == 1
