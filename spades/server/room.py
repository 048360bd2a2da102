"""Several server processes, one card room: what they share through Redis.

Each ``spades serve --redis URL`` process is a *node* with a random id. Through Redis the
nodes share

* **leases**: a table is run by exactly one node at a time, the one holding the key
  ``owner:TABLE`` (set with NX and an expiry, renewed every third of it by its holder; a
  node that dies lets it expire, and another node claims the table and restores it from
  the database);
* **messages**: each node listens on its own channel ``node:ID`` and on ``room``; what one
  node publishes reaches the others in the order it was published (one writer task and one
  connection per node keep that order);
* **the lobby**: the summaries of listed tables in the hash ``lobby``, and which table an
  invite code opens in ``invites``;
* **liveness**: ``alive:ID`` exists while a node runs, and the sorted set ``nodes`` holds
  every live node's id (scored by when it lapses, on Redis's clock), so that each node
  knows how many processes share the room (``/api/health`` says it);
* **the sign-in throttle** (:class:`SharedLogins`): the failed sign-ins of every node, so
  that N nodes do not give N times the guesses;
* **the request rate per address** (:class:`SharedRate`): the HTTP requests and WebSocket
  handshakes of one client address at every node, so that N nodes do not give N times the
  rate;
* **the open WebSockets per address** (:class:`SharedConns`): each node's counts under a
  lease it renews, added up, so that N nodes do not give N times ``conns_per_address``.
* **the joins that miss per address** (:class:`SharedMisses`): joins of no table, or of a
  private table with a wrong invite code, so that N nodes do not give N times the guesses
  of ``join_miss_rate``.
* **the joins per address** (:class:`SharedJoins`): joins that seat or watch, so that N
  nodes do not give one address's guests N times ``join_address_rate``.

The database stays the single source of truth for games, and it enforces the one writer:
a node that takes a table over raises the game's fencing number (``Store.take_game``)
before loading it, and every write of a table is made under its instance's number, so a
node that outlived its lease unaware can store nothing more (``spades.server.cluster``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import redis.asyncio as aioredis

from spades.server.auth import NAMES, Attempt, TooMany
from spades.server.limits import Buckets

log = logging.getLogger("spades.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]

#: How long the connections that heard of a finished table's rematch are kept
#: (``PREFIXtold:TABLE``; after the last one told): a day, as long as a rematch waits.
TOLD_SECONDS = 86400

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


# KEYS: the windows to count in; ARGV: the window (ms), a random tag, then each key's limit.
# Old entries are dropped; if a window is full: {0, ms to wait, its index}; else the attempt
# is added to every window: {1, its entry, 0}. One script: concurrent sign-ins at several
# nodes cannot outrun the limits. Redis's clock, so the nodes' clocks need not agree.
_COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then
        local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
        return {0, tonumber(oldest[2]) + window - now, i}
    end
end
local member = now .. ':' .. ARGV[2]
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, now, member)
    redis.call('PEXPIRE', key, window)
end
return {1, member, 0}
"""


# The generic cell rate algorithm: KEYS[1] holds the address's "theoretical arrival time"
# (microseconds on Redis's clock): the time at which its bucket would be full again. ARGV:
# the microseconds one request costs (1 / rate), then the tolerance (cost * burst), then
# (optional) '1' to only look: nothing is counted. A request
# that would push it further than the tolerance ahead of now is refused: the microseconds to
# wait; else it is counted: 0. The key expires when the bucket would be full: nothing is
# kept for an address that stopped asking. (string.format: Lua would write the number with
# 14 significant digits.)
_GCRA = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local cost = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local after = tat + cost
local wait = after - tonumber(ARGV[2]) - now
if wait > 0 then
    return math.ceil(wait)
end
if ARGV[3] == '1' then
    return 0
end
redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000) + 1)
return 0
"""


# Takes back one request counted by _GCRA (KEYS[1]; ARGV[1]: the microseconds it cost): the
# join it counted went no further. Never past a full bucket (a key that would say so is
# dropped).
_GCRA_BACK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local back = tat - tonumber(ARGV[1])
if back <= now then
    redis.call('DEL', KEYS[1])
else
    redis.call('SET', KEYS[1], string.format('%.0f', back), 'PX', math.ceil((back - now) / 1000) + 1)
end
return 0
"""


