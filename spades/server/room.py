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
* **liveness**: ``alive:ID`` exists while a node runs.

The database stays the single source of truth for games: the holder of a lease writes a
table's events, and the store's unique event numbers refuse a second writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

log = logging.getLogger("spades.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]

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


class Room:
    """One node's link to the card room's Redis."""

    def __init__(self, url: str, *, lease_seconds: float = 3.0, prefix: str = "spades:",
                 node: str | None = None) -> None:
        self.url = url
        self.node = node or secrets.token_hex(8)
        self.lease_ms = max(300, int(lease_seconds * 1000))
        self.prefix = prefix
        self.owned: set[str] = set()
        self.on_message: Handler | None = None
        self.on_lost: Callable[[str], Awaitable[None]] | None = None
        self._redis: aioredis.Redis | None = None
        self._out: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()

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
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        await self._redis.aclose()
        self._redis = None

    async def _alive(self) -> None:
        await self.redis.set(self._key("alive", self.node), "1", px=self.lease_ms)

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

    async def owner(self, table_id: str) -> str | None:
        value = await self.redis.get(self._key("owner", table_id))
        return None if value is None else str(value)

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        await self.redis.eval(_RELEASE, 1, self._key("owner", table_id), self.node)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                await self._alive()
                for tid in list(self.owned):
                    kept = await self.redis.eval(_RENEW, 1, self._key("owner", tid), self.node,
                                                 str(self.lease_ms))
                    if not kept and tid in self.owned:
                        self.owned.discard(tid)
                        log.error("lost the lease of table %s", tid)
                        if self.on_lost is not None:
                            await self.on_lost(tid)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not renew leases")

    # Messages ---------------------------------------------------------------------------

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Publish to one node; messages leave in the order they are given."""
        self._out.put_nowait((self._key("node", node), json.dumps(message)))

    def broadcast(self, message: dict[str, Any]) -> None:
        """Publish to every node (this one included)."""
        self._out.put_nowait((self._key("room"), json.dumps(message)))

    async def _write(self) -> None:
        while True:
            item = await self._out.get()
            if item is None:
                return
            channel, text = item
            try:
                await self.redis.publish(channel, text)
            except Exception:
                log.exception("could not publish on %s", channel)

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self._key("node", self.node), self._key("room"))
        self._ready.set()
        try:
            while True:
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
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

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

    async def invite(self, invite: str) -> str | None:
        value = await self.redis.hget(self._key("invites"), invite)
        return None if value is None else str(value)
