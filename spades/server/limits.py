"""Limits on what one client can make the server hold or do.

Token buckets (per connection, per player, per address), the budget of bytes queued for
sending across all connections, the caps on tables and uploads per user, and the gate in
front of the hint workers. docs/server.md ("Limits") lists each limit with its setting.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict
from collections.abc import Collection, Mapping
from typing import Any, Protocol

from spades.server import frames
from spades.server.cpu import is_external, spec_of
from spades.server.netlimits import abort, close_reason
from spades.server.settings import Settings
from spades.server.tables import Table, TableError
from spades.server.throttle import Clock, TokenBucket


class Holder(Protocol):
    """The server's tables, as the caps on them need (:class:`spades.server.hub.Hub`)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...
    @property
    def uploads(self) -> Collection[str]: ...


class Buckets:
    """One :class:`TokenBucket` per key (an address, a user id), at most ``keep`` of them:
    the least recently used go first (a full bucket loses nothing by being forgotten)."""

    def __init__(self, rate: float, burst: float, keep: int = 50_000,
                 clock: Clock = time.monotonic) -> None:
        self.rate, self.burst, self.keep, self.clock = rate, burst, keep, clock
        self._buckets: OrderedDict[Any, TokenBucket] = OrderedDict()

    def get(self, key: Any) -> TokenBucket:
        b = self._buckets.get(key)
        if b is None:
            b = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
            while len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return b

    def take(self, key: Any, n: float = 1.0) -> bool:
        return self.get(key).take(n)

    def wait(self, key: Any, n: float = 1.0) -> float:
        return self.get(key).wait(n)

    def charge(self, key: Any, n: float) -> None:
        self.get(key).charge(n)

    def give_back(self, key: Any, n: float = 1.0) -> None:
        self.get(key).give_back(n)

    def __len__(self) -> int:
        return len(self._buckets)


def how_many(n: float, noun: str) -> str:
    """``n`` and its noun, plural unless ``n`` is 1: "1 line", "2 lines", "0.5 lines"
    (before, "at most 1 lines a second")."""
    return f"{n:g} {noun}{'' if n == 1 else 's'}"


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


# Outgoing frames ---------------------------------------------------------------------------

class Queued(Protocol):
    queued_bytes: int

    def drop(self, reason: str) -> None: ...


