"""A finished table that only spectators are at (its players gone) leaves memory after
``watch_finished_minutes``; its spectators still get its end (their ``resync`` and ``sheet``
answered with its last snapshot and sheet).

Before: a finished table stayed in memory for as long as anyone watched it (it left only when
its last member or spectator went): one spectator a table held a whole finished table (its
match, chat, sheet) each, bounded only by the connections an address may open."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.server.helpers import Player, hub_of, in_process, limited, play_to_end, wait_until
from tests.server.netclient import NetPlayer, card_room, step
from tests.services import PostgresServer, RedisServer


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with in_process(limited(tmp_path, sweep_seconds=3600, watch_finished_minutes=10)) as c:
        yield c


def _finished_watched(client: TestClient) -> tuple[Player, Player, str]:
    """Ann plays a hand against CPUs to its end, Eve watching: (Ann, Eve, the table)."""
    ann = Player(client, "Ann")
    assert ann.request({"type": "create", "cpus": True,
                        "options": {"one_hand": True, "cpu": "random"}})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid: str = ann.table["id"]
    eve = Player(client, "Eve")
    assert eve.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    eve.until(lambda m: m["type"] == "table")
    play_to_end([ann])
    eve.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over")
    return ann, eve, tid


def test_a_finished_table_only_spectators_watch_leaves_memory(client: TestClient) -> None:
    hub = hub_of(client)
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    now = [1000.0]
    janitor.clock = lambda: now[0]
    ann, eve, tid = _finished_watched(client)
    wait_until(lambda: hub.tables[tid].status == "finished", "the table to finish")
    eve.send({"type": "sheet"})
    sheet_then = eve.until(lambda m: m["type"] == "sheet")
    assert ann.request({"type": "leave"})["type"] == "ack"
    wait_until(lambda: not hub.tables[tid].members, "Ann to leave")
    assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
    now[0] += 9 * 60
    client.portal.call(janitor.sweep)  # type: ignore[union-attr]
    assert tid in hub.tables  # (watched for less than 10 minutes)
    table = weakref.ref(hub.tables[tid])
    now[0] += 2 * 60
    client.portal.call(janitor.sweep)  # type: ignore[union-attr]
    assert tid not in hub.tables  # before: kept while Eve watched
    # nothing holds it any more (a task of the server's may still be finishing)
    wait_until(lambda: gc.collect() >= 0 and table() is None, "the table to be collected")
    # Eve still sees its end: the last snapshot and the sheet
    eve.send({"type": "resync", "ref": "r"})
    snap = eve.until(lambda m: m["type"] == "table")
    assert snap["ref"] == "r"
    assert snap["table"]["status"] == "finished" and snap["you"]["role"] == "spectator"
    assert snap["view"]["phase"] == "over" and len(snap["view"]["results"]) == 1
    assert snap["table"]["invite"] is None
    eve.send({"type": "sheet", "ref": "s"})
    sheet = eve.until(lambda m: m["type"] == "sheet")
    assert sheet["ref"] == "s"
    assert {k: v for k, v in sheet.items() if k != "ref"} == {
        k: v for k, v in sheet_then.items() if k != "ref"}
    # chat has nobody to go to; leave is fine
    answer = eve.request({"type": "chat", "text": "hello?"})
    assert answer["type"] == "error" and "has closed" in answer["message"], answer
    assert eve.request({"type": "leave"})["type"] == "ack"
    answer = eve.request({"type": "sheet"})
    assert answer["type"] == "error" and "not at a table" in answer["message"], answer


def test_a_finished_table_a_player_is_still_at_stays(client: TestClient) -> None:
    """The players' own table stays while one of them is at it (their rematch is asked
    there), however long a spectator watches with them; it goes the minutes after they
    leave."""
    hub = hub_of(client)
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    now = [1000.0]
    janitor.clock = lambda: now[0]
    ann, _eve, tid = _finished_watched(client)
    for _ in range(3):
        client.portal.call(janitor.sweep)  # type: ignore[union-attr]
        now[0] += 30 * 60
    assert tid in hub.tables
    assert ann.request({"type": "leave"})["type"] == "ack"
    client.portal.call(janitor.sweep)  # type: ignore[union-attr]
    assert tid in hub.tables  # (the time counts from when only spectators are left)
    now[0] += 10 * 60
    client.portal.call(janitor.sweep)  # type: ignore[union-attr]
    assert tid not in hub.tables


def test_a_spectator_of_another_process_keeps_the_end(postgres: PostgresServer,
                                                      redis_server: RedisServer) -> None:
    """Eve, connected to process b, watches a table that process a runs: when it leaves a's
    memory her process keeps its last frames (sent with the word that she is at no table
    there), and answers her resync and sheet with them."""
    with card_room(2, postgres, redis_server, "watchend", "--bots", "inline", "--cpu-delay",
                   "0", "--limit", "watch_finished_minutes=0.002",
                   "--limit", "sweep_seconds=0.1") as (a, b):
        ann = NetPlayer(a, "Ann")
        assert ann.request({"type": "create", "cpus": True, "options": {
            "one_hand": True, "cpu": "random"}})["type"] == "ack"
        ann.until(lambda m: m["type"] == "table")
        assert ann.table is not None
        tid = ann.table["id"]
        eve = NetPlayer(b, "Eve")
        assert eve.request({"type": "join", "table_id": tid, "role": "spectator"})[
            "type"] == "ack"
        eve.until(lambda m: m["type"] == "table")
        for _ in range(3000):
            if ann.view is not None and ann.view["phase"] == "over":
                break
            step([ann])
        eve.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over")
        eve.send({"type": "sheet"})
        sheet_then = eve.until(lambda m: m["type"] == "sheet")
        assert ann.request({"type": "leave"})["type"] == "ack"

        def closed() -> bool:
            answer = eve.request({"type": "chat", "text": "still there?"})
            return answer["type"] == "error" and "has closed" in answer["message"]

        wait_until(closed, "the table to leave the memory of process a", every=0.3)
        eve.send({"type": "resync", "ref": "r"})
        snap = eve.until(lambda m: m["type"] == "table")
        assert snap["ref"] == "r" and snap["table"]["id"] == tid
        assert snap["table"]["status"] == "finished" and snap["view"]["phase"] == "over"
        eve.send({"type": "sheet", "ref": "s"})
        sheet = eve.until(lambda m: m["type"] == "sheet")
        assert sheet["ref"] == "s" and sheet["hands"] == sheet_then["hands"]
