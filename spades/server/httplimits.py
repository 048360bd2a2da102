"""HTTP limits, as ASGI middleware: request body size (declared or chunked) and a request
rate per client address. Validation errors are answered without echoing the input.

With several processes (``--redis``) the request rate is counted in Redis for all of them
(:class:`spades.server.room.SharedRate`): a client sending to N processes behind a proxy
gets the rate once, not N times. If Redis cannot be reached the requests are let through
(fail open): each process counts on its own, as without Redis, and says so in its log.

The open WebSockets of one client address are capped here too (``conns_per_address``):
behind a trusted reverse proxy every connection comes from the proxy, which the
connection-level cap (:mod:`spades.server.netlimits`) leaves alone, so that cap alone let
one client open any number of WebSockets through nginx. With several processes they are
counted in Redis for all of them (:class:`spades.server.room.SharedConns`): a client that
nginx spreads over N processes gets the cap once, not N times (fail open likewise)."""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spades.server.addresses import address_key
from spades.server.limits import Buckets, retry_after
from spades.server.netlimits import trusted_networks
from spades.server.settings import Settings

if TYPE_CHECKING:  # the redis package (the cluster extra) only with --redis
    from spades.server.room import SharedConns, SharedRate

log = logging.getLogger("spades.server")
#: Seconds the shared count is not tried again after Redis failed (the process's own
#: count is used meanwhile).
SHARED_RETRY = 5.0


class _TooBig(Exception):
    pass


def body_limit(settings: Settings, path: str) -> int:
    """Largest body accepted on ``path``: an uploaded record may be ``max_record_bytes``
    (plus room for the fields around it), anything else ``max_body``."""
    if path.rstrip("/") == "/api/records":
        return settings.max_record_bytes + 4096
    return settings.max_body


def too_big_message(settings: Settings, path: str, size: int | None) -> str:
    """What a 413 says: for a record, the record's limit (the one people can act on), and
    the size sent when it was declared."""
    seen = f"; this one is {size} bytes" if size is not None else ""
    if path.rstrip("/") == "/api/records":
        return f"a record may be at most {settings.max_record_bytes} bytes{seen}"
    return f"the request body may be at most {body_limit(settings, path)} bytes{seen}"


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


async def _answer(send: Send, status: int, detail: str,
                  headers: dict[str, str] | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]
    head += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


