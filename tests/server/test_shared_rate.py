"""The request rate per client address with several server processes: counted in Redis
for all of them, so a client alternating between two processes behind a proxy gets the
rate once, not twice. Real processes on a real PostgreSQL and Redis; and, with Redis
unreachable, requests go on (each process counting its own) with a warning."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

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


def test_open_websockets_are_capped_per_address_across_processes(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """``conns_per_address`` was counted by each process: a client that nginx spreads over
    N processes held N times the cap. Now the open WebSockets of an address are counted in
    Redis for the whole room: two open, one at each process, is the cap of two, and a third
    is refused at either (429); one closed at one process makes room at the other. A
    process killed with -9 while it holds some does not keep them: once its lease runs
    out, the address may open them again elsewhere."""
    import json

    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from tests.server.helpers import wait_until
    from tests.server.netclient import card_room

    opened: list[Any] = []
    tokens: dict[str, str] = {}

    def socket_to(server: Server, address: str = "203.0.113.77") -> Any:
        headers = {"X-Forwarded-For": address}  # (the client's address, as a proxy says)
        if address not in tokens:
            tokens[address] = httpx.post(server.url + "/api/guest", json={"name": "Many"},
                                         headers=headers, timeout=30).json()["token"]
        ws = connect(server.ws_url, additional_headers=headers, open_timeout=30).__enter__()
        opened.append(ws)
        ws.send(json.dumps({"type": "hello", "token": tokens[address]}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
        return ws

    def opens(server: Server) -> bool:
        try:
            socket_to(server)
        except InvalidStatus as exc:
            assert exc.response.status_code == 429, exc
            assert b"too many open connections" in exc.response.body, exc.response.body
            return False
        return True

    with card_room(2, postgres, redis_server, "conns", "--bots", "inline",
                   "--conns-per-address", "2", "--http-rate", "0") as (a, b):
        try:
            socket_to(a)
            at_b = socket_to(b)
            assert not opens(a)
            assert not opens(b)
            socket_to(b, "203.0.113.78")  # another address: its own count
            at_b.close()
            wait_until(lambda: opens(a), "room for a socket again, at a", seconds=30)
            assert not opens(b)  # (a holds the address's two)
            a.kill()
            wait_until(lambda: opens(b), "a's sockets let go after its death", seconds=30)
            assert opens(b)
            assert not opens(b)
        finally:
            for ws in opened:
                ws.close()


def test_redis_unreachable_fails_open_to_the_process_own_cap_of_websockets(
        caplog: pytest.LogCaptureFixture) -> None:
    """With Redis not answering, WebSockets are let through up to this process's own
    ``conns_per_address`` (as without Redis), and the log says so once."""
    from spades.server.room import SharedConns

    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings = Settings(redis=closed, conns_per_address=2, http_rate=0)
    release = asyncio.Event()

    async def held(scope: Scope, receive: Receive, send: Send) -> None:
        await release.wait()

    conns = SharedConns(closed, timeout=0.5)
    app = LimitsMiddleware(held, settings, conns=conns)

    async def socket() -> list[Any]:
        sent: list[Any] = []

        async def send(message: Any) -> None:
            sent.append(message)

        async def receive() -> Any:
            return {"type": "websocket.connect"}

        await app({"type": "websocket", "path": "/ws", "client": ("198.51.100.2", 1),
                   "headers": []}, receive, send)
        return sent

    async def go() -> None:
        try:
            tasks = [asyncio.create_task(socket()) for _ in range(2)]
            while app.sockets.get("198.51.100.2") != 2:
                await asyncio.sleep(0.01)
            assert await socket() == [{"type": "websocket.close", "code": 1013}]
            release.set()
            assert await asyncio.gather(*tasks) == [[], []]
            assert conns.counts == {}
        finally:
            await conns.close()

    with caplog.at_level(logging.WARNING, logger="spades.server"):
        asyncio.run(asyncio.wait_for(go(), 60))
    said = [r for r in caplog.records if "cannot be counted in Redis" in r.getMessage()]
    assert len(said) == 1, said


def test_joins_that_miss_are_counted_per_address_across_processes(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """``join_miss_rate`` was counted by each process: a guesser of invite codes whom
    nginx spreads over N processes got N times the tries. Now the misses of an address at
    a and at b add up to one burst (4 here, no refill while the test runs): past it, a
    join from that address is refused at either process."""
    from tests.server.netclient import NetPlayer, card_room

    with card_room(2, postgres, redis_server, "misses", "--bots", "inline",
                   "--limit", "join_miss_rate=0.001", "--limit", "join_miss_burst=4") as (a, b):
        guessers = [NetPlayer(a, "Guess"), NetPlayer(b, "Guess")]
        for n in range(4):  # a wrong code, then no such table, at a and at b in turn
            join = ({"invite": f"WRONG{n:03d}"} if n < 2 else
                    {"table_id": "00000000-0000-4000-8000-00000000000" + str(n)})
            ans = guessers[n % 2].request({"type": "join", **join})
            assert ans["type"] == "error" and ans["code"] == "not_found", ans
        for p in guessers:
            ans = p.request({"type": "join", "invite": "WRONG999"})
            assert ans["type"] == "error" and ans["code"] == "rate_limit", ans
            assert "wrong invite code from your address" in ans["message"]


def test_redis_unreachable_counts_the_joins_that_miss_per_process(
        caplog: pytest.LogCaptureFixture) -> None:
    """With Redis not answering, the misses are counted by the process alone (as without
    Redis), and the log says so once."""
    from spades.server.limits import Buckets
    from spades.server.room import SharedMisses

    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    misses = SharedMisses(closed, Buckets(0.001, 3), timeout=0.5)

    async def go() -> list[float]:
        try:
            waits = []
            for _ in range(4):
                waits.append(await misses.wait("198.51.100.3"))
                await misses.take("198.51.100.3")
            return waits
        finally:
            await misses.close()

    with caplog.at_level(logging.WARNING, logger="spades.server"):
        waits = asyncio.run(asyncio.wait_for(go(), 60))
    assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] > 60, waits
    said = [r for r in caplog.records if "cannot be counted in Redis" in r.getMessage()]
    assert len(said) == 1, said


def test_joins_per_address_are_counted_for_the_whole_room(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """One address's joins spread over two processes share one ``join_address_burst``
    (before: each process counted its own, and N processes gave the address N times the
    joins)."""
    from tests.server.netclient import NetPlayer, card_room, new_table

    with card_room(2, postgres, redis_server, "joins", "--limit", "join_address_rate=0.001",
                   "--limit", "join_address_burst=4", "--limit", "signup_rate=0") as (a, b):
        tables = [(s, new_table(NetPlayer(s, f"Own{i}"), {})) for i, s in enumerate((a, b))]
        answers = []
        for i in range(8):  # four at each process, in turn, each at the table it runs
            server, tid = tables[i % 2]
            p = NetPlayer(server, f"Joe{i}")
            answers.append(p.request({"type": "join", "table_id": tid, "role": "spectator"}))
        assert [m["type"] for m in answers] == ["ack"] * 4 + ["error"] * 4, answers
        assert all(m["code"] == "rate_limit" and "your address" in m["message"]
                   for m in answers[4:]), answers


def test_redis_unreachable_counts_the_joins_per_address_per_process(
        caplog: pytest.LogCaptureFixture) -> None:
    """With Redis not answering, the joins per address are counted by the process alone (as
    without Redis: nobody is locked out, nor let through past the process's own burst),
    and the log says so once."""
    from spades.server.limits import Buckets
    from spades.server.room import SharedJoins

    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    joins = SharedJoins(closed, Buckets(0.001, 3), timeout=0.5)

    async def go() -> list[float]:
        try:
            waits = []
            for _ in range(4):
                waits.append(await joins.wait("198.51.100.4"))
                await joins.take("198.51.100.4")
            return waits
        finally:
            await joins.close()

    with caplog.at_level(logging.WARNING, logger="spades.server"):
        waits = asyncio.run(asyncio.wait_for(go(), 60))
    assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] > 60, waits
    said = [r for r in caplog.records if "the joins per address cannot be counted in Redis"
            in r.getMessage()]
    assert len(said) == 1, said
