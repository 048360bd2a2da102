"""A table is never run by two server processes at once.

Two races could give a table two instances, each telling its own players its own moves:

* a table being made by one process was already stored but not yet leased, and another
  process's take-over found it (unfinished, no owner) and restored it too;
* a process that outlived its lease (stalled longer than it, unaware) went on playing the
  table that another process had taken over.

The lease is now taken before a table is stored, and every write of a table is made under
the fencing number the store gave its instance (``Store.take_game``): a process that takes
a table over raises it, and the store refuses the old instance's writes, which stops it.
These tests make each race happen on purpose, in one process with two hubs (two nodes of a
card room) on a real PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from sqlalchemy import text
from starlette.websockets import WebSocket

from spades.engine import Match, Rules, action_str
from spades.server.app import dispatch
from spades.server.cluster import Cluster, attach
from spades.server.hub import Conn, Hub
from spades.server.protocol import client_message
from spades.server.restore import TABLE_STATUSES
from spades.server.settings import Settings
from spades.server.tables import Table, TableError
from spades.store import ConflictError, FencedError, Store, StoreError
from tests.services import PostgresServer, RedisServer, free_port

OPTIONS = {"cpu": "random", "one_hand": True, "profile": "cardems"}


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


async def _until(cond: Callable[[], bool], timeout: float = 30.0) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.01)


async def _node(db: str, redis_url: str, prefix: str) -> Hub:
    # A long lease: no renewal (and no take-over round) happens by itself during a test;
    # the test makes the lease run out when it wants.
    hub = Hub(Settings(db=db, redis=redis_url, redis_prefix=prefix, lease_seconds=60.0,
                       bot_executor="inline", cpu_delay=0.0))
    attach(hub)
    assert hub.cluster is not None
    hub.cluster.dispatch = dispatch
    await hub.start()
    return hub


def _cl(hub: Hub) -> Cluster:
    assert isinstance(hub.cluster, Cluster)
    return hub.cluster


def _client(hub: Hub, name: str) -> Conn:
    """A client of ``hub`` with no socket: what is sent to it waits in its queue."""
    uid = hub.store.create_user(name, guest=True)
    user = hub.store.user(uid)
    assert user is not None
    conn = Conn(cast(WebSocket, None), user, hub.settings)
    assert hub.cluster is not None
    hub.cluster.register(conn)
    return conn


async def _say(hub: Hub, conn: Conn, msg: dict[str, Any]) -> None:
    """What the server does with a client's message (as its receive loop)."""
    message = client_message.validate_python(msg)
    if not await _cl(hub).route(conn, message, msg):
        await dispatch(hub, conn, message)


async def _ann_at_her_turn(hub: Hub) -> tuple[Conn, Table, int, Match]:
    """Ann (a client of ``hub``) creates and starts a table with CPUs; returns once it is her
    turn: her connection, the table, her seat and the match."""
    ann = _client(hub, "Ann")
    await _say(hub, ann, {"type": "create", "options": OPTIONS})
    table = ann.table
    assert isinstance(table, Table)
    await _say(hub, ann, {"type": "start"})
    seat = table.seat_of_conn(ann)
    m = table.match
    assert m is not None and seat is not None
    await _until(lambda: m.current_player == seat)  # the CPUs have acted
    return ann, table, seat, m


