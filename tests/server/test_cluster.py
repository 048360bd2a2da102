"""Several ``spades serve`` processes, one card room: PostgreSQL and Redis shared, real
processes on loopback, one of them killed with SIGKILL in the middle of a trick."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from spades.engine import replay
from spades.server import views
from spades.server.cluster import ACTING_KEPT
from spades.server.settings import Settings
from spades.store import Store
from tests.server.helpers import hub_of, in_process, wait_until
from tests.server.netclient import (
    NetPlayer,
    Server,
    card_room,
    catch_up_all,
    free_port,
    new_table,
    step,
)
from tests.services import PostgresServer, RedisServer


@pytest.fixture
def room(postgres: PostgresServer, redis_server: RedisServer) -> Iterator[list[Server]]:
    """Three processes on one PostgreSQL database and one Redis."""
    with card_room(3, postgres, redis_server, "room", "--bots", "inline", "--cpu-delay", "0") as s:
        yield s


def act_until(players: list[NetPlayer], done: Any, limit: int = 3000) -> None:
    """The humans act (first legal action) until ``done()``; frames are read meanwhile."""
    for _ in range(limit):
        if done():
            return
        step(players)
    raise AssertionError("did not get there")



def published(pubsub: Any, pred: Any, what: str) -> None:
    """Wait (at most 60 s) until a message for which ``pred`` holds is published on the
    subscribed channel."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"{what} was never published"
        got = pubsub.get_message(timeout=1)
        if got is not None and got["type"] == "message" and pred(json.loads(got["data"])):
            return


def forwarded(pubsub: Any, ref: str) -> None:
    """Wait (at most 60 s) until a message with ``ref`` is forwarded on the subscribed
    channel (to the process a client's process believes runs the table)."""
    published(pubsub, lambda sent: sent.get("k") == "msg" and sent["m"].get("ref") == ref,
              f"the message {ref!r}")


def _kill_keeping_lease(a: Server, shared: Any, pubsub: Any, prefix: str, tid: str) -> str:
    """Kill ``a`` (SIGKILL), which runs table ``tid``, with its lease on the table made to run
    on (as in the seconds before it expires), and subscribe ``pubsub`` to what is still sent
    to it: the lease's key (delete it to let a live process take the table over)."""
    lease = prefix + "owner:" + tid
    dead = shared.get(lease)
    assert isinstance(dead, str)
    a.kill()
    shared.set(lease, dead, px=600_000)  # the dead process's lease, still running
    pubsub.subscribe(prefix + "node:" + dead)
    return lease


def test_two_processes_one_table_and_the_owner_killed_mid_trick(room: list[Server]) -> None:
    a, b, c = room
    ann = NetPlayer(a, "Ann")
    bob = NetPlayer(b, "Bob")
    tid = new_table(ann, {"one_hand": True, "profile": "cardems"})
    # The lobby is the same from every process (as soon as c has heard of the table).
    deadline = time.monotonic() + 30
    while [t["id"] for t in httpx.get(c.url + "/api/tables", timeout=10).json()] != [tid]:
        assert time.monotonic() < deadline, "the table never reached c's lobby"
        time.sleep(0.05)
    ans = bob.request({"type": "join", "table_id": tid})  # run by a: forwarded there
    assert ans["type"] == "ack", ans
    bob.until(lambda m: m["type"] == "table")
    assert bob.you is not None and bob.you["role"] == "player"
    assert ann.request({"type": "start"})["type"] == "ack"
    players = [ann, bob]

    def mid_trick() -> bool:
        # Both have read every event either has seen: the views compared after the
        # fail-over are the whole truth as told, not one player's lagging copy of it.
        catch_up_all(players)
        v = ann.view
        return bool(v and v["phase"] == "play" and 0 < len(v.get("trick") or []) < 4
                    and len(v.get("plays") or []) >= 6 and (ann.my_turn() or bob.my_turn()))

    act_until(players, mid_trick)
    assert ann.seq == bob.seq
    # The score sheet is the same from a process that does not run the table.
    sheets = [httpx.get(f"{s.url}/api/tables/{tid}/sheet", timeout=10) for s in (a, c)]
    assert [r.status_code for r in sheets] == [200, 200]
    assert sheets[0].json() == sheets[1].json()
    before = {"ann": ann.view, "bob": bob.view}
    a.kill()  # the process that runs the table, with SIGKILL
    started = time.monotonic()
    # Bob, still connected to b, is joined to the table's new process: a fresh snapshot.
    # Its numbering starts a new block above what he saw; like the page, he takes the
    # snapshot as his new base.
    bob.seq = None
    bob.until(lambda m: m["type"] == "table")
    took = time.monotonic() - started
    assert bob.view == before["bob"], "the table came back different"
    # Ann's socket died with a: she reconnects to c (as through a load balancer).
    ann2 = NetPlayer(c, "Ann", ann.token)
    assert tid in ann2.welcome["tables"]
    assert ann2.request({"type": "join", "table_id": tid})["type"] == "ack"
    ann2.until(lambda m: m["type"] == "table")
    old = before["ann"] or {}
    diff = {k: (old.get(k), v) for k, v in (ann2.view or {}).items() if old.get(k) != v}
    assert not diff, diff
    players = [ann2, bob]
    act_until(players, lambda: ann2.view is not None and ann2.view["phase"] == "over")
    bob.catch_up(ann2.seq or 0)
    # Nothing lost: the record has the whole hand, and both views are what one process
    # running the same actions gives.
    record = httpx.get(f"{c.url}/api/games/{tid}/record", timeout=10).json()
    assert len(record["hands"][0]["plays"]) == 52
    match = replay(record)
    for p in (ann2, bob):
        assert p.you is not None
        assert p.view == json.loads(json.dumps(views.seat_view(match, p.you["seat"])))
    print(f"taken over in {took:.2f} s")


def test_failed_sign_ins_are_counted_for_the_whole_room(postgres: PostgresServer,
                                                        redis_server: RedisServer) -> None:
    """Two processes on one Redis: three wrong passwords (of three allowed) spread over both
    are three, not three each: the fourth is refused at either."""
    with card_room(2, postgres, redis_server, "logins", "--limit", "login_failures=3") as (a, b):
        carol = {"name": "Carol", "password": "correct horse battery"}
        assert httpx.post(a.url + "/api/register", json=carol, timeout=10).status_code == 200
        # A sign-in that succeeds takes back its own count (at the other process).
        assert httpx.post(b.url + "/api/login", json=carol, timeout=10).status_code == 200
        wrong = {"name": "Carol", "password": "not the password"}
        codes = [httpx.post(s.url + "/api/login", json=wrong, timeout=10).status_code
                 for s in (a, b, a)]
        assert codes == [401, 401, 401]
        for s in (b, a):  # the limit is reached for both, the right password included
            r = httpx.post(s.url + "/api/login", json=carol, timeout=10)
            assert r.status_code == 429, r.text
            assert 0 < int(r.headers["Retry-After"]) <= 300


