"""A table a process brings back for a client who then goes before being seated again
lets its lease go, as a table its last member leaves does.

With several processes (``--redis``), a process brings back a finished table whose process
stopped for its clients that were at it (``Cluster.take_back``), and joins them to it (a
fresh snapshot). That join is made by the process, not asked by the client: a tab closed
meanwhile was joined all the same, after its socket's end had been dealt with, and stayed
at the table for good as a member nobody would ever take off. The table, never empty,
was never let go of: its lease stayed held for as long as the process ran. Real PostgreSQL
and Redis, in one process."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from spades.server.hub import Conn, Hub
from spades.server.janitor import Janitor
from spades.server.tables import Table
from tests.server.netclient import free_port
from tests.server.test_fencing import _cl, _client, _node, run
from tests.server.test_janitor_cluster import _continued_and_ended
from tests.services import PostgresServer, RedisServer


def _socket_ends(hub: Hub, conn: Conn) -> None:
    """What the end of ``conn``'s socket does (``app.ws_endpoint``, its ``finally``)."""
    conn.closed = True
    hub.lobby_subs.discard(conn)
    _cl(hub).unregister(conn)
    if conn.table is not None:
        hub.spawn(conn.table.detach(conn, leaving=False))


def _at_a_stopped_table(b: Hub) -> tuple[Conn, str]:
    """Ann, a client of ``b``, and the finished table (a continued match) she was at, run by a
    process that has stopped since (its lease let go)."""
    ann = _client(b, "Ann")
    tid = _continued_and_ended(b, ann.user_id)
    ann.remote_table, ann.remote_node = tid, "stopped-node"
    return ann, tid


async def _let_go(b: Hub, tid: str) -> None:
    """Wait (30 s at most) until no process of ``b``'s room holds the table's lease."""
    async with asyncio.timeout(30):
        while await _cl(b).room.owner(tid) is not None:
            await asyncio.sleep(0.01)


def test_a_finished_table_brought_back_for_someone_gone_meanwhile_lets_its_lease_go(
        postgres: PostgresServer, redis_server: RedisServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann, a client of B, was at a finished table whose process stopped. B brings it back
    for her; her tab closes while B joins her to it. Before, the join went through after
    her socket's end: her closed connection stayed a member of the table, which the
    janitor's sweeps never let go of (a finished table with nobody at it leaves memory a
    sweep later). Now a closed connection is not joined: the table, with nobody at it,
    leaves memory at the janitor's next sweep, and its lease is let go."""
    room = (postgres.create_database("restored"), redis_server.url, f"r{free_port()}:")

    async def go() -> None:
        b = await _node(*room)
        try:
            ann, tid = _at_a_stopped_table(b)
            joins: list[Any] = []
            join = Table.join

            async def closing_join(table: Table, conn: Any, *args: Any, **kw: Any) -> None:
                if conn is ann:  # her tab closes while B joins her to the table
                    _socket_ends(b, ann)
                try:
                    await join(table, conn, *args, **kw)
                finally:
                    joins.append(conn)

            monkeypatch.setattr(Table, "join", closing_join)
            assert await _cl(b).take_back() == 1
            table = b.tables[tid]
            async with asyncio.timeout(30):
                while ann not in joins:  # (told through Redis: B runs it now)
                    await asyncio.sleep(0.01)
            janitor = Janitor(b)
            for _ in range(2):  # found empty, then let go of a sweep later
                await janitor.sweep()
            # before: still run here, her closed connection at it, and its lease held
            assert tid not in b.tables, table.members
            assert ann.table is None and not table.members
            await _let_go(b, tid)
        finally:
            await b.close()
    run(go())


def test_a_finished_table_brought_back_for_nobody_lets_its_lease_go_a_sweep_later(
        postgres: PostgresServer, redis_server: RedisServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's tab closes just before B brings back the finished table she was at: nobody is
    joined to it. It leaves memory, and its lease is let go, at the janitor's sweep after
    the one that found it empty (others at it may be on their way), as before."""
    room = (postgres.create_database("restored"), redis_server.url, f"s{free_port()}:")

    async def go() -> None:
        b = await _node(*room)
        try:
            ann, tid = _at_a_stopped_table(b)
            restore = b.restore_table

            async def closing_restore(gid: str, finished: bool = False) -> bool:
                _socket_ends(b, ann)  # her tab closes as B brings the table back
                return await restore(gid, finished)

            monkeypatch.setattr(b, "restore_table", closing_restore)
            assert await _cl(b).take_back() == 1
            table = b.tables[tid]
            assert await _cl(b).room.owner(tid) == _cl(b).node
            janitor = Janitor(b)
            await janitor.sweep()
            assert b.tables.get(tid) is table  # (a sweep's time for whoever is on the way)
            await janitor.sweep()
            assert tid not in b.tables and not table.members
            await _let_go(b, tid)
        finally:
            await b.close()
    run(go())
