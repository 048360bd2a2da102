"""A hostile client against a real ``spades serve`` on 127.0.0.1: slow readers and memory,
silent connections and file descriptors, a 100 MB chunked body, kill -9 and the bot workers.
Each reproduces a finding of issue 15; bounded in count and time, loopback only."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.helpers import wait_until
from tests.server.netclient import NetPlayer, Server, free_port

#: What 20 slow readers may add to the server's memory (docs/server.md, "Limits": each may
#: have 1 MB queued, send_queue_bytes; the rest is allowance for the interpreter).
SLOW_READERS_RSS_MB = 40


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*extra: str, nofile: int | None = None) -> Server:
        s = LimitedServer(tmp_path / "net.sqlite3", free_port(), *extra, nofile=nofile)
        started.append(s)
        return s.start()

    yield start
    for s in started:
        s.stop()


class LimitedServer(Server):
    """``spades serve`` in a subprocess, optionally with fewer file descriptors."""

    def __init__(self, db: Path, port: int, *extra: str, nofile: int | None = None) -> None:
        super().__init__(db, port, "--bots", "inline", "--cpu-delay", "0", *extra)
        self.nofile = nofile

    def start(self) -> LimitedServer:
        limit = self.nofile

        def lower() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spades", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--db", str(self.db), *self.extra],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=lower)
        wait_until(self.healthy, "the server to start", 30, every=0.05)
        return self

    def healthy(self) -> bool:
        try:
            return httpx.get(self.url + "/api/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


class RawSocket:
    """A WebSocket client that writes frames and reads nothing (a tiny receive buffer)."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.bind((source, 0))
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            got = self.sock.recv(1)
            assert got, "the handshake was refused"
            head += got
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, msg: dict[str, object]) -> None:
        data = json.dumps(msg).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack("!H", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def closed_by_server(self, seconds: float = 15) -> bool:
        """Read what is buffered; True when the server has closed or cut the connection."""
        self.sock.settimeout(seconds)
        try:
            while self.sock.recv(65536):
                pass
        except (ConnectionResetError, BrokenPipeError):
            return True
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def test_slow_readers_are_dropped_and_memory_stays_bounded(
        serve: Callable[..., Server]) -> None:
    server = serve("--limit", "http_rate=0", "--limit", "chat_rate=0",  # (the chat history
                   "--limit", "table_chat_rate=0",                   # is written quickly)
                   "--limit", "chat_address_rate=0",
                   "--limit", "snapshot_rate=0",  # (resyncs fill the queues)
                   "--limit", "snapshot_address_rate=0")
    assert isinstance(server, LimitedServer)
    readers: list[RawSocket] = []
    try:
        for i in range(20):
            token = httpx.post(server.url + "/api/guest", json={"name": f"slow{i}"},
                               timeout=10).json()["token"]
            r = RawSocket(server.port)
            r.send({"type": "hello", "token": token})
            r.send({"type": "create", "options": {"cpu": "random", "name": f"slow {i}"}})
            for k in range(38):  # a long chat history makes every snapshot big
                r.send({"type": "chat", "text": f"{k:03d} " + "w" * 290})
            readers.append(r)
        wait_until(lambda: len(httpx.get(server.url + "/api/tables").json()) == 20,
                   "the 20 tables", every=0.05)
        base = rss_mb(server.pid)
        peak = base
        for round_ in range(400):  # 20 snapshots a second from each: under the rate limit
            for r in readers:
                with contextlib.suppress(OSError):
                    r.send({"type": "resync"} if round_ % 20 else {"type": "lobby"})
            peak = max(peak, rss_mb(server.pid))
            time.sleep(0.05)
        peak = max(peak, rss_mb(server.pid))
        print(f"slow readers: server RSS {base:.0f} MB before, {peak:.0f} MB at most")
        assert peak - base < SLOW_READERS_RSS_MB, (base, peak)
        assert all(r.closed_by_server() for r in readers), "a slow reader was kept"
        # Everyone else is served as before.
        p = NetPlayer(server, "Ann")
        assert p.request({"type": "create", "options": {"cpu": "random"}})["type"] == "ack"
        p.close()
    finally:
        for r in readers:
            r.close()


def test_silent_connections_do_not_lock_everyone_out(serve: Callable[..., Server]) -> None:
    server = serve("--limit", "header_timeout=3", nofile=256)
    silent: list[socket.socket] = []
    try:
        for _ in range(300):  # from another loopback address, sending nothing
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", server.port))
            except OSError:
                s.close()
                continue
            silent.append(s)
        r = httpx.get(server.url + "/api/health", timeout=10)
        assert r.status_code == 200
        # A request whose headers never end is answered 408 and closed.
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=15)
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        answer = slow.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        slow.close()
    finally:
        for s in silent:
            s.close()


def test_100_mb_bodies_are_refused_early(serve: Callable[..., Server]) -> None:
    server = serve()
    assert isinstance(server, LimitedServer)
    base = rss_mb(server.pid)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100000000\r\n\r\n")
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n" % 65536 + b'"' * 65536 + b"\r\n"
        sent = 0
        while sent < 100_000_000:
            try:
                s.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 65536
            if select.select([s], [], [], 0)[0]:
                break
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'""""' not in answer
        assert sent < 10_000_000, sent
    assert rss_mb(server.pid) - base < 20


def descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parents.items() if pp == p]
        out.update(kids)
        todo.extend(kids)
    return out


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_kill_9_leaves_no_bot_worker_behind(tmp_path: Path) -> None:
    server = Server(tmp_path / "k.sqlite3", free_port(), "--bots", "process",
                    "--bot-workers", "1", "--cpu-delay", "0").start()
    kids: set[int] = set()
    try:
        ann = NetPlayer(server, "Ann")
        ans = ann.request({"type": "create", "options": {"cpu": "random", "one_hand": True},
                           "cpus": True})
        assert ans["type"] == "ack"
        while not ann.my_turn():  # the CPUs have played through the process pool
            ann.recv()
        ann.send({"type": "hint", "ref": "h"})
        ann.until(lambda m: m.get("ref") == "h")
        assert server.proc is not None
        kids = descendants(server.proc.pid)
        assert len(kids) >= 2, kids  # CPU and hint workers (and the resource tracker)
        server.kill()
        wait_until(lambda: not any(alive(k) for k in kids), "the workers to exit", 20, every=0.05)
    finally:
        for k in kids:
            if alive(k):
                with contextlib.suppress(OSError):
                    os.kill(k, signal.SIGKILL)
        server.stop()