def test_a_close_passed_between_processes_keeps_its_reason() -> None:
    """A stand-in closed or dropped by the process that runs its table (too slow to read, say)
    passes on the close with its reason, and the client's process closes the socket with it
    (before: the code alone went through Redis, so the socket closed with no reason)."""
    import asyncio
    from types import SimpleNamespace

    from spades.server.cluster import Cluster, RemoteConn
    from spades.server.settings import Settings

    class Room:
        def __init__(self, node: str) -> None:
            self.node = node
            self.sent: list[tuple[str, dict[str, Any]]] = []

        def send(self, node: str, d: dict[str, Any]) -> None:
            self.sent.append((node, d))

    hub = SimpleNamespace(settings=Settings())
    runs = Cluster(hub, Room("B"))  # type: ignore[arg-type]
    stand_in = RemoteConn(runs, "A", "c1", 1, "Ann", True)
    stand_in.drop("too slow reading: 256 frames are waiting")
    node, told = runs.room.sent[-1]  # type: ignore[attr-defined]
    assert node == "A" and told["k"] == "close" and told["code"] == 1008, told
    assert told["reason"] == "too slow reading: 256 frames are waiting", told

    closed: list[tuple[int, str]] = []
    socket = SimpleNamespace(table=None, remote_node="B",
                             close=lambda code=1000, reason="": closed.append((code, reason)))
    serves = Cluster(hub, Room("A"))  # type: ignore[arg-type]
    serves.local["c1"] = socket  # type: ignore[assignment]
    asyncio.run(serves.on_message(told))
    assert closed == [(1008, "too slow reading: 256 frames are waiting")], closed
    # a message from an older process (no reason in it) still closes, with none
    asyncio.run(serves.on_message({k: v for k, v in told.items() if k != "reason"}))
    assert closed[-1] == (1008, ""), closed


class _Room:
    """The part of :class:`spades.server.room.Room` that a :class:`Cluster` uses to forward:
    what it publishes is kept; ``owners``: who holds each table's lease."""

    def __init__(self, node: str, owners: dict[str, str] | None = None) -> None:
        self.node = node
        self.owners = owners or {}
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def send(self, node: str, d: dict[str, Any]) -> None:
        self.sent.append((node, d))

    async def owner(self, table_id: str) -> str | None:
        return self.owners.get(table_id)


def test_a_message_between_owners_is_sent_after_the_join_that_brings_the_client_back(
        ) -> None:
    """Bob's (at b) table moved: b knows it runs elsewhere now (c holds its lease) but has
    not joined Bob to it there yet (c has not said it runs it). Bob's rematch, sent in that
    gap, goes to c after a join made for him (a spectator's, for a spectator), never alone
    (before: it went alone, was refused, "you are not at a table", and the join never
    followed: b took c for the process Bob was at)."""
    import asyncio
    from types import SimpleNamespace

    from spades.server.cluster import Cluster
    from spades.server.protocol import client_message

    hub = SimpleNamespace(settings=Settings(), tables={})
    for watching, role in ((False, "player"), (True, "spectator")):
        room = _Room("B", {"T": "C"})
        cluster = Cluster(hub, room)  # type: ignore[arg-type]
        bob = SimpleNamespace(cid="c1", user_id=7, name="Bob", guest=True, address="",
                              table=None, remote_table="T", remote_node=None,
                              remote_watching=watching, waits=None, joining=None,
                              rematching=None, acting=[], quiet=[], told=None,
                              results_new=False)
        cluster.local["c1"] = bob  # type: ignore[assignment]
        data = {"type": "rematch", "ref": "r1"}
        forwarded = asyncio.run(cluster.route(
            bob, client_message.validate_python(data), data))  # type: ignore[arg-type]
        assert forwarded
        sent = [(node, d["m"], d.get("r")) for node, d in room.sent if d["k"] == "msg"]
        assert sent == [("C", {"type": "join", "table_id": "T", "role": role}, role),
                        ("C", data, None)], sent
        assert bob.remote_node == "C"


@pytest.mark.parametrize("making", [False, True])
def test_a_join_of_a_table_being_restored_waits_for_it(making: bool) -> None:
    """A join forwarded to c while c is restoring the table (c holds its lease but has not
    said it runs it: the client's process found it so) is dispatched once the table is
    there (before: at once, and refused, no such table). So is a join of a rematch that c
    is making under the id whose lease it holds (``making``: the owner's process, which
    lost that lease while cut off, leads the owner there: hub.LeaseLost)."""
    import asyncio
    from types import SimpleNamespace

    from spades.server.cluster import Cluster, RemoteConn

    async def run() -> None:
        dispatched: list[tuple[Any, bool]] = []
        hub = SimpleNamespace(settings=Settings(), tables={}, making={})
        cluster = Cluster(hub, _Room("C"))  # type: ignore[arg-type]

        async def dispatch(_hub: Any, conn: Any, msg: Any) -> None:
            dispatched.append((msg.table_id, "T" in hub.tables))

        cluster.dispatch = dispatch
        restored: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if making:  # (a rematch being made here under its reserved id: Hub.making)
            hub.making["T"] = restored
        else:
            cluster._taking["T"] = restored
        stand_in = RemoteConn(cluster, "B", "c1", 7, "Bob", True)
        stand_in.inbox.put_nowait(({"type": "join", "table_id": "T"}, None, "player"))
        stand_in.task = asyncio.get_running_loop().create_task(stand_in.run())
        for _ in range(20):  # (the stand-in has every chance to dispatch it)
            await asyncio.sleep(0)
        assert dispatched == []
        hub.tables["T"] = object()
        restored.set_result("C")
        stand_in.inbox.put_nowait(None)
        await stand_in.task
        assert dispatched == [("T", True)]

    asyncio.run(run())


