"""A rematch with several ``spades serve`` processes (``--redis``): real processes on one
PostgreSQL database and one Redis. The process that runs the finished table makes the new
one; the players connected to other processes hear of it and sit down at it, at their old
places, without its code, through whichever process they are connected to; a spectator of
the private table never learns the new table's code."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from spades.store import Store
from tests.server.helpers import wait_until
from tests.server.netclient import Msg, NetPlayer, Server, card_room, new_table
from tests.server.test_cluster import act_until
from tests.services import PostgresServer, RedisServer

OPTIONS: Msg = {"name": "Club night", "profile": "cardems", "one_hand": True,
                "spectators": True, "private": True}


@pytest.fixture
def room(postgres: PostgresServer, redis_server: RedisServer) -> Iterator[list[Server]]:
    """Three processes on one PostgreSQL database and one Redis."""
    with card_room(3, postgres, redis_server, "rematch", "--bots", "inline",
                   "--cpu-delay", "0") as s:
        yield s


def is_rematch(m: Msg) -> bool:
    return m["type"] == "event" and m["event"]["kind"] == "rematch"


def is_over(m: Msg) -> bool:
    return m["type"] == "event" and m["event"]["kind"] == "match_over"


def joined_as_player(p: NetPlayer, tid: str) -> None:
    """``p`` joins table ``tid`` by its id alone (no code) and sits down there."""
    ans = p.request({"type": "join", "table_id": tid})
    assert ans["type"] == "ack", ans
    p.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    assert p.you is not None and p.you["role"] == "player", p.you


def test_a_rematch_across_processes(room: list[Server]) -> None:
    a, b, c = room  # the table runs on a; Ann carries on from c, Bob plays and Eve watches from b
    ann, bob, eve, tid = _finished_at_a(a, c, b)
    assert ann.you is not None and bob.you is not None and ann.table is not None
    ann_was, bob_was, invite = ann.you["seat"], bob.you["seat"], ann.table["invite"]
    # Ann asks for the rematch at c: a makes the new table, and Ann sits there, at her place
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    assert new["status"] == "waiting" and new["options"]["private"]
    assert new["invite"] and new["invite"] != invite
    assert ann.you == {"role": "player", "seat": ann_was}
    assert new["seats"][bob_was]["kept_for"] == "Bob"  # until he is back
    # the others hear of it at b, without the code
    for p in (bob, eve):
        news = p.until(is_rematch)
        assert news["table_id"] == tid and news["event"]["rematch"] == new["id"]
        assert news["event"]["text"] == "Ann started a rematch"
    # Bob sits down from b by the id alone, at his old place
    joined_as_player(bob, new["id"])
    assert bob.you == {"role": "player", "seat": bob_was}
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined")
    # and from another process too: Bob's second tab at c takes his place there
    tab = NetPlayer(c, "Bob", bob.token)
    joined_as_player(tab, new["id"])
    assert tab.you == {"role": "player", "seat": bob_was}
    _code_kept_from(eve, new, [b, a, c])
    # the new match is played in its turn, Ann from c and Bob from c
    assert ann.request({"type": "start"})["type"] == "ack"
    act_until([ann, tab], lambda: ann.view is not None and ann.view["phase"] == "over")


def test_a_rematch_table_taken_over_still_lets_the_old_players_in(room: list[Server]) -> None:
    """The process that made the rematch table dies before Bob sits down: the process
    that takes it over knows who played before (stored with the table), so Bob, at b,
    still sits down without the code at his old place; a stranger still may not."""
    a, b, c = room
    ann = NetPlayer(a, "Ann")
    tid = new_table(ann, OPTIONS)
    assert ann.table is not None
    bob = NetPlayer(b, "Bob")
    ans = bob.request({"type": "join", "table_id": tid, "invite": ann.table["invite"]})
    assert ans["type"] == "ack", ans
    bob.until(lambda m: m["type"] == "table")
    assert bob.you is not None
    bob_was = bob.you["seat"]
    assert ann.request({"type": "start"})["type"] == "ack"
    act_until([ann, bob], lambda: ann.view is not None and ann.view["phase"] == "over")
    for p in (ann, bob):
        if not any(is_over(m) for m in p.frames):
            p.until(is_over)
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    assert bob.until(is_rematch)["event"]["rematch"] == new["id"]
    a.kill()  # the process that runs the new table
    bob.seq = None  # (the finished table, where Bob is, comes back elsewhere, numbered anew)
    zed = NetPlayer(c, "Zed")
    ans = zed.request({"type": "join", "table_id": new["id"]})
    assert ans["type"] == "error" and ans["code"] == "not_allowed", ans
    joined_as_player(bob, new["id"])
    assert bob.you == {"role": "player", "seat": bob_was}


def _code_kept_from(eve: NetPlayer, new: dict[str, Any], servers: list[Server]) -> None:
    """Eve, who watched the old private table, may neither sit down at its rematch ``new``
    nor watch it without the code, from any of ``servers``, and never gets the code."""
    for at in servers:
        look = NetPlayer(at, "Eve", eve.token)
        for role in ("player", "spectator"):
            ans = look.request({"type": "join", "table_id": new["id"], "role": role})
            assert ans["type"] == "error" and ans["code"] == "not_allowed", ans
        assert new["invite"] not in json.dumps(look.frames)
        look.close()
    assert new["invite"] not in json.dumps(eve.frames)


def _finished_at_a(a: Server, ann_at: Server, bob_at: Server
                   ) -> tuple[NetPlayer, NetPlayer, NetPlayer, str]:
    """Ann's private table, run by ``a``, played out by Ann (at ``ann_at``: her tab at ``a``
    goes) and Bob (at ``bob_at``), watched by Eve (at ``bob_at``). (ann, bob, eve, id)."""
    host = NetPlayer(a, "Ann")
    tid = new_table(host, OPTIONS)
    assert host.table is not None
    invite = host.table["invite"]
    ann = NetPlayer(ann_at, "Ann", host.token)
    joined_as_player(ann, tid)
    host.close()
    bob = NetPlayer(bob_at, "Bob")
    assert bob.request({"type": "join", "table_id": tid, "invite": invite})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    eve = NetPlayer(bob_at, "Eve")
    ans = eve.request({"type": "join", "table_id": tid, "role": "spectator",
                       "invite": invite})
    assert ans["type"] == "ack", ans
    eve.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    act_until([ann, bob], lambda: ann.view is not None and ann.view["phase"] == "over")
    for p in (ann, bob, eve):  # (told once the result is stored)
        if not any(is_over(m) for m in p.frames):
            p.until(is_over)
    return ann, bob, eve, tid


def _rematch_made_from_the_store(ann: NetPlayer, bob: NetPlayer, eve: NetPlayer, tid: str,
                                 servers: list[Server]) -> None:
    """Ann asks for the rematch of the finished table ``tid``, whose process is gone: it
    is made as it would have been there (her place, Bob's kept, a new code that Eve never
    gets), Bob hears of it and sits down at his old place without the code."""
    assert ann.you is not None and bob.you is not None and ann.table is not None
    ann_was, bob_was, invite = ann.you["seat"], bob.you["seat"], ann.table["invite"]
    for p in (ann, bob, eve):
        p.seq = None  # (the table comes back numbered on from its snapshot)
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    assert new["status"] == "waiting" and new["options"]["private"]
    assert new["options"]["name"] == OPTIONS["name"]
    assert new["invite"] and new["invite"] != invite
    assert new["owner"] == ann.table["owner"]
    assert ann.you == {"role": "player", "seat": ann_was}
    assert new["seats"][bob_was]["kept_for"] == "Bob"  # until he is back
    news = bob.until(is_rematch)
    assert news["table_id"] == tid and news["event"]["rematch"] == new["id"]
    assert news["event"]["text"] == "Ann started a rematch"
    joined_as_player(bob, new["id"])
    assert bob.you == {"role": "player", "seat": bob_was}
    _code_kept_from(eve, new, servers)
    assert ann.request({"type": "start"})["type"] == "ack"
    act_until([ann, bob], lambda: ann.view is not None and ann.view["phase"] == "over")


def test_a_rematch_after_the_table_s_process_stopped_is_made(room: list[Server]) -> None:
    """The process that ran the finished table stops (a deploy) while Ann, at another
    process, looks at the end of the match; her Rematch is made from the stored table, as
    it would have been there (before: a clear error, and before that it was sent to the
    stopped process and never answered, and her page waited for ever)."""
    a, b, c = room
    ann, bob, eve, tid = _finished_at_a(a, c, b)
    a.stop()  # its leases are released as it stops: nobody runs the finished table now
    _rematch_made_from_the_store(ann, bob, eve, tid, [b, c])


def test_a_rematch_asked_as_the_table_s_process_dies_is_made(room: list[Server]) -> None:
    """The process that ran the finished table dies (SIGKILL) and Ann, at another process,
    asks for the rematch at once (the dead process's lease has not run out: her rematch
    goes to it, and is lost with it). Once the lease runs out, the finished table is
    brought back from the store and her rematch is made there (before: it was never
    answered, or, asked after the lease ran out, refused); Bob, at a third process, hears
    of it and sits down at his old place."""
    a, b, c = room
    ann, bob, eve, tid = _finished_at_a(a, c, b)
    a.kill()
    _rematch_made_from_the_store(ann, bob, eve, tid, [b, c])


def test_spectators_watch_on_after_a_take_over_and_hear_of_the_rematch(
        room: list[Server]) -> None:
    """The process that ran a finished private table dies (SIGKILL) while Eve (at b) and
    Zoe (at c) watch it, let in with its code. Whichever of b and c takes it over, one of
    them has it on her own process and the other not: both are joined to it again as
    spectators, without the code (before: the join made for them was a player's, without
    the code, and was refused, so they silently stopped getting the game and never heard
    of the rematch). Nobody gets an ``ack`` they did not ask for (before: the clients of
    the process that restored the table got one, with no ``ref``), and the code is not
    given to the spectators. A client cannot claim that right itself."""
    a, b, c = room
    ann, bob, eve, tid = _finished_at_a(a, c, b)
    assert ann.table is not None
    invite = ann.table["invite"]
    zoe = NetPlayer(c, "Zoe")
    ans = zoe.request({"type": "join", "table_id": tid, "role": "spectator",
                       "invite": invite})
    assert ans["type"] == "ack", ans
    zoe.until(lambda m: m["type"] == "table")
    everyone = [ann, bob, eve, zoe]
    seen = {p.name: len(p.frames) for p in everyone}
    a.kill()
    for p in everyone:  # a fresh snapshot of the table, from where it runs now
        p.seq = None
        p.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    assert ann.you is not None and ann.you["role"] == "player"
    assert bob.you is not None and bob.you["role"] == "player"
    for p in (eve, zoe):
        assert p.you == {"role": "spectator", "seat": None}, (p.name, p.you)
        assert invite not in json.dumps(p.frames[seen[p.name]:]), p.name
    for p in everyone:
        stray = [m for m in p.frames[seen[p.name]:] if m["type"] in ("ack", "error")]
        assert not stray, (p.name, stray)
    # the right to watch without the code is the processes' to carry, not a client's
    for at in (b, c):
        mal = NetPlayer(at, "Mal")
        for extra in ({"w": True}, {"watching": True}, {"admitted": True}):
            ans = mal.request({"type": "join", "table_id": tid, "role": "spectator",
                               **extra})
            assert ans["type"] == "error", ans
        ans = mal.request({"type": "join", "table_id": tid, "role": "spectator"})
        assert ans["type"] == "error" and ans["code"] == "not_allowed", ans
        assert not any(m["type"] == "table" for m in mal.frames), mal.frames
        mal.close()
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    for p in (bob, eve, zoe):
        news = p.until(is_rematch)
        assert news["table_id"] == tid and news["event"]["rematch"] == new["id"]
    for p in (eve, zoe):
        assert new["invite"] not in json.dumps(p.frames), p.name


def test_a_rematch_asked_again_after_a_take_over_leads_to_the_one_made(
        room: list[Server]) -> None:
    """Ann makes the rematch at a (which runs both tables), goes back to the finished
    table and a dies (SIGKILL): both tables come back elsewhere. Her rematch asked again
    there takes her to the rematch made before, as a would have (an ``ack`` and its
    snapshot), wherever it runs now: the process that brought the old table back reads
    the rematch made from the store (before: it knew nothing of it, and made a second new
    table, which Bob heard of as another rematch)."""
    a, b, c = room
    ann, bob, _eve, tid = _finished_at_a(a, c, b)
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    assert bob.until(is_rematch)["event"]["rematch"] == new["id"]
    assert ann.request({"type": "join", "table_id": tid})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    a.kill()
    for p in (ann, bob):  # joined to the finished table where it runs now
        p.seq = None
        p.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    again = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    assert again["id"] == new["id"], "a second rematch was made"
    assert ann.you is not None and ann.you["role"] == "player"
    bob.send({"type": "ping", "ref": "p"})  # (everything sent to him before is in)
    bob.until(lambda m: m["type"] == "pong" and m.get("ref") == "p")
    news = [m["event"]["rematch"] for m in bob.frames if is_rematch(m)]
    assert set(news) == {new["id"]}, news  # (told again at his rejoin: the same one)
    joined_as_player(bob, new["id"])  # the one rematch: Ann and Bob play it
    assert ann.request({"type": "start"})["type"] == "ack"
    act_until([ann, bob], lambda: ann.view is not None and ann.view["phase"] == "over")


@contextmanager
def _room_dying_at(postgres: PostgresServer, redis_server: RedisServer, name: str,
                   point: str) -> Iterator[list[Server]]:
    """:func:`room`, whose first process (a) kills itself (SIGKILL) at ``point`` of making a
    rematch (the test hook ``SPADES_TEST_DIE_AT``: spades.server.hub.die_at)."""
    with card_room(3, postgres, redis_server, name, "--bots", "inline", "--cpu-delay", "0",
                   envs=[{"SPADES_TEST_DIE_AT": point}]) as s:
        yield s


def _unfinished(server: Server) -> list[str]:
    """The ids of the tables of ``server``'s database that are waiting or under way."""
    store = Store.open(server.db)
    try:
        return store.game_ids(kind="table", status=("waiting", "active"))
    finally:
        store.close()


