"""The request rate per client address with several server processes: counted in Redis
for all of them, so a client alternating between two processes behind a proxy gets the
rate once, not twice. Real processes on a real PostgreSQL and Redis; and, with Redis
unreachable, requests go on (each process counting its own) with a warning."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from spades.server.httplimits import LimitsMiddleware
from spades.server.room import SharedRate
from spades.server.settings import Settings
from tests.server.netclient import Server, free_port
from tests.services import PostgresServer, RedisServer

BURST = 10


def test_two_processes_count_one_rate_per_address(postgres: PostgresServer,
                                                  redis_server: RedisServer) -> None:
    db = postgres.create_database("rate")
    # One request every 100 s after a burst of 10: no refill while the test runs.
    extra = ("--bots", "inline", "--cpu-delay", "0", "--redis", redis_server.url,
             "--redis-prefix", f"r{free_port()}:", "--http-rate", "0.01",
             "--limit", f"http_burst={BURST}")
    servers: list[Server] = []
    try:
        servers = [Server(db, free_port(), *extra).start() for _ in range(2)]
        # A client behind the trusted proxy (127.0.0.1): its own address, a fresh count.
        headers = {"X-Forwarded-For": "203.0.113.9"}
        codes = [httpx.get(servers[i % 2].url + "/api/health", headers=headers,
                           timeout=10).status_code for i in range(2 * BURST)]
        assert codes[:BURST] == [200] * BURST, codes
        assert codes[BURST:] == [429] * BURST, codes  # from both processes
        refused = httpx.get(servers[0].url + "/api/health", headers=headers, timeout=10)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 60
        # Another address has its own count.
        other = httpx.get(servers[1].url + "/api/health",
                          headers={"X-Forwarded-For": "203.0.113.10"}, timeout=10)
        assert other.status_code == 200
    finally:
        for s in servers:
            s.stop()


def test_the_shared_count_is_one_script_per_request_and_expires(
        redis_server: RedisServer) -> None:
    async def go() -> None:
        rate = SharedRate(redis_server.url, rate=2.0, burst=3, prefix=f"s{free_port()}:")
        try:
            waits = [await rate.wait("198.51.100.7") for _ in range(4)]
            assert waits[:3] == [0.0, 0.0, 0.0] and 0 < waits[3] <= 0.5
            assert rate._redis is not None
            key = rate.prefix + "rate:198.51.100.7"
            ttl = await rate._redis.pttl(key)
            assert 0 < ttl <= 1501  # gone once the bucket would be full again
        finally:
            await rate.close()
    asyncio.run(go())


async def _ok(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_redis_unreachable_fails_open_to_the_process_own_count(
        caplog: pytest.LogCaptureFixture) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings = Settings(redis=closed, http_rate=0.01, http_burst=3)
    app = LimitsMiddleware(_ok, settings,
                           SharedRate(closed, rate=0.01, burst=3, timeout=0.5))

    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("198.51.100.1", 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return [(await client.get("/api/health")).status_code for _ in range(5)]

    with caplog.at_level(logging.WARNING, logger="spades.server"):
        codes = asyncio.run(go())
    assert codes == [200, 200, 200, 429, 429]  # as without Redis: this process's count
    assert any("cannot be counted in Redis" in r.getMessage() for r in caplog.records)
