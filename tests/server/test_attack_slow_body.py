"""A hostile client against a real ``spades serve`` on 127.0.0.1: a request body that
trickles in, a byte a second, after its headers. It is answered 408 and closed within
``body_timeout`` (issue 15: "idle/header timeouts"); WebSockets are not affected."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.netclient import NetPlayer, free_port
from tests.server.test_attack_net import LimitedServer

BODY_TIMEOUT = 2.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LimitedServer]:
    s = LimitedServer(tmp_path / "body.sqlite3", free_port(), "--limit",
                      f"body_timeout={BODY_TIMEOUT:g}")
    s.start()
    try:
        yield s
    finally:
        s.stop()


HEADS = {
    "declared": b"Content-Length: 200\r\n",
    "chunked": b"Transfer-Encoding: chunked\r\n",
}


@pytest.mark.parametrize("framing", list(HEADS))
def test_a_body_that_trickles_in_is_answered_408_in_time(server: LimitedServer,
                                                         framing: str) -> None:
    ws = NetPlayer(server, "Ann")  # a WebSocket open across the whole drip
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + HEADS[framing] + b"\r\n")
        start = time.monotonic()
        answer = b""
        sent = 0
        for _ in range(30):  # at most 30 bytes, one a second (the whole body would take 200 s)
            ready = select.select([s], [], [], 1.0)[0]  # the drip's pace: a byte a second
            if ready:
                answer = s.recv(4096)
                break
            byte = b"1\r\n \r\n" if framing == "chunked" else b" "
            try:
                s.sendall(byte)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 1
        took = time.monotonic() - start
        assert answer.startswith(b"HTTP/1.1 408"), (answer, sent, took)
        assert b"body" in answer
        assert took < BODY_TIMEOUT + 3, took
        s.settimeout(10)
        while s.recv(4096):  # then it is closed (a timeout here fails the test)
            pass
    # The server is still there for everyone, and the WebSocket opened before is untouched.
    assert httpx.post(server.url + "/api/guest", json={"name": "Bea"}, timeout=10
                      ).status_code == 200
    ws.send({"type": "ping", "ref": 1})
    assert ws.until(lambda m: m["type"] == "pong")["ref"] == 1
    ws.close()