#: Keeps this node in the room's set of live nodes (``ARGV[1]``, lapsing ``ARGV[2]`` ms from
#: now on Redis's clock; '' only counts), drops those that lapsed, and counts the rest.
_NODES = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] ~= '' then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
end
return redis.call('ZCARD', KEYS[1])
"""


class Room:
    """One node's link to the card room's Redis."""

    def __init__(self, url: str, *, lease_seconds: float = 3.0, prefix: str = "spades:",
                 node: str | None = None, token: str | None = None) -> None:
        self.url = url
        #: the room's token (``spades serve``'s hold on its database, which tells rooms
        #: apart by it): set again each round if Redis lost it (restarted empty), or a new
        #: process of this room would be refused as one of another room
        self.token = token
        self.node = node or secrets.token_hex(8)
        self.lease_ms = max(300, int(lease_seconds * 1000))
        self.prefix = prefix
        self.owned: set[str] = set()
        self.on_message: Handler | None = None
        self.on_lost: Callable[[str], Awaitable[None]] | None = None
        #: called when this node listens again after its link to Redis was lost (what was
        #: published to it meanwhile is gone: its clients at other nodes' tables rejoin)
        self.on_relinked: Callable[[], Awaitable[None]] | None = None
        #: whether Redis answered this node's last request (``/api/health`` says it)
        self.link_ok = True
        #: live processes in the room, this one included, as of the last round (every
        #: third of a lease): ``/api/health`` says it, so that an operator sees that all
        #: the processes share one Redis and prefix
        self.processes = 1
        self._down_since = 0.0
        self._redis: aioredis.Redis | None = None
        self._out: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()

    # The link -----------------------------------------------------------------------------

    def shown_url(self) -> str:
        """The URL as logged: without its password."""
        return re.sub(r"//([^/@]*?):[^/@]*@", r"//\1:***@", self.url)

    def failed(self, doing: str, exc: BaseException) -> None:
        """A request to Redis failed: said once, in one line, until it answers again (the
        rounds go on every second meanwhile; before, a traceback every second)."""
        if not self.link_ok:
            return
        self.link_ok = False
        self._down_since = time.monotonic()
        reason = str(exc).replace(self.url, self.shown_url()) or type(exc).__name__
        log.error("lost its link to Redis at %s (%s: %s): the tables run here go on; the "
                  "other processes cannot reach them nor this one theirs until it is back; "
                  "tried again every second", self.shown_url(), doing, reason)

    def answered(self) -> None:
        if not self.link_ok:
            self.link_ok = True
            log.warning("the link to Redis is back (after %.0f s)",
                        time.monotonic() - self._down_since)

    # Keys -------------------------------------------------------------------------------

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    @property
    def redis(self) -> aioredis.Redis:
        if self._redis is None:
            raise RuntimeError("the room is not started")
        return self._redis

    # Life -------------------------------------------------------------------------------

    async def start(self) -> None:
        self._redis = aioredis.Redis.from_url(self.url, decode_responses=True)
        await self._redis.ping()
        await self._alive()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._write()),
                       loop.create_task(self._renew())]
        await self._ready.wait()

    async def close(self) -> None:
        """Stop: leases are released so that another node can take the tables at once."""
        if self._redis is None:
            return
        self._out.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._tasks[1], 5)
        for tid in list(self.owned):
            with contextlib.suppress(Exception):
                await self.release(tid)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._key("alive", self.node))
        with contextlib.suppress(Exception):
            await self.redis.zrem(self._key("nodes"), self.node)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        await self._redis.aclose()
        self._redis = None

    async def _alive(self) -> None:
        await self.redis.set(self._key("alive", self.node), "1", px=self.lease_ms)
        self.processes = int(await self.redis.eval(_NODES, 1, self._key("nodes"), self.node,
                                                   str(self.lease_ms)))

    async def alive(self, node: str) -> bool:
        return bool(await self.redis.exists(self._key("alive", node)))

    # Leases -----------------------------------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        """Take the table if nobody runs it (or this node already does)."""
        key = self._key("owner", table_id)
        if await self.redis.set(key, self.node, nx=True, px=self.lease_ms):
            self.owned.add(table_id)
            return True
        if await self.redis.get(key) == self.node:
            self.owned.add(table_id)
            return True
        return False

    async def hold(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it, this node neither (``claim`` takes
        one this node holds again): to do something to a table that no process may bring
        back meanwhile (``DELETE /api/games/{id}``); let go with :meth:`release`."""
        if await self.redis.set(self._key("owner", table_id), self.node, nx=True,
                                px=self.lease_ms):
            self.owned.add(table_id)
            return True
        return False

    async def owner(self, table_id: str) -> str | None:
        value = await self.redis.get(self._key("owner", table_id))
        return None if value is None else str(value)

    async def owners(self, table_ids: list[str]) -> dict[str, str | None]:
        """The node that holds each table's lease (None: no node), in one round trip."""
        if not table_ids:
            return {}
        values = await self.redis.mget([self._key("owner", t) for t in table_ids])
        return {t: None if v is None else str(v) for t, v in zip(table_ids, values,
                                                                   strict=True)}

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        await self.redis.eval(_RELEASE, 1, self._key("owner", table_id), self.node)

    async def _renew(self) -> None:
        # A stop (cancel) that lands inside a round trip can come out of the Redis client
        # as another error, or not at all: the loop checks for it itself, or it would
        # renew a stopped node's leases for ever (seen on a busy machine, 4 stops in 150).
        task = asyncio.current_task()
        while task is None or not task.cancelling():
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                # One round trip for this node's liveness and every lease it holds.
                tids = list(self.owned)
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(self._key("alive", self.node), "1", px=self.lease_ms)
                pipe.eval(_NODES, 1, self._key("nodes"), self.node, str(self.lease_ms))
                for tid in tids:
                    pipe.eval(_RENEW, 1, self._key("owner", tid), self.node, str(self.lease_ms))
                got = await pipe.execute()
                self.answered()
                self.processes = int(got[1])
                for tid, kept in zip(tids, got[2:], strict=True):
                    if not kept and tid in self.owned:
                        self.owned.discard(tid)
                        log.error("lost the lease of table %s", tid)
                        if self.on_lost is not None:
                            await self.on_lost(tid)
                if self.token is not None:  # (a round trip of its own: a Redis user that
                    # may not write it still renews its leases)
                    with contextlib.suppress(aioredis.RedisError):
                        await self.redis.set(self._key("room-token"), self.token, nx=True)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from None
                self.failed("could not renew leases", exc)
        raise asyncio.CancelledError

    # Messages ---------------------------------------------------------------------------

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Publish to one node; messages leave in the order they are given."""
        self._out.put_nowait((self._key("node", node), json.dumps(message)))

    def broadcast(self, message: dict[str, Any]) -> None:
        """Publish to every node (this one included)."""
        self._out.put_nowait((self._key("room"), json.dumps(message)))

    async def _write(self) -> None:
        """Publish what is queued, in order: all that is waiting at once in one pipeline
        (one round trip to Redis for an action's frames to every node, not one each)."""
        while True:
            item = await self._out.get()
            batch: list[tuple[str, str]] = []
            while item is not None:
                batch.append(item)
                if self._out.empty() or len(batch) >= 500:
                    break
                item = self._out.get_nowait()
            if batch:
                await self._publish(batch)
            if item is None:
                return

    async def _publish(self, batch: list[tuple[str, str]]) -> None:
        try:
            if len(batch) == 1:
                await self.redis.publish(*batch[0])
                return
            pipe = self.redis.pipeline(transaction=False)
            for channel, text in batch:
                pipe.publish(channel, text)
            await pipe.execute()
        except Exception as exc:
            self.failed(f"could not publish {len(batch)} messages (on {batch[0][0]} first)",
                        exc)

    async def _listen(self) -> None:
        """Hear this node's channel and the room's. A lost link does not end it (it did:
        the node went deaf for good after Redis was down a few seconds): it subscribes
        again every second until Redis answers, then :attr:`on_relinked` runs."""
        task = asyncio.current_task()
        relinked = False
        while task is None or not task.cancelling():  # (see _renew)
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._key("node", self.node), self._key("room"))
                self._ready.set()
                if relinked and self.on_relinked is not None:
                    relinked = False
                    await self.on_relinked()
                while task is None or not task.cancelling():
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    try:
                        data = json.loads(msg["data"])
                    except ValueError:
                        continue
                    if self.on_message is not None and isinstance(data, dict):
                        try:
                            await self.on_message(data)
                        except Exception:
                            log.exception("a room message failed: %.200s", msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from None
                self.failed("stopped hearing the other processes", exc)
                relinked = True
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(Exception):
                    # Typed from redis 8 on, untyped before: Any suits both.
                    await cast(Any, pubsub).aclose()
        raise asyncio.CancelledError

    # The shared lobby -------------------------------------------------------------------

    async def put_summary(self, table_id: str, summary: dict[str, Any] | None) -> None:
        key = self._key("lobby")
        if summary is None:
            await self.redis.hdel(key, table_id)
        else:
            await self.redis.hset(key, table_id, json.dumps(summary))

    async def summaries(self) -> list[dict[str, Any]]:
        raw = await self.redis.hgetall(self._key("lobby"))
        return [json.loads(v) for v in raw.values()]

    async def put_invite(self, invite: str, table_id: str | None) -> None:
        key = self._key("invites")
        if table_id is None:
            await self.redis.hdel(key, invite)
        else:
            await self.redis.hset(key, invite, table_id)

    async def put_told(self, table_id: str, cids: list[str]) -> None:
        """The connections ``cids`` heard of the rematch of the finished table
        ``table_id`` (kept :data:`TOLD_SECONDS` after the last one told)."""
        key = self._key("told", table_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.sadd(key, *cids)
        pipe.expire(key, TOLD_SECONDS)
        await pipe.execute()

    async def was_told(self, table_id: str, cid: str) -> bool:
        return bool(await self.redis.sismember(self._key("told", table_id), cid))

    async def invite(self, invite: str) -> str | None:
        value = await self.redis.hget(self._key("invites"), invite)
        return None if value is None else str(value)


class SharedLogins:
    """The sign-in throttle of :class:`spades.server.auth.LoginGuard` — the same three
    limits over the same sliding window, a success taking back only its own count, known
    (address, account) pairs held only to their own limit — counted in Redis, for every
    node of the room at once."""

    def __init__(self, room: Room, *, pair_limit: int, account_limit: int, address_limit: int,
                 window: float, known_for: float = 30 * 86400.0) -> None:
        self.room = room
        self.limits = {"pair": pair_limit, "account": account_limit, "address": address_limit}
        self.window_ms = max(1, int(window * 1000))
        self.known_ms = max(1, int(known_for * 1000))

    def _key(self, key: tuple[str, ...]) -> str:
        return self.room._key("login", json.dumps(list(key)))

    async def begin(self, address: str, account: str) -> Attempt:
        """Count an attempt (raises :class:`TooMany` if a limit is reached)."""
        pair: tuple[str, ...] = ("pair", address, account)
        keys: list[tuple[str, ...]] = [pair]
        if not await self.room.redis.exists(self._key(("known", address, account))):
            keys += [("account", account), ("address", address)]
        counted = [k for k in keys if self.limits[k[0]] > 0]
        if not counted:
            return Attempt([], 0.0, pair)
        done, value, index = await self.room.redis.eval(
            _COUNT, len(counted), *[self._key(k) for k in counted], str(self.window_ms),
            secrets.token_hex(6), *[str(self.limits[k[0]]) for k in counted])
        if not int(done):
            raise TooMany(max(0.0, int(value) / 1000), NAMES[counted[int(index) - 1][0]])
        return Attempt(counted, 0.0, pair, str(value))

    async def succeeded(self, attempt: Attempt) -> None:
        """Take back this attempt's own count (no one else's) and know the pair."""
        r = self.room.redis
        for key in attempt.keys:
            await r.zrem(self._key(key), attempt.member)
        await r.set(self._key(("known", *attempt.pair[1:])), "1", px=self.known_ms)


class SharedRate:
    """``rate`` requests a second per key (a client address), bursts of ``burst``, counted
    in Redis for every node of the room: one script call a request. Its own connection,
    opened at the first request; errors (Redis unreachable) are the caller's to handle."""

    def __init__(self, url: str, *, rate: float, burst: float, prefix: str = "spades:",
                 timeout: float = 1.0) -> None:
        self.url = url
        self.prefix = prefix
        self.cost_us = 1_000_000 / rate if rate > 0 else 0.0
        self.tolerance_us = self.cost_us * max(1.0, burst)
        self.timeout = timeout
        self._redis: aioredis.Redis | None = None
        self._script: Any = None

    async def wait(self, key: str) -> float:
        """Count a request of ``key``: 0.0 if it may go on, else the seconds to wait
        (nothing counted)."""
        if self.cost_us <= 0:
            return 0.0
        if self._redis is None:
            self._redis = aioredis.Redis.from_url(
                self.url, decode_responses=True, socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout)
            self._script = self._redis.register_script(_GCRA)
        waited = await self._script(keys=[self.prefix + "rate:" + key],
                                    args=[f"{self.cost_us:.0f}", f"{self.tolerance_us:.0f}"])
        return int(waited) / 1_000_000

    async def close(self) -> None:
        redis, self._redis = self._redis, None
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose()


_CONNS_OPEN = """
local total = 0
for _, node in ipairs(redis.call('smembers', KEYS[1])) do
    local n = redis.call('hget', ARGV[1] .. node, ARGV[3])
    if n then
        total = total + tonumber(n)
    elseif redis.call('exists', ARGV[1] .. node) == 0 then
        redis.call('srem', KEYS[1], node)
    end
end
if total >= tonumber(ARGV[4]) then
    return total
end
local mine = ARGV[1] .. ARGV[2]
redis.call('hincrby', mine, ARGV[3], 1)
redis.call('pexpire', mine, ARGV[5])
redis.call('sadd', KEYS[1], ARGV[2])
return -1
"""
_CONNS_CLOSE = """
if redis.call('hincrby', KEYS[1], ARGV[1], -1) <= 0 then
    redis.call('hdel', KEYS[1], ARGV[1])
end
return 0
"""


class _FailOpen:
    """Fail open when Redis does not answer: :meth:`_failed` says so once in the log and
    keeps Redis unasked for ``retry`` seconds (:meth:`_off`), :meth:`_answered` says once
    that it answers again. ``WHAT``: what is counted in Redis; ``ALONE``: what each process
    does meanwhile."""

    WHAT = ""
    ALONE = ""
    retry = 5.0
    _ok = True
    _off_until = 0.0  # (Redis failed: not asked until then)

    def _off(self) -> bool:
        return time.monotonic() < self._off_until

    def _failed(self, exc: BaseException) -> None:
        self._off_until = time.monotonic() + self.retry
        if self._ok:
            self._ok = False
            log.warning("%s cannot be counted in Redis (%s: %s): %s until it answers again",
                        self.WHAT, type(exc).__name__, exc, self.ALONE)

    def _answered(self) -> None:
        if not self._ok:
            self._ok = True
            log.warning("%s are counted in Redis again", self.WHAT)


class SharedConns(_FailOpen):
    """The open connections (WebSockets) of each client address at every process of the
    room, capped together: N processes do not give N times ``conns_per_address``.

    Each process keeps its own counts in the hash ``conns:ID`` (address: open here) under
    a lease (``lease_ms``), which it renews every third of it, writing the hash again from
    its own counts (so a count lost or doubled on the way, or Redis restarted, is right
    again within a round); the set ``conns`` names the processes that count. Opening one
    is one script (:data:`_CONNS_OPEN`): the counts of the address at every process whose
    hash still exists are added up (a process killed with -9 stops renewing its hash,
    which expires: its counts do not stick; its name is then dropped from the set), and
    this process's is raised if the total is under the cap. Its own connection to Redis,
    opened at the first use. If Redis cannot be reached, connections are let through (fail
    open: the process's own cap still holds), said once in the log until it answers
    again; it is not asked again for ``retry`` seconds meanwhile (a connection is not held
    up by a Redis that does not answer), then the next renewal writes every count again."""

    WHAT = "the open connections per address"
    ALONE = "each process caps its own"

    def __init__(self, url: str, *, prefix: str = "spades:", lease_ms: int = 3000,
                 timeout: float = 1.0, node: str | None = None, retry: float = 5.0) -> None:
        self.url = url
        self.prefix = prefix
        self.node = node or secrets.token_hex(8)
        self.lease_ms = max(300, lease_ms)
        self.timeout = timeout
        #: this process's open connections counted here, by address (the truth it writes)
        self.counts: dict[str, int] = {}
        self._redis: aioredis.Redis | None = None
        self._open: Any = None
        self._close: Any = None
        self._lock = asyncio.Lock()  # one change at a time: the rewrite never races one
        self._renew: asyncio.Task[None] | None = None
        self.retry = retry

    @property
    def _set(self) -> str:
        return self.prefix + "conns"

    @property
    def _mine(self) -> str:
        return self.prefix + "conns:" + self.node

    def _link(self) -> aioredis.Redis:
        if self._redis is None:
            self._redis = aioredis.Redis.from_url(
                self.url, decode_responses=True, socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout)
            self._open = self._redis.register_script(_CONNS_OPEN)
            self._close = self._redis.register_script(_CONNS_CLOSE)
        if self._renew is None:
            self._renew = asyncio.get_running_loop().create_task(self._renew_loop())
        return self._redis


    async def open(self, address: str, cap: int) -> bool:
        """Count a connection of ``address`` opening here: False (not counted) if the
        address has ``cap`` open at all the processes together."""
        async with self._lock:
            self._link()
            if not self._off():  # (else fail open: this process's own cap holds meanwhile)
                try:
                    got = await self._open(keys=[self._set], args=[
                        self.prefix + "conns:", self.node, address, str(cap),
                        str(self.lease_ms)])
                except Exception as exc:
                    self._failed(exc)
                else:
                    self._answered()
                    if int(got) >= 0:
                        return False
            self.counts[address] = self.counts.get(address, 0) + 1
            return True

    async def closed(self, address: str) -> None:
        """A connection of ``address`` counted by :meth:`open` closed."""
        async with self._lock:
            left = self.counts.get(address, 0) - 1
            if left > 0:
                self.counts[address] = left
            else:
                self.counts.pop(address, None)
            try:
                self._link()
                if not self._off():
                    await self._close(keys=[self._mine], args=[address])
            except Exception as exc:  # (the next renewal writes the right count)
                self._failed(exc)

    async def renew(self) -> None:
        """Write this process's counts again, under a new lease."""
        async with self._lock:
            if self._off():
                return
            try:
                async with self._link().pipeline(transaction=True) as pipe:
                    pipe.delete(self._mine)
                    if self.counts:
                        pipe.hset(self._mine, mapping=cast(Any, dict(self.counts)))
                        pipe.pexpire(self._mine, self.lease_ms)
                        pipe.sadd(self._set, self.node)
                    await pipe.execute()
            except Exception as exc:
                self._failed(exc)
            else:
                self._answered()

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            await self.renew()

    async def close(self) -> None:
        """Stop counting: this process's counts are taken back at once."""
        task, self._renew = self._renew, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        redis, self._redis = self._redis, None
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.delete(self._mine)
                await redis.srem(self._set, self.node)
            with contextlib.suppress(Exception):
                await redis.aclose()


class SharedMisses(_FailOpen):
    """The joins that miss (no such table, or a private table and a wrong invite code) per
    client address, ``join_miss_rate`` a second after bursts of ``join_miss_burst``, counted
    in Redis for every process of the room (the cell rate algorithm of :class:`SharedRate`,
    the key ``misses:ADDRESS`` expiring once the address's bucket would be full again): N
    processes do not give a guesser N times the tries. A join is counted before the table
    is looked up (:meth:`take_if_free`: the check and the count in one script) and given
    back if it was no miss (:meth:`give_back`): a look first and a count after let
    concurrent joins, at several processes or at one, all pass on the last one of a burst.
    Each process counts in its own ``local`` buckets too; if Redis cannot be reached, those
    decide (fail open to the process's own count, as without Redis), said once in the log
    until it answers again, and it is not asked again for ``retry`` seconds meanwhile (a
    join is not held up by a Redis that does not answer). Its own connection, opened at
    the first use."""

    WHAT = "the joins that miss per address"
    ALONE = "each process counts its own"
    #: the key's start (then the address)
    KEY = "misses:"

    def __init__(self, url: str, local: Buckets, *, prefix: str = "spades:",
                 timeout: float = 1.0, retry: float = 5.0) -> None:
        self.url = url
        self.local = local
        self.prefix = prefix
        self.cost_us = 1_000_000 / local.rate if local.rate > 0 else 0.0
        self.tolerance_us = self.cost_us * max(1.0, local.burst)
        self.timeout = timeout
        self.retry = retry
        self._redis: aioredis.Redis | None = None
        self._script: Any = None
        self._back: Any = None

    def _link(self) -> None:
        if self._redis is None:
            self._redis = aioredis.Redis.from_url(
                self.url, decode_responses=True, socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout)
            self._script = self._redis.register_script(_GCRA)
            self._back = self._redis.register_script(_GCRA_BACK)

    async def _ask(self, address: str, look: bool) -> float | None:
        """The script for ``address`` (``look``: only look), the seconds to wait (0.0:
        counted, unless only looked); None: Redis did not answer (or is not asked for
        now)."""
        if self._off():
            return None
        try:
            self._link()
            waited = await self._script(keys=[self.prefix + self.KEY + address], args=[
                f"{self.cost_us:.0f}", f"{self.tolerance_us:.0f}", "1" if look else "0"])
        except Exception as exc:
            self._failed(exc)
            return None
        self._answered()
        return int(waited) / 1_000_000

    async def take_if_free(self, address: str) -> float:
        """Count one of ``address`` if its bucket has room: 0.0 (counted), else the
        seconds to wait (nothing counted). The check and the count are one script in
        Redis, so joins at once at several processes (or at one) cannot all pass on the
        last one of a burst, as they did with :meth:`wait` then :meth:`take` (each looked
        before any counted). Counted in the process's own bucket too; with Redis not
        answering that bucket alone decides (checked and counted at once: nothing runs
        between)."""
        if self.cost_us <= 0:
            return 0.0
        shared = await self._ask(address, look=False)
        if shared is None:
            wait = self.local.wait(address)
            if wait <= 0:
                self.local.take(address)
            return wait
        if shared <= 0:
            self.local.take(address)
        return shared

    async def give_back(self, address: str) -> None:
        """Take back one that :meth:`take_if_free` counted (what it counted went no
        further: a join that was no miss, or refused for another reason). Not given back
        in Redis while it is not asked (it did not count it either)."""
        self.local.give_back(address)
        if self.cost_us <= 0 or self._off():
            return
        try:
            self._link()
            await self._back(keys=[self.prefix + self.KEY + address],
                             args=[f"{self.cost_us:.0f}"])
        except Exception as exc:
            self._failed(exc)
        else:
            self._answered()

    async def wait(self, address: str) -> float:
        """The seconds ``address`` must wait before its next one (0.0: none), nothing
        counted (a look: to count, :meth:`take_if_free`)."""
        if self.cost_us <= 0:
            return 0.0
        shared = await self._ask(address, look=True)
        return self.local.wait(address) if shared is None else shared

    async def take(self, address: str) -> None:
        """Count one of ``address`` (if its bucket has room), whatever it waits."""
        self.local.take(address)
        if self.cost_us > 0:
            await self._ask(address, look=False)

    async def close(self) -> None:
        redis, self._redis = self._redis, None
        if redis is not None:
            with contextlib.suppress(Exception):
                await redis.aclose()


class SharedJoins(SharedMisses):
    """The joins that seat or watch per client address (``join_address_rate``, bursts of
    ``join_address_burst``), counted in Redis for every process of the room as
    :class:`SharedMisses` counts the misses (key ``joins:ADDRESS``): N processes do not give
    one address's guests N times the joins. Each process counts in its own ``local``
    buckets too, and if Redis cannot be reached those decide (fail open to the process's
    own count, as without Redis: nobody is locked out), said once in the log. A join is
    checked and counted at once (:meth:`take_if_free`), and given back if it is refused
    after that for another reason (:meth:`give_back`)."""

    WHAT = "the joins per address"
    KEY = "joins:"
