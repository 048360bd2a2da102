"""Connection limits for ``spades serve`` (uvicorn's HTTP protocol, extended).

- at most ``conns_per_address`` open connections per client address (more are closed at
  once, before anything is read), so one address cannot take every file descriptor; a
  trusted reverse proxy (``--forwarded-allow-ips``) carries many clients and is not capped;
  an IPv6 client is counted by its /64 (:func:`spades.server.addresses.address_key`);
- a request's line and headers must arrive within ``header_timeout`` seconds (408) and
  fit in ``max_header_bytes`` (431), and its body within ``body_timeout`` seconds after
  the headers (408), so silent or dripping connections are let go;
- idle keep-alive connections close after ``keep_alive`` seconds (uvicorn's own timer);
- requests sent back to back (pipelined) are read no faster than they are answered;
- a WebSocket may send at most ``frame_rate`` frames a second (bursts of ``frame_burst``)
  of every kind, pings, pongs and the fragments of a message included, and a ping is not
  answered into a write buffer already over ``send_queue_bytes`` (:func:`ws_protocol`).

Open transports are remembered per address so a WebSocket whose client reads nothing can be
cut (:func:`abort`) when a polite close cannot be written.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame

from spades.server.addresses import address_key
from spades.server.settings import Settings
from spades.server.throttle import TokenBucket

_OPEN: dict[str, set[asyncio.BaseTransport]] = {}


def _peer(transport: asyncio.BaseTransport) -> tuple[str, int] | None:
    got = transport.get_extra_info("peername")
    if isinstance(got, (tuple, list)) and len(got) >= 2:
        return str(got[0]), int(got[1])
    return None


def trusted_networks(spec: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``--forwarded-allow-ips`` as networks (``*``: every address); names are ignored."""
    out: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for item in spec.split(","):
        item = item.strip()
        if item == "*":
            return [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
        with contextlib.suppress(ValueError):
            out.append(ipaddress.ip_network(item, strict=False))
    return out


def _trusted(host: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in n for n in networks)


def admit(transport: asyncio.BaseTransport, cap: int,
          exempt: list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None = None) -> bool:
    """Count ``transport`` against its address (an IPv6 one: its /64, :func:`address_key`);
    False when the address has ``cap`` open. Addresses in ``exempt`` (trusted reverse
    proxies, which carry many clients) have no cap."""
    peer = _peer(transport)
    if peer is None:
        return True
    host = peer[0]
    if exempt and _trusted(host, exempt):
        cap = 0
    key = address_key(host)
    live = {t for t in _OPEN.get(key, ()) if not t.is_closing()}
    if cap > 0 and len(live) >= cap:
        _OPEN[key] = live
        return False
    live.add(transport)
    _OPEN[key] = live
    if len(_OPEN) > 10_000:  # forget addresses with nothing open
        for key in [k for k, v in _OPEN.items() if not any(not t.is_closing() for t in v)]:
            del _OPEN[key]
    return True


def open_count(host: str) -> int:
    """The open connections counted against ``host`` (an IPv6 one: all of its /64)."""
    return sum(1 for t in _OPEN.get(address_key(host), ()) if not t.is_closing())


#: The most a close frame's reason holds: 125 bytes of payload less the 2 of the code.
CLOSE_REASON_BYTES = 123


def close_reason(text: str) -> str:
    """``text`` cut to what a close frame carries, 123 bytes of UTF-8, at a character's
    edge (not 123 characters: "é" is two bytes)."""
    raw = text.encode("utf-8")
    if len(raw) <= CLOSE_REASON_BYTES:
        return text
    return raw[:CLOSE_REASON_BYTES].decode("utf-8", "ignore")


def abort(client: Any) -> bool:
    """Cut the connection of ``client`` (an ASGI scope's ``(host, port)``), dropping what is
    buffered for it. False if it is not known here (e.g. an in-process test client)."""
    if not isinstance(client, (tuple, list)) or len(client) < 2:
        return False
    for t in list(_OPEN.get(address_key(str(client[0])), ())):
        peer = _peer(t)
        if peer is not None and peer == (str(client[0]), client[1]):
            t.abort()  # type: ignore[attr-defined]
            return True
    return False


def _response(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


#: Bytes of what an HTTP client sent handed to the request parser at a time (see
#: ``LimitedHttpProtocol._feed``): at most some 200 requests of one read queued behind the
#: one being answered.
HTTP_SLICE = 4096


def http_protocol(settings: Settings, trusted: str = "") -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with the limits above (pass it as ``http=``).
    ``trusted``: the reverse proxies (``--forwarded-allow-ips``), not capped per address."""
    exempt = trusted_networks(trusted)

    class LimitedHttpProtocol(HttpToolsProtocol):
        _limits = settings

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._held = b""
            self._header_bytes = 0
            self._header_timer: asyncio.TimerHandle | None = None
            self._body_timer: asyncio.TimerHandle | None = None
            self._refusal: bytes | None = None
            super().connection_made(transport)
            if not admit(transport, self._limits.conns_per_address, exempt):
                transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is None and self._limits.header_timeout > 0:
                self._header_timer = self.loop.call_later(self._limits.header_timeout,
                                                          self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.write(_response(
                    408, "Request Timeout",
                    f"the request line and headers must arrive within "
                    f"{self._limits.header_timeout:g} s"))
                self.transport.close()

        def _disarm_body(self) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _body_too_slow(self) -> None:
            """The body did not arrive in time: 408 if nothing was answered yet, and the
            connection is closed (the application reading it sees a disconnect)."""
            self._body_timer = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            answered = cycle is not None and cycle.response_started
            if cycle is not None:
                cycle.disconnected = True  # nothing more is read or written for it
                cycle.message_event.set()
            if not answered:
                self.transport.write(_response(
                    408, "Request Timeout",
                    f"the request body must arrive within {self._limits.body_timeout:g} s "
                    "of its headers"))
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            self._held += data
            self._feed()

        def _feed(self) -> None:
            """Hand what the client sent to the parser a slice at a time, and none while
            requests parsed before wait for their turn (pipelined): uvicorn reads on as
            soon as one is answered, so a client that sends requests back to back without
            waiting had every one of them parsed and queued (the server grew by 400 MB in
            6 s, and everyone's answers waited)."""
            while self._held and not self.transport.is_closing():
                if self.pipeline:  # (reading resumes once they have all been started)
                    self.flow.pause_reading()
                    return
                data, self._held = self._held[:HTTP_SLICE], self._held[HTTP_SLICE:]
                super().data_received(data)
                if self.transport.get_protocol() is not self:  # upgraded to a WebSocket
                    self._held = b""  # (as uvicorn drops what follows the upgrade)
                    return

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.pipeline:  # (uvicorn resumed reading: the others still wait)
                self.flow.pause_reading()
            elif self._held:
                self.loop.call_soon(self._feed)

        def connection_lost(self, exc: Exception | None) -> None:
            self._held = b""
            self._disarm()
            self._disarm_body()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            self._header_bytes = 0
            self._arm()
            super().on_message_begin()

        def _count(self, n: int) -> None:
            self._header_bytes += n
            cap = self._limits.max_header_bytes
            if 0 < cap < self._header_bytes and self._refusal is None:
                self._refusal = _response(
                    431, "Request Header Fields Too Large",
                    f"the request line and headers may be at most "
                    f"{self._limits.max_header_bytes} bytes")
                raise ValueError("headers too large")  # stops the parser: answered below

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._disarm()
            upgrade = self.parser.should_upgrade() and self._should_upgrade()
            super().on_headers_complete()
            if not upgrade and self._limits.body_timeout > 0:
                self._disarm_body()
                self._body_timer = self.loop.call_later(self._limits.body_timeout,
                                                        self._body_too_slow)

        def on_message_complete(self) -> None:
            self._disarm_body()
            super().on_message_complete()

        def send_400_response(self, msg: str) -> None:
            if self._refusal is not None:
                self._disarm()
                if not self.transport.is_closing():
                    self.transport.write(self._refusal)
                    self.transport.close()
                return
            super().send_400_response(msg)

    return LimitedHttpProtocol


#: Bytes of what a WebSocket client sent handed to the frame parser at a time: between two
#: slices the frames are counted, so a read of 256 KiB of 6-byte pings (43,000 frames) is
#: not parsed whole before the first is counted.
WS_SLICE = 4096


def ws_protocol(settings: Settings) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol (websockets' sans-I/O one, uvicorn's default) with a
    rate of frames per connection (pass it as ``ws=``).

    Pings, pongs and the fragments of a message are handled by the protocol, below the
    application's message rate: a client could send them as fast as its link takes them.
    Each is parsed on the event loop (a flood of empty pings or fragments from one
    connection held everyone's messages up for seconds), each ping is answered with a pong
    written whatever the client reads (one that sends 125-byte pings and reads nothing
    grew the server by 22 MB a second), and each empty fragment of a message never
    finished was kept. Past ``frame_rate`` frames a second (bursts of ``frame_burst``;
    0: no limit) the connection is closed (1008, saying why); a ping that comes while
    more than ``send_queue_bytes`` wait to be written to its client (it does not read)
    cuts the connection."""

    class LimitedWebSocketProtocol(WebSocketsSansIOProtocol):
        _limits = settings

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._frames = TokenBucket(self._limits.frame_rate, self._limits.frame_burst,
                                       self.loop.time)
            self._over = False

        def data_received(self, data: bytes) -> None:
            for start in range(0, len(data), WS_SLICE):
                if self._over or self.transport.is_closing():
                    return
                super().data_received(data[start:start + WS_SLICE] if len(data) > WS_SLICE
                                      else data)

        def _counted(self) -> bool:
            """Count one frame; False (and the connection closed) past the rate."""
            if self._over:
                return False
            if self._frames.take():
                return True
            self._over = True
            rate = self._limits.frame_rate
            self.conn.fail(1008, close_reason(
                f"too many WebSocket frames: at most {rate:g} a second, pings, pongs and "
                "fragments of messages included"))
            if self.conn.close_sent is not None:
                self.handle_parser_exception()  # the close frame, the app told, closed
            else:
                self.queue.put_nowait({"type": "websocket.disconnect", "code": 1008})
                self.transport.close()
            return False

        def handle_text(self, event: Frame) -> None:
            if self._counted():
                super().handle_text(event)

        def handle_bytes(self, event: Frame) -> None:
            if self._counted():
                super().handle_bytes(event)

        def handle_cont(self, event: Frame) -> None:
            if self._counted():
                super().handle_cont(event)

        def handle_pong(self, event: Frame) -> None:
            if self._counted():
                super().handle_pong(event)

        def handle_ping(self) -> None:
            if not self._counted():
                return
            cap = self._limits.send_queue_bytes
            if 0 < cap < self.transport.get_write_buffer_size():
                # it reads nothing: its pongs (and a close frame) would only pile up
                self._over = True
                self.queue.put_nowait({"type": "websocket.disconnect", "code": 1008})
                self.transport.abort()
                return
            super().handle_ping()

    return LimitedWebSocketProtocol