def _stored_option(server: Server, tid: str, key: str) -> Any:
    """What is stored with table ``tid`` under ``key`` of its options, if anything."""
    store = Store.open(server.db)
    try:
        return store.game(tid).options.get(key)
    finally:
        store.close()


def _stored_rematch(server: Server, tid: str) -> Any:
    """The rematch stored with the finished table ``tid`` (``rematched``), if any."""
    return _stored_option(server, tid, "rematched")


def test_a_rematch_whose_process_dies_half_way_is_made_once(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """The process that runs the finished table dies (SIGKILL) in the middle of making
    Ann's rematch, between its two writes (the new table, and its id stored with the
    finished one). Ann's rematch, asked again by her own process, which brings the finished
    table back (b, where Bob is, is paused meanwhile), makes the one rematch, under the id
    decided before the process died, once the dead process's lease on it has run out
    (before: the new table was stored and the finished table knew nothing of it, so a
    second one was made and the first stayed, waiting for nobody; and Ann, whom a had taken
    off the finished table, was refused, "you are not at a table"); Bob hears of that one
    and sits down."""
    with _room_dying_at(postgres, redis_server, "rematchhalf", "rematch_half") as (a, b, c):
        ann, bob, _eve, tid = _finished_at_a(a, c, b)
        assert bob.you is not None
        bob_was = bob.you["seat"]
        ann.send({"type": "rematch", "ref": "again"})
        wait_until(lambda: a.proc is not None and a.proc.poll() is not None, "a to die")
        for p in (ann, bob):
            p.seq = None  # (the finished table comes back elsewhere, numbered anew)
        assert b.proc is not None
        b.proc.send_signal(signal.SIGSTOP)  # (so that c, Ann's process, brings it back)
        try:
            ans = ann.until(lambda m: m["type"] in ("ack", "error")
                            and m.get("ref") == "again")
        finally:
            b.proc.send_signal(signal.SIGCONT)
        assert ans["type"] == "ack", ans
        new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
        assert _unfinished(b) == [new["id"]], "a second rematch was made"
        assert _stored_rematch(b, tid) == new["id"]
        assert bob.until(is_rematch)["event"]["rematch"] == new["id"]
        joined_as_player(bob, new["id"])
        assert bob.you == {"role": "player", "seat": bob_was}


@contextmanager
def _redis(redis_server: RedisServer) -> Iterator[Any]:
    """The test's own client of the room's Redis (its leases: ``PREFIXowner:TABLE``)."""
    import redis

    shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        yield shared
    finally:
        shared.close()


def _prefix(server: Server) -> str:
    return server.extra[server.extra.index("--redis-prefix") + 1]


def test_a_rematch_run_elsewhere_is_told_to_whoever_comes_to_the_old_table(
        room: list[Server], redis_server: RedisServer) -> None:
    """Ann's rematch is made at a, which runs the finished table, and a dies (SIGKILL):
    b, where Bob and Eve are, brings the finished table back, but not the rematch (its
    lease is held by the test, as the dead process's, so that it runs nowhere for now).
    Bob and Eve, joined to the finished table again at b on the connections that heard of
    the rematch at a, are not told it again (before: "Ann started a rematch" a second time,
    as b did not know who had heard it). Bob's new page at c (a reload) hears of it, and so
    does Eve's new page at c after everyone left the finished table (b keeps it in memory
    a while, as a process that runs both keeps it while the rematch waits), as where the
    rematch runs with the old table (before: only a rematch run by the same process was
    told, read from its memory, and the finished table was forgotten as its last member
    left)."""
    a, b, c = room
    ann, bob, eve, tid = _finished_at_a(a, c, b)
    with _redis(redis_server) as shared:
        lease = _prefix(a) + "owner:"
        dead = shared.get(lease + tid)
        assert isinstance(dead, str) and ann.table is not None
        invite = ann.table["invite"]
        ans = ann.request({"type": "rematch"})
        assert ans["type"] == "ack", ans
        new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
        for p in (bob, eve):
            assert p.until(is_rematch)["event"]["rematch"] == new["id"]
        a.kill()
        assert shared.get(lease + new["id"]) == dead
        shared.set(lease + new["id"], dead, px=600_000)  # (the rematch runs nowhere)
        back = {}
        for p in (bob, eve):  # joined to the finished table again at b
            p.seq = None
            p.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
            back[p.name] = len(p.frames)
        assert shared.get(lease + tid) != dead  # (b runs the finished table)
        assert bob.request({"type": "leave"})["type"] == "ack"
        tab = NetPlayer(c, "Bob", bob.token)  # Bob's page again, at c
        ans = tab.request({"type": "join", "table_id": tid})
        assert ans["type"] == "ack", ans
        news = tab.until(is_rematch)
        assert news["event"]["rematch"] == new["id"]
        assert news["event"]["text"] == "Ann started a rematch"
        # Eve hears that event too, without its words (Bob's alone), and nothing before it
        # since she was joined again: she heard of the rematch at a already
        assert eve.until(is_rematch)["event"]["text"] == ""
        told = [m for p in (bob, eve) for m in p.frames[back[p.name]:] if is_rematch(m)
                and m["event"]["text"]]
        assert told == [], "told again after the take-over"
        for p in (eve, tab):  # they go (as a closed page does): nobody is at it
            assert p.request({"type": "leave"})["type"] == "ack"
        page = NetPlayer(c, "Eve", eve.token)  # Eve's page again, at c
        ans = page.request({"type": "join", "table_id": tid, "role": "spectator",
                            "invite": invite})
        assert ans["type"] == "ack", ans
        news = page.until(is_rematch)
        assert news["event"]["rematch"] == new["id"]
        assert news["event"]["text"] == "Ann started a rematch"
        assert new["invite"] not in json.dumps(eve.frames + page.frames)
        shared.delete(lease + new["id"])  # the rematch is taken over: Bob sits down there
        joined_as_player(tab, new["id"])


def test_a_rematch_resent_by_the_owner_s_process_after_a_take_over_leads_to_the_one_made(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """a, which runs the finished table, makes Ann's rematch (both stored) and dies
    (SIGKILL) before it answers her. b, where Bob is, brings the finished table back (c,
    Ann's process, is paused meanwhile, so that b is the one), but not the rematch, whose
    lease the test holds as the dead process's. c, resumed, sends Ann's rematch again, to
    b: Ann is joined to the finished table there first (a had taken her off it for the
    rematch), and b leads her to the rematch made, which b does not run; her process's join
    waits until it is taken over, and its answer is the rematch's (with its ``ref``). One
    rematch in all, which Bob heard of at b and sits down at."""
    from tests.server.test_cluster import published

    with (_room_dying_at(postgres, redis_server, "rematchmade", "rematch_made") as (a, b, c),
          _redis(redis_server) as shared):
        ann, bob, _eve, tid = _finished_at_a(a, c, b)
        assert bob.you is not None and ann.you is not None
        ann_was, bob_was = ann.you["seat"], bob.you["seat"]
        lease = _prefix(a) + "owner:"
        dead = shared.get(lease + tid)
        assert isinstance(dead, str)
        pubsub = shared.pubsub()
        try:
            pubsub.subscribe(_prefix(a) + "node:" + dead)
            ann.send({"type": "rematch", "ref": "again"})
            wait_until(lambda: a.proc is not None and a.proc.poll() is not None, "a to die")
            made = _stored_rematch(b, tid)
            assert isinstance(made, str)
            assert shared.get(lease + made) == dead
            shared.set(lease + made, dead, px=600_000)  # (the rematch runs nowhere)
            assert c.proc is not None
            c.proc.send_signal(signal.SIGSTOP)
            try:
                bob.seq = None  # b brings the finished table back: Bob hears of the rematch
                bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
                assert bob.until(is_rematch)["event"]["rematch"] == made
                assert shared.get(lease + tid) not in (None, dead)
            finally:
                c.proc.send_signal(signal.SIGCONT)
            # c sends the rematch to b; b leads Ann to the rematch: c sends her join there,
            # to the dead process, which holds its lease
            published(pubsub, lambda sent: sent.get("k") == "msg" and sent["m"] == {
                "type": "join", "table_id": made, "ref": "again"}, "Ann's join")
            shared.delete(lease + made)  # the rematch is taken over
            ann.seq = None
            ans = ann.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "again")
            assert ans["type"] == "ack", ans
            new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)
            assert new["table"]["id"] == made
            assert ann.you == {"role": "player", "seat": ann_was}
            assert _unfinished(b) == [made], "a second rematch was made"
            joined_as_player(bob, made)
            assert bob.you == {"role": "player", "seat": bob_was}
        finally:
            pubsub.close()


