"""More hostile clients: against a real ``spades serve`` on 127.0.0.1, WebSocket frames
that never reach the application's message rate (pings, pongs, fragments of a message),
requests sent back to back;
in process, headers the server could not read, ids and names PostgreSQL cannot take.
Bounded in count and time, loopback only."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spades.server.auth import PASSWORD_WORKERS
from spades.server.settings import Settings
from spades.store.schema import sessions
from tests.server.helpers import Player, guest, hub_of, in_process, wait_until
from tests.server.netclient import NetPlayer, Server, free_port
from tests.server.test_attack_net import LimitedServer, rss_mb

PING, PONG, TEXT, CONT, CLOSE = 0x9, 0xA, 0x1, 0x0, 0x8


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., LimitedServer]]:
    started: list[Server] = []

    def start(*extra: str) -> LimitedServer:
        s = LimitedServer(tmp_path / "more.sqlite3", free_port(), *extra)
        started.append(s)
        return s.start()

    yield start
    for s in started:
        s.stop()


def frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """A client's frame (masked, as a client's must be), payload under 126 bytes."""
    assert len(payload) < 126
    mask = os.urandom(4)
    return (bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


class Raw:
    """A WebSocket opened by hand, signed in, that writes frames as they are given."""

    def __init__(self, server: Server, name: str) -> None:
        token = httpx.post(server.url + "/api/guest", json={"name": name},
                           timeout=10).json()["token"]
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        self.sock.sendall(
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n")
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            got = self.sock.recv(4096)
            assert got, "the handshake was refused"
            self.buf += got
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        hello = json.dumps({"type": "hello", "token": token}).encode()
        self.sock.sendall(frame(TEXT, hello))
        assert self.next()[0] == TEXT  # welcome

    def next(self) -> tuple[int, bytes]:
        """The server's next frame: (opcode, payload); (-1, b"") when the connection ends
        (closed or cut) first."""
        while True:
            if len(self.buf) >= 2:
                n = self.buf[1] & 0x7F
                at = 2
                if n == 126:
                    n, at = struct.unpack("!H", self.buf[2:4])[0], 4
                elif n == 127:
                    n, at = struct.unpack("!Q", self.buf[2:10])[0], 10
                if len(self.buf) >= at + n:
                    op, data = self.buf[0] & 0x0F, self.buf[at:at + n]
                    self.buf = self.buf[at + n:]
                    return op, data
            try:
                got = self.sock.recv(65536)
            except ConnectionResetError:
                return -1, b""
            if not got:
                return -1, b""
            self.buf += got

    def close_frame(self) -> tuple[int, str] | None:
        """Read up to the server's close frame: its code and reason (None: the connection
        ended without one). Waits at most 10 s for each frame."""
        while True:
            op, data = self.next()
            if op == -1:
                return None
            if op == CLOSE:
                return struct.unpack("!H", data[:2])[0], data[2:].decode()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


@pytest.mark.parametrize("kind", ["ping", "pong", "fragment"])
def test_pings_pongs_and_fragments_count_against_a_rate_of_frames(
        serve: Callable[..., LimitedServer], kind: str) -> None:
    """Pings, pongs and the fragments of a message are answered (or kept) by the WebSocket
    protocol, below the application's message rate: before, a client could send them as
    fast as its link took them (see the flood test below). Past ``frame_burst`` (here 20,
    at a rate that does not refill in the test) the connection is closed with 1008 and a
    reason that says why."""
    server = serve("--limit", "frame_rate=0.01", "--limit", "frame_burst=20")
    raw = Raw(server, "Eve")
    try:
        if kind == "fragment":  # a message begun, then empty fragments, never finished
            burst = frame(TEXT, b'{"type": ', fin=False) + frame(CONT, fin=False) * 24
        else:
            burst = frame(PING if kind == "ping" else PONG, b"x" * 125) * 25
        raw.sock.sendall(burst)  # 3 KiB: one read of the server's
        closed = raw.close_frame()
        assert closed is not None, "the connection was kept (or cut without a reason)"
        code, reason = closed
        assert code == 1008, closed
        assert reason.startswith("too many WebSocket frames: at most 0.01 a second"), reason
    finally:
        raw.close()
    # Everyone else is served as before; a well-behaved client's ping is answered.
    ann = NetPlayer(server, "Ann")
    try:
        assert ann.ws.ping().wait(10)
        assert ann.request({"type": "create", "options": {"cpu": "random"}})["type"] == "ack"
    finally:
        ann.close()


def test_a_flood_of_pings_from_a_client_that_reads_nothing_is_cut(
        serve: Callable[..., LimitedServer]) -> None:
    """A client sends 125-byte pings as fast as it can and reads none of the pongs: before,
    every pong was written into the server's memory (22 MB more a second, measured, for as
    long as the client went on; 6-byte pings instead held every other client's messages
    up for seconds). Now the connection is closed once past the rate of frames (100 a
    second, bursts of 200): the client cannot send 40 MB, and the server's memory stays
    where it was."""
    server = serve()
    raw = Raw(server, "Eve")
    raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    base = rss_mb(server.pid)
    chunk = frame(PING, b"x" * 125) * 500  # 65 KB
    sent = 0
    try:
        while sent < 40_000_000:
            try:
                raw.sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError, TimeoutError):
                break
            sent += len(chunk)
        assert sent < 40_000_000, "the server took 40 MB of pings"
        assert rss_mb(server.pid) - base < 20, (base, rss_mb(server.pid))
    finally:
        raw.close()
    ann = NetPlayer(server, "Ann")
    try:
        assert ann.request({"type": "create", "options": {"cpu": "random"}})["type"] == "ack"
    finally:
        ann.close()


@pytest.mark.parametrize("origin", ["http://[::1", "http://[", "http://]:80"])
def test_an_origin_that_is_no_url_is_refused_not_a_server_error(
        client: TestClient, origin: str) -> None:
    """An ``Origin`` that ``urlsplit`` cannot read (an IPv6 bracket left open): before, the
    handshake raised, was answered 500, and wrote a 40-line traceback to the log at each
    try (ten a second from one address). Refused as any foreign origin is (403, with the
    once-a-minute warning naming it)."""
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws", headers={"origin": origin}) as ws:
        ws.receive_text()


def test_a_nul_in_an_id_or_a_name_is_not_found_not_a_database_error(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """A game id in the path, or a name to sign in with, holding U+0000: PostgreSQL refuses
    the query, and before, the answer was 503 "the database is not answering" (a monitor or
    a player reads the server as down) with an error in the log at each request. No id or
    name holds one: not found, as any other that is not there, on either database."""
    token = guest(client, "Ann")
    auth = {"Authorization": f"Bearer {token}"}
    with caplog.at_level(logging.ERROR, logger="spades.server"):
        assert client.get("/api/games/a%00b/record", headers=auth).status_code == 404
        assert client.get("/api/tables/a%00b/sheet", headers=auth).status_code == 404
        r = client.post("/api/login", json={"name": "Ann\x00", "password": "long enough"})
        assert r.status_code == 401, r.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert client.get("/api/health").json()["ok"] is True


def test_requests_sent_back_to_back_are_read_no_faster_than_answered(
        serve: Callable[..., LimitedServer]) -> None:
    """One connection sends 60,000 requests back to back (HTTP pipelining) and reads the
    answers. uvicorn reads on as soon as one request is answered, so before, every request
    sent was parsed and queued: the server grew by some 400 MB in 6 s (and everyone's
    answers waited). Now what follows waits in the socket until the requests before it
    have been started: the server's memory stays where it was, and every request is
    answered, in order."""
    server = serve("--limit", "http_rate=0")  # (a 429 closes the connection)
    count = 30_000
    base = peak = rss_mb(server.pid)
    answers = bytearray()
    done = threading.Event()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)

    def read() -> None:
        with contextlib.suppress(OSError):
            while answers.count(b"HTTP/1.1 ") < count:
                got = sock.recv(1 << 20)
                if not got:
                    break
                answers.extend(got)
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n" * count)

        def answered() -> bool:
            nonlocal peak
            peak = max(peak, rss_mb(server.pid))
            return done.is_set()

        wait_until(answered, "the answers", 120, every=0.05)
        assert answers.count(b"HTTP/1.1 ") == count
        print(f"pipelined: server RSS {base:.0f} MB before, {peak:.0f} MB at most")
        assert peak - base < 15, (base, peak)
    finally:
        sock.close()
        reader.join(10)


@pytest.mark.parametrize("blank", ["\u3164", "\u115f", "\u1160", "\uffa0"])
def test_names_chat_and_tables_cannot_be_drawn_blank(client: TestClient, blank: str) -> None:
    """The Hangul fillers are letters to Python (``isalnum``) and are drawn as nothing:
    before, a guest could be called ``"ㅤ"``, shown to everyone at a table, in its chat and
    in the lobby as no name at all, or put one before another's name to hide it there; a
    chat line or a table's name of only such characters (or the blank braille pattern)
    was shown blank. They are read as spaces: a name of only them is empty (422), one
    before a name is dropped, a chat line of only them is empty (``bad_message``)."""
    r = client.post("/api/guest", json={"name": blank * 3})
    assert r.status_code == 422, r.text
    r = client.post("/api/guest", json={"name": blank + "Ann"})
    assert r.status_code == 200 and r.json()["user"]["name"] == "Ann", r.text
    ann = Player(client, "Ann", r.json()["token"])
    assert ann.request({"type": "create", "options": {"cpu": "random",
                                                       "name": blank * 5}})["type"] == "ack"
    table = ann.until(lambda m: m["type"] == "table")["table"]
    assert table["name"].strip() and blank not in table["name"], table["name"]
    said = ann.request({"type": "chat", "text": f"{blank} \u2800{blank}"})
    assert said["type"] == "error" and said["code"] == "bad_message", said


def test_a_malformed_record_costs_its_size_in_the_upload_rate(client: TestClient) -> None:
    """A record upload is read (its JSON parsed and checked) on the event loop: 1 MB of
    ``{}`` takes some 45 ms, when nobody else is served. A malformed one was refused (422)
    before the upload rate was looked at, and never counted: one guest could send them at
    the HTTP rate (a stall of 2.6 s for a burst of 60). It now costs its size as a good one
    does (one upload per 100 KB begun), and past the rate it is refused (429) before it
    is read."""
    auth = {"Authorization": f"Bearer {guest(client, 'Eve')}",
            "Content-Type": "application/json"}
    body = ('{"record": {"x": [' + ",".join(["{}"] * 290_000) + ']}, "mode": "bogus"}').encode()
    assert 800_000 < len(body) < 1_000_000
    answers = [client.post("/api/records", content=body, headers=auth) for _ in range(4)]
    assert [a.status_code for a in answers] == [422, 429, 429, 429], answers
    assert "upload records" in answers[1].json()["detail"]
    assert int(answers[1].headers["Retry-After"]) >= 1
    other = {"Authorization": f"Bearer {guest(client, 'Ann')}"}
    fine = client.post("/api/records", json={"record": {"x": 1}}, headers=other)
    assert fine.status_code == 422 and "record" in fine.text  # (read: it is no record)


def test_sign_ins_sent_together_check_two_passwords_at_a_time(
        serve: Callable[..., LimitedServer]) -> None:
    """Each password check is argon2id: 64 MiB and four threads for 0.1 s or more. Ten
    sign-ins sent together (one account's owner may; wrong passwords to ten names do as
    well) ran as many at once as the default thread pool has workers, six on two cores
    and up to 32 on a big machine: the server grew by 380 MB (measured). They now wait
    their turn, two at a time here (``auth.PASSWORD_WORKERS``), and all are answered."""
    server = serve()
    r = httpx.post(server.url + "/api/register",
                   json={"name": "Mallory", "password": "long enough"}, timeout=60)
    assert r.status_code == 200, r.text
    base = peak = rss_mb(server.pid)
    codes: list[int] = []

    def sign_in() -> None:
        codes.append(httpx.post(server.url + "/api/login", timeout=120, json={
            "name": "Mallory", "password": "long enough"}).status_code)

    threads = [threading.Thread(target=sign_in) for _ in range(10)]
    for t in threads:
        t.start()

    def answered() -> bool:
        nonlocal peak
        peak = max(peak, rss_mb(server.pid))
        return not any(t.is_alive() for t in threads)

    wait_until(answered, "the sign-ins", 120, every=0.01)
    assert codes == [200] * 10, codes
    assert peak - base < 100 + 64 * PASSWORD_WORKERS, (base, peak)  # (before: 380 MB)


def test_signing_in_again_and_again_keeps_only_the_newest_sessions(settings: Settings) -> None:
    """Every sign-in stored a session for 30 days, and nothing bounded how many one account
    had: signing in again and again (as fast as the password checks allow, about 864,000 a
    day) filled the sessions table. A sign-in past ``sessions_per_user`` now ends that
    account's oldest sessions; the newest ones, this one among them, go on working."""
    settings.sessions_per_user = 3
    with in_process(settings) as client:
        r = client.post("/api/register", json={"name": "Mallory", "password": "long enough"})
        assert r.status_code == 200, r.text
        first = r.json()["token"]
        tokens = [first]
        for _ in range(5):
            r = client.post("/api/login", json={"name": "Mallory", "password": "long enough"})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        works = [client.get("/api/me", headers={"Authorization": f"Bearer {t}"}).status_code
                 for t in tokens]
        assert works == [401, 401, 401, 200, 200, 200], works
        store = hub_of(client).store
        with store.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(sessions)).scalar()
        assert count == 3
