"""A scripted WebSocket client for the in-process server tests."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient

from spades.server.app import create_app
from spades.server.hub import Hub
from spades.server.settings import Settings
from tests.server.netclient import to_move

Msg = dict[str, Any]
OPEN: list[Player] = []
#: The longest a test waits for its next frame from the in-process server.
RECV_SECONDS = 120.0


#: The example match record the docs show (a finished cardems match), and its JSON.
EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
GOOD: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
#: No upload or table rate gets in the way: the caps on uploads are what is tested.
NO_RATES = {"upload_address_rate": 0.0, "create_rate": 0.0, "create_address_rate": 0.0}


def keep_for_review(client: TestClient, token: str, record: dict[str, Any] = GOOD) -> Any:
    """``POST /api/records`` of ``record`` to keep for review, as the user of ``token``."""
    return client.post("/api/records", json={"record": record, "mode": "review"},
                       headers={"Authorization": f"Bearer {token}"})


def close_all() -> None:
    while OPEN:
        OPEN.pop().close()


def hub_of(client: TestClient) -> Hub:
    """The hub of an in-process server."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def wait_until(check: Callable[[], bool], what: str, seconds: float = 20,
               every: float = 0.01) -> None:
    """Poll ``check`` every ``every`` seconds until it holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


def process_family(pid: int) -> list[int]:
    """``pid`` and every process under it (a server's CPU workers, the arena's...)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def ctrl_c(pid: int) -> None:
    """SIGINT to ``pid`` and every process under it, as Ctrl-C in a terminal sends it to the
    whole foreground group."""
    for p in process_family(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGINT)


@contextlib.contextmanager
def in_process(settings: Settings) -> Iterator[TestClient]:
    """The server's app on ``settings``, running in this process for the length of the
    block; every :class:`Player` opened meanwhile is closed before it stops."""
    with TestClient(create_app(settings)) as client:
        try:
            yield client
        finally:
            close_all()


def guest(client: TestClient, name: str) -> str:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


class Player:
    """One connection: reads frames, checks sequence numbers, remembers the latest state."""

    def __init__(self, client: TestClient, name: str, token: str | None = None,
                 results: str | None = None) -> None:
        self.client = client
        self.name = name
        self.token = token or guest(client, name)
        self.cm = client.websocket_connect("/ws")
        self.ws = self.cm.__enter__()
        OPEN.append(self)
        self.frames: list[Msg] = []
        self.seq: int | None = None
        self.view: Msg | None = None
        self.table: Msg | None = None
        self.you: Msg | None = None
        self.turn: Msg | None = None
        self.errors: list[Msg] = []
        #: every scored hand, kept from the snapshot and each event's new ones (a hello
        #: with ``results``: "new")
        self.results: list[Msg] = []
        hello: Msg = {"type": "hello", "token": self.token}
        if results is not None:
            hello["results"] = results
        self.send(hello)
        self.welcome = self.until(lambda m: m["type"] == "welcome")

    def send(self, msg: Msg) -> None:
        self.ws.send_text(json.dumps(msg))

    def recv(self) -> Msg:
        m: Msg = json.loads(self._next_text())
        self.frames.append(m)
        t = m["type"]
        if t == "table":
            self.seq = m["seq"]
            self.table, self.you, self.view, self.turn = m["table"], m["you"], m["view"], m["turn"]
            self.results = list(m["view"]["results"]) if m["view"] is not None else []
        elif t in ("event", "chat"):
            if self.table is not None and m["table_id"] != self.table["id"]:
                self.seq = None  # another table: its own numbering
            if self.seq is not None:
                assert m["seq"] == self.seq + 1, (self.name, self.seq, m)
            self.seq = m["seq"]
            if t == "event":
                self.view, self.turn = m["view"], m["turn"]
                v = self.view
                if v is not None and "results_from" in v:  # only the new ones: kept here
                    assert v["results_from"] <= len(self.results), (self.name, v)
                    self.results = self.results[:v["results_from"]] + v["results"]
                elif v is not None:
                    self.results = list(v["results"])
                if m.get("table") is not None:
                    self.table, self.you = m["table"], m["you"]
        elif t == "error":
            self.errors.append(m)
        return m

    def _next_text(self) -> str:
        """The next text frame. Starlette's receive waits for ever: a frame that does not
        come within ``RECV_SECONDS`` fails the test here, saying what this player saw last."""
        stream = getattr(self.ws, "_send_rx", None)
        if stream is None:  # a Starlette that keeps its frames elsewhere: its own receive
            return self.ws.receive_text()

        async def within() -> Any:
            with anyio.fail_after(RECV_SECONDS):
                return await stream.receive()

        try:
            message = self.ws.portal.call(within)
        except TimeoutError:
            raise AssertionError(f"{self.name}: no frame came in {RECV_SECONDS:g} s (at seq "
                                 f"{self.seq}); the last ones: {self.frames[-3:]}") from None
        self.ws._raise_on_close(message)
        return str(message["text"])

    def until(self, pred: Callable[[Msg], bool], limit: int = 10000) -> Msg:
        for _ in range(limit):
            m = self.recv()
            if pred(m):
                return m
        raise AssertionError(f"{self.name}: no such message")

    def request(self, msg: Msg) -> Msg:
        """Send and read up to the ack or error answering it."""
        ref = f"r{len(self.frames)}"
        self.send({**msg, "ref": ref})
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref)

    def catch_up(self, seq: int) -> None:
        while self.seq is None or self.seq < seq:
            self.recv()

    @property
    def seat(self) -> int | None:
        return None if self.you is None else self.you["seat"]

    def my_turn(self) -> bool:
        return to_move(self.view)

    def play_first_until(self, done: Callable[[Player], bool], limit: int = 5000) -> None:
        """At each of her turns, play the first legal action (each answered by an ack),
        else read the next frame, until ``done(self)`` holds."""
        for _ in range(limit):
            if done(self):
                return
            if self.my_turn():
                assert self.view is not None
                ans = self.request({"type": "act", "action": self.view["legal_actions"][0]})
                assert ans["type"] == "ack", ans
            else:
                self.recv()
        raise AssertionError(f"{self.name}: not done after {limit} steps")

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
        with contextlib.suppress(Exception):
            self.cm.__exit__(None, None, None)


