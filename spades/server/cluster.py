"""Several ``spades serve`` processes as one card room (``--redis URL``).

Every table is run by one node, the holder of its lease (:mod:`spades.server.room`). A
client may be connected to any node:

* its messages about a table run elsewhere are *forwarded* to the node that runs it, where a
  :class:`RemoteConn` stands for the client and goes through the ordinary ``dispatch`` —
  the same checks, the same store-before-acknowledge, the same per-seat frames;
* what that node sends the stand-in (events, acknowledgements, errors, snapshots) travels
  back through Redis to the client's node, which writes it to the socket, in order;
* when a node dies its leases expire, another node claims the tables and restores them from
  the database (:meth:`Cluster.take_over`), then says so to every node, and the clients
  still connected elsewhere are joined to the new owner, which sends them a fresh snapshot;
  turn timers and CPU players resume there;
* a table is never run by two nodes: a new table's lease is taken before it is stored, and
  a node that takes a table over raises its fencing number in the store, which then refuses
  every write of the instance it replaced; that instance stops where it is
  (:meth:`spades.server.hub.Hub.lost_table`) and its clients join the new owner, and frames
  still on their way from it are not shown to clients that have moved on.

The lobby is a mirror kept by every node from the owners' announcements, so each node's
lobby is the same and is served without asking Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from spades.engine import SpadesError, parse_action
from spades.server import frames
from spades.server.hub import SIGNED_OUT, ForwardedAct
from spades.server.protocol import client_message, echo_ref
from spades.server.room import Room, SharedLogins
from spades.server.tables import Table, TableError
from spades.server.text import TextError
from spades.store import StoreError, upkeep

if TYPE_CHECKING:
    from spades.server.hub import Conn, Dispatch, Hub

log = logging.getLogger("spades.server")

#: Messages a node always answers itself (they need no table, or make one here).
LOCAL = frozenset({"ping", "hello", "lobby", "create"})


def _err(code: str, message: str, ref: Any = None) -> str:
    return frames.error(code, message, ref)


#: Unanswered forwarded acts remembered per connection: a client waits for the answer to
#: one move at a time, so more are only answers lost with the Redis link (the oldest go).
ACTING_KEPT = 16

#: How an acknowledgement or an error begins (frames.ack, frames.error).
_ANSWERS = ('{"type":"ack"', '{"type":"error"')


def _answered(conn: Conn, node: str, text: str) -> bool:
    """An ``ack`` or ``error`` from ``node`` for ``conn``: if it answers an act forwarded
    there (by its ref), that act is answered (True)."""
    try:
        ref = json.loads(text).get("ref")
    except ValueError:
        return False
    for i, a in enumerate(conn.acting):
        if a.node == node and echo_ref(a.data.get("ref")) == ref:
            del conn.acting[i]
            return True
    return False


def attach(hub: Hub) -> Cluster:
    """Join ``hub`` to the room of processes its settings name (``redis``): its peers, and
    failed sign-ins counted for the whole room rather than per process."""
    settings = hub.settings
    if not settings.redis:
        raise ValueError("no room to join: the settings name no redis server")
    room = Room(settings.redis, lease_seconds=settings.lease_seconds,
                prefix=settings.redis_prefix)
    cluster = Cluster(hub, room)
    hub.cluster = cluster
    hub.logins = SharedLogins(room, pair_limit=settings.login_failures,
                              account_limit=settings.login_account_failures,
                              address_limit=settings.login_address_failures,
                              window=settings.login_window)
    return cluster


class Cluster:
    """This node's part of the room: forwarding, stand-ins, take-over and the lobby mirror."""

    def __init__(self, hub: Hub, room: Room) -> None:
        self.hub = hub
        self.room = room
        self.node = room.node
        self.dispatch: Dispatch | None = None  # set by the app (it lives there)
        self.local: dict[str, Conn] = {}  # clients connected to this node, by id
        self.stand_ins: dict[tuple[str, str], RemoteConn] = {}
        self.lobby: dict[str, dict[str, Any]] = {}
        self._taking: dict[str, asyncio.Future[str | None]] = {}
        self._watch: asyncio.Task[None] | None = None
        room.on_message = self.on_message
        room.on_lost = self.on_lost
        room.on_relinked = self.relinked

    # Life ---------------------------------------------------------------------------------

    async def start(self, before: Callable[[], Awaitable[Any]] | None = None) -> None:
        """Join the room, then run ``before`` (the janitor's start-up round), then claim
        the tables that no node runs."""
        await self.room.start()
        for row in await self.room.summaries():
            if isinstance(row, dict) and isinstance(row.get("id"), str):
                self.lobby[row["id"]] = row
        if before is not None:
            await before()
        await self.take_over()
        self._watch = asyncio.get_running_loop().create_task(self._watch_loop())

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(BaseException):
                await self._watch
        await self.room.close()

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(self.room.lease_ms / 3000)
            try:
                await self.take_over()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.room.failed("looking for tables without a process", exc)

    async def take_over(self) -> int:
        """Claim and restore every unfinished table that no node runs. Returns how many."""
        hub = self.hub
        from spades.server.restore import TABLE_STATUSES

        ids: list[str] = await hub.db(hub.store.game_ids, kind="table", status=TABLE_STATUSES)
        n = 0
        for gid in ids:
            if gid in hub.tables or gid in self._taking or await self.room.owner(gid) is not None:
                continue
            if await self._take(gid) == self.node:
                n += 1
        return n

    async def abandon_stale(self, before: datetime) -> list[str]:
        """Mark abandoned the unfinished tables untouched since ``before`` that no node
        runs, each under its lease and a new fencing number (as a take-over would): a table
        another node holds is its own business (its janitor ends it when nobody comes), and
        an old instance of an abandoned table, still running somewhere unaware, can write
        nothing more. Returns the ids abandoned."""
        hub = self.hub
        ids: list[str] = await hub.db(upkeep.stale_tables, hub.store, before)
        done: list[str] = []
        for gid in ids:
            if gid in hub.tables or gid in self._taking or not await self.room.claim(gid):
                continue  # run here or by another node
            try:
                fence = await hub.db(hub.store.take_game, gid)
                if await hub.db(upkeep.abandon_stale_table, hub.store, gid, before, fence):
                    done.append(gid)
            finally:  # not abandoned (touched meanwhile): the take-over round restores it
                await self.room.release(gid)
        return done

    async def _take(self, table_id: str) -> str | None:
        """Claim a table nobody runs and restore it here; the node that runs it then (this
        one, another that was quicker, or None if it cannot be restored). One restore at a
        time per table, however many ask."""
        waiting = self._taking.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        done: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._taking[table_id] = done
        result: str | None = None
        try:
            if not await self.room.claim(table_id):
                result = await self.room.owner(table_id)
            elif (table_id in self.hub.tables or await self.hub.restore_table(table_id)) and (
                    table := self.hub.tables.get(table_id)) is not None:
                result = self.node
                log.info("node %s runs table %s (fence %d)", self.node, table_id, table.fence)
                # The fencing number tells the nodes which of two announcements is newer.
                self.room.broadcast({"k": "owner", "table": table_id, "node": self.node,
                                     "fence": table.fence})
            else:
                await self.room.release(table_id)
                result = await self.room.owner(table_id)
        finally:
            del self._taking[table_id]
            done.set_result(result)
        return result

    async def relinked(self) -> None:
        """This node hears the room again after its link to Redis was lost: what was
        published to it meanwhile (frames for its clients, take-overs, lobby changes) is
        gone. So its clients at other nodes' tables join them again (a fresh snapshot, from
        wherever each runs now), joins not answered are sent again, and the lobby is read
        again."""
        try:
            for row in await self.room.summaries():
                if isinstance(row, dict) and isinstance(row.get("id"), str):
                    self._lobby_row(row["id"], row)
            tables: set[str] = set()
            for conn in list(self.local.values()):
                if conn.joining is not None:
                    conn.joining = (conn.joining[0], "", conn.joining[2])  # (sent again)
                    tables.add(conn.joining[0])
                if conn.table is None and conn.remote_table is not None:
                    conn.remote_node = None
                    tables.add(conn.remote_table)
                tables.update(a.table for a in conn.acting)
            for tid in tables:
                owner = await self._owner_of(tid)
                if owner is not None:
                    await self._new_owner(tid, owner)
                else:
                    await self._rejoin(tid)
        except Exception as exc:  # Redis gone again: the listener tries again
            self.room.failed("joining the clients here to their tables again", exc)

    async def on_lost(self, table_id: str) -> None:
        """This node's lease on the table ran out (another node may hold it now): stop
        running it here (even if nobody took it over yet: a table runs only where its lease
        is); its clients are joined to wherever it runs next."""
        table = self.hub.tables.get(table_id)
        if table is not None:
            self.hub.lost_table(table, "its lease was lost")

    def lost_table(self, table: Table, conns: list[Conn]) -> None:
        """The instance ``table`` stopped here (:meth:`Hub.lost_table`). Its lease is let go
        if this node still holds it, then its clients, here and on other nodes, are joined
        to the node that runs the table now (which may be this one again, restoring it
        from the store under a new fencing number)."""
        remote: list[RemoteConn] = []
        for conn in conns:
            if isinstance(conn, RemoteConn):
                if conn.table is table:
                    conn._table = None  # no "at": its node hears "moved" below
                remote.append(conn)
            elif conn.table is table:
                conn.table = None
                conn.remote_table, conn.remote_node = table.id, None
        self.hub.spawn(self._moved(table.id, remote))

    async def _moved(self, table_id: str, remote: list[RemoteConn]) -> None:
        if table_id in self.room.owned:  # ours, but not run here: let whoever can take it
            await self.room.release(table_id)
        for conn in remote:  # after the release: their nodes must not find this one
            self.room.send(conn.node, {"k": "moved", "from": self.node, "c": conn.cid,
                                       "table": table_id})
        await self._rejoin(table_id)

    async def _rejoin(self, table_id: str) -> None:
        """The clients of this node that were at ``table_id`` and do not know where it runs
        now join it there (a fresh snapshot); if it runs nowhere and cannot be restored,
        they are told so."""
        if not any(c.remote_table == table_id and c.remote_node is None
                   for c in self.local.values()):
            return
        owner = await self._owner_of(table_id)
        if owner is not None:
            await self._new_owner(table_id, owner)
            return
        text = _err("not_found", "this table could not be brought back")
        for conn in list(self.local.values()):
            if conn.remote_table == table_id and conn.remote_node is None:
                conn.remote_table = None
                conn.send(text)
                await self.settle_acts(conn, table_id, "")

    # Tables of this node ----------------------------------------------------------------

    async def reserve(self, table_id: str) -> None:
        """Take the lease of a table about to be made here, before it is stored: a node
        that finds it stored finds it run (and does not restore it a second time)."""
        if not await self.room.claim(table_id):
            raise TableError("server", "could not reserve the new table's id")

    async def claimed(self, table: Table) -> bool:
        """A table made or restored here: this node runs it (if it still holds its lease:
        else False), and its invite leads here."""
        if not await self.room.claim(table.id):
            return False
        await self.room.put_invite(table.invite, table.id)
        return True

    def released(self, table: Table) -> None:
        self.hub.spawn(self._release(table))

    async def _release(self, table: Table) -> None:
        await self.room.put_invite(table.invite, None)
        await self.room.release(table.id)

    def lobby_changed(self, table: Table, row: dict[str, Any] | None) -> None:
        self.hub.spawn(self.room.put_summary(table.id, row))
        self.room.broadcast({"k": "lobby", "id": table.id, "row": row})

    def signed_out(self, digest: str) -> None:
        """A session was signed out here: every process closes its sockets of it."""
        self.room.broadcast({"k": "signout", "s": digest})

    # Clients of this node ---------------------------------------------------------------

    def register(self, conn: Conn) -> None:
        self.local[conn.cid] = conn

    def unregister(self, conn: Conn) -> None:
        self.local.pop(conn.cid, None)
        if conn.remote_node is not None:
            self.room.send(conn.remote_node, {"k": "gone", "from": self.node, "c": conn.cid})
        self._stop_waiting(conn)

    def _stop_waiting(self, conn: Conn) -> None:
        """A client replaced at a table of another process, waiting there to be handed its
        seat back, goes (or goes elsewhere): that process forgets its stand-in, which must
        never be handed the seat."""
        if conn.waits is not None and conn.waits[1] not in (self.node, conn.remote_node):
            self.room.send(conn.waits[1], {"k": "gone", "from": self.node, "c": conn.cid})
        conn.waits = None

    async def route(self, conn: Conn, msg: Any, data: dict[str, Any]) -> bool:
        """Forward ``msg`` to the node that runs its table; False: this node answers it."""
        if isinstance(conn, RemoteConn) or msg.type in LOCAL:
            return False
        if msg.type == "join":
            tid = msg.table_id
            if not tid and msg.invite:
                tid = await self.room.invite(msg.invite.strip().upper().replace(" ", ""))
            if not tid or tid in self.hub.tables:
                return False
            owner = await self._owner_of(tid)
            if owner is None or owner == self.node:
                return False  # not a live table (find says so), or it is here now
            if conn.table is None and conn.remote_table == tid and conn.remote_node == owner:
                # at that table there already (a seat a CPU covers while its player was
                # idle, taken back): its stand-in joins again. Leaving first told the
                # table that the player lost the connection, and lost the frames between.
                conn.joining = (tid, owner, data)
                self._forward(conn, owner, data)
                return True
            if conn.table is not None:
                await conn.table.detach(conn, leaving=False)
            self._leave_remote(conn)
            conn.joining = (tid, owner, data)  # until that process answers
            self._forward(conn, owner, data)
            return True
        if conn.table is None and conn.remote_table is not None:
            if conn.remote_node is None:  # between owners: the new one is not known yet
                owner = await self._owner_of(conn.remote_table)
                if owner is None:
                    raise TableError("state", "the table is moving to another server: "
                                     "try again in a moment")
                conn.remote_node = owner
                if owner == self.node:
                    return False
            if msg.type == "rematch" and await self.room.owner(conn.remote_table) is None:
                # A finished table is never taken over: the process that ran it stopped
                # (or died: once its lease ran out), and the match's table with it. Sent
                # there, the rematch would never be answered.
                raise TableError("state", "the server that ran this table has stopped, and "
                                 "the finished match with it: a rematch cannot be made from "
                                 "it; make a new table")
            if msg.type == "act":  # answered by that process, or after a take-over here
                told = conn.told if conn.told is not None and (
                    conn.told[0] == conn.remote_table) else (conn.remote_table, 0, 0)
                conn.acting.append(ForwardedAct(conn.remote_table, conn.remote_node, data,
                                                told[1], told[2]))
                del conn.acting[:-ACTING_KEPT]  # (answers lost in an outage: kept bounded)
            self._forward(conn, conn.remote_node, data)
            return True
        return False

    def leaving_remote(self, conn: Conn) -> None:
        """``conn`` is about to sit at a table of this node."""
        self._leave_remote(conn)

    def _leave_remote(self, conn: Conn) -> None:
        if conn.remote_node is not None:
            self.room.send(conn.remote_node, {"k": "gone", "from": self.node, "c": conn.cid})
        self._stop_waiting(conn)
        conn.remote_table = conn.remote_node = None
        conn.joining = None

    async def _owner_of(self, table_id: str) -> str | None:
        """The node that runs the table, claiming (and restoring) it if none does."""
        if table_id in self._taking:
            return await self._take(table_id)
        owner = await self.room.owner(table_id)
        if owner is not None:
            return owner
        return await self._take(table_id)

    def _forward(self, conn: Conn, node: str, data: dict[str, Any]) -> None:
        self.room.send(node, {"k": "msg", "from": self.node, "c": conn.cid,
                              "u": [conn.user_id, conn.name, conn.guest, conn.address],
                              "m": data})

    # Messages from other nodes ----------------------------------------------------------

    async def on_message(self, d: dict[str, Any]) -> None:
        kind = d.get("k")
        if kind == "frame":
            conn = self.local.get(str(d.get("c")))
            if conn is None:
                return
            text = str(d.get("t"))
            if conn.joining is not None and conn.joining[1] == d.get("from"):
                conn.joining = None  # the process it was sent to answered the join
            answers = bool(conn.acting) and text.startswith(_ANSWERS) and _answered(
                conn, str(d.get("from")), text)
            if self._current(conn, d):
                told = d.get("n")
                if isinstance(told, list) and len(told) == 3:
                    conn.told = (str(told[0]), int(told[1]), int(told[2]))
                conn.send(text)
            elif answers:  # the answer to a move sent there: the client waits for it
                conn.send(text)
        elif kind == "msg":
            self._stand_in(d).inbox.put_nowait(d.get("m"))
        elif kind == "at":
            conn = self.local.get(str(d.get("c")))
            if conn is not None:
                tid = d.get("table")
                conn.remote_table = tid if isinstance(tid, str) else None
                conn.remote_node = str(d["from"]) if conn.remote_table else None
                if conn.remote_table:
                    conn.waits = None  # (handed its seat back, or at another table)
        elif kind == "waits":  # replaced there by another tab: waits to be handed the seat
            conn = self.local.get(str(d.get("c")))
            tid = d.get("table")
            if conn is not None and isinstance(tid, str) and conn.table is None:
                conn.waits = (tid, str(d["from"]))
        elif kind == "close":
            conn = self.local.get(str(d.get("c")))
            if conn is not None and self._current(conn, d):
                conn.close(int(d.get("code") or 1000), str(d.get("reason") or ""))
        elif kind == "moved":  # the node that ran this client's table stopped running it
            conn = self.local.get(str(d.get("c")))
            tid = str(d.get("table"))
            if (conn is not None and conn.table is None and conn.remote_table == tid
                    and conn.remote_node == d.get("from")):
                conn.remote_node = None
                await self._rejoin(tid)
        elif kind == "gone":
            stand_in = self.stand_ins.pop((str(d.get("from")), str(d.get("c"))), None)
            if stand_in is not None:
                stand_in.inbox.put_nowait(None)
        elif kind == "owner":
            tid, node = str(d.get("table")), str(d.get("node"))
            mine = self.hub.tables.get(tid)
            if mine is not None and node != self.node and mine.fence < int(d.get("fence") or 0):
                # Taken over while this node still ran it (its lease ran out unnoticed):
                # the store refuses this instance's writes already; stop it.
                self.hub.lost_table(mine, f"node {node} took it over")
            await self._new_owner(tid, node)
        elif kind == "lobby":
            self._lobby_row(str(d.get("id")), d.get("row"))
        elif kind == "signout":
            self.hub.end_session(str(d.get("s")), SIGNED_OUT)

    @staticmethod
    def _current(conn: Conn, d: dict[str, Any]) -> bool:
        """Is a frame from ``d["from"]`` for this client still? Not once its table runs
        elsewhere: a node that stopped running it may have frames still on their way."""
        sender = d.get("from")
        return sender is None or (conn.table is None and conn.remote_node in (None, sender))

    def _stand_in(self, d: dict[str, Any]) -> RemoteConn:
        key = (str(d.get("from")), str(d.get("c")))
        stand_in = self.stand_ins.get(key)
        if stand_in is None:
            user: list[Any] = list(d.get("u") or (0, "", True))
            uid, name, guest = user[:3]
            stand_in = RemoteConn(self, key[0], key[1], int(uid), str(name), bool(guest))
            if len(user) > 3:  # (a node of an older version sends no address)
                stand_in.address = str(user[3])
            self.stand_ins[key] = stand_in
            stand_in.task = asyncio.get_running_loop().create_task(stand_in.run())
        return stand_in

    async def _new_owner(self, table_id: str, node: str) -> None:
        """A node took a table over: clients here that sat or watched there rejoin it, and
        those waiting there to be handed their seat back (another tab replaced them) ask
        for it again, if no tab holds it (``if_free``): the tabs that the old process kept
        in mind went with it. Acts sent to the old process and not answered are answered
        (:meth:`settle_acts`)."""
        await self._rejoin_new_owner(table_id, node)
        for conn in list(self.local.values()):
            if any(a.table == table_id and a.node != node for a in conn.acting):
                await self.settle_acts(conn, table_id, node)

    async def settle_acts(self, conn: Conn, table_id: str, node: str) -> None:
        """``conn``'s acts at ``table_id`` that were forwarded to a process other than
        ``node`` (which runs the table now) and never answered: that process died with
        them (or stopped running the table). Once the store's fencing number is above the
        one of the instance each was sent to (it was taken over: that instance can store
        nothing more), the store says what became of each: stored (the client's seat
        acted so, numbered above what the client had been told): its ``ack``; not: an
        error saying that the move was not made and to play again. Both with the act's
        ``ref``. Before: the client waited for an answer for ever."""
        mine = [a for a in conn.acting if a.table == table_id and a.node != node]
        if not mine:
            return
        conn.acting = [a for a in conn.acting if a not in mine]  # (answered once)
        hub = self.hub
        try:
            fence = await hub.db(hub.store.fence, table_id)
            ready = [a for a in mine if fence > a.fence]
            rows = []
            seat = None
            if ready:
                game = await hub.db(hub.store.game, table_id)
                seat = next((i for i, p in enumerate(game.seats)
                             if isinstance(p, dict) and p.get("user_id") == conn.user_id),
                            None)
                if seat is not None:
                    rows = await hub.db(hub.store.events, table_id,
                                        min(a.stored for a in ready))
        except StoreError:  # no such game any more: nothing was made
            fence, ready, rows, seat = 0, mine, [], None
        except Exception as exc:
            conn.acting[:0] = mine  # (the next take-over announcement tries again)
            log.warning("could not read what became of %d forwarded moves at table %s: %s",
                        len(mine), table_id, exc)
            return
        conn.acting[:0] = [a for a in mine if a not in ready]  # not fenced off yet
        after = 0
        for a in ready:
            ref = echo_ref(a.data.get("ref"))
            try:
                action = parse_action(str(a.data.get("action")))
            except SpadesError:
                action = None
            found = next((r for r in rows if r.seq > max(a.stored, after) and r.kind == "act"
                          and r.seat == seat and r.value == action), None) if (
                action is not None and seat is not None) else None
            if found is not None:
                after = found.seq
                conn.send(frames.ack(ref))
            else:
                conn.send(_err("state", "your move was not made: the server that ran the "
                               "table stopped before storing it; play again", ref))

    async def _rejoin_new_owner(self, table_id: str, node: str) -> None:
        for conn in list(self.local.values()):
            if conn.joining is not None and conn.joining[0] == table_id:
                await self._join_again(conn, node)
                continue
            if (conn.waits is not None and conn.waits[0] == table_id and conn.table is None
                    and conn.remote_table is None):
                again = {"type": "join", "table_id": table_id, "if_free": True}
                if node != self.node:
                    conn.waits = (table_id, node)
                    self._forward(conn, node, again)
                elif self.dispatch is not None:
                    conn.waits = None
                    with contextlib.suppress(TableError):
                        await self.dispatch(self.hub, conn, client_message.validate_python(again))
                continue
            if conn.remote_table == table_id and conn.remote_node != node and node != self.node:
                conn.remote_node = node
                self._forward(conn, node, {"type": "join", "table_id": table_id})
            elif conn.remote_table == table_id and node == self.node and conn.table is None:
                conn.remote_table = conn.remote_node = None
                if self.dispatch is not None:
                    with contextlib.suppress(TableError):
                        await self.dispatch(self.hub, conn, client_message.validate_python(
                            {"type": "join", "table_id": table_id}))

    async def _join_again(self, conn: Conn, node: str) -> None:
        """A join of ``conn`` was forwarded to the process that ran the table then, which
        has not answered it; now ``node`` runs the table (taken over: the other process
        died, and the join with it). The join goes to ``node``, with its ``ref``, so the
        client is answered (before: it waited for ever)."""
        assert conn.joining is not None
        table_id, sent_to, data = conn.joining
        if node == sent_to:
            return  # (the same process announced again: it has the join)
        if node != self.node:
            conn.joining = (table_id, node, data)
            self._forward(conn, node, data)
            return
        conn.joining = None
        if self.dispatch is None or conn.table is not None:
            return
        try:
            await self.dispatch(self.hub, conn, client_message.validate_python(data))
        except (TableError, ValidationError) as exc:
            ref = echo_ref(data.get("ref"))
            if isinstance(exc, TableError):
                conn.send(_err(exc.code, exc.message, ref))
            else:
                conn.send(_err("bad_message", str(exc).splitlines()[0], ref))

    def _lobby_row(self, table_id: str, row: Any) -> None:
        if isinstance(row, dict):
            self.lobby[table_id] = row
        else:
            self.lobby.pop(table_id, None)
        self.hub.lobby_cache.invalidate()
        if self.hub.lobby_subs:  # told coalesced, its latest state (lobby.LobbyNotices)
            self.hub.lobby_notices.changed(table_id, row if isinstance(row, dict) else None)