def test_a_sign_out_closes_the_session_s_sockets_on_every_process(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Signing out at one process closes the sockets of that session held by another
    process too (before: only the process that took the sign-out closed its own, and a
    socket on another stayed signed in until the session's first expiry)."""
    from websockets.exceptions import ConnectionClosed

    with card_room(2, postgres, redis_server, "signout") as (a, b):
        dana = {"name": "Dana", "password": "correct horse battery"}
        token = httpx.post(a.url + "/api/register", json=dana, timeout=10).json()["token"]
        elsewhere = NetPlayer(b, "Dana", token)  # signed in at b
        r = httpx.post(a.url + "/api/logout", headers={"Authorization": f"Bearer {token}"},
                       timeout=10)
        assert r.status_code == 200, r.text
        err = elsewhere.until(lambda m: m["type"] == "error")
        assert err["code"] == "auth" and "signed out" in err["message"], err
        with pytest.raises(ConnectionClosed) as closed:
            elsewhere.recv(timeout=30)
        rcvd = closed.value.rcvd
        assert rcvd is not None and rcvd.code == 1008 and "signed out" in rcvd.reason, rcvd


def _bob_replaced(a: Server, first_at: Server,
                  second_at: Server) -> tuple[NetPlayer, str, NetPlayer, NetPlayer, int]:
    """Ann's started table (on ``a``); Bob's older tab at ``first_at`` replaced by his newer
    one at ``second_at``: (ann, the table's id, bob's older tab, the newer tab, bob's seat)."""
    ann = NetPlayer(a, "Ann")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 60})
    bob = NetPlayer(first_at, "Bob")
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    seat = bob.you["seat"] if bob.you else None
    assert seat is not None
    assert ann.request({"type": "start"})["type"] == "ack"
    tab2 = NetPlayer(second_at, "Bob", bob.token)
    joined = tab2.request({"type": "join", "table_id": tid})
    assert joined["type"] == "ack", joined
    tab2.until(lambda m: m["type"] == "table")
    told = bob.until(lambda m: m["type"] == "error")
    assert told["code"] == "replaced", told
    return ann, tid, bob, tab2, seat


def _plays_on(ann: NetPlayer, bob: NetPlayer) -> None:
    """Bob holds his seat: his chat goes round, and Ann heard nobody leave."""
    assert bob.request({"type": "chat", "text": "here"})["type"] == "ack"
    ann.until(lambda m: m["type"] == "chat" and m["line"]["text"] == "here")
    assert not [m for m in ann.frames if m["type"] == "event"
                and m["event"]["kind"] in ("left", "covered")]


@pytest.mark.parametrize("places", ["older_on_the_owner", "older_elsewhere",
                                    "newer_on_the_owner"])
def test_the_seat_goes_back_to_the_older_tab_across_processes(
        room: list[Server], places: str) -> None:
    """Two tabs of Bob on different processes: the newer one takes his seat, and when it
    closes the older one, still open, plays on. (An audit reported that this worked only
    with both tabs on one process; these placements already passed before the fixes of the
    next tests: a guard of them.)"""
    a, b, c = room  # the table runs on a
    first_at, second_at = {"older_on_the_owner": (a, b), "older_elsewhere": (b, c),
                           "newer_on_the_owner": (b, a)}[places]
    ann, _tid, bob, tab2, seat = _bob_replaced(a, first_at, second_at)
    tab2.close()
    snap = bob.until(lambda m: m["type"] == "table")
    assert snap["you"] == {"role": "player", "seat": seat}, snap["you"]
    _plays_on(ann, bob)  # from the older tab


def test_a_replaced_tab_back_on_another_process_waits_for_the_seat(
        room: list[Server]) -> None:
    """The older tab loses its own connection and comes back through another process: a
    join with ``if_free`` leaves the seat with the newer tab, and the seat comes to it when
    that tab closes (the stand-in on the table's process waits for it)."""
    a, b, c = room
    ann, tid, bob, tab2, seat = _bob_replaced(a, b, a)
    bob.close()
    back = NetPlayer(c, "Bob", bob.token)
    held = back.request({"type": "join", "table_id": tid, "if_free": True})
    assert held["type"] == "error" and held["code"] == "replaced", held
    assert tab2.request({"type": "chat", "text": "mine"})["type"] == "ack"
    tab2.close()
    snap = back.until(lambda m: m["type"] == "table")
    assert snap["you"] == {"role": "player", "seat": seat}, snap["you"]
    _plays_on(ann, back)


def test_the_seat_goes_back_to_the_older_tab_after_the_table_moved(
        room: list[Server]) -> None:
    """Bob's older tab (at b) was replaced by a newer one (at c); the process running the
    table dies and another takes it over. When the newer tab closes, the older one, still
    open, plays on (before: the list of replaced tabs died with the process, so the seat
    stayed empty and a CPU covered it while the older tab waited on "Play here")."""
    a, b, c = room
    _ann, _tid, bob, tab2, seat = _bob_replaced(a, b, c)
    a.kill()  # the process that runs the table
    tab2.seq = None  # (the new process numbers on from its snapshot)
    tab2.until(lambda m: m["type"] == "table")  # taken over; the newer tab is joined there
    tab2.close()
    # (both tabs asked the new process for the seat: the older one may have held it for a
    # moment before the newer took it; what counts is where it ends up, asked until then)
    deadline = time.monotonic() + 60
    for n in range(100000):
        bob.seq = None
        bob.send({"type": "resync", "ref": f"r{n}"})
        answer = bob.until(lambda m, n=n: m.get("ref") == f"r{n}")
        if answer["type"] == "table" and answer["you"] == {"role": "player", "seat": seat}:
            break
        assert time.monotonic() < deadline, f"the seat never came back: {answer}"
        time.sleep(0.05)
    assert bob.request({"type": "chat", "text": "still here"})["type"] == "ack"


def test_a_replaced_tab_closed_on_another_process_is_not_handed_the_seat(
        room: list[Server]) -> None:
    """Bob's older tab (at b), replaced by a newer one (at c), closes; then the newer one
    closes too. Nobody is left to play: Ann hears that Bob lost the connection (before: the
    process running the table never heard that the older tab had gone, and handed the seat
    to it: a seat held by nobody, never covered by a CPU)."""
    a, b, c = room
    ann, _tid, bob, tab2, seat = _bob_replaced(a, b, c)
    bob.close()
    tab2.close()  # (whichever close reaches a first, nobody holds the seat in the end)
    left = ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    assert left["event"]["seat"] == seat
    assert not left["table"]["seats"][seat]["connected"]


