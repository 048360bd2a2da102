"""Hostile clients against the HTTP side: headers on every answer, a database that fails,
private tables read by strangers."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from tests.server.helpers import Player, hub_of


def test_every_http_answer_carries_the_security_headers(client: TestClient) -> None:
    answers = [client.get("/api/health"), client.get("/api/nowhere"),
               client.post("/api/guest", json={"name": ""}), client.get("/api/me"),
               client.get("/api/openapi.json")]
    for r in answers:
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], r.url
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert "cdn.jsdelivr.net" in client.get("/api/docs").headers["content-security-policy"]


# A database that fails -----------------------------------------------------------------

def _locked() -> OperationalError:
    return OperationalError("INSERT ...", {}, Exception("database is locked"))


def test_http_routes_answer_503_when_the_database_fails(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_a: Any, **_k: Any) -> Any:
        raise _locked()

    monkeypatch.setattr(hub_of(client).store, "account", broken)
    with caplog.at_level("ERROR", logger="spades.server"):
        r = client.post("/api/guest", json={"name": "Ann"})
    assert r.status_code == 503 and "database" in r.json()["detail"]
    assert any("database error" in rec.getMessage() for rec in caplog.records)


def test_http_routes_use_the_database_thread(client: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    store = hub_of(client).store
    where: list[tuple[str, str]] = []
    for name in ("account", "create_user", "user", "create_session", "session_user",
                 "session", "delete_session", "list_games", "user_stats", "load_match"):
        real = getattr(store, name)

        def spy(*a: Any, _real: Any = real, _name: str = name, **k: Any) -> Any:
            where.append((_name, threading.current_thread().name))
            return _real(*a, **k)

        monkeypatch.setattr(store, name, spy)
    token = client.post("/api/guest", json={"name": "Ann"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    me = client.get("/api/me", headers=auth).json()["id"]
    assert client.post("/api/register", json={"name": "Bea", "password": "long enough"}
                       ).status_code == 200
    assert client.post("/api/login", json={"name": "Bea", "password": "long enough"}
                       ).status_code == 200
    client.get(f"/api/users/{me}/history", headers=auth)
    client.get(f"/api/users/{me}/stats")
    client.post("/api/logout", headers=auth)
    off = [(n, t) for n, t in where if not t.startswith("db")]
    assert not off, off  # before: register, login, me, history... ran on the event loop
    assert {n for n, _ in where} >= {"account", "create_user", "session_user", "list_games"}


def test_a_failed_write_on_the_socket_is_an_error_frame_not_a_silent_close(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = Player(client, "Ann")
    ann.request({"type": "create", "options": {"cpu": "random"}})
    ann.until(lambda m: m["type"] == "table")
    store = hub_of(client).store
    real = store.update_game

    def broken(*_a: Any, **_k: Any) -> Any:
        raise _locked()

    monkeypatch.setattr(store, "update_game", broken)
    err = ann.request({"type": "add_cpu"})
    assert err["type"] == "error" and err["code"] == "unavailable", err
    monkeypatch.setattr(store, "update_game", real)
    assert ann.request({"type": "add_cpu"})["type"] == "ack"  # the same socket carries on


def test_a_deal_that_cannot_be_stored_is_tried_again(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = Player(client, "Ann")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "game93"}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    store = hub_of(client).store
    real = store.append_at
    failed: list[int] = []

    def flaky(gid: str, seq: int, kind: str, value: Any, seat: int | None = None,
              **kw: Any) -> int:
        if kind == "deal" and not failed:
            failed.append(seq)
            raise _locked()
        return real(gid, seq, kind, value, seat, **kw)

    monkeypatch.setattr(store, "append_at", flaky)

    def second_deal() -> bool:
        return any(m["type"] == "event" and m["event"]["kind"] == "deal"
                   and m["event"]["hand"] == 2 for m in ann.frames)

    deadline = time.monotonic() + 30
    n = 0
    while not second_deal() and time.monotonic() < deadline:
        if ann.my_turn():
            assert ann.view is not None
            assert ann.request({"type": "act", "action": ann.view["legal_actions"][0]}
                               )["type"] == "ack"
            continue
        n += 1  # nothing to do: ask, so the wait is bounded by the deadline
        ann.send({"type": "ping", "ref": n})
        ann.until(lambda m, n=n: m["type"] == "pong" and m["ref"] == n)
        time.sleep(0.05)  # a polling interval (the retry comes after 0.5 s)
    assert failed, "the deal was never tried"
    assert second_deal(), "the table stayed between hands after a failed write"


# Ids out of the database's range ----------------------------------------------------------

@pytest.mark.parametrize("user_id", ["9223372036854775808", "-9223372036854775809",
                                     "1" + "0" * 39])
@pytest.mark.parametrize("what", ["stats", "history"])
def test_a_user_id_past_64_bits_is_no_such_user_not_a_500(client: TestClient, user_id: str,
                                                          what: str) -> None:
    r = client.get(f"/api/users/{user_id}/{what}")
    # before: 500, OverflowError: Python int too large to convert to SQLite INTEGER
    assert r.status_code == 404, (r.status_code, r.text)
    assert r.json()["detail"] == "no such user"
    assert client.get(f"/api/users/9223372036854775807/{what}").status_code == 404


# A Content-Length that is not a number ----------------------------------------------------

@pytest.mark.parametrize("declared", ["abc", "1e3", "0x10"])
def test_a_record_upload_with_a_malformed_length_is_a_400_not_a_500(
        client: TestClient, declared: str) -> None:
    # uvicorn's parser refuses such a request itself (400), but the app is an ASGI app any
    # server may run: the record route read the header with int() and answered 500.
    token = client.post("/api/guest", json={"name": "Len"}).json()["token"]
    r = client.post("/api/records", content=b'{"record": {}}',
                    headers={"Authorization": f"Bearer {token}", "Content-Length": declared,
                             "Content-Type": "application/json"})
    assert r.status_code == 400, (r.status_code, r.text)
    assert "Content-Length" in r.json()["detail"] and declared in r.json()["detail"]
