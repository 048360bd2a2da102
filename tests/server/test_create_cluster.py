"""A new table (``create``) with several ``spades serve`` processes (``--redis``) whose
process is cut off (paused) or dies between storing the table and answering its creator:
real processes on one PostgreSQL database and one Redis (the test hook
``SPADES_TEST_DIE_AT``: spades.server.hub.die_at, at ``create_stored``)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from spades.server.hub import SEQ_EPOCH
from spades.store import Store
from tests.server.helpers import wait_until
from tests.server.netclient import Msg, NetPlayer, Server, card_room
from tests.server.test_cluster import published
from tests.server.test_rematch_cluster import (
    _paused,
    _prefix,
    _redis,
    _stored_option,
    _unfinished,
)
from tests.services import PostgresServer, RedisServer

OPTIONS: Msg = {"name": "Cut off", "profile": "cardems", "one_hand": True, "cpu": "random"}


def _dealt(m: Msg) -> bool:
    return m["type"] == "event" and m["event"]["kind"] == "deal"


def test_a_create_whose_process_is_cut_off_after_storing_leads_its_creator_to_the_table(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """a stores Ann's new table, then is cut off from the others (paused: SIGSTOP) before
    it runs it; its lease on the table runs out and b, finding the table stored and run by
    nobody, takes it over. a, let go on (SIGCONT), no longer holds the lease: it does not
    run the table (one copy, at b), and answers Ann's ``create`` by leading her to it, her
    join sent to b with the create's ``ref``: an ``ack`` and the table's snapshot, Ann at
    her seat as its owner (before: ``error state``, "this server process was cut off...",
    though her table existed and b ran it). She goes on there through a; Bob sits down."""
    with _cut_off_create(postgres, redis_server, "createcut", cpus=False) as (ann, tid, a, b):
        # she goes on at her table, run at b, through a
        assert ann.request({"type": "chat", "text": "here"})["type"] == "ack"
        bob = NetPlayer(a, "Bob")
        assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
        bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
        assert bob.you is not None and bob.you["role"] == "player"
        assert ann.request({"type": "start"})["type"] == "ack"
        if not any(_dealt(m) for m in ann.frames):
            ann.until(_dealt)
        assert _stored_option(b, tid, "owner") == ann.welcome["user"]["id"]


def test_a_create_against_cpus_cut_off_after_storing_starts_the_table_it_leads_to(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """The same with ``cpus`` (play against CPUs now): Ann, led to her table at b, finds it
    started there, CPUs in the other seats, with one answer to her ``create`` (the start
    made in her name is not acknowledged to her a second time)."""
    with _cut_off_create(postgres, redis_server, "createcpus", cpus=True) as (ann, tid, _a, _b):
        if not any(_dealt(m) for m in ann.frames):
            ann.until(_dealt)
        assert ann.table is not None and ann.table["id"] == tid
        assert ann.table["status"] == "active"
        assert [s["kind"] for s in ann.table["seats"]].count("cpu") == 3
        # (answered at b after the start: every frame of b's before it is read by then)
        assert ann.request({"type": "chat", "text": "hi"})["type"] == "ack"
        acks = [m for m in ann.frames if m["type"] in ("ack", "error")]
        assert [m.get("ref") for m in acks] == ["cut", "q1"], acks


def _taken_over(a: Server, b: Server, shared: Any, lease: str) -> tuple[str, object]:
    """Once a has stopped itself with the new table stored, and b has taken its lease over:
    the table's id and its lease holder (b)."""
    wait_until(lambda: _paused(a), "a to stop itself once the table is stored")
    [tid] = _unfinished(b)
    was = shared.get(lease + tid)
    assert isinstance(was, str)  # (a's)
    wait_until(lambda: shared.get(lease + tid) not in (None, was),
               "b to take the table over once a's lease runs out")
    return tid, shared.get(lease + tid)