async def _frame(conn: Conn, pred: Callable[[dict[str, Any]], bool],
                 timeout: float = 30.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            text = await conn.queue.get()
            if text is None:
                raise AssertionError("the connection was closed")
            m: dict[str, Any] = json.loads(text)
            if pred(m):
                return m


@pytest.fixture
def room(postgres: PostgresServer, redis_server: RedisServer) -> tuple[str, str, str]:
    return postgres.create_database("fence"), redis_server.url, f"f{free_port()}:"


def test_a_table_being_made_is_not_taken_over_by_another_process(
        room: tuple[str, str, str]) -> None:
    """B looks for tables nobody runs just when A has stored its new table: A holds the
    table's lease already, so B leaves it alone (it used to restore it: two instances)."""
    async def go() -> None:
        a, b = await _node(*room), await _node(*room)
        try:
            stored, resume = threading.Event(), threading.Event()
            create = a.store.create_game

            def slow_create(*args: Any, **kwargs: Any) -> str:
                gid = create(*args, **kwargs)
                stored.set()
                resume.wait(30)
                return gid
            a.store.create_game = slow_create  # type: ignore[method-assign]
            ann = _client(a, "Ann")
            making = asyncio.ensure_future(_say(a, ann, {"type": "create", "options": OPTIONS}))
            assert await asyncio.to_thread(stored.wait, 30)
            ids = await b.db(b.store.game_ids, kind="table", status=TABLE_STATUSES)
            assert len(ids) == 1  # stored, waiting, and A's table not yet in A's memory
            try:
                assert await _cl(b).take_over() == 0
            finally:
                resume.set()
            await making
            assert ids[0] in a.tables and ids[0] not in b.tables
            assert await _cl(b).room.owner(ids[0]) == _cl(a).node
        finally:
            await a.close()
            await b.close()
    run(go())


def test_a_process_that_outlived_its_lease_writes_nothing_and_its_player_moves(
        room: tuple[str, str, str]) -> None:
    """A runs Ann's table; A's lease runs out while A goes on (a stall), B takes the table
    over. A's instance cannot store a move any more and stops; Ann, still connected to A,
    is joined to the table on B and plays on there."""
    async def go() -> None:
        a, b = await _node(*room), await _node(*room)
        try:
            ann, old, seat, m = await _ann_at_her_turn(a)
            count = len(await a.db(a.store.events, old.id))
            while not ann.queue.empty():  # what Ann was told so far
                ann.queue.get_nowait()
            # A stalls past its lease: the key expires (A does not notice yet) and B, its
            # take-over round finding the table without an owner, restores it.
            room_a = _cl(a).room
            await room_a.redis.delete(room_a._key("owner", old.id))
            assert await _cl(b)._take(old.id) == _cl(b).node
            new = b.tables[old.id]
            assert new.fence == old.fence + 1 and new.stored == count
            # A's instance plays Ann's move as if nothing happened: refused, nothing stored.
            with pytest.raises(TableError) as refused:
                await old.act(ann, seat, m.legal_actions()[0], "human")
            assert refused.value.code == "state"
            assert len(await a.db(a.store.events, old.id)) == count
            assert old.id not in a.tables and old.status == "closed"
            # Ann, on A, is joined to the table where it runs now, and plays there.
            snap = await _frame(ann, lambda f: f["type"] == "table")
            assert snap["table"]["id"] == old.id and snap["view"]["seat"] == seat
            assert ann.remote_table == old.id and ann.remote_node == _cl(b).node
            await _say(a, ann, {"type": "act", "action": snap["view"]["legal_actions"][0],
                                "ref": "r1"})
            ack = await _frame(ann, lambda f: f["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            rows = await b.db(b.store.events, old.id)
            assert len(rows) > count and new.stored == len(rows)
            assert await b.db(b.store.fence, old.id) == new.fence
            nm = new.match
            assert nm is not None  # the CPUs have played up to Ann again (or the end)
            await _until(lambda: nm.is_over() or nm.current_player == seat)
        finally:
            await a.close()
            await b.close()
    run(go())


def test_an_act_stored_by_a_process_that_died_before_answering_is_acknowledged(
        room: tuple[str, str, str]) -> None:
    """Bob, a client of B, plays at a table that A runs; A stores his move and dies before
    its acknowledgement leaves (simulated: A's database thread stops right after the
    commit, and A says nothing more). Before, Bob waited for an answer for ever. Now, once
    B has taken the table over, B reads the move in the store and acknowledges it, with
    Bob's ref; the move is there once, and Bob plays on at B."""
    async def go() -> None:
        a, b = await _node(*room), await _node(*room)
        resume, stored = threading.Event(), threading.Event()
        try:
            ann = _client(a, "Ann")
            await _say(a, ann, {"type": "create", "options": OPTIONS})
            table = ann.table
            assert isinstance(table, Table)
            bob = _client(b, "Bob")
            await _say(b, bob, {"type": "join", "table_id": table.id, "ref": "j"})
            await _frame(bob, lambda f: f.get("ref") == "j")  # (forwarded to A)
            await _say(a, ann, {"type": "start"})
            m = table.match
            mine, his = table.seat_of_conn(ann), table.place_of(bob.user_id)
            assert m is not None and mine is not None and his is not None
            while True:  # Ann plays (the CPUs too) until it is Bob's turn
                await _until(lambda: m.current_player in (mine, his))
                if m.current_player == his:
                    break
                await _say(a, ann, {"type": "act",
                                    "action": action_str(m.legal_actions()[0])})
            action = action_str(m.legal_actions()[0])
            await _frame(bob, lambda f: f["type"] == "event" and f["view"] is not None
                         and f["view"]["current_player"] == his)  # (told it is his turn;
            # the events before the start, his own `joined` among them, have no view)
            count = len(await b.db(b.store.events, table.id))
            append_at = a.store.append_at

            def dies_after_storing(game_id: str, seq: int, kind: str, value: Any,
                                   seat: int | None = None, *, fence: int | None = None
                                   ) -> int:
                done = append_at(game_id, seq, kind, value, seat, fence=fence)
                if kind == "act" and seat == his and not resume.is_set():
                    stored.set()
                    resume.wait(60)  # A "dies" here: the move stored, never answered
                return done
            a.store.append_at = dies_after_storing  # type: ignore[method-assign]
            await _say(b, bob, {"type": "act", "action": action, "ref": "kept"})
            assert await asyncio.to_thread(stored.wait, 30)
            room_a = _cl(a).room
            room_a.send = room_a.broadcast = lambda *_a, **_k: None  # type: ignore[method-assign]
            await room_a.redis.delete(room_a._key("owner", table.id))  # its lease runs out
            assert await _cl(b)._take(table.id) == _cl(b).node  # B takes the table over
            ans = await _frame(bob, lambda f: f["type"] in ("ack", "error")
                               and f.get("ref") == "kept")
            assert ans["type"] == "ack", ans
            rows = await b.db(b.store.events, table.id)
            played = [r for r in rows[count:] if r.kind == "act" and r.seat == his]
            assert [action_str(r.value) for r in played] == [action], played  # once
            await _until(lambda: bob.table is b.tables.get(table.id))  # plays on at B
            assert bob.table is not None and bob.table.place_of(bob.user_id) == his
        finally:
            resume.set()
            await a.close()
            await b.close()
    run(go())


def _game(store: Store) -> str:
    return store.create_game("table", Rules(), seats=[{"name": f"P{i}"} for i in range(4)])


def test_the_store_refuses_writes_under_an_old_fencing_number(database: str) -> None:
    store = Store.open(database)
    try:
        gid = _game(store)
        assert store.fence(gid) == 0
        store.append_at(gid, 1, "deal", [1, 2, 3, 4], fence=0)
        assert store.take_game(gid) == 1 and store.fence(gid) == 1
        with pytest.raises(FencedError):
            store.append_at(gid, 2, "act", 5, 0, fence=0)
        with pytest.raises(FencedError):
            store.update_game(gid, status="abandoned", fence=0)
        with pytest.raises(FencedError):
            store.add_chat(gid, {"text": "hi"}, fence=0)
        assert [e.seq for e in store.events(gid)] == [1]
        assert store.game(gid).status == "active" and store.chat(gid, 10) == []
        store.append_at(gid, 2, "act", 5, 0, fence=1)  # the new writer writes
        store.update_game(gid, status="abandoned", fence=1)
        with pytest.raises(ConflictError):  # a taken number is still refused, fenced or not
            store.append_at(gid, 2, "act", 6, 0, fence=1)
        assert [e.seq for e in store.events(gid)] == [1, 2]
    finally:
        store.close()


def test_a_fenced_write_is_stored_with_its_game_touched(database: str) -> None:
    """A fenced insert (on PostgreSQL one statement: the check and the insert) stores the
    row and marks the game used; a taken number writes nothing, the touch included."""
    store = Store.open(database)
    try:
        gid = _game(store)
        fence = store.take_game(gid)
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE games SET updated_at = :t WHERE id = :g"),
                         {"t": datetime(2020, 1, 1, tzinfo=UTC), "g": gid})
        store.append_at(gid, 1, "deal", [1, 2, 3, 4], fence=fence)
        store.add_chat(gid, {"text": "hi"}, fence=fence)
        assert [(e.seq, e.kind, e.seat, e.value) for e in store.events(gid)] == [
            (1, "deal", None, [1, 2, 3, 4])]
        assert store.chat(gid, 10) == [{"text": "hi"}]
        touched = store.game(gid).updated_at
        assert touched.year > 2020
        with pytest.raises(ConflictError):
            store.append_at(gid, 1, "act", 5, 0, fence=fence)
        assert [e.seq for e in store.events(gid)] == [1]
        with pytest.raises(StoreError):
            store.append_at("no-such-game", 1, "act", 5, 0, fence=fence)
    finally:
        store.close()
