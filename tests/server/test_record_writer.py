"""An uploaded record is stored by a worker process when CPU players think in processes
(``spades serve``'s default): storing one of 1,600 hands (91,000 rows) is about 1 s of
Python, and on the server's database thread it held the interpreter lock against the event
loop, so every other table waited (hostile-guest trial: a bystander's ping p99 210-300 ms
during such uploads, 6-10 ms otherwise)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from starlette.testclient import TestClient

from spades.engine import Match, profile, replay, to_record
from spades.server.cpu import bot_act
from spades.store import match_events
from tests.server.helpers import (
    ctrl_c,
    finished_record,
    guest,
    hub_of,
    process_family,
    spied,
    wait_until,
)
from tests.server.netclient import Server, free_port


def unfinished(hands: int) -> dict[str, Any]:
    """A record of a match going on, ``hands`` hands scored."""
    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(5))
    while len(m.results) < hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player, past=False)))
    return to_record(m)


def stored_events(client: TestClient, game_id: str) -> list[tuple[str, Any, int | None]]:
    return [(e.kind, e.value, e.seat) for e in hub_of(client).store.events(game_id)]


def test_an_uploaded_record_is_stored_by_a_worker_process(
        make: Callable[..., TestClient]) -> None:
    client = make(bot_executor="process", upload_address_rate=0.0, create_address_rate=0.0,
                  create_rate=0.0)
    hub = hub_of(client)
    assert hub.records.in_worker
    auth = {"Authorization": f"Bearer {guest(client, 'Long')}"}
    going, done = unfinished(12), finished_record(200, 4)
    with spied(hub.store, "save_record") as here:
        up = client.post("/api/records", json={"record": going, "mode": "continue",
                                               "seat": 0, "options": {"cpu": "random"}},
                         headers=auth)
        assert up.status_code == 200, up.text
        kept = client.post("/api/records", json={"record": done}, headers=auth)
        assert kept.status_code == 200, kept.text
    assert here == []  # (before: both stored on this process's database thread)
    table_id, game_id = up.json()["table_id"], kept.json()["game_id"]
    assert stored_events(client, table_id)[:len(match_events(replay(going)))] == \
        match_events(replay(going))
    assert stored_events(client, game_id) == match_events(replay(done))
    assert client.get(f"/api/games/{game_id}/record", headers=auth).json()["hands"] == \
        done["hands"]
    sheet = client.get(f"/api/tables/{table_id}/sheet", headers=auth)  # the table runs
    assert sheet.status_code == 200, sheet.text
    assert len(sheet.json()["hands"]) >= 12


def test_with_bots_in_threads_the_database_thread_stores_it(
        make: Callable[..., TestClient]) -> None:
    client = make(bot_executor="thread", upload_address_rate=0.0)
    hub = hub_of(client)
    assert not hub.records.in_worker
    auth = {"Authorization": f"Bearer {guest(client, 'Here')}"}
    done = finished_record(200, 4)
    with spied(hub.store, "save_record") as here:
        kept = client.post("/api/records", json={"record": done}, headers=auth)
    assert kept.status_code == 200, kept.text
    assert here == [kept.json()["game_id"]]


def _upload(server: Server) -> None:
    token = httpx.post(server.url + "/api/guest", json={"name": "Up"}, timeout=30
                       ).json()["token"]
    kept = httpx.post(server.url + "/api/records", json={"record": finished_record(200, 4)},
                      headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert kept.status_code == 200, kept.text


def test_the_record_worker_ends_with_the_server_even_killed(tmp_path: Path) -> None:
    """Ctrl-C stops it with the server, without a traceback; after a kill -9 of the server
    it ends on its own (no process is left behind)."""
    server = Server(tmp_path / "s.db", free_port()).start()
    try:
        assert server.proc is not None
        _upload(server)
        assert len(process_family(server.proc.pid)) > 1  # the worker (and its tracker)
        ctrl_c(server.proc.pid)
        assert server.proc.wait(60) == 0, server.log()[-2000:]
        assert "Traceback" not in server.log(), server.log()[-3000:]
        server.start()
        assert server.proc is not None
        _upload(server)
        family = process_family(server.proc.pid)[1:]
        assert family
        server.kill()
        wait_until(lambda: not any(Path(f"/proc/{p}").exists() for p in family),
                   "the worker gone after its server was killed", seconds=30)
    finally:
        server.stop()