class SendBudget:
    """Bytes queued for sending across all connections, at most ``total``. When a frame
    would go over, the connection holding the most is dropped (the slowest reader), until
    the frame fits or the sender itself is the one dropped."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.used = 0
        self.holders: set[Queued] = set()

    def reserve(self, conn: Queued, size: int) -> bool:
        while self.total > 0 and self.used + size > self.total:
            worst = max(self.holders, key=lambda c: c.queued_bytes, default=None)
            if worst is None or worst is conn or worst.queued_bytes <= conn.queued_bytes:
                conn.drop(f"more than {self.total} bytes are waiting to be sent to all "
                          "clients, and yours is the slowest connection")
                return False
            worst.drop(f"more than {self.total} bytes are waiting to be sent to all clients, "
                       "and yours is the slowest connection")
        self.used += size
        self.holders.add(conn)
        return True

    def release(self, conn: Queued, size: int) -> None:
        self.used = max(0, self.used - size)
        if conn.queued_bytes <= 0:
            self.holders.discard(conn)

    def forget(self, conn: Queued) -> None:
        """``conn`` was dropped: what it had queued is freed."""
        if conn in self.holders:
            self.holders.discard(conn)
            self.used = max(0, self.used - conn.queued_bytes)


async def close_socket(ws: Any, code: int, reason: str, timeout: float) -> None:
    """Close a WebSocket with ``code`` and ``reason`` (cut to fit); a client that does not
    read can keep the close frame from ever being written, so after ``timeout`` seconds its
    socket is cut instead."""
    done = False
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=code, reason=close_reason(reason)), timeout)
        done = True
    if not done:
        abort(ws.scope.get("client"))


# Caps on what one user may hold ------------------------------------------------------------

def live(table: Table) -> bool:
    return table.status in ("waiting", "active")


def check_tables(hub: Holder, user_id: int, leaving: Table | None = None) -> None:
    """Refuse a new table to a user who already holds a place at ``tables_per_user``
    unfinished tables (a table they left mid-match still counts: a CPU covers them).
    ``leaving``: a table not yet started that the new one makes them leave."""
    cap = hub.settings.tables_per_user
    if cap <= 0:
        return
    mine = [t for t in hub.tables.values() if live(t) and t.place_of(user_id) is not None
            and not (t is leaving and t.status == "waiting")]
    held = len(mine)
    if held >= cap:
        raise TableError("limit", tables_held(held, cap, hub.settings,
                                              sum(t.status == "waiting" for t in mine)))


def tables_held(held: int, cap: int, settings: Settings, waiting: int) -> str:
    """Why ``tables_per_user`` refuses, and what frees a place: leaving a table not yet
    started frees it; a started match keeps it until it ends, even once its player left
    it (a CPU plays for them: were leaving to free it, one user could keep any number of
    matches going), or until nobody has been connected to it for ``abandon_minutes``."""
    started = held - waiting
    what = (f"you already have a place at {held} unfinished table{'s' if held != 1 else ''}"
            f" (at most {cap})")
    counts = ("until it ends, even after you leave it and a CPU plays for you"
              + (f", or until nobody has been at it for {settings.abandon_minutes:g} minutes"
                 if settings.abandon_minutes > 0 else ""))
    if not started:
        return f"{what}, none started yet: leave {'one' if held > 1 else 'it'} first"
    if not waiting:
        all_started = "all started" if held > 1 else "started"
        return f"{what}, {all_started}: finish a match first (a started match counts {counts})"
    return (f"{what}, {started} of them started: leave one that has not started yet, or "
            f"finish a match (a started match counts {counts})")


def check_address(hub: Holder, address: str, leaving: Table | None = None) -> None:
    """Refuse a new table from ``address`` when the unfinished tables made from it here are
    ``tables_per_address`` already (a guest costs one request, and each may hold
    ``tables_per_user``). ``leaving``: a table not yet started that the new one closes."""
    cap = hub.settings.tables_per_address
    if cap <= 0 or not address:
        return
    held = sum(1 for t in hub.tables.values() if live(t) and t.address == address
               and not (t is leaving and t.status == "waiting"))
    if held >= cap:
        raise TableError("limit", f"your address already has {held} unfinished tables on "
                         f"this server (at most {cap}): finish or leave one first")


def check_sitting(hub: Holder, user_id: int, address: str) -> None:
    """Refuse a ``join`` that would sit ``user_id`` at a new place (from ``address``) to a
    user who holds a place at ``tables_per_user`` unfinished tables already, as a new
    table is refused (before, only ``create`` and uploads were: one guest sat at every
    open table of the lobby in turn, each place kept for its grace after the connection
    went on), and past ``places_per_address`` places at tables not yet started taken by
    ``join`` from the address, all its users together (guests cost one request each)."""
    check_tables(hub, user_id)
    cap = hub.settings.places_per_address
    if cap <= 0 or not address:
        return
    held = sum(1 for t in hub.tables.values() if t.status == "waiting"
               for p in t.places if p.kind == "human" and p.user_id is not None
               and t.joined_from.get(p.user_id) == address)
    if held >= cap:
        raise TableError("limit", f"people from your address hold {held} places at tables "
                         f"not yet started (at most {cap}, all its players together): leave "
                         "one first")


def runs_programs(cpu: str) -> bool:
    """Whether a table of CPU strength ``cpu`` runs outside programs (``--bot``)."""
    try:
        return is_external(spec_of(cpu))
    except ValueError:
        return False


def check_programs(hub: Holder, address: str, cpu: str, but: Table | None = None) -> None:
    """Refuse a table whose CPUs are outside programs (``cpu``: its CPU strength; made, or
    a table's options changed to it) past ``program_tables_per_address`` unfinished ones
    made from ``address`` or ``program_tables`` in all on this process: each runs a process
    for each CPU seat. ``but``: a table not counted (the one whose options change, or a
    table not yet started that a new one makes its owner leave)."""
    s = hub.settings
    if not runs_programs(cpu):
        return
    running = [t for t in hub.tables.values() if live(t) and t is not but
               and runs_programs(t.cpu_default)]
    cap = s.program_tables_per_address
    if cap > 0 and address:
        held = sum(1 for t in running if t.address == address)
        if held >= cap:
            raise TableError("limit", f"your address already has {held} unfinished tables "
                             f"whose CPUs are {cpu} (at most {cap}, each runs a program for "
                             "every CPU): finish or leave one first, or choose another "
                             "CPU strength")
    if 0 < s.program_tables <= len(running):
        raise TableError("limit", f"this server runs {len(running)} tables whose CPUs are "
                         f"outside programs already (at most {s.program_tables}): choose "
                         "another CPU strength, or try again once a match has ended")


def check_upload(hub: Holder, user_id: int, address: str = "") -> None:
    """Refuse a ``continue`` upload beyond ``uploads_per_user`` live ones (and beyond the
    caps on tables per user and per address)."""
    check_tables(hub, user_id)
    check_address(hub, address)
    cap = hub.settings.uploads_per_user
    if cap <= 0:
        return
    held = sum(1 for tid in hub.uploads if (t := hub.tables.get(tid)) is not None and live(t)
               and t.owner == user_id)
    if held >= cap:
        raise TableError("limit", f"you already have {held} live tables from uploads (at "
                         f"most {cap}): finish or leave one first")


class CreateGate:
    """New tables (``create``) and uploaded records: ``create_rate`` a second per user, all
    their connections together, and ``create_address_rate`` per client address, all its
    users together (a guest costs one request). Each stores a row of ``games`` that stays
    after the table closes."""

    def __init__(self, settings: Settings, clock: Clock = time.monotonic) -> None:
        self.settings = settings
        self.users = Buckets(settings.create_rate, settings.create_burst, clock=clock)
        self.addresses = Buckets(settings.create_address_rate, settings.create_address_burst,
                                 clock=clock)

    def take(self, user_id: int, address: str, cost: float = 1.0) -> None:
        """Spend ``cost`` of the user's and of the address's (a big record counts as
        several: :func:`record_cost`), or raise :class:`TableError` (``rate_limit``, saying
        which and how long to wait) and spend neither."""
        s = self.settings
        also = (f" (this record counts as {cost:g}: one per {RECORD_COST_BYTES // 1000} KB "
                "begun)" if cost > 1 else "")
        wait = self.users.wait(user_id, cost)
        if wait > 0:
            raise TableError("rate_limit", f"you may make new tables or upload records at "
                             f"most once every {_every(s.create_rate)}, all your "
                             f"connections together{also}: try again in "
                             f"{retry_after(wait)} s")
        wait = self.addresses.wait(address, cost) if address else 0.0
        if wait > 0:
            raise TableError("rate_limit", f"your address may make new tables or upload "
                             f"records at most once every {_every(s.create_address_rate)}, "
                             f"all its players together{also}: try again in "
                             f"{retry_after(wait)} s")
        self.users.take(user_id, cost)
        if address:
            self.addresses.take(address, cost)

    def wait(self, user_id: int, address: str, cost: float = 1.0) -> float:
        """Seconds until :meth:`take` would let the user (from ``address``) through."""
        return max(self.users.wait(user_id, cost),
                   self.addresses.wait(address, cost) if address else 0.0)


class ChangeGate:
    """Changes to a table (``seat``, ``team``, ``teammate``, ``options``, ``add_cpu``,
    ``remove``, ``readmit``, ``give_owner``): ``change_rate`` a second per user, all their
    connections together, and ``change_address_rate`` per client address, all its users
    together. Each writes the table's row on the database thread and sends the whole table
    to everyone at it: an owner toggling ``remove`` and ``readmit`` (or ``add_cpu`` and
    ``remove``) at the message rate flooded every page at the table, and the guests of one
    address, each at a table of their own, kept that thread busy. :meth:`check` before the
    change, :meth:`spend` once it is made: a refused change costs nothing."""

    def __init__(self, settings: Settings, clock: Clock = time.monotonic) -> None:
        self.settings = settings
        self.users = Buckets(settings.change_rate, settings.change_burst, clock=clock)
        self.addresses = Buckets(settings.change_address_rate, settings.change_address_burst,
                                 clock=clock)

    def check(self, user_id: int, address: str) -> None:
        """Raise :class:`TableError` (``rate_limit``, saying which limit and how long to
        wait) if the user, or the address, has no change left now."""
        s = self.settings
        wait = self.users.wait(user_id)
        if wait > 0:
            raise TableError("rate_limit", f"you may change tables (seats, teams, options, "
                             f"CPUs, removals) at most {s.change_rate:g} times a second, all "
                             f"your connections together: try again in {retry_after(wait)} s")
        wait = self.addresses.wait(address) if address else 0.0
        if wait > 0:
            raise TableError("rate_limit", f"your address may change tables (seats, teams, "
                             f"options, CPUs, removals) at most {s.change_address_rate:g} "
                             f"times a second, all its players together: try again in "
                             f"{retry_after(wait)} s")

    def spend(self, user_id: int, address: str) -> None:
        self.users.take(user_id)
        if address:
            self.addresses.take(address)


#: A match replayed from the store (a record or a score sheet asked for over HTTP) counts as
#: one replay per this many hands begun: the replay runs on the database thread.
REPLAY_COST_HANDS = 100


def replay_cost(hands: int) -> float:
    """What replaying a match of ``hands`` hands counts as in ``replay_rate``."""
    return float(max(1, math.ceil(hands / REPLAY_COST_HANDS)))


#: An uploaded record counts as one new table per this many bytes begun: replaying and
#: storing it (every action a row, on the database thread) costs by its size.
RECORD_COST_BYTES = 100_000


def record_cost(size: int) -> float:
    """What an upload of ``size`` bytes counts as in the create rates."""
    return float(max(1, math.ceil(size / RECORD_COST_BYTES)))


def _every(rate: float) -> str:
    seconds = 1 / rate
    return f"{seconds:g} s" if seconds != 1 else "second"


# Hints ---------------------------------------------------------------------------------------

class HintGate:
    """Hints: ``hint_rate`` a second per player, one at a time per player, and at most
    ``hint_queue`` waiting or running at once; per client address, all its players
    together, ``hint_address_rate`` a second and at most half of ``hint_queue`` (one at
    least) at once: one address's guests, each at a table of their own, cannot keep the
    hint workers busy and every other player's hint refused (``busy``)."""

    def __init__(self, settings: Settings, clock: Clock = time.monotonic) -> None:
        self.settings = settings
        self.buckets = Buckets(settings.hint_rate, settings.hint_burst, clock=clock)
        self.address_buckets = Buckets(settings.hint_address_rate,
                                       settings.hint_address_burst, clock=clock)
        self.busy: set[int] = set()
        #: hints waiting or running per client address
        self.addresses: dict[str, int] = {}

    def address_most(self) -> int:
        """Hints one address may have waiting or running at once (0: no cap, as with
        ``hint_address_rate`` 0, which turns the per-address limits off)."""
        queue = self.settings.hint_queue
        if queue <= 0 or self.settings.hint_address_rate <= 0:
            return 0
        return max(1, queue // 2)

    def enter(self, user_id: int, address: str = "") -> None:
        s = self.settings
        if user_id in self.busy:
            raise TableError("rate_limit", "your last hint is still being worked out")
        if s.hint_queue > 0 and len(self.busy) >= s.hint_queue:
            raise TableError("busy", "hints are busy: try again in a moment")
        most = self.address_most()
        if address and most and self.addresses.get(address, 0) >= most:
            raise TableError("busy", f"{most} hints from your address are being worked "
                             "out already, the most at once from one address: try again in "
                             "a moment")
        b = self.buckets.get(user_id)
        if b.wait() > 0:
            raise TableError("rate_limit", "at most "
                             f"{how_many(s.hint_rate, 'hint')} a second: try "
                             f"again in {retry_after(b.wait())} s")
        if address:
            wait = self.address_buckets.wait(address)
            if wait > 0:
                raise TableError("rate_limit", "at most "
                                 f"{how_many(s.hint_address_rate, 'hint')} a second from your address, "
                                 "all its players together: try "
                                 f"again in {retry_after(wait)} s")
            self.address_buckets.take(address)
            self.addresses[address] = self.addresses.get(address, 0) + 1
        b.take()
        self.busy.add(user_id)

    def leave(self, user_id: int, address: str = "") -> None:
        self.busy.discard(user_id)
        if address:
            left = self.addresses.get(address, 0) - 1
            if left > 0:
                self.addresses[address] = left
            else:
                self.addresses.pop(address, None)


# ``spades serve --limit NAME=VALUE`` ---------------------------------------------------------

#: Settings fields that ``--limit`` may set (every number in docs/server.md, "Limits").
LIMIT_FIELDS: tuple[str, ...] = (
    "max_frame", "hard_frame", "rate_per_second", "rate_burst", "flood_close", "hello_timeout",
    "frame_rate", "frame_burst", "chat_history", "max_record_bytes", "login_failures",
    "login_window", "send_queue",
    "send_queue_bytes", "send_total_bytes", "send_close_timeout", "lobby_rate", "lobby_burst",
    "lobby_page_max", "lobby_cache_ms", "lobby_notice_ms", "tables_per_user", "uploads_per_user",
    "upload_idle_minutes", "abandon_minutes", "max_body", "http_rate", "http_burst",
    "conns_per_address", "header_timeout", "body_timeout", "max_header_bytes", "keep_alive", "hint_workers",
    "hint_queue", "hint_rate", "hint_burst", "spectators_per_table", "spectator_notice_ms",
    "spectators_per_address", "sweep_seconds", "prune_minutes", "guest_days", "chat_days",
    "session_days", "sessions_per_user",
    "login_account_failures", "login_address_failures", "chat_rate", "chat_burst",
    "table_chat_rate", "table_chat_burst", "join_rate", "join_burst", "tables_per_address",
    "create_rate", "create_burst", "create_address_rate", "create_address_burst",
    "join_miss_rate", "join_miss_burst", "signup_rate", "signup_burst",
    "chat_address_rate", "chat_address_burst", "idle_seconds", "change_rate", "change_burst",
    "change_address_rate", "change_address_burst", "removed_per_table", "replay_rate",
    "replay_burst", "handover_ms", "program_tables_per_address", "program_tables",
    "upload_address_rate", "upload_address_burst", "review_uploads_per_address",
    "review_uploads", "review_unopened_days", "hint_address_rate", "hint_address_burst",
    "join_address_rate", "join_address_burst", "login_address_rate", "login_address_burst",
    "snapshot_rate", "snapshot_burst", "snapshot_address_rate", "snapshot_address_burst",
    "watch_finished_minutes", "places_per_address", "uploads_at_once_per_address",
    "move_address_rate", "move_address_burst",
)


#: Limits a client can run into, as ``welcome.limits`` lists them (each by its Settings
#: name, which is its ``--limit`` name; docs/server.md "Limits" says what each does).
#: ``chat_max`` is fixed (300 chars).
CLIENT_LIMITS: tuple[str, ...] = (
    "max_frame", "rate_per_second", "rate_burst", "hard_frame", "flood_close",
    "hello_timeout", "chat_history", "send_queue", "send_queue_bytes", "lobby_rate",
    "lobby_burst", "lobby_page_max", "hint_rate", "hint_burst", "hint_queue",
    "tables_per_user", "uploads_per_user", "upload_idle_minutes", "abandon_minutes",
    "spectators_per_table", "max_body", "max_record_bytes", "http_rate", "http_burst",
    "conns_per_address", "header_timeout", "body_timeout", "max_header_bytes",
    "login_failures", "login_account_failures", "login_address_failures", "login_window",
    "session_days", "sessions_per_user", "chat_rate", "chat_burst", "table_chat_rate",
    "table_chat_burst", "join_rate", "join_burst", "tables_per_address", "create_rate", "create_burst",
    "create_address_rate", "create_address_burst", "join_miss_rate", "join_miss_burst",
    "signup_rate", "signup_burst", "chat_address_rate", "chat_address_burst",
    "idle_seconds", "spectators_per_address", "change_rate", "change_burst",
    "change_address_rate", "change_address_burst", "removed_per_table", "replay_rate",
    "replay_burst", "frame_rate", "frame_burst", "program_tables_per_address",
    "program_tables", "upload_address_rate", "upload_address_burst",
    "review_uploads_per_address", "review_uploads", "review_unopened_days",
    "hint_address_rate", "hint_address_burst", "join_address_rate", "join_address_burst",
    "login_address_rate", "login_address_burst", "snapshot_rate", "snapshot_burst",
    "snapshot_address_rate", "snapshot_address_burst",
    "watch_finished_minutes", "places_per_address", "uploads_at_once_per_address",
    "move_address_rate", "move_address_burst",
)
#: Limits of ``--limit`` that only shape the server's own work (no client is refused by
#: them): every ``--limit`` is in one of the two lists.
SERVER_LIMITS: tuple[str, ...] = (
    "send_total_bytes", "send_close_timeout", "lobby_cache_ms", "lobby_notice_ms", "keep_alive",
    "hint_workers", "spectator_notice_ms", "sweep_seconds", "prune_minutes", "guest_days", "chat_days",
    "handover_ms",
)


def client_limits(settings: Settings) -> dict[str, int | float]:
    """``welcome.limits``: every limit in :data:`CLIENT_LIMITS` with its value (whole
    numbers as integers; 0: no limit), and ``chat_max``. The first four keys are as they
    always were (``rate_per_second`` and ``rate_burst`` rounded down to integers)."""
    out: dict[str, int | float] = {
        "max_frame": settings.max_frame, "rate_per_second": int(settings.rate_per_second),
        "rate_burst": int(settings.rate_burst), "chat_max": 300}
    for name in CLIENT_LIMITS:
        if name in out:
            continue
        value = getattr(settings, name)
        out[name] = int(value) if float(value).is_integer() else float(value)
    return out


def parse_limit(item: str) -> tuple[str, int | float]:
    """``NAME=VALUE`` of ``--limit``: a known limit and a number of its type (ValueError
    saying which part is wrong)."""
    name, sep, raw = item.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or name not in LIMIT_FIELDS:
        why = ("no value (no =)" if not sep else
               "no NAME before the =" if not name else f"no limit is named {name!r}")
        raise ValueError(f"--limit {item}: {why}; use NAME=VALUE with NAME one of "
                         f"{', '.join(LIMIT_FIELDS)}")
    default = getattr(Settings(), name)
    try:
        value: int | float = int(raw) if isinstance(default, int) else float(raw)
    except ValueError:
        kind = "a whole number" if isinstance(default, int) else "a number"
        raise ValueError(f"--limit {item}: {name} must be {kind}") from None
    if not math.isfinite(value):
        raise ValueError(f"--limit {item}: {name} must be a finite number")
    if value < 0:
        raise ValueError(f"--limit {item}: {name} cannot be negative")
    if name in BURSTS and value < 1:
        raise ValueError(f"--limit {item}: {name} must be 1 or more (a burst of 0 would "
                         "refuse everything; set the rate to 0 to turn the limit off)")
    if value == 0 and name not in ZERO_ALLOWED:
        raise ValueError(f"--limit {item}: {name} must be more than 0 (0 does not turn this "
                         "one off; it would refuse or end everything)")
    return name, value


#: Limits of ``--limit`` for which 0 makes sense: caps and rates that 0 turns off, and delays,
#: histories and ages that may be none. The others must be more than 0; bursts 1 or more.
ZERO_ALLOWED: frozenset[str] = frozenset({
    "rate_per_second", "lobby_rate", "hint_rate", "http_rate", "send_queue", "send_queue_bytes",
    "send_total_bytes", "tables_per_user", "uploads_per_user", "spectators_per_table",
    "hint_queue", "conns_per_address", "header_timeout", "body_timeout", "max_header_bytes",
    "abandon_minutes", "upload_idle_minutes", "prune_minutes", "max_body", "login_failures",
    "login_account_failures", "login_address_failures", "chat_history", "lobby_cache_ms",
    "lobby_notice_ms", "spectator_notice_ms", "handover_ms", "send_close_timeout", "guest_days", "chat_days",
    "keep_alive", "chat_rate", "table_chat_rate", "join_rate", "tables_per_address",
    "create_rate", "create_address_rate", "join_miss_rate", "signup_rate",
    "chat_address_rate", "idle_seconds", "spectators_per_address", "change_rate",
    "change_address_rate", "removed_per_table", "replay_rate", "frame_rate",
    "sessions_per_user", "program_tables_per_address", "program_tables",
    "upload_address_rate", "review_uploads_per_address", "review_uploads",
    "review_unopened_days", "hint_address_rate", "join_address_rate", "login_address_rate",
    "snapshot_rate", "snapshot_address_rate", "places_per_address",
    "uploads_at_once_per_address", "move_address_rate",
})
BURSTS: frozenset[str] = frozenset({"move_address_burst", "rate_burst", "lobby_burst",
                                    "hint_burst", "http_burst",
                                    "chat_burst", "table_chat_burst", "join_burst",
                                    "create_burst", "create_address_burst", "join_miss_burst",
                                    "signup_burst", "chat_address_burst", "change_burst",
                                    "change_address_burst", "replay_burst", "frame_burst",
                                    "upload_address_burst", "hint_address_burst",
                                    "join_address_burst", "login_address_burst",
                                    "snapshot_burst", "snapshot_address_burst"})


# Spectators ----------------------------------------------------------------------------------

class SpectatorNotices:
    """A spectator coming or going is told to the table as one small ``spectators`` frame
    (the count and names), at most every ``spectator_notice_ms`` per table, instead of the
    whole table being sent to every member each time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.sent = 0  # frames sent (tests)

    def changed(self, table: Table) -> None:
        if table.id in self.pending:
            return
        delay = max(0.0, self.settings.spectator_notice_ms / 1000)
        self.pending[table.id] = asyncio.get_running_loop().call_later(
            delay, self._send, table)

    def _send(self, table: Table) -> None:
        self.pending.pop(table.id, None)
        if table.status == "closed":
            return
        names = sorted(table.watchers().values())
        text = frames.spectators(table.id, names)
        for conn, _ in table.recipients():
            conn.send(text)
            self.sent += 1
