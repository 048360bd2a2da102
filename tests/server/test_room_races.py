"""What the processes of a room must decide together, not each for itself: a continued
upload open at another process's table is not deleted under it. Real processes on a real
PostgreSQL and Redis."""

from __future__ import annotations

import httpx

from spades.store import Store
from tests.server.helpers import finished_record, wait_until
from tests.server.netclient import NetPlayer, Server, card_room, step
from tests.services import PostgresServer, RedisServer


def _prefix(server: Server) -> str:
    return server.extra[server.extra.index("--redis-prefix") + 1]


def _redis_user(server: Server) -> str:
    url = server.extra[server.extra.index("--redis") + 1]
    return url.split("//", 1)[1].split(":", 1)[0]


def _delete(server: Server, game_id: str, token: str) -> httpx.Response:
    return httpx.delete(f"{server.url}/api/games/{game_id}", timeout=30,
                        headers={"Authorization": f"Bearer {token}"})


def test_a_continued_match_open_at_another_process_s_table_is_not_deleted(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """Ann continues an upload at a, and plays it to its end; she is still at its table
    (run by a). Her DELETE of it reached b: b asked only about its own tables, found none,
    and deleted the match under the table a runs (204). Now b asks Redis who holds the
    table's lease: 409 at b as at a; with b's Redis not answering, 503 (nothing deleted);
    once she has left the table, 204 at b."""
    import redis

    cut = finished_record(100, 11)
    last = cut["hands"][-1]
    cut["hands"][-1] = dict(last, plays=last["plays"][:-4])
    with card_room(2, postgres, redis_server, "delopen", "--bots", "inline", "--cpu-delay",
                   "0", users=True) as (a, b):
        ann = NetPlayer(a, "Ann")
        r = httpx.post(a.url + "/api/records", json={"record": cut, "mode": "continue",
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
