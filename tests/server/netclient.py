"""A blocking WebSocket client for tests against a real ``spades serve`` process."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.services import PostgresServer, RedisServer, free_port

Msg = dict[str, Any]


class Server:
    """``spades serve`` in a subprocess on 127.0.0.1."""

    def __init__(self, db: Path | str, port: int, *extra: str, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> None:
        """``env``: variables set for the server on top of this process's (``PYTHONPATH``
        to run another copy of the package, with ``cwd`` its folder)."""
        self.db, self.port, self.extra = db, port, extra
        self.env, self.cwd = env or {}, cwd
        self.proc: subprocess.Popen[bytes] | None = None
        # The server's output goes to a file, never to a pipe nobody reads: a pipe holds
        # 64 KiB, and a server that has logged that much blocks on its next line.
        self.log_file = tempfile.TemporaryFile("a+b")  # noqa: SIM115 (O_APPEND: shared offset)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """What the server printed so far (its stdout and stderr)."""
        self.log_file.seek(0)
        return self.log_file.read().decode(errors="replace")

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spades", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--db", str(self.db), *self.extra],
            env=env, cwd=self.cwd, stdout=self.log_file, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline and self.proc.poll() is None:
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start: " + self.log()[-3000:])

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class NetPlayer:
    """One player's connection to ``server``: anything with ``url`` and ``ws_url`` (and
    ``ssl`` and ``origin`` for a TLS front such as nginx)."""

    def __init__(self, server: Any, name: str, token: str | None = None,
                 results: str | None = None) -> None:
        tls = getattr(server, "ssl", None)
        if token is None:
            r = httpx.post(server.url + "/api/guest", json={"name": name}, timeout=60,
                           verify=tls if tls is not None else True)
            token = str(r.json()["token"])
        self.token = token
        self.name = name
        # Entered as a context manager (websockets 17.1 deprecates a bare connect()); close()
        # leaves it.
        self.ws: ClientConnection = connect(server.ws_url, open_timeout=60, ssl=tls,
                                            origin=getattr(server, "origin", None)).__enter__()
        self.frames: list[Msg] = []
        self.seq: int | None = None
        self.view: Msg | None = None
        self.you: Msg | None = None
        self.table: Msg | None = None
        self.n = 0
        hello: Msg = {"type": "hello", "token": token}
        if results is not None:  # ("new": only the newly scored hands in event frames)
            hello["results"] = results
        self.send(hello)
        self.welcome = self.until(lambda m: m["type"] == "welcome")

    def send(self, msg: Msg) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 60) -> Msg:
        m: Msg = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(m)
        if m["type"] == "table":
            self.seq, self.view, self.you, self.table = m["seq"], m["view"], m["you"], m["table"]
        elif m["type"] in ("event", "chat"):
            if self.table is not None and m["table_id"] != self.table["id"]:
                self.seq = None  # another table (a join, a rematch): its own numbering
            assert self.seq is None or m["seq"] == self.seq + 1, (self.seq, m)
            self.seq = m["seq"]
            if m["type"] == "event":
                self.view = m["view"]
                if m.get("table"):
                    self.table, self.you = m["table"], m["you"]
        return m

    def until(self, pred: Any, limit: int = 100000) -> Msg:
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError("no such message")

    def request(self, msg: Msg) -> Msg:
        self.n += 1
        ref = f"q{self.n}"
        self.send({**msg, "ref": ref})
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref)

    def catch_up(self, seq: int) -> None:
        while self.seq is None or self.seq < seq:
            self.recv()

    def my_turn(self) -> bool:
        return to_move(self.view)

    def close(self) -> None:
        self.ws.close()


def to_move(view: Msg | None) -> bool:
    """Is it the turn of ``view``'s seat to send a move? Not when the rules leave it one bid
    (Mirror, or Nil with no spade under Whiz): the server makes that bid for a person
    (docs/protocol.md), and a client that sent it too was refused once the server's came
    first ("it is not your turn": a CI run of test_leak failed so)."""
    if not (view and view["seat"] is not None and view["current_player"] == view["seat"]):
        return False
    legal = view["legal_actions"]
    return bool(legal) and not (view["phase"] == "bid" and len(legal) == 1
                                and legal[0] != "look")


def catch_up_all(players: list[NetPlayer]) -> None:
    """Every one of ``players`` reads up to the newest frame any of them holds, so their views
    tell the same moment (after one of them acts, the others are still behind)."""
    newest = max(p.seq or 0 for p in players)
    for p in players:
        p.catch_up(newest)


def step(players: list[NetPlayer]) -> bool:
    """One step: the human to act acts (True), or the first reads a frame (False)."""
    lead = players[0]
    for p in players:
        p.catch_up(lead.seq or 0)
        if p.my_turn():
            assert p.view is not None
            ans = p.request({"type": "act", "action": p.view["legal_actions"][0]})
            assert ans["type"] == "ack", ans
            return True
    lead.recv()
    return False


def new_table(owner: NetPlayer, options: Msg) -> str:
    """``owner`` creates a table of ``options`` (random CPUs for the seats left empty) and
    sees it open; its id."""
    owner.request({"type": "create", "options": {"cpu": "random", **options}})
    owner.until(lambda m: m["type"] == "table")
    assert owner.table is not None
    tid: str = owner.table["id"]
    return tid


@contextlib.contextmanager
def card_room(count: int, postgres: PostgresServer, redis: RedisServer, name: str,
         *extra: str, users: bool = False, each: Sequence[Sequence[str]] = (),
         envs: Sequence[dict[str, str]] = ()) -> Iterator[list[Server]]:
    """One card room: ``count`` server processes (with options ``extra``) sharing a new
    PostgreSQL database ``name`` and a fresh key space of the shared Redis; stopped when
    the block ends. ``users``: each process signs in to Redis as a user of its own (allowed
    everything), ``NAMEPORT-0``, ``NAMEPORT-1``... (the prefix without its colon, then the
    process's number), whose rights a test can take away. ``each``: options of each process
    of its own, after ``extra`` (the first's first, ...); ``envs``: environment variables of
    each process of its own (a test hook such as ``SPADES_TEST_DIE_AT``)."""
    db = postgres.create_database(name)
    prefix = f"{name}{free_port()}:"
    started: list[Server] = []
    try:
        for i in range(count):
            url = redis.url
            if users:
                user = f"{prefix[:-1]}-{i}"
                with contextlib.closing(socket.create_connection(
                        ("127.0.0.1", redis.port), timeout=10)) as s:
                    s.sendall(f"ACL SETUSER {user} on >pw ~* &* +@all\r\n".encode())
                    assert s.recv(16).startswith(b"+OK")
                url = f"redis://{user}:pw@127.0.0.1:{redis.port}/0"
            own = each[i] if i < len(each) else ()
            env = envs[i] if i < len(envs) else None
            started.append(Server(db, free_port(), *extra, *own, "--redis", url,
                                  "--redis-prefix", prefix, env=env).start())
        yield started
    finally:
        for s in started:
            s.stop()