def _paused(server: Server) -> bool:
    """Whether ``server``'s process is stopped (SIGSTOP: state ``T`` in /proc)."""
    assert server.proc is not None
    with open(f"/proc/{server.proc.pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t")


def test_a_rematch_made_by_a_process_cut_off_meanwhile_leads_its_owner_to_the_one_made(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """a, which runs the finished table, is cut off from the others (paused: SIGSTOP) in
    the middle of making Ann's rematch, its id decided and stored with the finished table,
    the new table not made yet. Its leases run out; the finished table is brought back at
    b (where Bob is), and Ann's rematch asked there from her other tab (at c) is made under
    the stored id. a, let go on (SIGCONT), makes the same table: the store refuses the
    second (its primary key), and Ann's tab at a is led to the rematch made, an ``ack`` and
    its snapshot (before: an error saying the database was not answering, though it was).
    One rematch in all."""
    with (_room_dying_at(postgres, redis_server, "rematchcut", "stop:rematch_half")
          as (a, b, c), _redis(redis_server) as shared):
        ann, bob, _eve, tid = _finished_at_a(a, a, b)
        lease = _prefix(a) + "owner:"
        was = shared.get(lease + tid)
        assert isinstance(was, str)
        ann.send({"type": "rematch", "ref": "cut"})
        wait_until(lambda: _paused(a), "a to stop itself half way through the rematch")
        assert a.proc is not None
        try:
            made = _stored_rematch(b, tid)
            assert isinstance(made, str)
            bob.seq = None  # b brings the finished table back once a's lease runs out
            bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
            wait_until(lambda: shared.get(lease + made) != was, "a's lease on it to run out")
            other = NetPlayer(c, "Ann", ann.token)  # her other tab, at c
            joined_as_player(other, tid)
            ans = other.request({"type": "rematch"})
            assert ans["type"] == "ack", ans
            new = other.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)
            assert new["table"]["id"] == made
        finally:
            a.proc.send_signal(signal.SIGCONT)
        ans = ann.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "cut")
        assert ans["type"] == "ack", ans
        ann.seq = None
        led = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)
        assert led["table"]["id"] == made
        assert _unfinished(b) == [made], "a second rematch was made"
        joined_as_player(bob, made)