def test_a_join_sent_to_a_dead_process_is_answered_by_the_one_that_takes_over(
        room: list[Server], redis_server: RedisServer) -> None:
    """A player whose process was killed reconnects through nginx to another process at
    once and joins the table, while the dead process's lease has not run out yet: the join
    was forwarded to the dead process and lost, and the player waited for ever (no ack, no
    snapshot; the take-over rejoined only clients that had been at the table). Now the
    process that takes the table over answers it. The dead process's lease is held in Redis
    by the test, so that the join surely goes to it first."""
    import redis

    a, _b, c = room
    prefix = a.extra[a.extra.index("--redis-prefix") + 1]
    ann = NetPlayer(a, "Ann")
    tid = new_table(ann, {"one_hand": True, "profile": "cardems"})
    assert ann.request({"type": "start"})["type"] == "ack"
    shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
    pubsub = shared.pubsub()
    try:
        lease = _kill_keeping_lease(a, shared, pubsub, prefix, tid)
        ann2 = NetPlayer(c, "Ann", ann.token)
        assert tid in ann2.welcome["tables"]
        ann2.send({"type": "join", "table_id": tid, "ref": "again"})
        # c forwards the join to the process it believes runs the table
        forwarded(pubsub, "again")
        shared.delete(lease)  # the lease runs out: a live process takes the table over
        ans = ann2.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "again")
        assert ans["type"] == "ack", ans
        ann2.until(lambda m: m["type"] == "table")
        assert ann2.you is not None and ann2.you["role"] == "player"
    finally:
        pubsub.close()
        shared.close()


def test_an_act_sent_to_a_dead_process_is_answered_by_the_one_that_takes_over(
        room: list[Server], redis_server: RedisServer) -> None:
    """Bob, connected to b, plays at a table that a runs; a dies (SIGKILL) with his move on
    its way to it: the move was forwarded there and lost, and Bob waited for ever (no ack,
    no error). Now once another process takes the table over, b reads what became of it
    in the store: not stored, so Bob is told, with his ref, that the move was not made and
    to play again, and his move played again is taken. The dead process's lease is held in
    Redis by the test, so that the move surely goes to it."""
    import redis

    a, b, _c = room
    prefix = a.extra[a.extra.index("--redis-prefix") + 1]
    _ann, bob, tid = _bob_to_play(a, b)
    assert bob.view is not None and bob.you is not None
    seat, action = bob.you["seat"], bob.view["legal_actions"][0]
    shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
    pubsub = shared.pubsub()
    store = Store.open(a.db)
    try:
        count = len(store.events(tid))
        lease = _kill_keeping_lease(a, shared, pubsub, prefix, tid)
        since = len(bob.frames)
        bob.send({"type": "act", "action": action, "ref": "lost"})
        # b forwards the move to the process it believes runs the table
        forwarded(pubsub, "lost")
        shared.delete(lease)  # the lease runs out: a live process takes the table over
        bob.seq = None  # (the new process numbers on from its snapshot)
        ans = bob.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "lost")
        assert ans["type"] == "error" and ans["code"] == "state", ans
        assert "not made" in ans["message"] and "play again" in ans["message"], ans
        assert len(store.events(tid)) == count  # (indeed: nothing was stored)
        while not any(m["type"] == "table" for m in bob.frames[since:]):
            bob.recv()  # the new process's snapshot (before the answer or after it)
        assert bob.you == {"role": "player", "seat": seat}, bob.you
        assert bob.my_turn() and bob.view is not None and action in bob.view["legal_actions"]
        again = bob.request({"type": "act", "action": action})
        assert again["type"] == "ack", again
        mine = [e for e in store.events(tid)[count:] if e.kind == "act" and e.seat == seat]
        assert len(mine) == 1, mine
    finally:
        store.close()
        pubsub.close()
        shared.close()


def test_the_sheet_of_a_table_run_elsewhere_is_replayed_once_per_move(
        postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path) -> None:
    """GET /api/tables/{id}/sheet at a process that does not run the table is made from
    the store, the whole game replayed on the database thread every table's moves use. It
    was replayed for every request (a cheap way to load the server); it is now kept until
    the table's row is written again: asked again and again it is replayed once, and a move
    makes the next answer new."""
    db = postgres.create_database("sheets")
    prefix = f"sheets{free_port()}:"
    a = Server(db, free_port(), "--bots", "inline", "--cpu-delay", "0", "--redis",
               redis_server.url, "--redis-prefix", prefix).start()
    try:
        ann = NetPlayer(a, "Ann")
        tid = new_table(ann, {"profile": "cardems"})
        assert ann.request({"type": "start"})["type"] == "ack"
        while not ann.my_turn():  # the CPUs have acted: nothing moves until Ann does
            ann.recv()
        settings = Settings(db=db, redis=redis_server.url, redis_prefix=prefix,
                            bot_executor="inline", cpu_delay=0.0,
                            web_static=str(tmp_path / "noweb"))
        with in_process(settings) as b:  # another process of the room, in this one
            hub = hub_of(b)
            assert tid not in hub.tables
            replays: list[str] = []
            load_match = hub.store.load_match

            def counted(game_id: str) -> Any:  # the store's own method, each call seen
                replays.append(game_id)
                return load_match(game_id)

            hub.store.load_match = counted  # type: ignore[method-assign]
            first = [b.get(f"/api/tables/{tid}/sheet") for _ in range(5)]
            assert [r.status_code for r in first] == [200] * 5, first[0].text
            assert all(r.json() == first[0].json() for r in first)
            assert first[0].json()["hands"] == []
            assert replays == [tid]  # (before: 5)
            # Ann plays the first hand out: the next answer has it, replayed once more.
            while not (ann.my_turn() and ann.view is not None
                       and ann.view["hand_number"] > 1):
                if ann.my_turn():
                    assert ann.view is not None
                    ans = ann.request({"type": "act", "action": ann.view["legal_actions"][0]})
                    assert ans["type"] == "ack", ans
                else:
                    ann.recv()
            then = [b.get(f"/api/tables/{tid}/sheet") for _ in range(3)]
            assert [r.status_code for r in then] == [200] * 3
            assert all(r.json() == then[0].json() for r in then)
            assert len(then[0].json()["hands"]) == 1
            assert then[0].json() == httpx.get(f"{a.url}/api/tables/{tid}/sheet",
                                               timeout=10).json()
            assert replays == [tid, tid]
    finally:
        a.stop()


def _health(server: Server) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(server.url + "/api/health", timeout=30).json()
    return answer