class LimitsMiddleware:
    """Refuses, before the application reads anything: more than ``http_rate`` requests a
    second from one address under /api and /ws (429 with ``Retry-After``), and bodies
    larger than :func:`body_limit` (413), whether the size is declared or the body comes
    in chunks (it is counted as it arrives and never kept)."""

    def __init__(self, app: ASGIApp, settings: Settings,
                 shared: SharedRate | None = None, conns: SharedConns | None = None) -> None:
        self.app = app
        self.settings = settings
        self.buckets = Buckets(settings.http_rate, settings.http_burst)
        self.shared = shared
        #: the open WebSockets per address of every process (``--redis``), or None
        self.conns = conns
        self._shared_off_until = 0.0
        #: open WebSockets per client address (the proxy's client's, behind one)
        self.sockets: dict[str, int] = {}
        self._trusted = trusted_networks(settings.forwarded_allow_ips)

    def _capped(self, address: str) -> bool:
        """Whether ``address`` may open no more WebSockets: it (an IPv6 one: its /64,
        :func:`address_key`) has ``conns_per_address`` open (a trusted proxy's own
        address, which carries many clients, never has)."""
        cap = self.settings.conns_per_address
        if cap <= 0 or self.sockets.get(address_key(address), 0) < cap:
            return False
        return not self._exempt(address)

    def _exempt(self, address: str) -> bool:
        """A trusted proxy's own address: not capped."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in n for n in self._trusted)

    async def _wait(self, address: str) -> float:
        """Count a request of ``address``: 0.0, or the seconds it must wait. In Redis for
        every process if there is one (and it answers), else in this process."""
        if self.shared is not None and time.monotonic() >= self._shared_off_until:
            try:
                return await self.shared.wait(address)
            except Exception as exc:  # fail open: this process's own count meanwhile
                self._shared_off_until = time.monotonic() + SHARED_RETRY
                log.warning("the request rate cannot be counted in Redis (%s: %s); each "
                            "process counts its own for %g s", type(exc).__name__, exc,
                            SHARED_RETRY)
        bucket = self.buckets.get(address)
        return 0.0 if bucket.take() else bucket.wait()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if path.startswith("/api/") or path == "/ws":
            waited = await self._wait(address_key(_address(scope)))
            if waited > 0:
                wait = retry_after(waited)
                why = (f"too many requests from your address: at most "
                       f"{self.settings.http_rate:g} a second; try again in {wait} s")
                if kind == "http":
                    await _answer(send, 429, why, {"Retry-After": wait})
                elif "websocket.http.response" in scope.get("extensions", {}):
                    await _answer(_ws_sender(send), 429, why, {"Retry-After": wait})
                else:
                    await send({"type": "websocket.close", "code": 1013})
                return
        if kind == "websocket":
            address = _address(scope)
            cap = self.settings.conns_per_address
            shared = self.conns if cap > 0 and not self._exempt(address) else None
            if self._capped(address) or (
                    shared is not None and not await shared.open(address_key(address), cap)):
                why = (f"too many open connections from your address: at most "
                       f"{self.settings.conns_per_address}")
                if "websocket.http.response" in scope.get("extensions", {}):
                    await _answer(_ws_sender(send), 429, why)
                else:
                    await send({"type": "websocket.close", "code": 1013})
                return
            address = address_key(address)
            self.sockets[address] = self.sockets.get(address, 0) + 1
            try:
                await self.app(scope, receive, send)
            finally:
                left = self.sockets[address] - 1
                if left:
                    self.sockets[address] = left
                else:
                    del self.sockets[address]
                if shared is not None:
                    await shared.closed(address)
            return
        limit = body_limit(self.settings, path)
        if limit <= 0:
            await self.app(scope, receive, send)
            return
        try:
            declared = _content_length(scope)
        except BadLength as exc:
            await _answer(send, 400, str(exc))
            return
        if declared is not None and declared > limit:
            await _answer(send, 413, too_big_message(self.settings, path, declared))
            return
        seen = 0
        too_big = False
        started = False

        async def counted() -> Message:
            nonlocal seen, too_big
            if too_big:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    too_big = True
                    if not started:
                        await _answer(send, 413, too_big_message(self.settings, path, None))
                    raise _TooBig
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if too_big:
                return  # the 413 was the answer
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooBig:
            return
        except Exception:
            if too_big:
                return
            raise


def _ws_sender(send: Send) -> Send:
    async def out(message: Message) -> None:
        kind = message["type"].replace("http.response.", "websocket.http.response.")
        await send({**message, "type": kind})
    return out


class BadLength(ValueError):
    """A ``Content-Length`` that is not a whole number of bytes."""


def _content_length(scope: Scope) -> int | None:
    """The declared body size (None: not declared). :class:`BadLength` if it is not digits
    (``int()`` would also take "+5", " 5" or "5_0")."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            if not value.isdigit() or not value.isascii():
                shown = value[:40].decode("latin-1")
                raise BadLength(f"Content-Length: {shown!r} is not a number of bytes")
            return int(value)
    return None


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 saying where and what, without the input (it could be a huge body)."""
    assert isinstance(exc, RequestValidationError)
    out: list[dict[str, Any]] = []
    for err in exc.errors()[:20]:
        item = {k: v for k, v in err.items() if k in ("type", "loc", "msg")}
        out.append(item)
    return JSONResponse({"detail": out}, status_code=422)


def install(app: FastAPI, settings: Settings) -> list[SharedRate | SharedConns]:
    """Add the HTTP limits to ``app``; with ``settings.redis``, the request rate's and the
    open WebSockets' shared counts (to be closed when the app stops)."""
    shared: SharedRate | None = None
    conns: SharedConns | None = None
    if settings.redis and settings.http_rate > 0:
        from spades.server.room import SharedRate

        shared = SharedRate(settings.redis, rate=settings.http_rate,
                            burst=settings.http_burst, prefix=settings.redis_prefix)
    if settings.redis and settings.conns_per_address > 0:
        from spades.server.room import SharedConns

        conns = SharedConns(settings.redis, prefix=settings.redis_prefix,
                            lease_ms=int(settings.lease_seconds * 1000))
    app.add_middleware(LimitsMiddleware, settings=settings, shared=shared, conns=conns)
    app.add_exception_handler(RequestValidationError, _validation_error)
    return [x for x in (shared, conns) if x is not None]
