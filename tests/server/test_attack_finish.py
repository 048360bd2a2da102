"""A result that cannot be written (another connection holds SQLite's write lock) is kept
and tried again: the table stays where it can retry from, and ``match_over`` is told once
the result is stored (issue 15: "a write that fails leaves the table in a state it can retry
from")."""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from starlette.testclient import TestClient

from spades.server.app import create_app
from spades.server.hub import Hub
from spades.server.settings import Settings
from tests.server.helpers import Player, close_all


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db=str(tmp_path / "lock.sqlite3"), bot_executor="inline",
                        cpu_delay=0.0, web_static=str(tmp_path / "noweb"))
    with TestClient(create_app(settings)) as c:
        try:
            yield c
        finally:
            close_all()


def _hub(client: TestClient) -> Hub:
    h: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return h


def _short_busy_timeout(hub: Hub) -> None:
    """The store waits 50 ms (not 30 s) for a lock another connection holds, so the
    failure comes at once; the pool is emptied so every connection has it."""
    engine = hub.store.engine

    def pragma(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute("PRAGMA busy_timeout = 50")

    event.listen(engine, "connect", pragma)
    engine.dispose()


def _pong(ref: int, m: dict[str, Any]) -> bool:
    return bool(m["type"] == "pong" and m["ref"] == ref)


def test_a_result_that_cannot_be_stored_is_tried_again_and_told_once(
        sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    client = sqlite_client
    hub = _hub(client)
    db = hub.settings.db
    ann = Player(client, "Ann")
    ann.request({"type": "create", "options": {"cpu": "random", "one_hand": True,
                                               "profile": "game93"}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    assert ann.request({"type": "start"})["type"] == "ack"
    _short_busy_timeout(hub)

    # Just before the result is written, another connection takes the write lock: the
    # write fails for real ("database is locked") until the test lets go.
    holder: list[sqlite3.Connection] = []
    failed = threading.Event()
    tries: list[str] = []
    real = hub.store.finish_game

    def locked_then_real(*a: Any, **k: Any) -> Any:
        if not holder:
            other = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            holder.append(other)
        try:
            got = real(*a, **k)
        except Exception as exc:
            tries.append(str(exc))
            failed.set()
            raise
        tries.append("stored")
        return got

    monkeypatch.setattr(hub.store, "finish_game", locked_then_real)

    def match_over() -> list[dict[str, Any]]:
        return [m for m in ann.frames if m["type"] == "event" and m["table_id"] == tid
                and m["event"]["kind"] == "match_over"]

    deadline = time.monotonic() + 60
    pings = 0
    with caplog.at_level("ERROR", logger="spades.server"):
        while not (ann.view is not None and ann.view["phase"] == "over"):
            assert time.monotonic() < deadline, "the hand did not end"
            if ann.my_turn():
                assert ann.view is not None
                ans = ann.request({"type": "act", "action": ann.view["legal_actions"][0]})
                assert ans["type"] == "ack", ans  # the last action is accepted and kept
            else:
                ann.recv()
        assert failed.wait(30), "the result was never written"
        while not any("result could not be stored" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "the failed write was not logged"
            time.sleep(0.01)  # the log line comes from the server's thread
        assert "locked" in tries[0], tries
        row = hub.store.game(tid)
        assert row.status == "active"  # as stored: a restart would finish it too
        assert len(hub.store.events(tid)) == hub.tables[tid].stored  # nothing lost
        assert not match_over()  # not told before it is stored
        assert hub.tables[tid].status == "active"
        holder[0].rollback()  # let go of the lock: the next try succeeds
        holder[0].close()
        while not match_over():  # bounded: the first retry comes after 0.5 s
            assert time.monotonic() < deadline, f"no match_over after the lock went: {tries}"
            pings += 1
            ann.send({"type": "ping", "ref": pings})
            ann.until(functools.partial(_pong, pings))
            time.sleep(0.05)  # a polling interval
    assert tries[-1] == "stored" and tries.count("stored") == 1
    assert len(match_over()) == 1
    assert hub.store.game(tid).status == "finished"
    me = ann.welcome["user"]["id"]
    stats = client.get(f"/api/users/{me}/stats").json()["stats"]
    assert stats["total"]["matches_played"] == 1  # counted once
