"""What the processes of a room must decide together, not each for itself: a continued
upload open at another process's table is not deleted under it, nor one brought back there
while it is being deleted, and one address's joins
at once at several processes share one burst (their check and count one script in Redis).
Real processes on a real PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import logging
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from spades.server.limits import Buckets
from spades.server.room import SharedJoins, SharedMisses
from spades.store import Store, StoreError
from tests.server.helpers import finished_record, wait_until
from tests.server.netclient import NetPlayer, Server, card_room, free_port, new_table, step
from tests.services import PostgresServer, RedisServer

#: the players of one address joining at once at each of two processes
EACH = 15
#: the burst they share
BURST = 3


def _prefix(server: Server) -> str:
    return server.extra[server.extra.index("--redis-prefix") + 1]


def _redis_user(server: Server) -> str:
    url = server.extra[server.extra.index("--redis") + 1]
    return url.split("//", 1)[1].split(":", 1)[0]


def _delete(server: Server, game_id: str, token: str) -> httpx.Response:
    return httpx.delete(f"{server.url}/api/games/{game_id}", timeout=30,
                        headers={"Authorization": f"Bearer {token}"})


def _continue_to_the_end(server: Server, ann: NetPlayer) -> str:
    """Ann uploads a finished match cut four cards before its end to ``server``, to continue
    it, sits down and plays it to its end (she stays at its table): the table's id."""
    cut = finished_record(100, 11)
    last = cut["hands"][-1]
    cut["hands"][-1] = dict(last, plays=last["plays"][:-4])
    r = httpx.post(server.url + "/api/records", json={"record": cut, "mode": "continue",
                                                       "seat": 0, "options": {"cpu": "random"}},
                   headers={"Authorization": f"Bearer {ann.token}"}, timeout=60)
    assert r.status_code == 200, r.text
    tid: str = r.json()["table_id"]
    assert ann.request({"type": "join", "table_id": tid})["type"] == "ack"
    for _ in range(2000):
        if ann.view is not None and ann.view["phase"] == "over":
            break
        step([ann])
    assert ann.view is not None and ann.view["phase"] == "over", ann.view
    return tid


