"""A result that cannot be written (another connection holds the lock it needs: SQLite's
write lock, or the game's row on PostgreSQL) is kept and tried again: the table stays where
it can retry from, and ``match_over`` is told once the result is stored (issue 15: "a write
that fails leaves the table in a state it can retry from")."""

from __future__ import annotations

import functools
import sqlite3
import threading
import time
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import Connection, create_engine, event, text
from starlette.testclient import TestClient

from spades.server.hub import Hub
from spades.server.settings import Settings
from tests.server.helpers import Player, hub_of, in_process


def _short_lock_wait(hub: Hub) -> None:
    """The store waits 50 ms (not 30 s) for a lock another connection holds, so the
    failure comes at once; the pool is emptied so every connection has it."""
    engine = hub.store.engine
    sqlite = engine.dialect.name == "sqlite"

    def pragma(dbapi_conn: Any, _record: Any) -> None:
        if sqlite:
            dbapi_conn.execute("PRAGMA busy_timeout = 50")
        else:
            cur = dbapi_conn.cursor()
            cur.execute("SET lock_timeout = '50ms'")
            cur.close()
            dbapi_conn.commit()

    event.listen(engine, "connect", pragma)
    engine.dispose()


class LockHolder:
    """Another connection holding the lock a game's row needs to be written: SQLite's write
    lock (``BEGIN IMMEDIATE``), or on PostgreSQL the row itself (``FOR UPDATE``)."""

    def __init__(self, hub: Hub, game_id: str) -> None:
        db = hub.settings.db
        self.sqlite: sqlite3.Connection | None = None
        self.pg: Connection | None = None
        if hub.store.engine.dialect.name == "sqlite":
            self.sqlite = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
            self.sqlite.execute("BEGIN IMMEDIATE")
        else:
            self.engine = create_engine(db)
            self.pg = self.engine.connect()
            self.pg.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"),
                            {"id": game_id})

    def release(self) -> None:
        if self.sqlite is not None:
            self.sqlite.rollback()
            self.sqlite.close()
        if self.pg is not None:
            self.pg.rollback()
            self.pg.close()
            self.engine.dispose()


def _pong(ref: int, m: dict[str, Any]) -> bool:
    return bool(m["type"] == "pong" and m["ref"] == ref)


class Unstorable:
    """Ann's one-hand match against three CPUs, where another connection takes the lock
    just before the result is written: the write fails for real until :meth:`release`."""

    def __init__(self, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
        self.hub = hub = hub_of(client)
        self.ann = ann = Player(client, "Ann")
        ann.request({"type": "create", "options": {"cpu": "random", "one_hand": True,
                                                   "profile": "game93"}})
        ann.until(lambda m: m["type"] == "table")
        assert ann.table is not None
        self.tid: str = ann.table["id"]
        assert ann.request({"type": "start"})["type"] == "ack"
        _short_lock_wait(hub)
        self.holder: list[LockHolder] = []
        self.failed = threading.Event()
        self.tries: list[str] = []
        real = hub.store.finish_game

        def locked_then_real(*a: Any, **k: Any) -> Any:
            if not self.holder:
                self.holder.append(LockHolder(hub, self.tid))
            try:
                got = real(*a, **k)
            except Exception as exc:
                self.tries.append(str(exc))
                self.failed.set()
                raise
            self.tries.append("stored")
            return got

        monkeypatch.setattr(hub.store, "finish_game", locked_then_real)
        self.deadline = time.monotonic() + 60

    def play_to_the_end(self, caplog: pytest.LogCaptureFixture) -> None:
        """Ann plays until the match is over; then the write has failed and been logged."""
        ann = self.ann
        while not (ann.view is not None and ann.view["phase"] == "over"):
            assert time.monotonic() < self.deadline, "the hand did not end"
            if ann.my_turn():
                assert ann.view is not None
                ans = ann.request({"type": "act", "action": ann.view["legal_actions"][0]})
                assert ans["type"] == "ack", ans  # the last action is accepted and kept
            else:
                ann.recv()
        assert self.failed.wait(30), "the result was never written"
        while not any("result could not be stored" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < self.deadline, "the failed write was not logged"
            time.sleep(0.01)  # the log line comes from the server's thread
        assert "lock" in self.tries[0], self.tries

    def match_over(self) -> list[dict[str, Any]]:
        return [m for m in self.ann.frames if m["type"] == "event"
                and m["table_id"] == self.tid and m["event"]["kind"] == "match_over"]

    def release(self) -> None:
        self.holder[0].release()


def test_a_result_that_cannot_be_stored_is_tried_again_and_told_once(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    game = Unstorable(client, monkeypatch)
    hub, ann, tid = game.hub, game.ann, game.tid
    pings = 0
    with caplog.at_level("ERROR", logger="spades.server"):
        game.play_to_the_end(caplog)
        row = hub.store.game(tid)
        assert row.status == "active"  # as stored: a restart would finish it too
        assert len(hub.store.events(tid)) == hub.tables[tid].stored  # nothing lost
        assert not game.match_over()  # not told before it is stored
        assert hub.tables[tid].status == "active"
        game.release()  # let go of the lock: the next try succeeds
        while not game.match_over():  # bounded: the first retry comes after 0.5 s
            assert time.monotonic() < game.deadline, f"no match_over: {game.tries}"
            pings += 1
            ann.send({"type": "ping", "ref": pings})
            ann.until(functools.partial(_pong, pings))
            time.sleep(0.05)  # a polling interval
    assert game.tries[-1] == "stored" and game.tries.count("stored") == 1
    assert len(game.match_over()) == 1
    assert hub.store.game(tid).status == "finished"
    me = ann.welcome["user"]["id"]
    stats = client.get(f"/api/users/{me}/stats").json()["stats"]
    assert stats["total"]["matches_played"] == 1  # counted once


def test_the_janitor_does_not_throw_away_a_result_being_written(
        settings: Settings, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Nobody connected for longer than ``abandon_minutes`` while the result cannot be
    written: the table is not abandoned (its result would be lost), it stays and finishes."""
    quiet = replace(settings, sweep_seconds=3600, prune_minutes=0, abandon_minutes=30)
    with in_process(quiet) as client:
        janitor = client.app.state.janitor  # type: ignore[attr-defined]
        now = [1000.0]
        janitor.clock = lambda: now[0]
        game = Unstorable(client, monkeypatch)
        hub, tid = game.hub, game.tid
        with caplog.at_level("ERROR", logger="spades.server"):
            game.play_to_the_end(caplog)
        game.ann.close()
        while hub.tables[tid].any_human_connected():
            assert time.monotonic() < game.deadline, "Ann's socket did not close"
            time.sleep(0.01)
        assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
        now[0] += 31 * 60
        assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
        assert tid in hub.tables and hub.tables[tid].status == "active"
        game.release()
        while hub.store.game(tid).status != "finished":  # the retries go on
            assert time.monotonic() < game.deadline, f"never stored: {game.tries}"
            time.sleep(0.05)  # a polling interval
        assert game.tries.count("stored") == 1
