"""The caps and rates per client address count an IPv6 client by its /64 (one client
usually holds a whole /64: counted per address, it could open as many connections, and
spend as many rates, as it has addresses); an IPv4 client by its address, and an
IPv4-mapped IPv6 address as its IPv4 address."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send

from spades.server import netlimits
from spades.server.addresses import address_key
from spades.server.httplimits import LimitsMiddleware
from spades.server.settings import Settings


@pytest.mark.parametrize(("host", "key"), [
    ("192.0.2.1", "192.0.2.1"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:DB8:1:2::9", "2001:db8:1:2::/64"),  # (written one way for all)
    ("2001:db8:1:2::", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),  # the next /64: another client
    ("::ffff:192.0.2.1", "192.0.2.1"),  # IPv4-mapped: its IPv4 address
    ("::ffff:c000:201", "192.0.2.1"),
    ("::1", "::1"),  # loopback and link-local: each address its own
    ("fe80::1", "fe80::1"),
    ("", ""),  # no address, or not an address: as it is
    ("testclient", "testclient"),
])
def test_an_address_is_counted_as(host: str, key: str) -> None:
    assert address_key(host) == key


class _Transport:
    """What :func:`netlimits.admit` sees of a connection: its peer and whether it closes."""

    def __init__(self, host: str, port: int) -> None:
        self.peer = (host, port)
        self.closing = False
        self.aborted = False

    def get_extra_info(self, name: str) -> Any:
        return self.peer if name == "peername" else None

    def is_closing(self) -> bool:
        return self.closing

    def abort(self) -> None:
        self.aborted = self.closing = True


def test_open_connections_are_capped_per_ipv6_64(monkeypatch: pytest.MonkeyPatch) -> None:
    """``conns_per_address`` (the connection-level cap): three open connections from three
    addresses of one /64 are that client's three; a fourth from yet another of its
    addresses is refused (before: each address had a cap of its own). Another /64, and an
    IPv4 address, have their own; an IPv4-mapped address counts as its IPv4 address. A
    connection is cut by its own address and port, not a neighbour's."""
    monkeypatch.setattr(netlimits, "_OPEN", {})
    admit = netlimits.admit
    mine = [_Transport(f"2001:db8:1:2::{i}", 5000 + i) for i in range(1, 5)]
    assert [admit(t, 3) for t in mine] == [True, True, True, False]  # type: ignore[arg-type]
    assert netlimits.open_count("2001:db8:1:2:ffff::1") == 3
    assert admit(_Transport("2001:db8:1:3::1", 5000), 3)  # type: ignore[arg-type]
    v4 = [_Transport("192.0.2.1", 6000), _Transport("192.0.2.1", 6001),
          _Transport("::ffff:192.0.2.1", 6002), _Transport("::ffff:192.0.2.1", 6003)]
    assert [admit(t, 3) for t in v4] == [True, True, True, False]  # type: ignore[arg-type]
    assert admit(_Transport("192.0.2.2", 6000), 3)  # type: ignore[arg-type]
    assert netlimits.abort(("2001:db8:1:2::2", 5002))
    assert [t.aborted for t in mine] == [False, True, False, False]
    assert admit(_Transport("2001:db8:1:2::5", 5005), 3)  # type: ignore[arg-type]


def test_open_websockets_and_requests_are_counted_per_ipv6_64() -> None:
    """The cap on open WebSockets (the one that holds behind a trusted proxy, with the
    client's address passed on) and the request rate of :class:`LimitsMiddleware` count
    the addresses of one /64 together."""
    settings = Settings(conns_per_address=2, http_rate=0.001, http_burst=3)
    release = asyncio.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await release.wait()  # (the WebSocket stays open until the test lets it go)

    limits = LimitsMiddleware(app, settings)

    async def socket_from(host: str) -> list[Message]:
        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)

        async def receive() -> Message:
            return {"type": "websocket.connect"}

        scope = {"type": "websocket", "path": "/ws", "client": (host, 4000), "headers": []}
        await limits(scope, receive, send)
        return sent

    async def go() -> None:
        held = [asyncio.create_task(socket_from(f"2001:db8:7:7::{i}")) for i in (1, 2)]
        for _ in range(20):
            await asyncio.sleep(0)
        assert limits.sockets == {"2001:db8:7:7::/64": 2}
        refused = await socket_from("2001:db8:7:7::3")  # a third address of that /64
        assert refused == [{"type": "websocket.close", "code": 1013}], refused
        other = asyncio.create_task(socket_from("2001:db8:7:8::1"))  # another /64
        for _ in range(20):
            await asyncio.sleep(0)
        assert limits.sockets == {"2001:db8:7:7::/64": 2, "2001:db8:7:8::/64": 1}
        release.set()
        assert await asyncio.gather(*held, other) == [[], [], []]
        assert limits.sockets == {}
        # the request rate: the three WebSockets asked from that /64 (from three
        # addresses) spent its whole burst; the other /64 has some left
        assert limits.buckets.get("2001:db8:7:7::/64").wait() > 0
        assert limits.buckets.get("2001:db8:7:8::/64").wait() == 0

    asyncio.run(go())


def test_a_client_s_address_is_its_64_for_the_caps_on_tables_chat_and_joins() -> None:
    """A WebSocket client's address, which the caps and rates per address of the tables,
    chat lines, joins and spectators count (and which a process passes on to the process
    running a table), is its /64 for an IPv6 client."""
    from types import SimpleNamespace

    from spades.server.hub import Conn

    user = SimpleNamespace(id=1, name="Ann", guest=True)
    for host, key in (("2001:db8:5:6::77", "2001:db8:5:6::/64"),
                      ("::ffff:198.51.100.4", "198.51.100.4"), ("198.51.100.4", "198.51.100.4")):
        ws = SimpleNamespace(client=SimpleNamespace(host=host, port=1))
        assert Conn(ws, user, Settings()).address == key  # type: ignore[arg-type]