def test_the_room_carries_on_after_redis_was_down_for_a_while(postgres: PostgresServer) -> None:
    """Redis stopped for some seconds, then back (a restart, a failover): each process went
    deaf for good (its listener died with the link, and nothing subscribed again), so a
    player joining a table of another process waited for ever, and the log had a traceback
    every second meanwhile. Now each process subscribes again when Redis is back, the log
    says once that the link was lost and once that it is back, and /api/health tells."""
    import redis

    from tests.server.helpers import wait_until

    redis_server = RedisServer().start()
    try:
        with card_room(2, postgres, redis_server, "outage", "--bots", "inline",
                       "--cpu-delay", "0") as (a, b):
            prefix = a.extra[a.extra.index("--redis-prefix") + 1]
            assert _health(a)["redis"] is True
            port = redis_server.port
            redis_server.stop()
            wait_until(lambda: all(_health(s).get("redis") is False
                                   or s.log().count("could not renew leases") >= 8
                                   for s in (a, b)),
                       "the processes to notice that Redis is gone", seconds=60)
            assert "Redis does not answer" in _health(a)["detail"]
            # Sign-ins are counted by each process meanwhile (before: 500, a traceback).
            refused = httpx.post(a.url + "/api/login", timeout=30,
                                 json={"name": "nobody", "password": "wrong-pass"})
            assert refused.status_code == 401, refused.text
            redis_server = RedisServer()
            redis_server.port = port
            redis_server.start()
            shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
            try:
                alive = prefix + "alive:"
                wait_until(lambda: len(shared.keys(alive + "*")) == 2,
                           "both processes to renew their liveness", seconds=60)
                nodes = [k[len(alive):] for k in shared.keys(alive + "*")]
                channels = [prefix + "node:" + node for node in nodes]
                wait_until(lambda: all(n == 1 for _c, n in shared.pubsub_numsub(*channels)),
                           "both processes to listen again", seconds=60)
            finally:
                shared.close()
            wait_until(lambda: all(_health(s)["redis"] is True for s in (a, b)),
                       "both processes to say that Redis answers", seconds=60)
            bob = NetPlayer(b, "Bob")
            tid = new_table(bob, {"one_hand": True, "profile": "cardems"})
            ann = NetPlayer(a, "Ann")
            ans = ann.request({"type": "join", "table_id": tid})  # run by b: forwarded
            assert ans["type"] == "ack", ans
            ann.until(lambda m: m["type"] == "table")
            for s in (a, b):
                log = s.log()
                assert "Traceback" not in log, log[-3000:]
                assert log.count("lost its link to Redis") == 1, log[-3000:]
                assert log.count("the link to Redis is back") == 1, log[-3000:]
    finally:
        redis_server.stop()


def _redis_user(server: Server) -> str:
    """The Redis user ``server`` signs in as (``card_room(..., users=True)``)."""
    url = server.extra[server.extra.index("--redis") + 1]
    return url.split("//", 1)[1].split(":", 1)[0]


def _deafen(shared: Any, server: Server, prefix: str, node: str, others: list[str]) -> None:
    """``server`` (process ``node``) hears nothing published to it: its Redis user may
    use only the room's channel and those of ``others`` (to publish), its subscription is
    killed (``CLIENT KILL``), and subscribing again is refused until :func:`_hear`."""
    from tests.server.helpers import wait_until

    user = _redis_user(server)
    shared.execute_command("ACL", "SETUSER", user, "resetchannels", f"&{prefix}room",
                           *[f"&{prefix}node:{n}" for n in others])
    shared.execute_command("CLIENT", "KILL", "USER", user, "TYPE", "pubsub")
    channel = prefix + "node:" + node
    wait_until(lambda: shared.pubsub_numsub(channel) == [(channel, 0)],
               f"{user} to stop hearing its channel", seconds=60)


def _hear(shared: Any, server: Server) -> None:
    shared.execute_command("ACL", "SETUSER", _redis_user(server), "allchannels")


def _bob_to_play(a: Server, b: Server) -> tuple[NetPlayer, NetPlayer, str]:
    """Ann at ``a`` makes a table (run there) and starts it with Bob, connected to ``b``;
    play goes on until it is Bob's turn. (Ann, Bob, the table's id)."""
    ann = NetPlayer(a, "Ann")
    tid = new_table(ann, {"one_hand": True, "profile": "cardems"})
    bob = NetPlayer(b, "Bob")
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    act_until([ann, bob], lambda: (catch_up_all([ann, bob]), bob.my_turn())[1])
    return ann, bob, tid


@dataclass
class _Split:
    """Two processes of one room, Ann at ``a`` running a table where it is Bob's (at ``b``)
    turn: ``shared`` is the test's own Redis client, ``pubsub`` a subscription of its own,
    ``store`` the database, ``count`` the table's stored events so far."""

    a: Server
    b: Server
    bob: NetPlayer
    tid: str
    prefix: str
    node_a: str
    node_b: str
    shared: Any
    pubsub: Any
    store: Store
    count: int


def _two_nodes(shared: Any, prefix: str, tid: str) -> tuple[str, str]:
    """In a room of two processes: the id of the one that runs ``tid``, then the other's."""
    node_a: str = shared.get(prefix + "owner:" + tid)
    node_b = next(k[len(prefix + "alive:"):] for k in shared.keys(prefix + "alive:*")
                  if k != prefix + "alive:" + node_a)
    return node_a, node_b


@contextmanager
def _split_room(postgres: PostgresServer, redis_server: RedisServer, name: str
                ) -> Iterator[_Split]:
    """:func:`card_room` of two processes (signed in to Redis as users of their own) at
    Bob's turn (:func:`_bob_to_play`), with the test's own Redis client and store."""
    import redis

    with card_room(2, postgres, redis_server, name, "--bots", "inline", "--cpu-delay", "0",
                   users=True) as (a, b):
        prefix = a.extra[a.extra.index("--redis-prefix") + 1]
        _ann, bob, tid = _bob_to_play(a, b)
        shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
        pubsub = shared.pubsub()
        store = Store.open(a.db)
        try:
            node_a, node_b = _two_nodes(shared, prefix, tid)
            yield _Split(a, b, bob, tid, prefix, node_a, node_b, shared, pubsub, store,
                         len(store.events(tid)))
        finally:
            store.close()
            pubsub.close()
            shared.close()