class Sized(Player):
    """A Player that keeps the size of each frame's text, as sent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sizes: list[int] = []
        super().__init__(*args, **kwargs)

    def _next_text(self) -> str:
        text = super()._next_text()
        self.sizes.append(len(text.encode()))
        return text


def play_to_end(players: list[Player], choose: Callable[[Msg], str] | None = None,
                limit: int = 20000) -> Msg:
    """Drive humans (and wait for CPUs) until the match is over; returns the last event."""
    lead = players[0]
    pick = choose or (lambda view: view["legal_actions"][0])
    for _ in range(limit):
        if lead.view is not None and lead.view["phase"] == "over":
            for m in lead.frames:
                if m["type"] == "event" and m["event"]["kind"] == "match_over":
                    return m
            return lead.until(lambda m: m["type"] == "event"
                              and m["event"]["kind"] == "match_over")
        acted = False
        for p in players:
            p.catch_up(lead.seq or 0)
            if p.my_turn():
                assert p.view is not None
                ans = p.request({"type": "act", "action": pick(p.view)})
                assert ans["type"] == "ack", ans
                acted = True
                break
        if not acted:
            lead.recv()
    raise AssertionError("the match did not end")


def limited(tmp_path: Path, db: str | None = None, **limits: Any) -> Settings:
    """Test settings with some limits changed (a limit this code does not know is left out,
    so the same test shows what happens without it)."""
    s = Settings(db=db or str(tmp_path / "a.sqlite3"), bot_executor="inline", cpu_delay=0.0,
                 web_static=str(tmp_path / "noweb"), move_address_rate=0.0)
    for name, value in limits.items():
        if name in Settings.__dataclass_fields__:
            setattr(s, name, value)
    return s


def finished_record(target: int, seed: int) -> dict[str, Any]:
    """A cardems match to ``target`` points played by beginners (dealer North, deals of
    ``seed``), as a record: a long one for the tests of what the server does with many
    hands."""
    from spades.engine import Match, profile, to_record
    from spades.server.cpu import bot_act

    m = Match(profile("cardems", target=target), dealer=0, rng=random.Random(seed))
    while not m.is_over():
        m.apply(bot_act("beginner", 1, m.observation(m.current_player)))
    return to_record(m)


@contextlib.contextmanager
def spied(obj: Any, name: str) -> Iterator[list[Any]]:
    """Within the block, what ``obj.name(...)`` returns is also appended to the list given."""
    seen: list[Any] = []
    real = getattr(obj, name)
    own = name in vars(obj)  # (a module's function; else a method of the object's class)

    def spy(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        seen.append(out)
        return out

    setattr(obj, name, spy)
    try:
        yield seen
    finally:
        if own:
            setattr(obj, name, real)
        else:
            delattr(obj, name)


def stuck_hints(monkeypatch: Any) -> threading.Event:
    """Every hint waits (at most 60 s) until the event returned is set."""
    from spades.server import cpu

    release = threading.Event()
    real = cpu.hint_for

    def slow_hint(obs: Any, names: tuple[str, ...] | None = None) -> tuple[int, str]:
        release.wait(60)
        return real(obs, names)

    monkeypatch.setattr(cpu, "hint_for", slow_hint)
    return release


def continued_upload(client: TestClient, name: str, record: dict[str, Any], seat: int
                     ) -> tuple[Player, dict[str, str], str]:
    """``name`` uploads ``record`` to continue it at ``seat`` against random CPUs and joins
    the table: their Player, their auth header and the table's id."""
    player = Player(client, name)
    auth = {"Authorization": f"Bearer {player.token}"}
    r = client.post("/api/records", json={"record": record, "mode": "continue", "seat": seat,
                                          "options": {"cpu": "random"}}, headers=auth)
    assert r.status_code == 200, r.text
    tid: str = r.json()["table_id"]
    assert player.request({"type": "join", "table_id": tid})["type"] == "ack"
    return player, auth, tid
