"""The server's state: the store, the tables, the lobby, sessions, and client connections."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import logging
import os
import secrets
import signal
import time
import uuid
import weakref
from collections.abc import Awaitable, Callable, Collection, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, cast

from starlette.websockets import WebSocket

from spades.engine import DEAL, Match, RulesError
from spades.server import frames
from spades.server.addresses import address_key
from spades.server.cpu import CpuPool, default_strength, spec_of
from spades.server.limits import (
    Buckets,
    ChangeGate,
    CreateGate,
    HintGate,
    SendBudget,
    SpectatorNotices,
)
from spades.server.lobby import LobbyCache, LobbyNotices
from spades.server.options import OVERRIDES, build_rules, invite_code, restartable
from spades.server.protocol import RemovedInfo, TableOptions
from spades.server.restore import (
    TABLE_STATUSES,
    FinishedUnreadable,
    NotUnfinished,
    RestoreError,
    StoredTable,
    load_table,
)
from spades.server.seating import Place
from spades.server.settings import Settings
from spades.server.tables import Ended, Table, TableError
from spades.server.text import names_a_seat
from spades.server.throttle import TokenBucket
from spades.store import ConflictError, Store, StoreError, UserRow, upkeep

if TYPE_CHECKING:  # several processes need the redis package (the cluster extra) only
    from spades.server.room import Room, SharedJoins, SharedLogins, SharedMisses

log = logging.getLogger("spades.server")
T = TypeVar("T")
#: A restored table's event numbers start at ``restarts * SEQ_EPOCH`` (above any seen before).
SEQ_EPOCH = 1_000_000_000
#: A rematch keeps the invite codes of at most this many tables it follows (a rematch of
#: a rematch of …): :attr:`Table.earlier_invites`.
EARLIER_INVITES = 8
#: What the clients of a table instance that stopped (another runs the table now) are told.
#: Why a signed-out session's sockets elsewhere are closed (the page signing out has closed
#: its own first).
SIGNED_OUT = "the session was signed out elsewhere"
MOVED = "this table has moved to another server: try again in a moment"
#: A record kept for review opened again within this long (s) is not noted again, and how
#: many such notes a process keeps (:meth:`Hub.upload_opened`).
OPENED_EVERY = 3600.0
OPENED_KEPT = 10_000
#: What a continued upload's options keep for the caps on uploads (``Table.upload_kept``).
UPLOAD_KEPT = ("upload_cost", "upload_address", "upload_by")

#: Tests only: the point at which this process kills itself (SIGKILL), as a crash there
#: would (tests/server/test_rematch_cluster.py, test_create_cluster.py); unset (always,
#: outside tests): nothing. ``create_stored``: a new table (``create``, a rematch, or a
#: continued upload) is stored, its lease not checked again yet, the table not run nor its
#: owner answered;
#: ``rematch_half``: between a rematch's two writes (its id stored with the finished table,
#: and the new table); ``rematch_made``: both stored, the owner not answered yet;
#: ``delete_checked``: a ``DELETE /api/games/{id}`` of a continued match that ended holds
#: its table closed (its lease and fencing number taken), the match not deleted yet
#: (tests/server/test_room_races.py).
#: ``stop:POINT``: pauses itself there (SIGSTOP) instead, as a process cut off from the
#: others would be, until the test lets it go on (SIGCONT).
DIE_AT = "SPADES_TEST_DIE_AT"


def die_at(point: str) -> None:
    """The test hook :data:`DIE_AT`, at ``point``."""
    at = os.environ.get(DIE_AT)
    if at == point:
        os.kill(os.getpid(), signal.SIGKILL)
    elif at == f"stop:{point}":
        os.kill(os.getpid(), signal.SIGSTOP)


#: How a client's message is carried out (``spades.server.app.dispatch``).
Dispatch = Callable[["Hub", "Conn", Any], Awaitable[None]]


class Peers(Protocol):
    """The other server processes of a room, as this one's hub and app use them
    (:class:`spades.server.cluster.Cluster`, attached by :func:`spades.server.cluster.attach`
    when ``--redis`` is set; the hub does not import it)."""

    dispatch: Dispatch | None

    @property
    def room(self) -> Room: ...
    @property
    def lobby(self) -> Mapping[str, dict[str, Any]]: ...

    async def start(self, before: Callable[[], Awaitable[Any]] | None = None) -> None: ...
    async def close(self) -> None: ...
    async def abandon_stale(self, before: datetime) -> list[str]: ...
    async def reserve(self, table_id: str, wait: bool = False) -> None: ...
    async def claimed(self, table: Table) -> bool: ...
    async def hold_closed(self, table_id: str) -> bool: ...
    async def let_go(self, table_id: str) -> None: ...
    def released(self, table: Table) -> None: ...
    def lost_table(self, table: Table, conns: list[Conn]) -> None: ...
    def lobby_changed(self, table: Table, row: dict[str, Any] | None) -> None: ...
    def signed_out(self, digest: str) -> None: ...
    def games_deleted(self, ids: Collection[str]) -> None: ...
    def register(self, conn: Conn) -> None: ...
    def unregister(self, conn: Conn) -> None: ...
    async def route(self, conn: Conn, msg: Any, data: dict[str, Any]) -> bool: ...
    def leaving_remote(self, conn: Conn) -> None: ...
    async def lead_to_rematch(self, conn: Conn, old: Table, ref: Any
                              ) -> Literal["led", "unmade", "ended"]: ...
    async def lead_to_holder(self, conn: Conn, table_id: str, ref: Any) -> bool: ...
    async def lead_to_table(self, conn: Conn, table_id: str, ref: Any,
                            start: bool = False) -> None: ...
    async def told_rematch(self, table_id: str, cids: Sequence[str]) -> None: ...
    async def heard_rematch(self, table_id: str, cid: str) -> bool: ...


class LeaseLost(TableError):
    """A table this process was making is not run here: its lease on the id ran out while
    the process was cut off from the others (paused, or a slow store), and another process
    holds it now (for a rematch: it brought the finished table back and is making the
    rematch under that id, or made it; for a new table of ``create`` or of a continued
    upload: it found the table stored and run by nobody, and brought it back). Checked
    before the table is stored (an id reserved before: a rematch's) and again before it is
    run (fencing): the table is dropped here, stored or not, and the holder runs it; the
    owner is led there (``app._rematch``, ``app.dispatch`` for ``create``; an upload is
    answered with the table's id, to join wherever it runs)."""

    def __init__(self, table_id: str) -> None:
        super().__init__("state", "this server process was cut off from the others while "
                         "it made your table, which another one runs now: join it "
                         f"(table {table_id}), or try again")
        self.table_id = table_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class ForwardedAct:
    """An ``act`` (or another message about the table: ``chat``, ``sheet``, ``seat``...)
    forwarded to the process that runs its table (``--redis``), until it is answered. Its
    answer comes back marked with ``id`` (never matched by the client's optional ``ref``);
    if it is lost on the way (the link to Redis dropped), this process asks for it again;
    if that process dies first, or never got the message, what became of it is read from
    the store, or it is sent again, or the client is told to send it again
    (:meth:`spades.server.cluster.Cluster.settle_acts`)."""

    id: int  # this process's own number for it, unique among its forwarded messages
    table: str
    node: str  # the process it was sent to
    data: dict[str, Any]  # the message, with its ref
    stored: int  # the table's moves in the store when the client was last told: the act,
    # if stored, is numbered above
    fence: int  # the fencing number of the instance it was sent to: once the store's is
    # higher, that instance can store nothing more
    rounds: int = 0  # rounds of the watch loop it has waited for its answer
    answer: str | None = None  # its answer, waiting for those of earlier moves there
    settling: bool = False  # its answer is being read from the store
    first: int = 0  # a chat line's number when first sent (sent again: a new ``id``),
    # kept with the line in the store (``key``) to tell whether it was stored
    quiet: bool = False  # sent by this process for the client, which did not ask for it:
    # its ``ack`` is not shown (an error is, without a ``ref``)


class Conn:
    """One WebSocket client: a user, a send queue drained by its own task, a rate limiter."""

    def __init__(self, ws: WebSocket, user: UserRow, settings: Settings,
                 budget: SendBudget | None = None) -> None:
        self.ws = ws
        self.user_id = user.id
        self.name = user.name
        self.guest = user.guest
        self.settings = settings
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Table | None = None
        #: its hello asked for only the new scored hands in its event frames' views
        #: (``Hello.results``: "new"); else every one, as before
        self.results_new = False
        #: the finished table it watched, gone from memory since (its last frames)
        self.ended: Ended | None = None
        self.lobby = False
        self.closed = False
        self.close_code = 1000
        self.tokens = settings.rate_burst
        self.stamp = time.monotonic()
        self.dropped = 0
        self.last_rate_error = 0.0
        self.close_reason = ""
        self.queued_bytes = 0
        self.budget = budget
        self.lobby_bucket = TokenBucket(settings.lobby_rate, settings.lobby_burst)
        self.snapshot_bucket = TokenBucket(settings.snapshot_rate, settings.snapshot_burst)
        self._sender: asyncio.Task[None] | None = None
        self.session = ""  # the hash of the session token it signed in with
        #: the client's address (behind a trusted proxy: from X-Forwarded-For) as the caps
        #: and rates per address count it: an IPv6 one is its /64 (addresses.address_key)
        client = getattr(ws, "client", None)
        self.address = address_key(client.host) if client is not None else ""
        self.expiry: asyncio.TimerHandle | None = None
        # With several server processes (spades.server.cluster): this client's id, and the
        # table it is at when another process runs that table.
        self.cid = secrets.token_hex(8)
        self.remote_table: str | None = None
        self.remote_node: str | None = None
        #: it watches ``remote_table`` (holds no seat there): when the table moves it is
        #: joined again as a spectator, let in without the code (it was let in before)
        self.remote_watching = False
        #: (table, process) where another tab of this user holds the seat this one waits
        #: to be handed back (it was replaced there)
        self.waits: tuple[str, str] | None = None
        #: (table, process, message): a join forwarded to the process that ran the table
        #: then, not answered yet (if that process died, the one taking over answers it)
        self.joining: tuple[str, str, dict[str, Any]] | None = None
        #: (table, process, message, number): a rematch forwarded to the process that ran
        #: the finished table then, not answered yet (if that process died, it is sent to
        #: the one that takes the table over)
        self.rematching: tuple[str, str, dict[str, Any], int] | None = None
        #: acts forwarded to the process that runs the table, not answered yet (if that
        #: process dies, this one answers them once the table is taken over)
        self.acting: list[ForwardedAct] = []
        #: joins that this process forwarded for the client on its own (to join it again
        #: after its table moved or the link to Redis was lost): their acks, which the client
        #: did not ask for, are not shown to it
        self.quiet: list[int] = []
        #: (table, its moves in the store, the fencing number of its instance) as that
        #: process last said with a frame for this client
        self.told: tuple[str, int, int] | None = None
        #: the key a chat line being dispatched is stored with, set for a stand-in of a
        #: client of another process (:class:`spades.server.cluster.RemoteConn`): that
        #: process reads it back from the store if this one dies before answering
        self.chat_key: str | None = None

    def send(self, text: str) -> None:
        if self.closed:
            return
        s = self.settings
        size = len(text)
        if 0 < s.send_queue <= self.queue.qsize():
            self.drop(f"too slow reading: {s.send_queue} frames are waiting")
            return
        # more than the cap already waiting (one frame may take it past the cap: the sheet,
        # or the table with every scored hand, of a very long match is larger than it, and
        # asking for it dropped the asker however fast it read)
        if 0 < s.send_queue_bytes < self.queued_bytes:
            self.drop(f"too slow reading: more than {s.send_queue_bytes} bytes are waiting")
            return
        if self.budget is not None and not self.budget.reserve(self, size):
            return
        self.queued_bytes += size
        self.queue.put_nowait(text)

    def drop(self, reason: str) -> None:
        """Let go of a client that does not read, rather than hold its frames: what was
        queued is freed at once and the socket is closed with 1008 and ``reason``."""
        if self.closed and not self.queued_bytes:
            return
        self.closed = True
        self.close_code = 1008
        self.close_reason = reason
        if self.budget is not None:
            self.budget.forget(self)
        self.queued_bytes = 0
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        task = self._sender
        if task is not None and task is not asyncio.current_task():
            task.cancel()  # it may be stuck writing to a socket nobody reads

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self.queue.put_nowait(None)

    def allow(self) -> bool:
        """Token bucket: ``rate_per_second`` messages a second, bursts of ``rate_burst``."""
        now = time.monotonic()
        s = self.settings
        if s.rate_per_second <= 0:
            return True  # 0: no limit, as for every rate
        self.tokens = min(s.rate_burst, self.tokens + (now - self.stamp) * s.rate_per_second)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False

    async def sender(self) -> None:
        self._sender = asyncio.current_task()
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                self.queued_bytes -= len(text)
                if self.budget is not None:
                    self.budget.release(self, len(text))
                await self.ws.send_text(text)
        finally:  # however it ends, what is still queued is no longer held
            self.closed = True
            if self.budget is not None:
                self.budget.forget(self)
            self.queued_bytes = 0
            while not self.queue.empty():
                self.queue.get_nowait()


def continued_cpu_name(name: str, seat: int) -> str:
    """The name of a CPU taking a seat of a continued record: the record's name for it,
    marked "(CPU)" (once: a record continued again keeps it as it is; "CPU 2", a
    server's CPU, too) so that it is not taken for the person of that name; "CPU N" where
    the record names no one, or names the seat by its compass point ("North", "Seat 5", as
    ``spades export`` writes seats nobody named): each page names such a CPU by where it
    sits from there, not by a compass point of the record's frame, which is another place
    on the page of whoever sits elsewhere than South."""
    name = " ".join(name.split())
    if name.endswith("(CPU)") or name[:4] == "CPU ":  # "CPU 3": the server's own
        return name
    if not name or names_a_seat(name):
        return f"CPU {seat + 1}"
    return f"{name} (CPU)"


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store.open(settings.db)
        self.cpu = CpuPool(settings.bot_executor, settings.bot_workers, settings.hint_workers)
        self.db_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="db")
        self.tables: dict[str, Table] = {}
        self.invites: dict[str, Table] = {}
        self.lobby_subs: set[Conn] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.send_budget = SendBudget(settings.send_total_bytes)
        self.lobby_cache = LobbyCache(self)
        self.lobby_notices = LobbyNotices(self)
        self.uploads: set[str] = set()  # ids of live tables made by continue uploads
        #: what the caps on uploads count (review_uploads_per_address, review_uploads):
        #: read from the store once a minute, not at every upload
        self.upload_counts = upkeep.UploadCounts()
        #: Called with the ids of games deleted (records kept for review): answers kept
        #: ready of them are dropped.
        self.deleted_hooks: list[Callable[[Collection[str]], None]] = []
        #: Records kept for review noted as opened here (id -> monotonic time): noted in
        #: the store at most once an hour each (:meth:`upload_opened`).
        self.opened_at: dict[str, float] = {}
        self.hint_gate = HintGate(settings)
        #: Chat lines and joins per user (all connections together), chat lines per table.
        self.chat_buckets = Buckets(settings.chat_rate, settings.chat_burst)
        self.table_chat_buckets = Buckets(settings.table_chat_rate, settings.table_chat_burst)
        self.join_buckets = Buckets(settings.join_rate, settings.join_burst)
        #: ``resync`` and ``sheet`` per client address, all its connections together.
        self.snapshot_address_buckets = Buckets(settings.snapshot_address_rate,
                                                settings.snapshot_address_burst)
        #: Joins that seat or watch (not back to one's own seat) per client address (with
        #: several processes, counted in Redis for all of them: ``shared_joins``).
        self.join_address_buckets = Buckets(settings.join_address_rate,
                                            settings.join_address_burst)
        #: Moves per client address, all its players together.
        self.move_address_buckets = Buckets(settings.move_address_rate,
                                            settings.move_address_burst)
        #: Chat lines per client address, all its users together.
        self.chat_address_buckets = Buckets(settings.chat_address_rate,
                                            settings.chat_address_burst)
        #: Joins of no table, or of a private one with a wrong code, per address (with
        #: several processes, counted in Redis for all of them: ``shared_misses``).
        self.join_misses = Buckets(settings.join_miss_rate, settings.join_miss_burst)
        #: New tables and uploaded records per user and per address.
        self.create_gate = CreateGate(settings)
        #: Changes to tables (seats, options, CPUs, removals) per user and per address.
        self.change_gate = ChangeGate(settings)
        self.spectator_notices = SpectatorNotices(settings)
        self.sessions: dict[str, set[Conn]] = {}  # session token hash -> open sockets
        # Instances of tables that stopped here (another took the table over): they write,
        # tell and announce nothing more (see lost_table).
        self.stopped: weakref.WeakSet[Table] = weakref.WeakSet()
        #: rematches being made here under a reserved id (until their owner is answered):
        #: a join of one forwarded from another process waits for it (``RemoteConn``)
        self.making: dict[str, asyncio.Future[None]] = {}
        # With several processes (``settings.redis``): spades.server.cluster.attach
        # gives the hub its peers and the room's count of failed sign-ins.
        self.cluster: Peers | None = None
        self.logins: SharedLogins | None = None  # None: app.py's LoginGuard of this process
        #: the joins that miss, counted for the whole room (None: ``join_misses`` alone)
        self.shared_misses: SharedMisses | None = None
        #: the joins per address, counted for the whole room (None:
        #: ``join_address_buckets`` alone)
        self.shared_joins: SharedJoins | None = None

    # Plumbing ---------------------------------------------------------------------------

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the one database thread (writes stay in order)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, functools.partial(fn, *args, **kwargs))

    async def table_write(self, table: Table, fn: Callable[..., T], *args: Any,
                          **kwargs: Any) -> T:
        """A store write of one instance of a table, under its fencing number
        (:meth:`spades.store.Store.take_game`). If the table was taken over since (by another
        process, or restored again here), nothing is written: this instance stops
        (:meth:`lost_table`) and the caller gets a :class:`TableError`."""
        if table in self.stopped:
            raise TableError("state", MOVED)
        try:
            return await self.db(fn, *args, fence=table.fence, **kwargs)
        except ConflictError as exc:
            self.lost_table(table, str(exc))
            raise TableError("state", MOVED) from None

    def lost_table(self, table: Table, why: str) -> None:
        """Stop this instance of a table: another runs the table now (its writes were
        refused, or this process lost the table's lease). It leaves memory and writes, tells
        and announces nothing more; its clients are told, or with several processes joined
        to the table where it runs now (:meth:`spades.server.cluster.Cluster.lost_table`)."""
        if table in self.stopped:
            return
        self.stopped.add(table)
        log.warning("table %s stops running here: %s", table.id, why)
        # a table's members are this hub's connections (with several processes, some of
        # them the cluster's stand-ins for clients of other processes)
        conns = cast("list[Conn]", [*table.members.values(), *table.spectators])
        table.members.clear()
        table.spectators.clear()
        table.replaced.clear()
        table.close_timers()
        table.release_programs()  # (its new process starts its own)
        table.status = "closed"  # inert: no turn, deal, timer or join any more
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.invites.get(table.invite) is table:
            del self.invites[table.invite]
        self.lobby_cache.invalidate()
        if self.cluster is not None:
            self.cluster.lost_table(table, conns)
            return
        text = frames.error("state", MOVED)
        for conn in conns:
            if conn.table is table:
                conn.table = None
            conn.send(text)

    def games_deleted(self, ids: Collection[str]) -> None:
        """Games were deleted from the store (records kept for review): forgotten here,
        and with several processes at every other one too (told through Redis: before,
        another process went on answering a deleted record from what it kept ready)."""
        self.forget_games(ids)
        if self.cluster is not None and ids:
            self.cluster.games_deleted(ids)

    def forget_games(self, ids: Collection[str]) -> None:
        """Forget what this process keeps of the games ``ids`` (deleted from the store):
        the answers kept ready (``deleted_hooks``), when each was last opened."""
        for gid in ids:
            self.opened_at.pop(gid, None)
        for hook in self.deleted_hooks:
            hook(ids)

    async def upload_opened(self, game_id: str) -> None:
        """A record kept for review, or a continued upload that ended, was opened (its
        record downloaded, or its score sheet): stored (at most once an hour a record from
        this process), so that pruning (``review_unopened_days``) counts its days unopened
        from now."""
        now = time.monotonic()
        if now - self.opened_at.get(game_id, -OPENED_EVERY) < OPENED_EVERY:
            return
        if len(self.opened_at) >= OPENED_KEPT:  # the oldest half goes
            for gid in sorted(self.opened_at, key=self.opened_at.__getitem__)[
                    :OPENED_KEPT // 2]:
                del self.opened_at[gid]
        self.opened_at[game_id] = now
        await self.db(upkeep.mark_opened, self.store, game_id)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if not isinstance(exc, TableError):
                log.error("background task failed", exc_info=exc)

    async def start(self, before: Callable[[], Awaitable[Any]] | None = None) -> int:
        """Bring back the unfinished tables: all of them, or with several processes those
        that no other process runs. Returns how many. ``before`` (the janitor's start-up
        round) runs first, once this process is linked to the others if there are any."""
        if self.cluster is not None:
            await self.cluster.start(before)
            return len(self.tables)
        if before is not None:
            await before()
        return await self.restore()

    async def close(self) -> None:
        self.lobby_notices.close()
        for t in list(self.tables.values()):
            t.close_timers()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.close()
        if self.shared_misses is not None:
            await self.shared_misses.close()
        if self.shared_joins is not None:
            await self.shared_joins.close()
        for task in list(self.tasks):
            task.cancel()
        self.cpu.close()
        self.db_pool.shutdown(wait=True)
        self.store.close()

    # Sessions ---------------------------------------------------------------------------

    def new_session(self, user_id: int) -> tuple[str, float]:
        token = secrets.token_urlsafe(32)
        expires = datetime.now(UTC) + timedelta(days=self.settings.session_days)
        self.store.create_session(token_hash(token), user_id, expires,
                                  keep=self.settings.sessions_per_user)
        return token, expires.timestamp()

    def user_for(self, token: str | None) -> UserRow | None:
        if not token or len(token) > 100:
            return None
        return self.store.session_user(token_hash(token))

    def session_of(self, token: str | None) -> tuple[UserRow, str, datetime] | None:
        """The user of a session token, its hash and when it expires (a store call)."""
        if not token or len(token) > 100:
            return None
        digest = token_hash(token)
        found = self.store.session(digest)
        return None if found is None else (found[0], digest, found[1])

    def open_session(self, conn: Conn, digest: str, expires: datetime) -> None:
        """Keep track of a socket signed in with a session: it closes when the session
        ends (sign-out) or expires."""
        conn.session = digest
        self.sessions.setdefault(digest, set()).add(conn)
        delay = max(0.0, (expires - datetime.now(UTC)).total_seconds())
        conn.expiry = asyncio.get_running_loop().call_later(
            min(delay, 86400.0 * 3650), self.end_session, digest, "the session expired")

    def close_session(self, conn: Conn) -> None:
        """A socket goes away."""
        if conn.expiry is not None:
            conn.expiry.cancel()
        conns = self.sessions.get(conn.session)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.sessions[conn.session]

    def end_session(self, digest: str, why: str) -> None:
        """Close every socket signed in with this session: an ``auth`` error, then close
        1008, both saying ``why`` and to sign in again (a close reason: ``why`` is short)."""
        text = f"{why}: sign in again"
        for conn in list(self.sessions.pop(digest, ())):
            if conn.expiry is not None:
                conn.expiry.cancel()
            conn.send(frames.error("auth", text))
            conn.close(1008, text)

    # The lobby --------------------------------------------------------------------------

    def listed(self, table: Table) -> bool:
        return not table.options.private and table.status in ("waiting", "active")

    def lobby(self) -> list[dict[str, Any]]:
        return self.lobby_cache.rows()

    def lobby_changed(self, table: Table) -> None:
        if table in self.stopped:
            return  # another instance tells of it
        if self.cluster is not None:  # every process's lobby hears of it, this one's too
            listed = self.listed(table) and table.id in self.tables
            self.cluster.lobby_changed(table, table.summary().model_dump() if listed else None)
            return
        self.lobby_cache.invalidate()
        if self.lobby_subs:  # told coalesced, its latest state (lobby.LobbyNotices)
            self.lobby_notices.changed(table.id, table)

    def forget(self, table: Table) -> None:
        table.close_timers()
        if table in self.stopped:
            return  # no longer this process's to forget
        self.tables.pop(table.id, None)
        self.invites.pop(table.invite, None)
        self.uploads.discard(table.id)
        self.lobby_changed(table)
        if self.cluster is not None:
            self.cluster.released(table)

    # Tables -----------------------------------------------------------------------------

    def find(self, table_id: str | None, invite: str | None) -> Table:
        table = None
        if not table_id and not invite:
            raise TableError("bad_message", "join: give the table's table_id or its invite code")
        if table_id:
            table = self.tables.get(table_id)
        elif invite:
            table = self.invites.get(invite_code(invite))
        if table is None:
            raise TableError("not_found", "no such table (it may have finished)")
        return table

    def _register(self, table: Table) -> None:
        self.lobby_cache.invalidate()
        self.tables[table.id] = table
        self.invites[table.invite] = table

    @staticmethod
    def new_invite() -> str:
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        return "".join(secrets.choice(alphabet) for _ in range(8))

    @staticmethod
    def check_options(options: TableOptions) -> None:
        try:
            build_rules(options)
            spec_of(options.cpu)
        except ValueError as exc:
            raise TableError("bad_options", str(exc)) from None

    async def create_table(self, conn: Conn, options: TableOptions,
                           invited: Mapping[int, int] | None = None,
                           names: Mapping[int, str] | None = None,
                           gid: str | None = None, earlier: Sequence[str] = (),
                           removed: Mapping[int, RemovedInfo] | None = None) -> Table:
        """``invited``: a rematch's players (user id: place at the table before): the
        owner sits at their old place, the others may sit down without the invite code,
        and their places (``names``: theirs) are kept for them until the start. ``gid``:
        its id, reserved already (:meth:`reserve_table_id`: a rematch's, stored with the
        finished table first); by default a new one. ``earlier``: a rematch's, the invite
        codes of the tables it follows (:attr:`Table.earlier_invites`). ``removed``: a
        rematch's, whom the table it follows had removed (:attr:`Table.removed`): they
        know a code that opens it (``earlier``), and may not sit down there either until
        the owner lets them back in."""
        self.check_options(options)
        rules = build_rules(options)
        places = [Place() for _ in range(rules.players)]
        mine = (invited or {}).get(conn.user_id, 0)
        places[mine if 0 <= mine < len(places) else 0] = Place(
            "human", conn.user_id, conn.name, guest=conn.guest)
        invite = self.new_invite()
        meta: dict[str, Any] = {"table": options.model_dump(), "owner": conn.user_id,
                                "invite": invite}
        if invited:
            meta["invited"] = sorted(invited.items())
        if names:
            meta["invited_names"] = sorted(names.items())
        earlier = tuple(earlier)[:EARLIER_INVITES]
        if earlier:
            meta["earlier_invites"] = list(earlier)
        removed = {u: r for u, r in (removed or {}).items() if u != conn.user_id}
        if removed:  # (as Table.meta writes them)
            meta["removed"] = sorted(removed)
            meta["removed_people"] = [r.model_dump() for _, r in sorted(removed.items())]
        if gid is None:
            gid = await self.reserve_table_id()
        elif not await self._holds(gid):  # (reserved before: still ours?)
            raise LeaseLost(gid)
        try:
            await self.db(self.store.create_game, "table", rules, game_id=gid,
                          seats=[p.to_db() for p in places], options=meta, status="waiting")
        except BaseException:
            await self._unreserve(gid)
            raise
        die_at("create_stored")
        if not await self._holds(gid):
            # Stored, but the lease went to another process meanwhile (this one was cut
            # off): that one runs it (it finds it stored); this one must not, even for a
            # moment (before: both did, until the holder brought it back from the store
            # and the store shut this instance out).
            raise LeaseLost(gid)
        table = Table(self, gid, options, rules, places, conn.user_id, invite, "waiting")
        table.address = conn.address
        table.invited = dict(invited or {})
        table.invited_names = dict(names or {})
        table.earlier_invites = earlier
        table.removed = removed
        self._register(table)
        if self.cluster is not None:  # other processes find it (by id and invite) from now
            await self.cluster.claimed(table)
        return table

    async def reserve_table_id(self, gid: str | None = None) -> str:
        """The id of a new table (``gid``, or a new one); with several processes, this one
        holds its lease before the table is stored (another process that sees it stored
        sees it run). ``gid``: an id decided before, by a process that may have died
        holding its lease (a rematch's: :meth:`spades.server.cluster.Cluster.reserve`)."""
        table_id = gid or str(uuid.uuid4())
        if self.cluster is not None:
            await self.cluster.reserve(table_id, wait=gid is not None)
        return table_id

    async def _holds(self, gid: str) -> bool:
        """With several processes: whether this one holds the lease of the table ``gid``
        (taking it if nobody does); always True alone."""
        return self.cluster is None or await self.cluster.room.claim(gid)

    async def _unreserve(self, gid: str) -> None:
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                await self.cluster.room.release(gid)

    def default_options(self) -> TableOptions:
        return TableOptions(cpu=default_strength())

    async def continue_match(self, user: UserRow, match: Match, seat: int,
                             options: TableOptions | None, address: str = "",
                             names: Sequence[str] = (), cost: int = 0,
                             room: Callable[[], None] | None = None) -> Table:
        """A private table that carries on an uploaded match: the user at ``seat``
        (uploading from ``address``), CPUs at the others under the record's ``names``
        (:func:`continued_cpu_name`). ``cost``: the upload's, in units of
        ``RECORD_COST_BYTES``, stored with it for the caps on uploads, which ``room``
        checks (raising :class:`upkeep.UploadsFull`) on the database thread just before
        the table is stored. :class:`LeaseLost`: stored, but run by another process (this
        one lost its lease before it ran it)."""
        rules = match.rules
        try:
            restartable(rules)
        except RulesError as exc:
            raise TableError("bad_options", str(exc)) from None
        if seat >= rules.players:
            raise TableError("bad_options", f"seat must be 0 to {rules.players - 1}")
        # The table's options describe the record's rules (the page reads its profile and
        # target from them), whatever the upload's options said of those.
        described = {key: getattr(rules, key) for key in OVERRIDES}
        opts = (options or self.default_options()).model_copy(update={
            "private": True, "profile": rules.name, "players": rules.players, **described})
        try:
            spec_of(opts.cpu)
        except ValueError as exc:
            raise TableError("bad_options", str(exc)) from None
        places = [Place("cpu", None, continued_cpu_name(names[i] if i < len(names) else "", i),
                        opts.cpu) for i in range(rules.players)]
        places[seat] = Place("human", user.id, user.name, guest=user.guest)
        invite = self.new_invite()
        # ("upload" stored from the first: a process that takes it over before this one
        # has run it knows it is one)
        # (what the caps on uploads count, kept in its options from now on: Table.meta)
        kept: dict[str, Any] = {"upload_cost": max(1, cost), "upload_by": user.id}
        if address:
            kept["upload_address"] = upkeep.address_tag(address)
        meta = {"table": opts.model_dump(), "owner": user.id, "invite": invite,
                "upload": True, **kept}
        gid = await self.reserve_table_id()

        def store() -> None:
            if room is not None:  # (on the one database thread: no other upload between)
                room()
            self.store.save_record(match, kind="table", game_id=gid,
                                   seats=[p.to_db() for p in places], options=meta)

        try:
            await self.db(store)
        except BaseException:
            await self._unreserve(gid)
            raise
        die_at("create_stored")
        if not await self._holds(gid):
            # Stored, but this process was cut off (paused, or a slow store) and another
            # one found the table and runs it: not run here too (before: it was, its lease
            # lost, until the store shut it out, and the upload was answered 500).
            raise LeaseLost(gid)
        table = Table(self, gid, opts, rules, places, user.id, invite, "active")
        table.address = address
        table.upload_kept = kept
        table.seq = await self.db(self.store.last_seq, gid)
        table.resume(match, table.seq)
        table.unseated.add(seat)
        await table.make_sheet()
        self._register(table)
        if self.cluster is not None:  # other processes find it (by id and invite) from now
            await self.cluster.claimed(table)
        if match.phase == DEAL:
            async with table.lock:
                await table.deal_or_retry()
        return table

    async def restore(self) -> int:
        """Bring back every unfinished table after a (re)start. Returns how many came back;
        a table that cannot is set aside (marked, logged with its id and why), never fatal."""
        ids: list[str] = await self.db(self.store.game_ids, kind="table",
                                       status=TABLE_STATUSES)
        n = 0
        for gid in ids:
            n += await self.restore_table(gid)
        return n

    async def restore_table(self, gid: str, finished: bool = False) -> bool:
        """Bring back one unfinished table from the store; False (and set aside) if it
        cannot be. This process becomes the table's writer first (a new fencing number):
        an instance elsewhere can write nothing more, and what it wrote is loaded here.
        A table that ended since it was listed (finished by another process, abandoned by
        a janitor) is left as it is: False, and not set aside (it was: a race marked a
        cleanly abandoned table ``broken``). ``finished``: a finished table is brought
        back too, its match over (with several processes, one whose process stopped while
        people were at it: they see its end, and its owner may ask for a rematch); one that
        cannot be read is left as it is (False, logged), never set aside. A game no longer
        in the store (a continued match its uploader deleted once it ended) is not brought
        back: False, and nothing set aside (before: "cannot be restored and is set aside",
        logged as an error, for a row that was not there)."""
        try:
            try:
                fence = await self.db(self.store.take_game, gid)
            except StoreError:
                log.info("table %s is no longer in the store (deleted): not brought back",
                         gid)
                return False
            stored = await self.db(load_table, self.store, gid, self.settings.chat_history,
                                   finished)
        except FinishedUnreadable as exc:
            log.warning("finished table %s cannot be brought back: %s", gid, exc)
            return False
        except NotUnfinished:
            return False
        except RestoreError as exc:
            await self._set_aside(gid, str(exc))
            return False
        except Exception as exc:  # anything else in a row is still that row's fault
            await self._set_aside(gid, f"{type(exc).__name__}: {exc}")
            return False
        return await self._restore_one(stored, fence)

    async def _removed_people(self, meta: Mapping[str, Any]) -> dict[int, RemovedInfo]:
        """The people the owner removed from a stored table (:attr:`Table.removed`): the
        ids of ``removed``, named by ``removed_people`` (a table stored before it had that:
        by the user's name in the store)."""
        removed = meta.get("removed")
        if not isinstance(removed, list):
            return {}
        known: dict[int, RemovedInfo] = {}
        people = meta.get("removed_people")
        for row in people if isinstance(people, list) else []:
            try:
                info = RemovedInfo.model_validate(row)
            except ValueError:
                continue
            known[info.user_id] = info
        out: dict[int, RemovedInfo] = {}
        for uid in (u for u in removed if type(u) is int):
            if uid in known:
                out[uid] = known[uid]
                continue
            user = await self.db(self.store.user, uid)
            out[uid] = RemovedInfo(user_id=uid, name=user.name if user is not None else
                                   f"user {uid}", guest=bool(user is not None and user.guest))
        return out

    async def _set_aside(self, game_id: str, reason: str) -> None:
        log.error("table %s cannot be restored and is set aside (status broken): %s",
                  game_id, reason)
        await self.db(self.store.set_aside, game_id, reason)

    async def _restore_one(self, stored: StoredTable, fence: int) -> bool:
        row = stored.row
        meta = row.options
        options = stored.options or self.default_options()
        table = Table(self, row.id, options, row.rules, stored.places, meta.get("owner"),
                      str(meta.get("invite") or self.new_invite()), row.status)
        # Event numbers continue above any the clients saw before the restart: each restart
        # of a table starts a new block of SEQ_EPOCH numbers.
        table.epoch = stored.epoch + 1
        table.seq = table.epoch * SEQ_EPOCH + stored.stored
        table.removed = await self._removed_people(meta)
        invited = meta.get("invited")
        if isinstance(invited, list):  # a rematch's players (Table.invited)
            table.invited = {u: s for u, s in (p for p in invited if isinstance(p, list)
                                               and len(p) == 2)
                             if type(u) is int and type(s) is int}
        table.upload_kept = {k: meta[k] for k in UPLOAD_KEPT if k in meta}
        if meta.get("upload") is True and "upload_cost" not in meta:
            # stored by a version before continued uploads counted in the caps on uploads:
            # counted from now on, as the janitor counts those that ended
            table.upload_kept = upkeep.old_upload_kept(meta)
        unseated = meta.get("unseated")
        if isinstance(unseated, list):  # a continued record's uploader not seated yet
            table.unseated = {s for s in unseated if type(s) is int
                              and 0 <= s < len(table.places)
                              and table.places[s].kind == "human"}
        names = meta.get("invited_names")
        if isinstance(names, list):  # their names (Table.invited_names)
            table.invited_names = {u: n for u, n in (p for p in names if isinstance(p, list)
                                                     and len(p) == 2)
                                   if type(u) is int and isinstance(n, str)}
        earlier = meta.get("earlier_invites")
        if isinstance(earlier, list):  # a rematch's: the codes of the tables it follows
            table.earlier_invites = tuple(c for c in earlier
                                          if isinstance(c, str) and c)[:EARLIER_INVITES]
        rematched = meta.get("rematched")
        if isinstance(rematched, str) and rematched:  # the rematch made of it (keep_rematch)
            table.rematched = rematched
            table.rematch_stored = True
            by = meta.get("rematched_by")
            table.rematched_by = by if isinstance(by, str) else ""
        if stored.match is not None:
            table.resume(stored.match, stored.stored)
            await table.make_sheet()
        table.chat.extend(stored.chat)
        table.fence = fence
        if meta.get("upload"):  # before its options are written again, with this mark in them
            self.uploads.add(row.id)
        try:
            await self.db(self.store.update_game, row.id, options=table.meta(), fence=fence)
        except ConflictError:  # taken over again meanwhile: the other one runs it
            self.uploads.discard(row.id)
            return False
        self._register(table)
        if self.cluster is not None and not await self.cluster.claimed(table):
            self.lost_table(table, "another process holds its lease")
            return False
        m = table.match
        finished = table.status == "finished"
        async with table.lock:
            if finished:
                pass  # (its result is stored: nothing more to play or write)
            elif m is not None and m.is_over():
                await table._finish()
            elif m is not None and m.phase == DEAL:
                await table.deal_or_retry()
        for i, p in enumerate(table.places):  # nobody is connected yet: grace starts now
            if p.kind == "human" and not p.covered and i not in table.unseated:
                if not finished:
                    table._start_grace(i)
                table.unseen_away.add(i)  # nobody saw them go: no "is back" for them
        return True

    def shutdown_grace(self) -> None:
        with contextlib.suppress(RuntimeError):
            for t in self.tables.values():
                t.close_timers()
