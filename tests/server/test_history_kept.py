"""``GET /api/users/{id}/history`` written once for each state of a user's games and
shared (:mod:`spades.server.history`): anyone may ask for anyone's history at the HTTP rate
of their address, and each request read up to 200 games whole on the database thread every
table's moves use and wrote them out again (14 ms and 67 KB at 200 finished matches).

The changes below are written to the store directly, as another process of the room would
write them: what is kept must see them at once all the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.testclient import TestClient

from spades.engine import profile
from spades.server.history import HistoryCache, written
from spades.store import upkeep
from tests.server.helpers import guest, hub_of, spied


def _signed(client: TestClient, name: str) -> tuple[int, dict[str, str]]:
    auth = {"Authorization": f"Bearer {guest(client, name)}"}
    return int(client.get("/api/me", headers=auth).json()["id"]), auth


def _stored(client: TestClient, seated: list[int], *, private: bool = False,
            status: str = "finished", owner: int | None = None) -> str:
    """A table's match stored as another process would store it: ``seated`` at its first
    seats, CPUs at the others."""
    store = hub_of(client).store
    seats: list[dict[str, Any]] = [{"user_id": uid, "name": f"P{uid}"} for uid in seated]
    seats += [{"cpu": "beginner", "name": f"CPU {k}"} for k in range(len(seated), 4)]
    gid = store.create_game("table", profile("cardems"), seats=seats, status="waiting",
                            options={"table": {"private": private},
                                     "owner": seated[0] if owner is None else owner})
    if status == "finished":
        store.update_game(gid, status="finished",
                          result={"scores": [510, 230], "winner": 0, "hands": []})
    elif status != "waiting":
        store.update_game(gid, status=status)
    return gid


def _ids(client: TestClient, uid: int, headers: dict[str, str]) -> list[str]:
    answer = client.get(f"/api/users/{uid}/history", headers=headers)
    assert answer.status_code == 200, answer.text
    return [h["game_id"] for h in answer.json()]


def _views(client: TestClient, uid: int, viewers: dict[str, dict[str, str]]
           ) -> dict[str, Any]:
    return {who: client.get(f"/api/users/{uid}/history", headers=headers).json()
            for who, headers in viewers.items()}


def test_a_history_asked_for_again_is_not_read_and_written_again(client: TestClient) -> None:
    """Asked for again and again, by the user, by others and unsigned, a history of the
    same games was read from the store (``list_games``, every game's row decoded on the
    database thread) and written out for each request. Now once for the user's own view
    and once for everyone else's, while nothing changes: the same answers, each viewer's
    as when it was made for them alone."""
    ann, ann_auth = _signed(client, "KeptAnn")
    bob, bob_auth = _signed(client, "KeptBob")
    _, cy_auth = _signed(client, "KeptCy")
    for _ in range(5):
        _stored(client, [ann])
    _stored(client, [ann, bob], private=True)
    viewers = {"ann": ann_auth, "bob": bob_auth, "cy": cy_auth, "unsigned": {}}
    store = hub_of(client).store
    with spied(store, "list_games") as reads:
        first = _views(client, ann, viewers)
        for _ in range(4):
            assert _views(client, ann, viewers) == first
    assert len(reads) == 2, len(reads)  # (before: 20, one a request)
    assert [len(first[who]) for who in viewers] == [6, 6, 5, 5]  # private: Ann's and Bob's
    # the same answers as made anew for each
    for who, headers in viewers.items():
        client.app.state.histories.clear()  # type: ignore[attr-defined]
        assert client.get(f"/api/users/{ann}/history", headers=headers).json() == first[who]


def test_what_changes_a_history_shows_at_once(client: TestClient) -> None:
    """A match finished, new, made private or public, abandoned (its ``updated_at`` kept),
    or deleted shows in the next answer, whoever asks, though the history was kept; and
    nothing else makes it again."""
    ann, ann_auth = _signed(client, "NowAnn")
    bob, bob_auth = _signed(client, "NowBob")
    viewers = {"ann": ann_auth, "bob": bob_auth, "unsigned": {}}
    histories: HistoryCache = client.app.state.histories  # type: ignore[attr-defined]
    store = hub_of(client).store
    done = _stored(client, [ann])
    going = _stored(client, [ann], status="waiting")
    seen = _views(client, ann, viewers)
    builds = histories.builds
    assert _views(client, ann, viewers) == seen and histories.builds == builds

    # a match finishes (in another process: its row written)
    store.update_game(going, status="finished",
                      result={"scores": [100, 520], "winner": 1, "hands": []})
    for who in viewers:
        (row,) = [h for h in _views(client, ann, viewers)[who] if h["game_id"] == going]
        assert row["finished"] and row["scores"] == [100, 520] and row["winner"] == 1, row

    # a new one, at once, first
    new = _stored(client, [ann, bob])
    assert all(_ids(client, ann, h)[0] == new for h in viewers.values())

    # made private: for its own people alone; public again: for everyone
    options = store.game(new).options
    store.update_game(new, options={**options, "table": {"private": True}})
    assert new in _ids(client, ann, ann_auth) and new in _ids(client, ann, bob_auth)
    assert new not in _ids(client, ann, {})
    store.update_game(new, options=options)
    assert new in _ids(client, ann, {})

    # a table abandoned unused keeps its ``updated_at``: its status shows all the same
    idle = _stored(client, [ann], status="waiting")
    assert {h["game_id"]: h["status"] for h in _views(client, ann, viewers)["unsigned"]
            }[idle] == "waiting"
    gone = upkeep.abandon_stale_tables(store, datetime.now(UTC) + timedelta(seconds=1))
    assert idle in gone
    for who, rows in _views(client, ann, viewers).items():
        assert {h["game_id"]: h["status"] for h in rows}[idle] == "abandoned", who

    # deleted (a record kept for review, by another process's pruning)
    kept = client.post("/api/records", json={"record": _record(), "mode": "review"},
                       headers=ann_auth)
    assert kept.status_code == 200, kept.text
    upload = kept.json()["game_id"]
    assert upload in _ids(client, ann, ann_auth)
    assert upkeep.delete_uploads(store, [upload]) == 1
    assert upload not in _ids(client, ann, ann_auth)
    assert done in _ids(client, ann, ann_auth)

    # asked for again with nothing changed: not made again
    builds = histories.builds
    assert _views(client, ann, viewers) == _views(client, ann, viewers)
    assert histories.builds == builds


def test_a_history_deleted_through_the_api_is_gone_at_once(client: TestClient) -> None:
    """``DELETE /api/games/{id}`` of a record kept for review: gone from its uploader's
    history at the next request (kept before it)."""
    ann, auth = _signed(client, "DelAnn")
    kept = client.post("/api/records", json={"record": _record(), "mode": "review"},
                       headers=auth)
    assert kept.status_code == 200, kept.text
    gid = kept.json()["game_id"]
    assert _ids(client, ann, auth) == [gid] == _ids(client, ann, auth)
    assert client.delete(f"/api/games/{gid}", headers=auth).status_code == 204
    assert _ids(client, ann, auth) == []


def test_a_private_match_in_a_kept_history_is_shown_to_its_own_people_alone(
        client: TestClient) -> None:
    """One history is kept for everyone but its user: the private matches in it are left
    out of each answer but for the people who sat at them or own them, whatever order they
    ask in."""
    ann, ann_auth = _signed(client, "PrivAnn")
    bob, bob_auth = _signed(client, "PrivBob")
    cy, cy_auth = _signed(client, "PrivCy")
    _, dee_auth = _signed(client, "PrivDee")
    open_ = _stored(client, [ann])
    with_bob = _stored(client, [ann, bob], private=True)
    owned_by_cy = _stored(client, [ann], private=True, owner=cy)
    histories: HistoryCache = client.app.state.histories  # type: ignore[attr-defined]
    for order in ([{}, dee_auth, bob_auth, cy_auth], [cy_auth, bob_auth, {}, dee_auth]):
        histories.clear()
        got = [set(_ids(client, ann, h)) for h in order]
        shown = {"": got[order.index({})], "dee": got[order.index(dee_auth)],
                 "bob": got[order.index(bob_auth)], "cy": got[order.index(cy_auth)]}
        assert shown == {"": {open_}, "dee": {open_}, "bob": {open_, with_bob},
                         "cy": {open_, owned_by_cy}}, shown
    assert set(_ids(client, ann, ann_auth)) == {open_, with_bob, owned_by_cy}


def test_histories_kept_are_bounded() -> None:
    """However many users' histories are asked for, what is kept stays within its bytes
    and its count, the least recently asked for going first."""
    kept = HistoryCache(most=10_000, count=50)
    for uid in range(1000):
        kept.put((uid, False), written(uid, [(b'{"game_id":"%d"}' % uid, None)], True))
        assert kept.used <= 10_000 and len(kept.items) <= 50
    assert kept.get((999, False), 999) is not None and kept.get((0, False), 0) is None
    big = HistoryCache(most=8_000)
    big.put("big", written(1, [(b"x" * 2_000, None)], True))  # over an eighth: not kept
    assert big.get("big", 1) is None and big.used == 0
    # another stamp, or too old: made again
    clock = [0.0]
    timed = HistoryCache(seconds=60, clock=lambda: clock[0])
    timed.put("u", written(7, [], True))
    assert timed.get("u", 8) is None
    timed.put("u", written(7, [], True))
    clock[0] = 61.0
    assert timed.get("u", 7) is None and timed.used == 0


def _record() -> dict[str, Any]:
    from tests.server.test_record_upload import GOOD
    return GOOD


def test_a_kept_history_is_cut_for_each_viewer_at_its_items_edges() -> None:
    """Private items first, between and last: each viewer's answer is the items they may
    see, whole, in order."""
    import json

    items: list[tuple[bytes, frozenset[object] | None]] = [
        (b'{"n":0}', frozenset({5})), (b'{"n":1,"s":"\xc3\xa9"}', None),
        (b'{"n":2}', frozenset({6})), (b'{"n":3}', None), (b'{"n":4}', frozenset({5, 6}))]
    kept = written(1, items, True)
    shown = {viewer: [i["n"] for i in json.loads(kept.for_viewer(viewer))]
             for viewer in (None, 5, 6, 7)}
    assert shown == {None: [1, 3], 5: [0, 1, 3, 4], 6: [1, 2, 3, 4], 7: [1, 3]}, shown