@contextmanager
def _cut_off_create(postgres: PostgresServer, redis_server: RedisServer, name: str,
                    cpus: bool) -> Iterator[tuple[NetPlayer, str, Server, Server]]:
    """Ann, at a, creates a table (``cpus``: to play against CPUs at once); a is cut off
    (paused) once it is stored, and b takes it over; a, let go on, leads her there: her
    ``create`` (``ref`` ``cut``) is answered with an ``ack`` and the table, at b, where
    she holds seat 0. (ann, the table's id, a, b)."""
    with (card_room(2, postgres, redis_server, name, "--bots", "inline",
                    "--cpu-delay", "0", envs=[{"SPADES_TEST_DIE_AT": "stop:create_stored"}])
          as (a, b), _redis(redis_server) as shared):
        assert a.proc is not None
        lease = _prefix(a) + "owner:"
        ann = NetPlayer(a, "Ann")
        pubsub = shared.pubsub()
        ann.send({"type": "create", "options": OPTIONS, "cpus": cpus, "ref": "cut"})
        try:
            tid, holder = _taken_over(a, b, shared, lease)
            assert isinstance(holder, str)
            pubsub.subscribe(_prefix(a) + "node:" + holder)
            a.proc.send_signal(signal.SIGCONT)
            ans = ann.until(lambda m: m["type"] in ("ack", "error")
                            and m.get("ref") == "cut")
            assert ans["type"] == "ack", ans
            published(pubsub, lambda sent: sent.get("k") == "msg" and sent["m"] == {
                "type": "join", "table_id": tid, "ref": "cut"}, "Ann's join, led to b")
        finally:
            a.proc.send_signal(signal.SIGCONT)
            pubsub.close()
        table = ann.until(lambda m: m["type"] == "table")["table"]
        assert table["id"] == tid and table["status"] == "waiting"
        assert ann.you == {"role": "player", "seat": 0}
        assert _unfinished(b) == [tid], "a second table was made"
        assert shared.get(lease + tid) == holder  # run at b alone
        yield ann, tid, a, b


def test_a_create_whose_process_dies_after_storing_is_found_from_another_process(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """a dies (SIGKILL) once Ann's new table is stored, before it answers her. Her page,
    connected again through b, finds the table among hers (``welcome``'s ``tables``) and
    joins it: b brings it back once a's lease has run out, and Ann holds seat 0, its
    owner; one table in all."""
    with card_room(2, postgres, redis_server, "createdies", "--bots", "inline",
                   "--cpu-delay", "0", envs=[{"SPADES_TEST_DIE_AT": "create_stored"}]) as (a, b):
        ann = NetPlayer(a, "Ann")
        ann.send({"type": "create", "options": OPTIONS, "ref": "lost"})
        wait_until(lambda: a.proc is not None and a.proc.poll() is not None, "a to die")
        again = NetPlayer(b, "Ann", ann.token)
        [tid] = _unfinished(b)
        assert again.welcome["tables"] == [tid]
        ans = again.request({"type": "join", "table_id": tid})
        assert ans["type"] == "ack", ans
        table = again.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
        assert table["table"]["status"] == "waiting"
        assert again.you == {"role": "player", "seat": 0}
        assert _stored_option(b, tid, "owner") == again.welcome["user"]["id"]
        assert again.request({"type": "start"})["type"] == "ack"
        assert _unfinished(b) == [tid], "a second table was made"


def test_a_continued_upload_whose_process_is_cut_off_after_storing_is_run_once(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """The same for a table carrying on an uploaded match (``POST /api/records``, mode
    ``continue``): a stores it, is cut off (paused) past its lease, and b takes it over.
    a, let go on, does not run it too: the upload is answered with the table's id, and
    Ann, joining it through a, sits down at it at b, where it runs, marked an upload."""
    from tests.server.test_record_upload import GOOD

    partial = dict(GOOD, hands=[dict(GOOD["hands"][0], plays=GOOD["hands"][0]["plays"][:9])])
    with (card_room(2, postgres, redis_server, "uploadcut", "--bots", "inline",
                    "--cpu-delay", "0", envs=[{"SPADES_TEST_DIE_AT": "stop:create_stored"}])
          as (a, b), _redis(redis_server) as shared):
        assert a.proc is not None
        lease = _prefix(a) + "owner:"
        ann = NetPlayer(a, "Ann")
        answer: list[httpx.Response] = []
        post = threading.Thread(target=lambda: answer.append(httpx.post(
            a.url + "/api/records", json={"record": partial, "mode": "continue", "seat": 1,
                                          "options": {"cpu": "random"}},
            headers={"Authorization": f"Bearer {ann.token}"}, timeout=120)))
        post.start()
        try:
            tid, holder = _taken_over(a, b, shared, lease)
        finally:
            a.proc.send_signal(signal.SIGCONT)
            post.join(120)
        assert answer and answer[0].status_code == 200, answer and answer[0].text
        assert answer[0].json()["table_id"] == tid
        ans = ann.request({"type": "join", "table_id": tid})
        assert ans["type"] == "ack", ans
        ann.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
        assert ann.you == {"role": "player", "seat": 1}
        assert ann.seq is not None and ann.seq >= SEQ_EPOCH  # (the instance b brought back)
        assert shared.get(lease + tid) == holder  # run at b alone
        assert _unfinished(b) == [tid]
        store = Store.open(b.db)
        try:
            assert store.game(tid).options.get("upload") is True
        finally:
            store.close()