def _answers(player: NetPlayer, since: int) -> list[tuple[str, Any]]:
    """The (type, ref) of the acks and errors ``player`` got after ``since`` frames."""
    return [(m["type"], m.get("ref")) for m in player.frames[since:]
            if m["type"] in ("ack", "error")]


def test_a_move_lost_on_its_way_to_the_table_s_process_is_answered_once(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Bob, connected to b, plays at a table that a runs, while a's link to Redis is down
    (its subscription killed, and not taken again for a while): his move, forwarded to a,
    reaches nobody. The table stays at a (its lease is renewed, its fencing number never
    rises), so the answer after a take-over never came: Bob waited for ever. Now b asks a
    for the answers it waits for; a never had the move, so b reads the store: not there,
    and Bob is told, once, with his ref, that the move was not made and to play again;
    played again, it is taken."""
    with _split_room(postgres, redis_server, "lostact") as r:
        a, b, bob, store = r.a, r.b, r.bob, r.store
        assert bob.view is not None and bob.you is not None
        seat, action = bob.you["seat"], bob.view["legal_actions"][0]
        _deafen(r.shared, a, r.prefix, r.node_a, [r.node_b])
        r.pubsub.subscribe(r.prefix + "node:" + r.node_a)  # (the test hears it; a does not)
        since = len(bob.frames)
        bob.send({"type": "act", "action": action, "ref": "lost"})
        forwarded(r.pubsub, "lost")
        _hear(r.shared, a)
        ans = bob.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "lost")
        assert ans["type"] == "error" and ans["code"] == "state", ans
        assert "not made" in ans["message"] and "play again" in ans["message"], ans
        assert len(store.events(r.tid)) == r.count  # (indeed: nothing was stored)
        assert bob.my_turn() and bob.view is not None
        assert action in bob.view["legal_actions"]
        again = bob.request({"type": "act", "action": action})
        assert again["type"] == "ack", again
        mine = [e for e in store.events(r.tid)[r.count:] if e.kind == "act" and e.seat == seat]
        assert len(mine) == 1, mine
        # One answer each; a's log has no traceback.
        assert _answers(bob, since) == [("error", "lost"), ("ack", f"q{bob.n}")]
        assert "Traceback" not in a.log() + b.log()


def _answers_lost_on_their_way_back(postgres: PostgresServer, redis_server: RedisServer,
                                    name: str, moves: int, one_more: bool) -> None:
    """Bob, connected to b, plays at a table that a runs while b hears nothing: ``moves``
    moves without a ref, the first made (stored, acked), the others refused (no longer his
    turn); every answer is lost. ``one_more``: then one more move, with the ref "over",
    which b refuses at once (``error limit``). Then b hears again, and Bob makes another
    move (refused) and says something (its ack closes the check): Bob got every answer
    once, each to its own move, in the order of his moves, and no ack of a join he did not
    send."""
    with _split_room(postgres, redis_server, name) as r:
        a, b, bob, store = r.a, r.b, r.bob, r.store
        assert bob.view is not None and bob.you is not None
        seat, action = bob.you["seat"], bob.view["legal_actions"][0]
        _deafen(r.shared, b, r.prefix, r.node_b, [r.node_a])
        r.pubsub.subscribe(r.prefix + "node:" + r.node_b)  # (the test hears it; b does not)
        said: list[str] = []

        def answers_to_bob(sent: dict[str, Any]) -> bool:
            if sent.get("k") == "frame" and json.loads(sent["t"])["type"] in (
                    "ack", "error"):
                said.append(json.loads(sent["t"])["type"])
            return len(said) == moves

        since = len(bob.frames)
        for _ in range(moves):  # the first is made; then it is no longer his turn
            bob.send({"type": "act", "action": action})
        published(r.pubsub, answers_to_bob, "the answers to Bob's moves")  # (to nobody)
        assert said == ["ack"] + ["error"] * (moves - 1)
        expected: list[tuple[str, Any]] = []
        if one_more:  # as many moves wait for their answer as a client may have
            bob.send({"type": "act", "action": action, "ref": "over"})
            over = bob.until(lambda m: m["type"] == "error" and m.get("ref") == "over")
            assert over["code"] == "limit", over
            expected.append(("error", "over"))
        bob.seq = None  # (b joins him to the table again: a fresh snapshot)
        _hear(r.shared, b)
        bob.until(lambda m: m["type"] == "table")
        bob.send({"type": "act", "action": action})  # still not his turn
        assert bob.request({"type": "chat", "text": "hi"})["type"] == "ack"  # (after it)
        expected += [("ack", None)] + [("error", None)] * moves + [("ack", f"q{bob.n}")]
        assert _answers(bob, since) == expected
        errors = [m for m in bob.frames[since:] if m["type"] == "error"
                  and m.get("ref") != "over"]
        assert all(m["code"] == "illegal" and "not your turn" in m["message"]
                   for m in errors), errors
        mine = [e for e in store.events(r.tid)[r.count:] if e.kind == "act" and e.seat == seat]
        assert len(mine) == 1, mine
        assert "Traceback" not in a.log() + b.log()


def test_answers_lost_on_their_way_back_are_said_again_each_to_its_own_move(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Bob's move and his next one (no longer his turn), both without a ref, are answered
    while his process b hears nothing (its link to Redis cut): both answers reach nobody.
    When b heard again, Bob got a fresh snapshot but no answer to either move (the table
    never moved: no take-over answered them), and the next answers without a ref that came
    from a (the ack of the join b sent for him, then the error of his next move) were taken
    for the answers to his two moves: he saw an ack and one error for three moves. Now a
    keeps its answers and says them again when b asks, each matched to its own move by a
    number of b's, never by the ref: Bob gets the ack, the error, then the error of his
    next move; and no ack of a join he did not send."""
    _answers_lost_on_their_way_back(postgres, redis_server, "lostanswer", 2, False)


def test_at_most_acting_kept_moves_wait_for_their_answer(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """As many of Bob's moves as a client may have waiting (ACTING_KEPT) are answered
    while b hears nothing: one more is refused at once (error limit, with its ref), and
    when b hears again, a says every one of the answers again (it keeps as many), each
    once, in the order of the moves."""
    _answers_lost_on_their_way_back(postgres, redis_server, "manylost", ACTING_KEPT, True)


def test_the_last_move_of_a_match_is_answered_after_its_process_died(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Four players at b play at a table that a runs. The last card of the match goes to
    a, which stores it (the match is over, its result stored) and answers, but the answer
    never reaches b (b hears nothing for a while: its link to Redis cut), and a dies
    (SIGKILL). A finished table was never taken over, so nothing answered the move: the
    player waited for ever. Now once a's lease has run out, b brings the finished table
    back from the store: the player gets the ack of the last card, and everyone at b a
    fresh snapshot of the table, the match over."""
    import redis

    with card_room(2, postgres, redis_server, "lastmove", "--bots", "inline",
                   "--cpu-delay", "0", users=True) as (a, b):
        prefix = a.extra[a.extra.index("--redis-prefix") + 1]
        host = NetPlayer(a, "Ann")
        tid = new_table(host, {"one_hand": True, "profile": "cardems"})
        players = [NetPlayer(b, "Ann", host.token)] + [NetPlayer(b, n)
                                                        for n in ("Bob", "Cyd", "Dee")]
        for p in players:  # all four at b (Ann's tab at a goes): every move is forwarded
            assert p.request({"type": "join", "table_id": tid})["type"] == "ack"
            p.until(lambda m: m["type"] == "table")
        host.close()
        assert players[0].request({"type": "start"})["type"] == "ack"

        def last_card() -> bool:
            catch_up_all(players)
            return any(p.my_turn() and p.view is not None and len(p.view["hand"]) == 1
                       and len(p.view.get("trick") or []) == 3 for p in players)

        act_until(players, last_card)
        last = next(p for p in players if p.my_turn())
        assert last.view is not None
        action = last.view["legal_actions"][0]
        shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
        pubsub = shared.pubsub()
        store = Store.open(a.db)
        try:
            node_a, node_b = _two_nodes(shared, prefix, tid)
            _deafen(shared, b, prefix, node_b, [node_a])
            pubsub.subscribe(prefix + "node:" + node_b)  # (the test hears it; b does not)
            since = len(last.frames)
            last.send({"type": "act", "action": action, "ref": "last"})
            published(pubsub, lambda sent: sent.get("k") == "frame" and json.loads(
                sent["t"]).get("ref") == "last", "the answer to the last card")  # (to nobody)
            a.kill()
            assert store.game(tid).status == "finished"  # stored, and answered, before
            for p in players:
                p.seq = None  # (the table comes back numbered on from its snapshot)
            _hear(shared, b)
            ans = last.until(lambda m: m["type"] in ("ack", "error")
                             and m.get("ref") == "last")
            assert ans["type"] == "ack", ans
            # once (the ack without a ref before it, if any, is that of the join that b
            # made for the player to the table brought back at b)
            assert [a for a in _answers(last, since) if a[1] is not None] == [("ack", "last")]
            for p in players:
                while not any(m["type"] == "table" and m["table"]["status"] == "finished"
                              for m in p.frames[since if p is last else 0:]):
                    p.recv()
                assert p.view is not None and p.view["phase"] == "over", p.view
            mine = [e for e in store.events(tid) if e.kind == "act"
                    and e.seat == (last.you or {}).get("seat")]
            assert mine[-1].value is not None
            assert "Traceback" not in b.log()
        finally:
            store.close()
            pubsub.close()
            shared.close()


def test_spectators_rejoined_after_a_take_over_count_against_the_cap(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Four people watch a table run by a (no cap on spectators there), two from b and two
    from c, where a table takes one spectator. a dies (SIGKILL): whichever of b and c takes
    the table over lets one of them back in, and no more: the others are refused there and
    told clearly that they are no longer at the table, and why. The one let back in counts:
    a newcomer may not watch, from either process. A refused client's process forgets the
    table (before: it kept it as that client's table, so everything the client sent went
    on to the table's process, which answered "you are not at a table", and the client was
    told only the bare refusal): its messages are answered where it is connected."""
    import redis

    cap = ("--limit", "spectators_per_table=1")
    with card_room(3, postgres, redis_server, "spectcap", "--bots", "inline",
                   "--cpu-delay", "0", each=[(), cap, cap]) as (a, b, c):
        prefix = a.extra[a.extra.index("--redis-prefix") + 1]
        ann = NetPlayer(a, "Ann")
        tid = new_table(ann, {"one_hand": True, "profile": "cardems", "spectators": True})
        watchers = [NetPlayer(at, name) for at, name in
                    ((b, "Eve"), (b, "Xia"), (c, "Zoe"), (c, "Yan"))]
        where = dict(zip(watchers, (b, b, c, c), strict=True))
        for p in watchers:
            ans = p.request({"type": "join", "table_id": tid, "role": "spectator"})
            assert ans["type"] == "ack", ans
            p.until(lambda m: m["type"] == "table")
        a.kill()
        back: list[NetPlayer] = []
        refused: list[NetPlayer] = []
        for p in watchers:  # a fresh snapshot, or a refusal nobody asked for (no ref)
            p.seq = None
            got = p.until(lambda m: (m["type"] == "table" and m["table"]["id"] == tid)
                          or (m["type"] == "error" and m.get("ref") is None))
            if got["type"] == "table":
                assert p.you == {"role": "spectator", "seat": None}, p.you
                back.append(p)
                continue
            assert got["code"] == "limit", got
            assert got["message"].startswith("you are no longer at this table"), got
            assert "no room for more" in got["message"], got
            refused.append(p)
        assert len(back) == 1 and len(refused) == 3, ([p.name for p in back],
                                                      [p.name for p in refused])
        for at in (b, c):  # the one let back in counts against the cap
            new = NetPlayer(at, f"Max{at.port}")
            ans = new.request({"type": "join", "table_id": tid, "role": "spectator"})
            assert ans["type"] == "error" and ans["code"] == "limit", ans
            new.close()
        shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
        pubsub = shared.pubsub()
        try:
            owner = shared.get(prefix + "owner:" + tid)
            assert isinstance(owner, str)
            runs = b if httpx.get(b.url + "/api/health", timeout=10).json()["node"] == owner \
                else c
            # at least one refused at the process that does not run the table (it has two)
            far = next(p for p in refused if where[p] is not runs)
            pubsub.subscribe(prefix + "node:" + owner)
            ans = far.request({"type": "leave"})  # answered where it is connected
            assert ans["type"] == "error" and ans["code"] == "state", ans
            assert "not at a table" in ans["message"], ans
            left = far.n
            # a join of the table goes to its process (after the leave, had that gone too)
            ans = far.request({"type": "join", "table_id": tid, "role": "spectator"})
            assert ans["type"] == "error" and ans["code"] == "limit", ans
            sent: list[Any] = []  # the refs of the messages forwarded to it

            def forwarded_join(m: dict[str, Any]) -> bool:
                if m.get("k") == "msg":
                    sent.append(m["m"].get("ref"))
                return f"q{far.n}" in sent

            published(pubsub, forwarded_join, "the join")
            assert f"q{left}" not in sent, sent
            back[0].close()  # room for one again: a refused one may come back
            wait_until(lambda: far.request({"type": "join", "table_id": tid,
                                            "role": "spectator"})["type"] == "ack",
                       "a place to watch", seconds=30, every=0.2)
        finally:
            pubsub.close()
            shared.close()

def test_messages_sent_to_a_dead_process_are_answered_by_the_one_that_takes_over(
        room: list[Server], redis_server: RedisServer) -> None:
    """Bob, connected to b, sends a chat line, asks for the score sheet and leaves the
    table that a runs, while a is dead (SIGKILL) and its lease has not run out: only acts,
    joins and rematches were kept, so the three went to a and were lost, and Bob waited
    for ever. Now each is kept until answered: once the table is taken over, the chat line
    (not in the store: a never stored it) and the sheet request go to the new process,
    which says the line to everyone and answers both; the leave, which cannot be known to
    be safe to do again, is answered with an error saying to send it again. The dead
    process's lease is held in Redis by the test, so that they surely go to it."""
    import redis

    a, b, _c = room
    prefix = a.extra[a.extra.index("--redis-prefix") + 1]
    _ann, bob, tid = _bob_to_play(a, b)
    assert bob.you is not None
    seat = bob.you["seat"]
    shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
    pubsub = shared.pubsub()
    store = Store.open(a.db)
    try:
        lease = _kill_keeping_lease(a, shared, pubsub, prefix, tid)
        since = len(bob.frames)
        bob.send({"type": "chat", "text": "anyone there?", "ref": "chat"})
        forwarded(pubsub, "chat")
        bob.send({"type": "sheet", "ref": "sheet"})
        forwarded(pubsub, "sheet")
        bob.send({"type": "leave", "ref": "leave"})
        forwarded(pubsub, "leave")
        shared.delete(lease)  # the lease runs out: a live process takes the table over
        bob.seq = None  # (the new process numbers on from its snapshot)
        refs = ("chat", "sheet", "leave")
        bob.until(lambda m: {r for r in refs if any(f.get("ref") == r for f in
                                                    bob.frames[since:])} == set(refs))
        got = {f["ref"]: f for f in bob.frames[since:] if f.get("ref") in refs}
        assert got["chat"]["type"] == "ack", got
        assert got["sheet"]["type"] == "sheet", got
        assert got["leave"]["type"] == "error" and got["leave"]["code"] == "state", got
        assert "send it again" in got["leave"]["message"], got
        # answered in the order they were sent
        assert [f["ref"] for f in bob.frames[since:] if f.get("ref") in refs] == list(refs)
        said = [m for m in bob.frames[since:] if m["type"] == "chat"]
        assert [m["line"]["text"] for m in said] == ["anyone there?"], said
        assert [line["text"] for line in store.chat(tid, 50)] == ["anyone there?"]
        assert bob.you == {"role": "player", "seat": seat}, bob.you  # (it did not leave)
    finally:
        store.close()
        pubsub.close()
        shared.close()


def test_a_chat_line_stored_by_a_process_that_died_before_answering_is_not_said_twice(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Bob, connected to b, chats at a table that a runs; a stores the line and answers,
    but the answer never reaches b (b hears nothing for a while), and a dies (SIGKILL).
    Once the table is taken over, b finds the line in the store by the key it was stored
    with: Bob gets the ack of his line, and the line is not sent again (it is in the store
    once)."""
    with _split_room(postgres, redis_server, "chatkept") as r:
        a, b, bob, store = r.a, r.b, r.bob, r.store
        _deafen(r.shared, b, r.prefix, r.node_b, [r.node_a])
        r.pubsub.subscribe(r.prefix + "node:" + r.node_b)  # (the test hears it; b does not)
        since = len(bob.frames)
        bob.send({"type": "chat", "text": "said once", "ref": "kept"})
        published(r.pubsub, lambda sent: sent.get("k") == "frame" and json.loads(
            sent["t"]).get("ref") == "kept", "the answer to the chat line")  # (to nobody)
        a.kill()
        assert [line["text"] for line in store.chat(r.tid, 50)] == ["said once"]
        bob.seq = None  # (the table comes back numbered on from its snapshot)
        _hear(r.shared, b)
        ans = bob.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "kept")
        assert ans["type"] == "ack", ans
        while not any(m["type"] == "table" for m in bob.frames[since:]):
            bob.recv()  # the snapshot of the table taken over (the line in its chat)
        snap = next(m for m in bob.frames[since:] if m["type"] == "table")
        assert [c["text"] for c in snap["chat"]] == ["said once"], snap["chat"]
        assert [line["text"] for line in store.chat(r.tid, 50)] == ["said once"]
        assert [x for x in _answers(bob, since) if x[1] is not None] == [("ack", "kept")]
        assert "Traceback" not in b.log()


def test_a_record_deleted_at_one_process_is_not_served_by_another(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """The uploader deletes a record kept for review at one process: another process that
    kept its record and score sheet ready answers 404 for both at once (before: it went on
    serving them from what it kept, until they were pushed out by others)."""
    from tests.server.helpers import finished_record

    with card_room(2, postgres, redis_server, "deleted") as (a, b):
        r = httpx.post(a.url + "/api/guest", json={"name": "Uma"}, timeout=30)
        assert r.status_code == 200, r.text
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        r = httpx.post(a.url + "/api/records", json={"record": finished_record(200, 3),
                                                     "mode": "review"},
                       headers=auth, timeout=60)
        assert r.status_code == 200, r.text
        gid = r.json()["game_id"]
        urls = [f"{b.url}/api/games/{gid}/record", f"{b.url}/api/tables/{gid}/sheet"]
        for url in urls * 2:  # made at b, then kept there
            got = httpx.get(url, headers=auth, timeout=30)
            assert got.status_code == 200, got.text
        r = httpx.delete(f"{a.url}/api/games/{gid}", headers=auth, timeout=30)
        assert r.status_code == 204, r.text
        for url in urls:
            wait_until(lambda url=url: httpx.get(url, headers=auth, timeout=30).status_code
                       == 404, f"{url} refused after the delete", seconds=30, every=0.05)