class RemoteConn:
    """A client of another node, as the tables of this node see it: what is sent to it
    goes back through Redis to that node; its messages are dispatched here one by one."""

    def __init__(self, cluster: Cluster, node: str, cid: str, user_id: int, name: str,
                 guest: bool) -> None:
        self.cluster = cluster
        self.node = node
        self.cid = cid
        self.user_id = user_id
        self.name = name
        self.guest = guest
        #: the client's address, as the node it is connected to sees it ("": not known),
        #: for the caps per address of this node's tables (``spectators_per_address``)
        self.address = ""
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.queued_bytes = 0
        self.lobby = False
        self.remote_table: str | None = None
        self.remote_node: str | None = None
        self.waits: tuple[str, str] | None = None  # (as a Conn has; a stand-in never waits)
        self.joining: tuple[str, str, dict[str, Any]] | None = None  # (never forwards)
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._table: Table | None = None
        from spades.server.limits import TokenBucket  # the same lobby rate as a local one

        s = cluster.hub.settings
        self.lobby_bucket = TokenBucket(s.lobby_rate, s.lobby_burst)

    @property
    def table(self) -> Table | None:
        return self._table

    @table.setter
    def table(self, table: Table | None) -> None:
        if table is not self._table:
            self._table = table
            self.cluster.room.send(self.node, {"k": "at", "from": self.cluster.node,
                                               "c": self.cid,
                                               "table": None if table is None else table.id})

    def send(self, text: str) -> None:
        if not self.closed:
            out: dict[str, Any] = {"k": "frame", "from": self.cluster.node, "c": self.cid,
                                   "t": text}
            table = self._table
            if table is not None:  # what the client has been told of: its acts come after
                out["n"] = [table.id, table.stored, table.fence]
            self.cluster.room.send(self.node, out)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the client's socket, at its process, with ``code`` and ``reason``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self.cluster.room.send(self.node, {"k": "close", "from": self.cluster.node,
                                               "c": self.cid, "code": code, "reason": reason})

    def drop(self, reason: str) -> None:
        self.close(1008, reason)

    def waits_for(self, table_id: str) -> None:
        """Replaced at ``table_id`` by another tab: its process keeps it in mind
        (:meth:`Cluster._stop_waiting`, :meth:`Cluster._new_owner`)."""
        self.cluster.room.send(self.node, {"k": "waits", "from": self.cluster.node,
                                           "c": self.cid, "table": table_id})

    async def run(self) -> None:
        """Dispatch this client's forwarded messages in the order they came."""
        hub = self.cluster.hub
        while True:
            data = await self.inbox.get()
            if data is None:  # the client went away from its node
                self.closed = True
                table = self._table
                if table is not None:
                    await table.detach(self, leaving=False)
                return
            ref = echo_ref(data.get("ref")) if isinstance(data, dict) else None
            try:
                msg = client_message.validate_python(data)
                assert self.cluster.dispatch is not None
                await self.cluster.dispatch(hub, self, msg)  # type: ignore[arg-type]
            except ValidationError as exc:
                self.send(_err("bad_message", str(exc).splitlines()[0], ref))
            except TableError as exc:
                self.send(_err(exc.code, exc.message, ref))
            except TextError as exc:
                self.send(_err("bad_message", str(exc), ref))
            except Exception:
                log.exception("a forwarded message failed")
                self.send(_err("server", "the server could not do that", ref))
