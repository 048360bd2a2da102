"""Several ``spades serve`` processes as one card room (``--redis URL``).

Every table is run by one node, the holder of its lease (:mod:`spades.server.room`). A
client may be connected to any node:

* its messages about a table run elsewhere are *forwarded* to the node that runs it, where a
  :class:`RemoteConn` stands for the client and goes through the ordinary ``dispatch`` —
  the same checks, the same store-before-acknowledge, the same per-seat frames;
* what that node sends the stand-in (events, acknowledgements, errors, snapshots) travels
  back through Redis to the client's node, which writes it to the socket, in order;
* every ``act`` forwarded gets exactly one answer: it carries a number of the client's
  node, its answer comes back marked with that number (never matched by the client's
  optional ``ref``), and the node that runs the table keeps its last answers to say them
  again when the client's node asks (what Redis publishes while a node is not subscribed
  is lost); a move that never got there is answered from the store;
* when a node dies its leases expire, another node claims the tables and restores them from
  the database (:meth:`Cluster.take_over`), then says so to every node, and the clients
  still connected elsewhere are joined to the new owner, which sends them a fresh snapshot
  (no ``ack``: they did not ask), each as what they were there (a spectator as a spectator,
  let in without a private table's code by a right only the processes carry:
  :class:`spades.server.tables.Rejoin`); turn timers and CPU players resume there; one
  not let in again there (a spectator past a cap) is told so, and its process forgets the
  table for it (:meth:`Cluster.rejoin_refused`); the rematch made of a finished table is
  stored with it (its id, before the new table is made), so the process that brings it
  back leads a rematch asked again to that one, or makes it under that id
  (:meth:`Cluster.lead_to_rematch`);
* a table is never run by two nodes: a new table's lease is taken before it is stored, and
  checked again before it is run (a node that lost it meanwhile, cut off from the others,
  drops the table and leads its owner to the holder: :meth:`Cluster.lead_to_holder`, and
  for a new table of ``create`` :meth:`Cluster.lead_to_table`), and
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
import contextvars
import itertools
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from spades.engine import SpadesError, parse_action
from spades.server import frames
from spades.server.hub import SIGNED_OUT, ForwardedAct
from spades.server.protocol import client_message, echo_ref
from spades.server.room import Room, SharedJoins, SharedLogins, SharedMisses
from spades.server.tables import REJOIN, Ended, Rejoin, Table, TableError
from spades.server.text import TextError
from spades.store import StoreError, one_line, upkeep

if TYPE_CHECKING:
    from spades.server.hub import Conn, Dispatch, Hub

log = logging.getLogger("spades.server")

#: Messages a node always answers itself (they need no table, or make one here).
LOCAL = frozenset({"ping", "hello", "lobby", "create"})


def _err(code: str, message: str, ref: Any = None) -> str:
    return frames.error(code, message, ref)


#: Forwarded acts of one connection waiting for their answer (a client waits for the
#: answer to one move at a time: more are refused, ``error limit``, until some are
#: answered), and answers the process running the table keeps per client of another
#: process, to say again if they are lost on the way (the link to Redis dropped).
ACTING_KEPT = 16

#: Clients of other processes whose answers a process keeps (the least recently heard
#: from are forgotten first; then what became of their acts is read from the store).
ANSWERED_CLIENTS = 4096

#: How an acknowledgement or an error begins (frames.ack, frames.error).
_ANSWERS = ('{"type":"ack"', '{"type":"error"')

#: The refusal of a rematch of a finished table that no process runs and that cannot be
#: brought back from the store (its row is gone, abandoned, set aside, or unreadable).
CANNOT_REMATCH = ("the server that ran this table has stopped, and the finished match "
                  "could not be brought back from the store: a rematch cannot be made from "
                  "it; make a new table")

#: The error for a move that was not made (its process stopped, or it was lost on the way).
NOT_MADE = "your move was not made: {why}; play again"

#: The error for a client whose table moved (taken over: the process that ran it stopped)
#: and who was not let in again where it runs now (a cap on spectators, say): it is no
#: longer at the table, its process forgets it there (:meth:`Cluster.rejoin_refused`).
REJOIN_REFUSED = ("you are no longer at this table: the server that ran it stopped, and the "
                  "one that runs it now did not let you back in ({why}); join it again, or "
                  "choose another table")

#: Messages about a table that change nothing there: their answer is the first frame the
#: stand-in is sent (a snapshot, a sheet, a hint, or an error), and one that the process
#: running the table never answered is sent again to whichever runs it now.
ASKING = frozenset({"resync", "sheet", "hint"})

#: Chat lines of a table read back from the store to tell whether a forwarded one whose
#: process never answered was stored (it looks for the line's ``key``).
CHAT_LOOKED = 500

#: The error for a message about a table (not a move, a chat line, nor one of ``ASKING``)
#: that the process running the table never answered: it cannot be told from the store
#: whether it was done, nor is it safe to do twice.
NOT_DONE = ("your {kind} was not answered: {why}; it may or may not have been done: look "
            "at the table, and send it again if it still needs doing")

#: The error for a chat line that was not said and cannot be sent again.
NOT_SAID = "your chat line was not said: {why}; send it again"


@dataclass(slots=True)
class _Said:
    """What this process answered to one client of another process (by the number that
    process gave each forwarded message), and what it has not answered yet."""

    open: set[int] = field(default_factory=set)
    said: OrderedDict[int, str] = field(default_factory=OrderedDict)


@dataclass(slots=True)
class _Answering:
    """A forwarded message being dispatched by a stand-in: its first ``ack`` or ``error``
    to that stand-in is its answer."""

    conn: RemoteConn
    number: int
    done: bool = False
    any_frame: bool = False  # (one of ASKING: its answer is not an ack)


_ANSWERING: contextvars.ContextVar[_Answering | None] = contextvars.ContextVar(
    "spades_answering", default=None)


def attach(hub: Hub) -> Cluster:
    """Join ``hub`` to the room of processes its settings name (``redis``): its peers, and
    failed sign-ins, joins that miss and joins per address counted for the whole room
    rather than per process."""
    settings = hub.settings
    if not settings.redis:
        raise ValueError("no room to join: the settings name no redis server")
    room = Room(settings.redis, lease_seconds=settings.lease_seconds,
                prefix=settings.redis_prefix, token=settings.room_token)
    cluster = Cluster(hub, room)
    hub.cluster = cluster
    hub.logins = SharedLogins(room, pair_limit=settings.login_failures,
                              account_limit=settings.login_account_failures,
                              address_limit=settings.login_address_failures,
                              window=settings.login_window)
    if settings.join_miss_rate > 0:
        hub.shared_misses = SharedMisses(settings.redis, hub.join_misses,
                                         prefix=settings.redis_prefix)
    if settings.join_address_rate > 0:
        hub.shared_joins = SharedJoins(settings.redis, hub.join_address_buckets,
                                       prefix=settings.redis_prefix)
    return cluster


async def _answered(cluster: Cluster, conn: Conn, data: Any, ref: Any) -> None:
    """``conn``'s message ``data`` through the ordinary ``dispatch`` at this node, any
    refusal answered to ``conn`` with ``ref`` (a failure logged and answered ``server``)."""
    if cluster.dispatch is None:
        return
    try:
        await cluster.dispatch(cluster.hub, conn, client_message.validate_python(data))
    except ValidationError as exc:
        conn.send(_err("bad_message", str(exc).splitlines()[0], ref))
    except TableError as exc:
        conn.send(_err(exc.code, exc.message, ref))
    except TextError as exc:
        conn.send(_err("bad_message", str(exc), ref))
    except Exception:
        log.exception("a forwarded message failed")
        conn.send(_err("server", "the server could not do that", ref))


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
        self._numbers = itertools.count(1)  # of the messages forwarded with an answer awaited
        self._said: OrderedDict[tuple[str, str], _Said] = OrderedDict()
        self._db_failing = False  # the last round of _watch_loop failed on the database
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
            self._ask_again()
            try:
                await self.take_over()
                await self.take_back()
            except asyncio.CancelledError:
                raise
            except (StoreError, SQLAlchemyError) as exc:
                # The database, not Redis: before, said as "lost its link to Redis" (and
                # /api/health said "redis": false) while Redis answered.
                if not self._db_failing:
                    self._db_failing = True
                    reason = one_line(exc)
                    log.error("cannot look for tables without a process: the database does "
                              "not answer (%s); tried again every %.0f s", reason or
                              type(exc).__name__, self.room.lease_ms / 3000)
            except Exception as exc:
                self.room.failed("looking for tables without a process", exc)
            else:
                if self._db_failing:
                    self._db_failing = False
                    log.warning("looking for tables without a process works again: the "
                                "database answers")

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

    async def take_back(self) -> int:
        """The tables that clients of this node were at, run by another node, which no
        node runs any more (its lease ran out: that node stopped or died): each is claimed
        and restored, finished ones too (:meth:`take_over` finds the unfinished ones in the
        store, not these: a finished table is not brought back at a start), and its clients
        are joined to it where it runs now (a fresh snapshot; their moves there that were
        not answered are answered from the store, :meth:`settle_acts`; a rematch asked
        there and not answered is asked again). Before, the clients of a finished table
        whose process died waited for ever: for the answer to the match's last move, or to
        a rematch. One that cannot be brought back is said to them. A table whose process
        is alive (it let the table go as its last client left: this node has not heard so
        yet) is not brought back. Returns how many were brought back (here or by another
        node meanwhile)."""
        sent: dict[str, set[str | None]] = {}  # table: the nodes its clients here know of
        for conn in self.local.values():
            if conn.table is None and conn.remote_table is not None:
                sent.setdefault(conn.remote_table, set()).add(conn.remote_node)
            for a in conn.acting:
                if a.answer is None:
                    sent.setdefault(a.table, set()).add(a.node)
            if conn.rematching is not None:
                sent.setdefault(conn.rematching[0], set()).add(conn.rematching[1] or None)
        for tid in set(sent) & (set(self.hub.tables) | set(self._taking)):
            del sent[tid]
        if not sent:
            return 0
        n = 0
        owners = await self.room.owners(sorted(sent))
        for tid in (t for t, owner in owners.items() if owner is None):
            if None not in sent[tid] and all([await self.room.alive(str(node))
                                              for node in sent[tid]]):
                continue  # it let the table go (nobody left at it): not stopped, nor dead
            owner = await self._take(tid, finished=True)  # (it says so to every node)
            if owner is not None:
                n += 1
                continue
            for conn in self.local.values():  # nowhere: they are told (_rejoin)
                if conn.table is None and conn.remote_table == tid:
                    conn.remote_node = None
                if conn.rematching is not None and conn.rematching[0] == tid:
                    ref = echo_ref(conn.rematching[2].get("ref"))
                    conn.rematching = None
                    conn.send(_err("state", CANNOT_REMATCH, ref))
            await self._rejoin(tid)
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

    async def _take(self, table_id: str, finished: bool = False) -> str | None:
        """Claim a table nobody runs and restore it here; the node that runs it then (this
        one, another that was quicker, or None if it cannot be restored). One restore at a
        time per table, however many ask. ``finished``: a finished table is restored too
        (for clients that were at it: :meth:`take_back`)."""
        waiting = self._taking.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        done: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._taking[table_id] = done
        result: str | None = None
        try:
            if not await self.room.claim(table_id):
                result = await self.room.owner(table_id)
            elif (table_id in self.hub.tables
                  or await self.hub.restore_table(table_id, finished)) and (
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

    async def hold_closed(self, table_id: str) -> bool:
        """Hold the table ``table_id``, which runs nowhere, so that no process brings it
        back (``DELETE /api/games/{id}`` of a continued match that ended, from its check to
        its delete): its lease, taken only if no process holds it (this one neither), and
        here a restore of it waits (:meth:`_take`) until :meth:`let_go`. False: it runs
        here or elsewhere, or is being brought back. Before, the DELETE only asked who
        held the lease, and a process that brought the table back between that and the
        delete (for a client that was at it) ran it with its match deleted under it."""
        if table_id in self.hub.tables or table_id in self._taking:
            return False
        if not await self.room.hold(table_id):
            return False
        if table_id in self.hub.tables or table_id in self._taking:  # (meanwhile, here)
            await self.room.release(table_id)
            return False
        self._taking[table_id] = asyncio.get_running_loop().create_future()
        return True

    async def let_go(self, table_id: str) -> None:
        """Let go of a table held by :meth:`hold_closed`: its lease, and the restores of
        it here that waited, which then find it where it runs (nowhere: deleted)."""
        done = self._taking.pop(table_id, None)
        owner: str | None = None
        try:
            await self.room.release(table_id)  # (else it runs out: renewed no more)
            owner = await self.room.owner(table_id)
        except Exception as exc:
            self.room.failed("letting go of a table held to delete it", exc)
        finally:
            if done is not None and not done.done():
                done.set_result(owner)

    async def relinked(self) -> None:
        """This node hears the room again after its link to Redis was lost: what was
        published to it meanwhile (frames for its clients, take-overs, lobby changes) is
        gone. So its clients at other nodes' tables join them again (a fresh snapshot, from
        wherever each runs now), joins not answered are sent again, the answers to acts
        not answered are asked for again (:meth:`_ask_again`), and the lobby is read
        again."""
        self._ask_again(everything=True)  # (before the joins: answered before the snapshots)
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
            for conn in list(self.local.values()):
                if conn.rematching is not None:  # (asked again of whoever runs it)
                    conn.rematching = (conn.rematching[0], "", *conn.rematching[2:])
                    tables.add(conn.rematching[0])
            for tid in tables:
                owner = await self._owner_of(tid, finished=True)
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
                conn.remote_watching = table.place_of(conn.user_id) is None
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
        owner = await self._owner_of(table_id, finished=True)
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

    async def reserve(self, table_id: str, wait: bool = False) -> None:
        """Take the lease of a table about to be made here, before it is stored: a node
        that finds it stored finds it run (and does not restore it a second time).
        ``wait``: an id decided before (a rematch's, stored with the finished table), whose
        lease the process that decided it may hold still (it died before it made the
        table): waited for, up to twice a lease's time, until it runs out."""
        tries = 21 if wait else 1
        for n in range(tries):
            if await self.room.claim(table_id):
                return
            if n + 1 < tries:
                await asyncio.sleep(self.room.lease_ms / 10000)
        raise TableError("server", "could not reserve the new table's id: try again in a "
                         "moment")

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

    def games_deleted(self, ids: Collection[str]) -> None:
        """Games were deleted here (records kept for review): every process forgets what
        it keeps of them (its answers kept ready), so that none serves a deleted record."""
        self.room.broadcast({"k": "deleted", "ids": list(ids)})

    # Clients of this node ---------------------------------------------------------------

    def register(self, conn: Conn) -> None:
        self.local[conn.cid] = conn

    def unregister(self, conn: Conn) -> None:
        self.local.pop(conn.cid, None)
        if conn.remote_node is not None:  # ("end": its answers need not be kept there)
            self.room.send(conn.remote_node, {"k": "gone", "from": self.node, "c": conn.cid,
                                              "end": True})
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
            # (a finished table is brought back only for a client that was at it)
            owner = await self._owner_of(tid, finished=conn.remote_table == tid)
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
                tid = conn.remote_table
                owner = await self._owner_of(tid, finished=True)
                if owner is None:
                    raise TableError("state", "the table is moving to another server: "
                                     "try again in a moment")
                if conn.table is None and conn.remote_table == tid and conn.remote_node is None:
                    # not joined to it there yet (the new owner has not said so): joined
                    # first, then the message. Before, it went there alone and was refused
                    # (you are not at a table), and the join never followed.
                    await self._new_owner(tid, owner)
                if conn.table is not None or conn.remote_table is None or (
                        conn.remote_node is None or conn.remote_node == self.node):
                    return False  # joined here (or it could not be): answered here
            if msg.type == "rematch":
                return await self._rematch(conn, conn.remote_table, data)
            # Kept until answered, by that process or, if it dies first, after the table
            # is taken over (settle_acts). Before, only acts were: a chat line (or any
            # other message) sent to a process that had just died was lost silently.
            if len(conn.acting) >= ACTING_KEPT:
                if msg.type == "act":
                    raise TableError("limit", f"{len(conn.acting)} of your moves are still "
                                     "waiting for their answer: wait for them, then play")
                raise TableError("limit", f"{len(conn.acting)} of your messages are still "
                                 "waiting for their answer: wait for them, then send this "
                                 "again")
            told = conn.told if conn.told is not None and (
                conn.told[0] == conn.remote_table) else (conn.remote_table, 0, 0)
            number = next(self._numbers)
            conn.acting.append(ForwardedAct(number, conn.remote_table, conn.remote_node,
                                            data, told[1], told[2], first=number))
            self._forward(conn, conn.remote_node, data, number,
                          key=number if msg.type == "chat" else None)
            return True
        return False

    async def _rematch(self, conn: Conn, table_id: str, data: dict[str, Any]) -> bool:
        """A rematch of the finished table ``table_id`` that another process ran. If no
        process runs it any more (it stopped, or died and its lease ran out), it is brought
        back from the store (:meth:`_take`; its clients everywhere join it there), and the
        rematch is made from it as from the table that ran before: the same players,
        places, owner, options and invitations. Before, it was refused (and, before that,
        never answered). Sent to the process that runs it, the rematch is kept until
        answered: if that process died with it, it goes to the one that takes the table
        over (:meth:`_new_owner`). False: made here."""
        if await self.room.owner(table_id) is None:
            owner = await self._owner_of(table_id, finished=True)
            if owner is None:
                raise TableError("state", CANNOT_REMATCH)
            await self._new_owner(table_id, owner)  # its clients here join it there
            if owner == self.node:
                if conn.table is None:
                    raise TableError("state", "you are no longer at this table: join it "
                                     "again to ask for a rematch")
                return False
        node = conn.remote_node
        if conn.table is not None or node is None:
            return False
        number = next(self._numbers)
        conn.rematching = (table_id, node, data, number)
        self._forward(conn, node, data, number)
        return True

    async def lead_to_rematch(self, conn: Conn, old: Table, ref: Any
                              ) -> Literal["led", "unmade", "ended"]:
        """The owner asks again for the rematch of the finished table ``old``, brought back
        here from the store after the process that ran it stopped, which had made that
        rematch (:meth:`Table.keep_rematch`; it runs at another process now, or none yet).
        If it is still waiting or under way, ``conn`` leaves ``old`` and joins it, wherever
        it runs, as the answer to the rematch (with its ``ref``: an ``ack`` and the new
        table's snapshot, or a refusal), as the process that made it would have answered
        (before: a second rematch was made). ``"led"``: so answered; ``"unmade"``: it is
        not in the store (the process that decided its id died before it made the table:
        it is made now, under that id); ``"ended"``: it ended (or is gone), a new one is
        made."""
        made = old.rematched
        if made is None:
            return "ended"
        try:
            row = await self.hub.db(self.hub.store.game, made)
        except StoreError:
            return "unmade"
        if row.status not in ("waiting", "active"):
            return "ended"
        await old.detach(conn, leaving=False)
        await self._join_as_client(conn, made, ref)
        return "led"

    async def lead_to_holder(self, conn: Conn, table_id: str, ref: Any) -> bool:
        """The rematch ``table_id`` that this process was making for ``conn`` is not run
        here: another process holds its lease now (:class:`spades.server.hub.LeaseLost`).
        ``conn`` joins it there, as the answer to its rematch (with its ``ref``: an ``ack``
        and the snapshot, from that process, which answers it once it has made the table:
        :attr:`spades.server.hub.Hub.making`). False: nobody else holds it now."""
        holder = await self.room.owner(table_id)
        if holder is None or holder == self.node:
            return False
        await self._join_as_client(conn, table_id, ref)
        return True

    async def lead_to_table(self, conn: Conn, table_id: str, ref: Any,
                            start: bool = False) -> None:
        """The new table ``table_id`` that this process made for ``conn`` (a ``create``)
        and stored is not run here: this process was cut off (paused, or a slow store)
        before it ran it, its lease ran out, and another process found it stored and
        brought it back (:class:`spades.server.hub.LeaseLost`). ``conn`` joins it wherever
        it runs (run by nobody now: wherever it can be brought back, this process too), as
        the answer to its ``create`` (with its ``ref``: an ``ack`` and the snapshot, at the
        owner's seat, which the stored table keeps for it). ``start``: the create asked to
        start at once (``cpus``): the table is started then, in the owner's name (its
        ``ack`` not shown: the client asked for one answer; a refusal is, without a
        ``ref``)."""
        await self._join_as_client(conn, table_id, ref)
        if not start:
            return
        table = conn.table
        if table is not None and table.id == table_id:  # brought back here
            try:
                await table.start(conn)
            except TableError as exc:
                conn.send(_err(exc.code, exc.message))
            return
        if conn.joining is None or conn.joining[0] != table_id:
            return  # (the join was refused: said)
        node = conn.joining[1]
        data: dict[str, Any] = {"type": "start"}
        number = next(self._numbers)  # (kept until answered, as the client's messages are)
        conn.acting.append(ForwardedAct(number, table_id, node, data, 0, 0, first=number,
                                        quiet=True))
        self._forward(conn, node, data, number)

    async def _join_as_client(self, conn: Conn, table_id: str, ref: Any) -> None:
        """``conn`` joins ``table_id`` wherever it runs, as if the client had sent the join
        (with ``ref``: answered as its rematch was asked)."""
        join: dict[str, Any] = {"type": "join", "table_id": table_id}
        if ref is not None:
            join["ref"] = ref
        if isinstance(conn, RemoteConn):  # its own process sends the join, as the client's
            conn.lead(join)
        else:
            await self.as_client(conn, join)

    async def told_rematch(self, table_id: str, cids: Sequence[str]) -> None:
        """The connections ``cids`` heard of the rematch of the finished table
        ``table_id``: kept in Redis (as long as a finished table is kept), so a process
        that brings the table back after this one stops tells it only to those that did
        not (:meth:`heard_rematch`; a reload is a new connection: told). Not kept (Redis
        not answering): they may hear it twice."""
        if not cids:
            return
        try:
            await self.room.put_told(table_id, list(cids))
        except Exception as exc:
            log.warning("who heard of the rematch of table %s could not be kept: %s",
                        table_id, exc)

    async def heard_rematch(self, table_id: str, cid: str) -> bool:
        """Whether the connection ``cid`` heard of the rematch of ``table_id`` (told here or
        at the process that ran the table before: :meth:`told_rematch`)."""
        try:
            return await self.room.was_told(table_id, cid)
        except Exception as exc:
            log.warning("whether a connection heard of the rematch of table %s could "
                        "not be read: %s", table_id, exc)
            return False

    async def as_client(self, conn: Conn, data: dict[str, Any]) -> None:
        """``data`` as if ``conn``'s client had sent it: forwarded to the process that runs
        its table, or dispatched here; refusals answered (with its ``ref``)."""
        try:
            if await self.route(conn, client_message.validate_python(data), data):
                return
        except TableError as exc:
            conn.send(_err(exc.code, exc.message, echo_ref(data.get("ref"))))
            return
        await self._here(conn, data)

    def leaving_remote(self, conn: Conn) -> None:
        """``conn`` is about to sit at a table of this node."""
        self._leave_remote(conn)

    def _leave_remote(self, conn: Conn) -> None:
        if conn.remote_node is not None:
            self.room.send(conn.remote_node, {"k": "gone", "from": self.node, "c": conn.cid})
        self._stop_waiting(conn)
        conn.remote_table = conn.remote_node = None
        conn.remote_watching = False
        conn.joining = None

    async def _owner_of(self, table_id: str, finished: bool = False) -> str | None:
        """The node that runs the table, claiming (and restoring) it if none does
        (``finished``: a finished table too)."""
        if table_id in self._taking:
            return await self._take(table_id, finished)
        owner = await self.room.owner(table_id)
        if owner is not None:
            return owner
        return await self._take(table_id, finished)

    def _forward(self, conn: Conn, node: str, data: dict[str, Any],
                 number: int | None = None, rejoin: str | None = None,
                 key: int | None = None) -> None:
        """Send ``conn``'s message ``data`` to ``node``; with ``number``, its answer comes
        back marked with it (``a``), and ``node`` keeps it to say again if asked.
        ``rejoin``: ``data`` is a join this process makes on its own for the client, whose
        table moved, as a ``"player"`` or a ``"spectator"`` (let in without the code:
        :class:`spades.server.tables.Rejoin`). It travels beside the client's message
        (``r``), never in it: a client's messages are forwarded as they came, so a client
        cannot claim it (and a field in its message that the protocol does not know is
        refused). ``key``: a chat line's number when first sent (``o``), which the line is
        stored with, to tell whether it was if no answer comes."""
        out: dict[str, Any] = {"k": "msg", "from": self.node, "c": conn.cid,
                               "u": [conn.user_id, conn.name, conn.guest, conn.address,
                                     conn.results_new],
                               "m": data}
        if number is not None:
            out["a"] = number
        if rejoin is not None:
            out["r"] = rejoin
        if key is not None:
            out["o"] = key
        self.room.send(node, out)

    def _ask_again(self, everything: bool = False) -> None:
        """Ask the processes that were sent acts of this node's clients for the answers
        not heard yet: of every such act (``everything``: the link to Redis was lost, so
        they may have been lost with it), or of those that waited a whole round of the
        watch loop already (lost on a path this node cannot see fail: the other process's
        link, or the other process dropped the act because it could not hear it). Each
        is answered once: said again from what that process kept, or, if it never got the
        act (or forgot it), from the store (:meth:`_settle`)."""
        for conn in list(self.local.values()):
            asked: dict[str, list[int]] = {}
            for a in conn.acting:
                a.rounds += 1
                if a.answer is None and (everything or a.rounds >= 2):
                    asked.setdefault(a.node, []).append(a.id)
            for node, numbers in asked.items():
                self.room.send(node, {"k": "ask", "from": self.node, "c": conn.cid,
                                      "a": numbers})

    def _quiet(self, conn: Conn) -> int:
        """A number for a join this node sends for ``conn`` on its own: its ack is not
        shown to the client, which did not ask for it (the snapshot after it is)."""
        number = next(self._numbers)
        conn.quiet.append(number)
        del conn.quiet[:-ACTING_KEPT]
        return number

    # Answers kept for clients of other nodes --------------------------------------------

    def _said_to(self, key: tuple[str, str], make: bool = True) -> _Said | None:
        said = self._said.get(key)
        if said is None and make:
            said = self._said[key] = _Said()
            if len(self._said) > ANSWERED_CLIENTS:  # the least recently heard, not waiting
                old = next((k for k, v in self._said.items() if not v.open), None)
                if old is not None:
                    del self._said[old]
        elif said is not None:
            self._said.move_to_end(key)
        return said

    def answered(self, node: str, cid: str, number: int, text: str) -> None:
        """A stand-in's answer to the forwarded message ``number``: kept, to say again."""
        said = self._said_to((node, cid))
        assert said is not None
        said.open.discard(number)
        said.said[number] = text
        while len(said.said) > ACTING_KEPT:
            said.said.popitem(last=False)

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
            number = d.get("a")
            act = None  # the move it answers: the client waits for it
            if type(number) is int:  # an answer, to exactly the message of that number
                if number in conn.quiet:  # a join sent for the client: its ack unasked for
                    conn.quiet.remove(number)
                    if text.startswith(_ANSWERS[0]):
                        return
                    if (text.startswith(_ANSWERS[1]) and conn.table is None
                            and conn.remote_table is not None
                            and conn.remote_node == d.get("from")):
                        self.rejoin_refused(conn, text)  # (its table moved: not let back in)
                        return
                elif conn.rematching is not None and conn.rematching[3] == number:
                    conn.rematching = None  # the rematch is answered
                else:
                    act = next((a for a in conn.acting if a.id == number), None)
                    if act is None or act.answer is not None:
                        return  # answered already (said again, or after a take-over)
            if self._current(conn, d):
                told = d.get("n")
                if isinstance(told, list) and len(told) == 3:
                    conn.told = (str(told[0]), int(told[1]), int(told[2]))
                if act is None:
                    conn.send(text)
            if act is not None:
                self._answer(conn, act, text)
        elif kind == "msg":
            number = d.get("a")
            if type(number) is not int:
                number = None
            else:
                said = self._said_to((str(d.get("from")), str(d.get("c"))))
                assert said is not None
                if number in said.said or number in said.open:
                    return  # (a copy: answered, or being answered)
                said.open.add(number)
            rejoin = d.get("r")  # (set by a process only: never part of the client's "m")
            to = self._stand_in(d)
            key = d.get("o")  # (a chat line's: it is stored with it)
            if type(key) is int and number is not None:
                to.chat_keys[number] = f"{d.get('from')}:{d.get('c')}:{key}"
            to.inbox.put_nowait(
                (d.get("m"), number, rejoin if rejoin in ("player", "spectator") else None))
        elif kind == "ask":  # a client's node did not hear some answers: say them again
            sender, cid = str(d.get("from")), str(d.get("c"))
            said = self._said_to((sender, cid), make=False)
            unknown: list[int] = []
            for number in d.get("a") or ():
                if type(number) is not int:
                    continue
                kept = said.said.get(number) if said is not None else None
                if kept is not None:
                    self.room.send(sender, {"k": "frame", "from": self.node, "c": cid,
                                            "t": kept, "a": number})
                elif said is None or number not in said.open:  # (open: its answer comes)
                    unknown.append(number)  # never came here (lost on the way), or forgot
            if unknown:
                self.room.send(sender, {"k": "unknown", "from": self.node, "c": cid,
                                        "a": unknown})
        elif kind == "unknown":  # acts of a client here that their process has no answer to
            conn = self.local.get(str(d.get("c")))
            numbers = d.get("a")
            if conn is not None and isinstance(numbers, list):
                acts = [a for a in conn.acting if a.id in numbers and a.node == d.get("from")
                        and a.answer is None]
                for where in dict.fromkeys(a.table for a in acts):
                    await self._settle(conn, where, [a for a in acts if a.table == where],
                                       fenced=False, node=str(d.get("from")))
        elif kind == "at":
            conn = self.local.get(str(d.get("c")))
            if conn is not None:
                tid = d.get("table")
                conn.remote_table = tid if isinstance(tid, str) else None
                conn.remote_node = str(d["from"]) if conn.remote_table else None
                conn.remote_watching = bool(conn.remote_table and d.get("w"))
                if conn.remote_table:
                    conn.waits = None  # (handed its seat back, or at another table)
                ended = d.get("e")
                if (conn.remote_table is None and conn.table is None and isinstance(ended, list)
                        and len(ended) == 3 and all(isinstance(x, str) for x in ended)):
                    # the finished table it watched there left memory: its last frames
                    conn.ended = Ended(*ended)
        elif kind == "lead":  # a rematch forwarded from here is answered by a join to make
            conn = self.local.get(str(d.get("c")))
            data = d.get("m")
            asked = None if conn is None else conn.rematching
            if (conn is not None and asked is not None and isinstance(data, dict)
                    and data.get("type") == "join" and asked[1] == d.get("from")
                    and asked[3] == d.get("a")):
                conn.rematching = None
                await self.as_client(conn, data)
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
            key = (str(d.get("from")), str(d.get("c")))
            stand_in = self.stand_ins.pop(key, None)
            if stand_in is not None:
                stand_in.inbox.put_nowait(None)
            said = self._said.get(key)
            if d.get("end") and said is not None and not said.open:  # (closed: nobody asks)
                del self._said[key]
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
        elif kind == "deleted":
            ids = d.get("ids")
            if isinstance(ids, list):
                self.hub.forget_games([str(i) for i in ids])

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
            if len(user) > 4:  # (nor whether its client keeps the scored hands itself)
                stand_in.results_new = bool(user[4])
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
            if any(a.table == table_id and a.node != node and a.answer is None
                   for a in conn.acting):
                await self.settle_acts(conn, table_id, node)
            asked = conn.rematching
            if asked is not None and asked[0] == table_id and asked[1] != node:
                await self._rematch_again(conn, node)

    async def _rematch_again(self, conn: Conn, node: str) -> None:
        """A rematch of ``conn`` was forwarded to the process that ran the finished table
        then, which has not answered it; now ``node`` runs the table (taken over: that
        process died, and the rematch with it). The rematch goes to ``node`` (after the
        join that brought the client back to the table there), with its ``ref``, so the
        owner is answered (before: their page waited for ever). An owner whom that process
        had already taken off the finished table for the new one (it died making it:
        this process was told the owner left the table) is joined to it again first, as a
        player, as the take-over joins the others (before: the rematch was refused, "you
        are not at a table")."""
        assert conn.rematching is not None
        table_id, _sent_to, data, _number = conn.rematching
        if conn.table is None and conn.remote_table is None:
            back = {"type": "join", "table_id": table_id, "role": "player"}
            if node != self.node:
                conn.remote_table, conn.remote_node, conn.remote_watching = table_id, node, False
                self._forward(conn, node, back, self._quiet(conn), "player")
            else:
                with contextlib.suppress(TableError):  # (refused: so is the rematch, said)
                    await self._rejoin_here(conn, back, watching=False)
        if node != self.node:
            number = next(self._numbers)  # (a new one: that process may have had the old)
            conn.rematching = (table_id, node, data, number)
            self._forward(conn, node, data, number)
            return
        conn.rematching = None
        await self._here(conn, data)

    async def _here(self, conn: Conn, data: dict[str, Any]) -> None:
        """Dispatch ``conn``'s message ``data`` at this node, refusals answered."""
        await _answered(self, conn, data, echo_ref(data.get("ref")))

    async def settle_acts(self, conn: Conn, table_id: str, node: str) -> None:
        """``conn``'s acts at ``table_id`` that were forwarded to a process other than
        ``node`` (which runs the table now) and never answered: that process died with
        them (or stopped running the table). Once the store's fencing number is above the
        one of the instance each was sent to (it was taken over: that instance can store
        nothing more), the store says what became of each: stored (the client's seat
        acted so, numbered above what the client had been told): its ``ack``; not: an
        error saying that the move was not made and to play again. Both with the act's
        ``ref``. Before: the client waited for an answer for ever."""
        await self._settle(conn, table_id, [a for a in conn.acting
                                            if a.table == table_id and a.node != node],
                           node=node)

    async def _settle(self, conn: Conn, table_id: str, mine: list[ForwardedAct],
                      fenced: bool = True, node: str = "") -> None:
        """Answer ``conn``'s messages ``mine`` at ``table_id`` that their process never
        answered: those whose instance is fenced off (``fenced``), or all of them (the
        process they were sent to never got them, or answered them so long ago that it
        forgot the answer: either way it stores none of them any more). An act: from the
        store (an ack if it has the move, else an error saying to play again). A chat
        line: an ack if the store has it (by its ``key``), else it is sent again to
        ``node``, the process that runs the table now (``""``: none; then an error saying
        to send it again). One of ``ASKING``: sent again to ``node``. Any other (a seat,
        an option, a leave...): an error saying that it may or may not have been done, to
        look and send it again (it cannot be told from the store, nor done twice)."""
        mine = [a for a in mine if a.answer is None and not a.settling]  # (answered once)
        if not mine:
            return
        for a in mine:
            a.settling = True
        hub = self.hub
        try:
            fence = await hub.db(hub.store.fence, table_id)
            ready = [a for a in mine if fence > a.fence or not fenced]
            moves = [a for a in ready if a.data.get("type") == "act"]
            rows = []
            lines: list[dict[str, Any]] = []
            seat = None
            if moves:
                game = await hub.db(hub.store.game, table_id)
                seat = next((i for i, p in enumerate(game.seats)
                             if isinstance(p, dict) and p.get("user_id") == conn.user_id),
                            None)
                if seat is not None:
                    rows = await hub.db(hub.store.events, table_id,
                                        min(a.stored for a in moves))
            if any(a.data.get("type") == "chat" for a in ready):
                lines = await hub.db(hub.store.chat, table_id, CHAT_LOOKED)
        except StoreError:  # no such game any more: nothing was made
            fence, ready, rows, seat, lines, node = 0, mine, [], None, [], ""
        except Exception as exc:  # (asked again, or the next take-over announcement)
            log.warning("could not read what became of %d forwarded messages at table %s: "
                        "%s", len(mine), table_id, exc)
            ready = []
        finally:
            for a in mine:
                a.settling = False
        keys = {line.get("key") for line in lines if isinstance(line, dict)}
        after = 0
        why = ("the server that ran the table stopped before storing it" if fenced
               else "it was lost on its way to the server that runs the table")
        for a in ready:
            kind = a.data.get("type")
            ref = echo_ref(a.data.get("ref"))
            if kind != "act":
                if kind == "chat" and f"{self.node}:{conn.cid}:{a.first}" in keys:
                    self._answer(conn, a, frames.ack(ref))
                elif (kind == "chat" or kind in ASKING) and node:
                    await self._send_again(conn, a, node, fence)
                elif kind == "chat":
                    self._answer(conn, a, _err("state", NOT_SAID.format(
                        why="the server that ran the table stopped, and the table could "
                            "not be brought back"), ref))
                else:
                    self._answer(conn, a, _err("state", NOT_DONE.format(
                        kind=kind, why="the server that ran the table stopped" if fenced
                        else "it, or its answer, was lost on the way"), ref))
                continue
            try:
                action = parse_action(str(a.data.get("action")))
            except SpadesError:
                action = None
            found = next((r for r in rows if r.seq > max(a.stored, after) and r.kind == "act"
                          and r.seat == seat and r.value == action), None) if (
                action is not None and seat is not None) else None
            if found is not None:
                after = found.seq
                self._answer(conn, a, frames.ack(ref))
            else:
                self._answer(conn, a, _err("state", NOT_MADE.format(why=why), ref))

    async def _send_again(self, conn: Conn, a: ForwardedAct, node: str, fence: int) -> None:
        """Send ``conn``'s message ``a`` (a chat line not stored, or one of ``ASKING``),
        which its process never answered, to ``node``, which runs its table now (after
        the join that brought the client back there), under a new number (``node`` may
        have had the old one); if that is this process, it is dispatched here."""
        if node != self.node:
            a.id, a.node, a.fence, a.rounds = next(self._numbers), node, fence, 0
            self._forward(conn, node, a.data, a.id,
                          key=a.first if a.data.get("type") == "chat" else None)
            return
        with contextlib.suppress(ValueError):
            conn.acting.remove(a)
        await self._here(conn, a.data)
        self._flush(conn)

    @staticmethod
    def _answer(conn: Conn, act: ForwardedAct, text: str) -> None:
        """``text`` answers ``act`` (unless something answered it first): the client gets
        the answers to its moves at a table in the order it made them, so an answer that
        comes before that of an earlier move there (said again, or read from the store)
        waits for it."""
        if act.answer is not None:
            return
        act.answer = "" if act.quiet and text.startswith(_ANSWERS[0]) else text
        Cluster._flush(conn)

    @staticmethod
    def _flush(conn: Conn) -> None:
        """Send ``conn`` the answers that no earlier message at their table waits for."""
        waiting: set[str] = set()  # tables where an earlier move waits for its answer
        for a in list(conn.acting):
            if a.answer is None:
                waiting.add(a.table)
            elif a.table not in waiting:
                conn.acting.remove(a)
                if a.answer:  # ("": an ack not shown, of a message the client did not send)
                    conn.send(a.answer)

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
                    self._forward(conn, node, again, self._quiet(conn), "player")
                else:
                    conn.waits = None
                    with contextlib.suppress(TableError):  # (replaced: it waits there again)
                        await self._rejoin_here(conn, again, watching=False)
                continue
            if conn.remote_table == table_id and conn.remote_node != node and node != self.node:
                conn.remote_node = node
                role = "spectator" if conn.remote_watching else "player"
                self._forward(conn, node, {"type": "join", "table_id": table_id, "role": role},
                              self._quiet(conn), role)
            elif conn.remote_table == table_id and node == self.node and conn.table is None:
                watching = conn.remote_watching
                conn.remote_table = conn.remote_node = None
                conn.remote_watching = False
                try:
                    await self._rejoin_here(conn, {"type": "join", "table_id": table_id,
                                                   "role": "spectator" if watching
                                                   else "player"}, watching)
                except TableError as exc:  # (told as when it runs elsewhere: no ref)
                    self.rejoin_refused(conn, _err(exc.code, exc.message), table_id)

    async def _rejoin_here(self, conn: Conn, data: dict[str, Any], watching: bool) -> None:
        """Join ``conn`` again to its table, which moved here: as a spectator let in without
        the code if it ``watching`` (:class:`spades.server.tables.Rejoin`), and with no
        ``ack`` (it did not ask: it gets the snapshot), as when the table runs at another
        process (where the ack, the answer to the forwarded join, is not shown to it)."""
        if self.dispatch is None:
            return
        token = REJOIN.set(Rejoin(conn, str(data["table_id"]), watching, quiet=True))
        try:
            await self.dispatch(self.hub, conn, client_message.validate_python(data))
        finally:
            REJOIN.reset(token)

    def rejoin_refused(self, conn: Conn, refusal: str, table_id: str | None = None) -> None:
        """The join this process made for ``conn`` when its table moved was refused where
        the table runs now (``refusal``: the error frame; a spectator over a cap, say):
        ``conn`` is no longer at the table. This process forgets it there (before, it kept
        it as at the table, so its next messages went to the new process, which refused
        them, "you are not at a table"), and the client is told so, with the reason (no
        ``ref``: it did not ask). ``table_id``: the table (default: the one it was at
        elsewhere)."""
        try:
            told = json.loads(refusal)
            code, why = str(told["code"]), str(told["message"])
        except (ValueError, TypeError, KeyError):
            code, why = "state", "refused"
        if table_id is None or conn.remote_table == table_id:
            table_id = conn.remote_table
            if conn.remote_node is not None and conn.remote_node != self.node:
                self.room.send(conn.remote_node, {"k": "gone", "from": self.node,
                                                  "c": conn.cid})
            conn.remote_table = conn.remote_node = None
            conn.remote_watching = False
        log.info("client %s is not let back in to table %s, which moved: %s", conn.cid,
                 table_id, why)
        conn.send(_err(code, REJOIN_REFUSED.format(why=why)))

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
        if conn.table is None:
            await self._here(conn, data)

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
        #: the client's hello asked for only the new scored hands in its event frames
        self.results_new = False
        self.ended: Ended | None = None  # (the finished table it watched here, gone since)
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.queued_bytes = 0
        self.lobby = False
        self.remote_table: str | None = None
        self.remote_node: str | None = None
        self.waits: tuple[str, str] | None = None  # (as a Conn has; a stand-in never waits)
        self.joining: tuple[str, str, dict[str, Any]] | None = None  # (never forwards)
        self.rematching: tuple[str, str, dict[str, Any], int] | None = None  # (nor this)
        #: forwarded messages, each with the number its answer is marked with (or None)
        #: and, for a join its process made on its own after the table moved, the role
        #: it joins again as (``Cluster._forward``); None: the client went away
        self.inbox: asyncio.Queue[tuple[Any, int | None, str | None] | None] = (
            asyncio.Queue())
        #: the keys the chat lines waiting in ``inbox`` are stored with, by their number
        self.chat_keys: dict[int, str] = {}
        self.chat_key: str | None = None  # (that of the chat line being dispatched)
        self.task: asyncio.Task[None] | None = None
        self._table: Table | None = None
        self._watching = False  # as its process was last told ("at")
        from spades.server.throttle import TokenBucket  # the same lobby rate as a local one

        s = cluster.hub.settings
        self.lobby_bucket = TokenBucket(s.lobby_rate, s.lobby_burst)
        self.snapshot_bucket = TokenBucket(s.snapshot_rate, s.snapshot_burst)

    @property
    def table(self) -> Table | None:
        return self._table

    @table.setter
    def table(self, table: Table | None) -> None:
        if table is not self._table:
            self._table = table
            self._tell_at()

    def _tell_at(self) -> None:
        """Tell the client's process the table it is at here, and whether it watches it
        (``w``: it holds no seat), for the join it makes if the table moves."""
        table = self._table
        self._watching = table is not None and table.place_of(self.user_id) is None
        out: dict[str, Any] = {"k": "at", "from": self.cluster.node, "c": self.cid,
                               "table": None if table is None else table.id,
                               "w": self._watching}
        if table is None and self.ended is not None:
            # the finished table it watched left memory here: its last frames are kept by
            # the client's process, which answers its resync and sheet from them
            out["e"] = [self.ended.table_id, self.ended.snapshot, self.ended.sheet]
            self.ended = None
        self.cluster.room.send(self.node, out)

    def send(self, text: str) -> None:
        table = self._table
        if table is not None and (table.place_of(self.user_id) is None) != self._watching:
            self._tell_at()  # (sat down, or removed from its seat: before what it is told)
        number = None
        answering = _ANSWERING.get()
        if (answering is not None and answering.conn is self and not answering.done
                and (answering.any_frame or text.startswith(_ANSWERS))):  # the answer to
            # the message dispatched
            answering.done = True
            number = answering.number
            self.cluster.answered(self.node, self.cid, number, text)
        if not self.closed:
            out: dict[str, Any] = {"k": "frame", "from": self.cluster.node, "c": self.cid,
                                   "t": text}
            if number is not None:  # matched by it, not by the client's optional ref
                out["a"] = number
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

    def lead(self, data: dict[str, Any]) -> None:
        """Answer the forwarded message being dispatched (a rematch) by having the client's
        process send ``data``, a join, as the client's own (to wherever that table runs:
        :meth:`Cluster.lead_to_rematch`); that join's answer is the rematch's."""
        number = None
        answering = _ANSWERING.get()
        if answering is not None and answering.conn is self and not answering.done:
            answering.done = True
            number = answering.number
            said = self.cluster._said_to((self.node, self.cid), make=False)
            if said is not None:
                said.open.discard(number)
        self.cluster.room.send(self.node, {"k": "lead", "from": self.cluster.node,
                                           "c": self.cid, "m": data, "a": number})

    def waits_for(self, table_id: str) -> None:
        """Replaced at ``table_id`` by another tab: its process keeps it in mind
        (:meth:`Cluster._stop_waiting`, :meth:`Cluster._new_owner`)."""
        self.cluster.room.send(self.node, {"k": "waits", "from": self.cluster.node,
                                           "c": self.cid, "table": table_id})

    async def run(self) -> None:
        """Dispatch this client's forwarded messages in the order they came."""
        while True:
            item = await self.inbox.get()
            if item is None:  # the client went away from its node
                self.closed = True
                table = self._table
                if table is not None:
                    await table.detach(self, leaving=False)
                return
            data, number, rejoin = item
            self.chat_key = None if number is None else self.chat_keys.pop(number, None)
            ref = echo_ref(data.get("ref")) if isinstance(data, dict) else None
            answering = None if number is None else _Answering(
                self, number, any_frame=isinstance(data, dict) and data.get("type") in ASKING)
            token = _ANSWERING.set(answering)
            tid = data.get("table_id") if isinstance(data, dict) else None
            # a join made by the client's process (not the client): quiet=False, its ack
            # is the answer that process waits for (and does not show the client)
            again = REJOIN.set(Rejoin(self, tid, rejoin == "spectator", quiet=False)) if (
                rejoin is not None and isinstance(tid, str)) else None
            try:
                await self._dispatch(data, ref)
            finally:
                if again is not None:
                    REJOIN.reset(again)
                if answering is not None:
                    if not answering.done:  # (every path answers; its node waits for one)
                        self.send(_err("server", "the server could not do that", ref))
                    answering.done = True  # (tasks started meanwhile answer nothing)
                _ANSWERING.reset(token)
                self.chat_key = None

    async def _dispatch(self, data: Any, ref: Any) -> None:
        """One forwarded message, through the ordinary ``dispatch``; refusals answered. A
        join of a table this process is restoring waits for it (its process found this one
        holding the table's lease before this one said it runs it: before, the join was
        refused, no such table, and the client never joined it)."""
        tid = data.get("table_id") if isinstance(data, dict) else None
        taking = self.cluster._taking.get(tid) if isinstance(tid, str) else None
        if taking is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(taking)
        # A join of a rematch this process is making under its reserved id waits for it
        # too: its owner's other process, which lost the lease on the id while cut off,
        # leads the owner here (hub.LeaseLost); before, it came first and was refused.
        making = self.cluster.hub.making.get(tid) if isinstance(tid, str) else None
        if making is not None and isinstance(data, dict) and data.get("type") == "join":
            with contextlib.suppress(Exception):
                await asyncio.shield(making)
        await _answered(self.cluster, self, data, ref)  # type: ignore[arg-type]