def test_two_tabs_of_the_owner_at_two_processes_asking_at_once_make_one_rematch(
        room: list[Server]) -> None:
    """Ann's two tabs, at b and at c, ask for the rematch of the table a runs at the same
    moment: one table is made; the tab at it is answered with it, the other with it too
    (handed the seat back in time: the rematch made, as when asked again) or, if it was
    not at the table, told so; never a server error."""
    a, b, c = room
    ann, bob, _eve, tid = _finished_at_a(a, c, b)
    tab = NetPlayer(b, "Ann", ann.token)  # (takes the seat: Ann's tab at c waits)
    joined_as_player(tab, tid)
    for p in (tab, ann):
        p.send({"type": "rematch", "ref": "both"})
    made = set()
    for p in (tab, ann):
        ans = p.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == "both")
        if p is tab or ans["type"] != "error":
            assert ans["type"] == "ack", ans
            made.add(p.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)
                     ["table"]["id"])
        else:
            assert ans["code"] == "state", ans  # (not at the table: replaced)
    assert len(made) == 1, made
    assert _unfinished(a) == list(made), "a second rematch was made"
    assert bob.until(is_rematch)["event"]["rematch"] in made


def test_a_process_cut_off_that_lost_the_rematch_s_lease_leads_its_owner_to_the_holder(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """The other way round: a is cut off (paused) half way through Ann's rematch, b brings
    the finished table back and, asked for the rematch by Ann's tab at c, takes the stored
    id's lease and is cut off too half way (before it stores the table). a, let go on
    first, no longer holds the id's lease: it neither stores nor runs the table (before: it
    made it and ran it without the lease, so that for a while two processes ran it, until
    b brought it back from the store), and leads Ann's tab to b, the lease holder: her
    join is sent there. b, let go on, makes the table and answers both tabs with it, an
    ``ack`` (with each one's ``ref``) and its snapshot. One rematch in all."""
    with (card_room(3, postgres, redis_server, "rematchcut2", "--bots", "inline",
                    "--cpu-delay", "0", envs=[{"SPADES_TEST_DIE_AT": "stop:rematch_half"}] * 2)
          as (a, b, c), _redis(redis_server) as shared):
        from tests.server.test_cluster import published

        ann, bob, _eve, tid = _finished_at_a(a, a, b)
        lease = _prefix(a) + "owner:"
        was = shared.get(lease + tid)
        assert isinstance(was, str) and a.proc is not None and b.proc is not None
        pubsub = shared.pubsub()
        ann.send({"type": "rematch", "ref": "cut"})
        try:
            wait_until(lambda: _paused(a), "a to stop itself half way through the rematch")
            made = _stored_rematch(b, tid)
            assert isinstance(made, str)
            bob.seq = None  # b brings the finished table back once a's lease runs out
            bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
            other = NetPlayer(c, "Ann", ann.token)  # her other tab, at c
            joined_as_player(other, tid)
            other.send({"type": "rematch", "ref": "also"})
            wait_until(lambda: _paused(b), "b to stop itself half way through it too",
                       seconds=30)
            holder = shared.get(lease + made)
            assert isinstance(holder, str) and holder != was  # (b's)
            # b's leases (the rematch's id, the finished table) held on while b is paused:
            # they would run out in lease_seconds, however slow this machine is meanwhile
            for key in (lease + made, lease + tid):
                assert shared.get(key) == holder
                shared.set(key, holder, px=600_000)
            pubsub.subscribe(_prefix(a) + "node:" + holder)
            a.proc.send_signal(signal.SIGCONT)
            published(pubsub, lambda sent: sent.get("k") == "msg" and sent["m"] == {
                "type": "join", "table_id": made, "ref": "cut"}, "Ann's join, led to b")
            assert _unfinished(b) == [], "a made the rematch without its lease"
        finally:
            a.proc.send_signal(signal.SIGCONT)
            b.proc.send_signal(signal.SIGCONT)
            pubsub.close()
        for p, ref in ((other, "also"), (ann, "cut")):
            ans = p.until(lambda m, ref=ref: m["type"] in ("ack", "error")
                          and m.get("ref") == ref)
            assert ans["type"] == "ack", ans
            led = p.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)
            assert led["table"]["id"] == made
        assert _unfinished(b) == [made], "a second rematch was made"
        joined_as_player(bob, made)
