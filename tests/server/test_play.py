from __future__ import annotations

import logging

import pytest
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


def test_a_cpu_that_fails_to_decide_is_logged_with_its_error(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A failed CPU decision still plays (the first legal action, so the table goes on), and
    the server logs an error with the exception: never silently."""
    from spades.server import cpu

    def broken(spec: str, seed: int, obs: object) -> int:
        raise RuntimeError("the bot broke")

    monkeypatch.setattr(cpu, "bot_act", broken)

    def failures() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "failed to decide" in r.getMessage()]

    def a_cpu_has_bid() -> bool:
        view = ann.view
        return view is not None and any(
            b is not None for s, b in enumerate(view["bids"]) if s != view["seat"])

    ann = Player(client, "Ann")
    with caplog.at_level("ERROR", logger="spades.server"):
        ack = ann.request({"type": "create", "cpus": True,
                           "options": {"profile": "game93", "one_hand": True, "cpu": "random"}})
        assert ack["type"] == "ack", ack
        for _ in range(500):  # until a CPU has bid (its fallback); Ann bids on her turns
            if a_cpu_has_bid():
                break
            if ann.my_turn():
                assert ann.view is not None
                act = {"type": "act", "action": ann.view["legal_actions"][0]}
                assert ann.request(act)["type"] == "ack"
            else:
                ann.recv()
    assert a_cpu_has_bid()  # the table went on
    assert failures()
    exc_info = failures()[0].exc_info
    assert exc_info is not None and "the bot broke" in str(exc_info[1])