def test_a_continued_match_open_at_another_process_s_table_is_not_deleted(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Ann continues an upload at a, and plays it to its end; she is still at its table
    (run by a). Her DELETE of it reached b: b asked only about its own tables, found none,
    and deleted the match under the table a runs (204). Now b asks Redis who holds the
    table's lease: 409 at b as at a; with b's Redis not answering, 503 (nothing deleted);
    once she has left the table, 204 at b."""
    import redis

    with card_room(2, postgres, redis_server, "delopen", "--bots", "inline", "--cpu-delay",
                   "0", users=True) as (a, b):
        ann = NetPlayer(a, "Ann")
        tid = _continue_to_the_end(a, ann)
        store = Store.open(a.db)
        shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            wait_until(lambda: store.game(tid).status == "finished", "the result stored",
                       seconds=60)
            lease = _prefix(a) + "owner:" + tid
            assert shared.get(lease) is not None  # run by a, Ann still there
            assert _delete(a, tid, ann.token).status_code == 409
            refused = _delete(b, tid, ann.token)
            assert refused.status_code == 409, refused.text  # before: 204
            assert "still open at its table" in refused.json()["detail"]
            # b's Redis not answering (its user may do nothing): refused, nothing deleted
            user = _redis_user(b)
            shared.execute_command("ACL", "SETUSER", user, "-@all")
            try:
                down = _delete(b, tid, ann.token)
            finally:
                shared.execute_command("ACL", "SETUSER", user, "+@all")
            assert down.status_code == 503, down.text
            assert down.headers["Retry-After"] == "5"
            assert "Redis" in down.json()["detail"], down.text
            assert store.game(tid).id == tid
            assert _delete(b, tid, ann.token).status_code == 409
            ann.close()  # the table ended and its last member left: it closes, at a
            wait_until(lambda: shared.get(lease) is None, "the table's lease let go",
                       seconds=60)
            assert _delete(b, tid, ann.token).status_code == 204
            gone = httpx.get(f"{a.url}/api/games/{tid}/record", timeout=30,
                             headers={"Authorization": f"Bearer {ann.token}"})
            assert gone.status_code == 404, gone.text
            assert "Traceback" not in b.log(), b.log()[-3000:]
        finally:
            shared.close()
            store.close()


def _stopped(server: Server) -> bool:
    """Whether ``server``'s process is stopped (SIGSTOP)."""
    assert server.proc is not None
    with open(f"/proc/{server.proc.pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] == "T"


def test_a_continued_match_brought_back_while_it_is_deleted_is_not_deleted_under_it(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Ann, connected to c, finished a continued match that a ran; a stops (a deploy) and
    c is paused a moment. Her DELETE of the match reaches b, which finds the table run
    nowhere, and is held there (the test hook ``stop:delete_checked`` stops b between its
    check and its delete). c goes on and brings the finished table back for Ann (she was
    at it). b goes on: before, it deleted the match under the table c runs (204); now the
    DELETE holds the table's lease and its fencing number from its check to its delete, so
    a table brought back meanwhile (here once b's lease ran out, b being stopped) makes it
    refuse: 409, nothing deleted, the table runs on at c."""
    import redis

    from spades.server.hub import DIE_AT

    with card_room(3, postgres, redis_server, "delrace", "--bots", "inline", "--cpu-delay",
                   "0", envs=[{}, {DIE_AT: "stop:delete_checked"}, {}]) as (a, b, c):
        ann = NetPlayer(c, "Ann")
        tid = _continue_to_the_end(a, ann)
        store = Store.open(a.db)
        shared = redis.Redis.from_url(redis_server.url, decode_responses=True)
        assert b.proc is not None and c.proc is not None
        node_c = httpx.get(c.url + "/api/health", timeout=30).json()["node"]
        pool = ThreadPoolExecutor(1)
        try:
            wait_until(lambda: store.game(tid).status == "finished", "the result stored",
                       seconds=60)
            lease = _prefix(a) + "owner:" + tid
            assert shared.get(lease) is not None  # run by a
            c.proc.send_signal(signal.SIGSTOP)
            a.stop()  # its leases let go: the finished table runs nowhere now
            assert shared.get(lease) is None
            deleting = pool.submit(_delete, b, tid, ann.token)
            wait_until(lambda: _stopped(b), "b stopped between its check and its delete",
                       seconds=60)
            c.proc.send_signal(signal.SIGCONT)  # c brings the finished table back for Ann
            wait_until(lambda: shared.get(lease) == node_c, "the table run by c",
                       seconds=60)
            # Ann at it there again (a fresh snapshot)
            ann.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
            b.proc.send_signal(signal.SIGCONT)
            answer = deleting.result(timeout=60)
            assert answer.status_code == 409, answer.text  # before: 204
            assert "still open at its table" in answer.json()["detail"], answer.text
            assert store.game(tid).id == tid  # not deleted
            assert shared.get(lease) == node_c
            # Ann leaves; once the table has closed, the match is deleted
            ann.close()
            wait_until(lambda: shared.get(lease) is None, "the table's lease let go",
                       seconds=60)
            assert _delete(c, tid, ann.token).status_code == 204  # (b would stop again)
            with pytest.raises(StoreError):
                store.game(tid)
            for s in (b, c):
                assert "Traceback" not in s.log(), s.log()[-3000:]
        finally:
            for s in (b, c):  # (never left stopped)
                if s.proc is not None and s.proc.poll() is None:
                    s.proc.send_signal(signal.SIGCONT)
            pool.shutdown(wait=False, cancel_futures=True)
            shared.close()
            store.close()


def _at_once(redis_server: RedisServer, players: list[NetPlayer], join: list[dict[str, Any]]
             ) -> list[dict[str, Any]]:
    """Each of ``players`` sends its join of ``join``, all sent before any answer is read,
    while Redis holds every client's commands for a moment (``CLIENT PAUSE``: the joins'
    first questions to it wait together, so that they go on together, as joins at once
    on a busy machine do); then their answers, in the same order. (What the test asserts
    does not depend on it: the pause only makes the joins overlap for sure.)"""
    import redis

    with redis.Redis.from_url(redis_server.url) as admin:
        admin.execute_command("CLIENT", "PAUSE", "300", "ALL")
    for i, (p, msg) in enumerate(zip(players, join, strict=True)):
        p.send({**msg, "type": "join", "ref": f"at-once{i}"})
    return [p.until(lambda m, i=i: m["type"] in ("ack", "error")
                    and m.get("ref") == f"at-once{i}") for i, p in enumerate(players)]


def test_joins_at_once_at_two_processes_share_one_burst(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Thirty guests of one address join at once, fifteen at each process, each watching the
    table its process runs, with a burst of 3 for the address and no refill meanwhile.
    The burst was looked at before the join and charged after it, so joins at once all
    saw room in it (and so at each process, and between them): more than 3 went in. Now
    the check and the count are one script: 3 in, the others refused."""
    with card_room(2, postgres, redis_server, "joinrace", "--limit",
                   "join_address_rate=0.001", "--limit", f"join_address_burst={BURST}",
                   "--limit", "signup_rate=0", "--limit", "spectators_per_address=0",
                   "--limit", "http_burst=500") as (a, b):
        tables = [new_table(NetPlayer(s, f"Own{i}"), {}) for i, s in enumerate((a, b))]
        players = [NetPlayer((a, b)[i % 2], f"Watch{i}") for i in range(2 * EACH)]
        answers = _at_once(redis_server, players, [
            {"table_id": tables[i % 2], "role": "spectator"} for i in range(2 * EACH)])
        kinds = [m["type"] for m in answers]
        assert kinds.count("ack") == BURST, answers  # before: more
        assert all(m["code"] == "rate_limit" and "your address" in m["message"]
                   for m in answers if m["type"] == "error"), answers


def test_joins_that_miss_at_once_at_two_processes_share_one_burst(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """The same for the joins that miss (wrong invite codes), ``join_miss_burst`` 3: each
    process looked at the count before it looked up the code and counted the miss after,
    so guesses at once all got their try. Now each join is counted as a miss before the
    table is looked up (one script with the check), given back if it was none: 3 tries,
    the others refused."""
    with card_room(2, postgres, redis_server, "missrace", "--limit",
                   "join_miss_rate=0.001", "--limit", f"join_miss_burst={BURST}",
                   "--limit", "signup_rate=0", "--limit", "http_burst=500") as (a, b):
        players = [NetPlayer((a, b)[i % 2], f"Guess{i}") for i in range(2 * EACH)]
        answers = _at_once(redis_server, players,
                           [{"invite": f"WRONG{i:03d}"} for i in range(2 * EACH)])
        codes = [m.get("code") for m in answers]
        assert codes.count("not_found") == BURST, answers  # before: more
        assert codes.count("rate_limit") == 2 * EACH - BURST, answers


def test_the_shared_count_is_checked_and_counted_at_once(redis_server: RedisServer) -> None:
    """Two processes' counts (two SharedJoins on one Redis) asked at once, 20 times each,
    for one address with a burst of 3: exactly 3 counted. A join given back (refused
    after its count for another reason) gives its place to the next. And the misses:
    taken and given back, a hit leaves the count as it was."""
    async def go() -> None:
        prefix = f"j{free_port()}:"
        counts = [SharedJoins(redis_server.url, Buckets(0.001, BURST), prefix=prefix)
                  for _ in range(2)]
        misses = SharedMisses(redis_server.url, Buckets(0.001, BURST), prefix=prefix)
        try:
            waits = await asyncio.gather(*[counts[i % 2].take_if_free("198.51.100.20")
                                           for i in range(40)])
            assert sum(w == 0.0 for w in waits) == BURST, waits
            assert all(w > 60 for w in waits if w != 0.0), waits
            await counts[1].give_back("198.51.100.20")
            assert await counts[0].take_if_free("198.51.100.20") == 0.0
            assert await counts[1].take_if_free("198.51.100.20") > 60
            for _ in range(2 * BURST):  # hits: each taken and given back
                assert await misses.take_if_free("198.51.100.21") == 0.0
                await misses.give_back("198.51.100.21")
            assert await misses.wait("198.51.100.21") == 0.0
            assert misses._redis is not None
            assert await misses._redis.exists(prefix + "misses:198.51.100.21") == 0
        finally:
            for c in (*counts, misses):
                await c.close()
    asyncio.run(asyncio.wait_for(go(), 60))


def test_redis_unreachable_checks_and_counts_each_process_s_own(
        caplog: pytest.LogCaptureFixture) -> None:
    """With Redis not answering, the check and count at once fall back to the process's own
    bucket (as without Redis: nobody locked out, nor let through past its own burst), a
    join given back gives its place back there, and the log says so once."""
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    joins = SharedJoins(closed, Buckets(0.001, BURST), timeout=0.5)

    async def go() -> list[float]:
        try:
            waits = [await joins.take_if_free("198.51.100.22") for _ in range(BURST + 1)]
            await joins.give_back("198.51.100.22")
            waits.append(await joins.take_if_free("198.51.100.22"))
            waits.append(await joins.take_if_free("198.51.100.22"))
            return waits
        finally:
            await joins.close()

    with caplog.at_level(logging.WARNING, logger="spades.server"):
        waits = asyncio.run(asyncio.wait_for(go(), 60))
    assert waits[:BURST] == [0.0] * BURST and waits[BURST] > 60, waits
    assert waits[BURST + 1] == 0.0 and waits[BURST + 2] > 60, waits
    said = [r for r in caplog.records if "the joins per address cannot be counted in Redis"
            in r.getMessage()]
    assert len(said) == 1, said
