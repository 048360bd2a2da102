"""The test harness: ``spades serve`` in a subprocess, and the in-process client."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.server import helpers
from tests.server.helpers import Player
from tests.server.netclient import Server, free_port, to_move


def test_a_server_that_has_logged_much_keeps_answering(tmp_path: Path) -> None:
    """The server's output went to a pipe nobody read: once 64 KiB were logged, its next
    line blocked it, and every later request of the test hung (a CI run stopped at its
    time limit). It goes to a file now."""
    server = Server(tmp_path / "spades.sqlite3", free_port(), "--bots", "inline",
                    "--limit", "http_rate=0", "--log-level", "info").start()
    try:
        # (refused origins are logged at most 10 a minute now: the requests' own lines, at
        # the info level, about 100 bytes each, make the 90 KiB)
        with httpx.Client(timeout=10) as http:
            for i in range(900):
                assert http.get(f"{server.url}/api/health?page={i:04}").status_code == 200
        with pytest.raises(InvalidStatus):  # a refused WebSocket is still answered too
            connect(server.ws_url, origin="https://page.example",  # type: ignore[arg-type]
                    open_timeout=10)
        assert httpx.get(server.url + "/api/health", timeout=10).status_code == 200
        log = server.log()
        assert len(log) > 64 * 1024 and "page=0899" in log, len(log)
    finally:
        server.stop()


def test_a_frame_that_never_comes_fails_the_test_instead_of_holding_it(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process client waited for ever for a frame the server would not send, so a
    lost frame could hold the whole run until CI's time limit; now it fails, saying where."""
    ann = Player(client, "Ann")
    monkeypatch.setattr(helpers, "RECV_SECONDS", 0.5)
    with pytest.raises(AssertionError, match=r"^Ann: no frame came in 0.5 s \(at seq None\)"):
        ann.recv()  # signed in, at no table: the server has nothing more to say
    monkeypatch.undo()  # a busy machine's database may take longer than 0.5 s to answer
    answer = ann.request({"type": "create", "options": {"profile": "cardems"}})
    assert answer["type"] == "ack", answer  # and the connection still works


def test_a_bid_the_server_makes_for_a_person_is_not_the_clients_move() -> None:
    """With one bid left to a person (Nil, no spade under Whiz; Mirror's count), the server
    bids it for them as their turn comes (docs/protocol.md). The test clients sent it too,
    and were refused ("it is not your turn: Bob is to act") when the server's came first:
    test_leak failed so in a CI run (about 1 run in 20 of its Whiz table, here)."""
    turn = {"seat": 2, "current_player": 2, "phase": "bid"}
    assert not to_move({**turn, "legal_actions": ["nil"]})  # the server's to make
    assert not to_move({**turn, "legal_actions": ["4"]})  # (Mirror)
    assert to_move({**turn, "legal_actions": ["blind-nil", "look"]})
    assert to_move({**turn, "legal_actions": ["look"]})  # looking is the person's own
    assert to_move({**turn, "legal_actions": ["nil", "3"]})
    assert to_move({**turn, "phase": "play", "legal_actions": ["AS"]})  # a last card too
    assert not to_move({**turn, "current_player": 1, "legal_actions": ["nil", "3"]})
    assert not to_move(None)
