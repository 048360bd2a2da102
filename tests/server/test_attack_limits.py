"""A hostile client against the server's limits (in process): each test reproduces a finding
of issue 15 and fails without the limit. The ones that need a real ``spades serve`` (memory,
sockets, kill -9) are in test_attack_net.py."""

from __future__ import annotations

import contextlib
import json
import random
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update
from starlette.testclient import TestClient, WebSocketDenialResponse

from spades.engine import Match, profile, to_record
from spades.server.limits import parse_limit
from spades.store import Store
from spades.store.schema import chat_lines, users
from tests.server.helpers import (
    Msg,
    Player,
    close_all,
    guest,
    hub_of,
    limited,
    play_to_end,
    stuck_hints,
    wait_until,
)


def create(p: Player, **options: Any) -> Msg:
    """Ask for a new table; once acked, read up to its snapshot."""
    ans = p.request({"type": "create", "options": {"cpu": "random", **options}})
    if ans["type"] == "ack":
        p.until(lambda m: m["type"] == "table")
    return ans


def partial_record() -> dict[str, Any]:
    """An unfinished cardems match: dealt, bid, two cards played."""
    m = Match(profile("cardems"), dealer=0, rng=random.Random(7))  # deals at once
    for _ in range(6):
        m.apply(m.legal_actions()[0])
    return to_record(m)


# Tables, uploads, abandoned tables -----------------------------------------------------------

def test_one_guest_cannot_make_table_after_table(make: Callable[..., TestClient]) -> None:
    client = make()
    token = guest(client, "Mallory")
    made = 0
    refused: list[Msg] = []
    players: list[Player] = []
    for i in range(8):  # a new connection each time: each keeps its table
        p = Player(client, f"M{i}", token)
        players.append(p)
        ans = create(p, name=f"spam {i}")
        if ans["type"] == "ack":
            made += 1
        else:
            refused.append(ans)
    assert made == 5, made
    assert len(refused) == 3 and refused[0]["code"] == "limit", refused
    assert "5" in refused[0]["message"]
    assert len(client.get("/api/tables").json()) == 5
    first = players[0]  # a new table instead of one not started: still five
    assert create(first, name="instead")["type"] == "ack"
    assert sorted(t["name"] for t in client.get("/api/tables").json()) == [
        "instead", "spam 1", "spam 2", "spam 3", "spam 4"]
    other = Player(client, "Ann")  # somebody else is not affected
    assert create(other)["type"] == "ack"


def test_live_uploads_are_capped(make: Callable[..., TestClient]) -> None:
    client = make()
    token = guest(client, "Uploader")
    auth = {"Authorization": f"Bearer {token}"}
    record = partial_record()
    codes = [client.post("/api/records", json={"record": record, "mode": "continue", "seat": 0},
                         headers=auth).status_code for _ in range(3)]
    assert codes[:2] == [200, 200] and codes[2] == 429, codes
    # Reviews (stored, not live) are not capped by it.
    done = client.post("/api/records", json={"record": record, "mode": "review"}, headers=auth)
    assert done.status_code == 200


def test_uploads_stay_uploads_after_a_restart(make: Callable[..., TestClient]) -> None:
    """A restart wrote every restored table's options before the janitor read which came
    from uploads, so a continued record's table lost its mark at the first restart: it was
    no longer capped per user nor ended after upload_idle_minutes."""
    client = make()
    token = guest(client, "Uploader")
    auth = {"Authorization": f"Bearer {token}"}
    ids = [client.post("/api/records", json={"record": partial_record(), "mode": "continue",
                                          "seat": 0},
                       headers=auth).json()["table_id"] for _ in range(2)]
    close_all()
    client.__exit__(None, None, None)
    again = make()
    hub = hub_of(again)
    assert set(ids) <= set(hub.tables) and set(ids) <= hub.uploads
    assert all(hub.store.game(tid).options.get("upload") is True for tid in ids)
    third = again.post("/api/records", json={"record": partial_record(), "mode": "continue",
                                          "seat": 0},
                       headers=auth)
    assert third.status_code == 429, third.text


def test_abandoned_table_ends_leaves_the_lobby_and_is_not_restored(
        make: Callable[..., TestClient]) -> None:
    client = make(sweep_seconds=3600, abandon_minutes=30)
    hub = hub_of(client)
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    now = [1000.0]
    janitor.clock = lambda: now[0]
    ann = Player(client, "Ann")
    assert create(ann, name="left behind")["type"] == "ack"
    assert ann.request({"type": "start"})["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    assert [t["id"] for t in client.get("/api/tables").json()] == [tid]
    watcher = Player(client, "Eve")
    assert watcher.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    ann.close()
    wait_until(lambda: not hub.tables[tid].any_human_connected(), "Ann's socket to close")
    assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
    now[0] += 29 * 60
    assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
    now[0] += 2 * 60
    assert client.portal.call(janitor.sweep) == [tid]  # type: ignore[union-attr]
    assert tid not in hub.tables
    assert client.get("/api/tables").json() == []
    watcher.until(lambda m: m["type"] == "event" and "closes" in m["event"]["text"])
    assert hub.store.game(tid).status == "abandoned"
    # A table somebody is connected to is not touched.
    bob = Player(client, "Bob")
    assert create(bob)["type"] == "ack"
    now[0] += 3600
    assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]


def test_tables_untouched_for_long_are_not_brought_back(make: Callable[..., TestClient],
                                                        database: str) -> None:
    from spades.store.upkeep import touch_games

    client = make()
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    assert ann.request({"type": "start"})["type"] == "ack"
    old = ann.table["id"] if ann.table else ""
    bob = Player(client, "Bob")
    assert create(bob)["type"] == "ack"
    assert bob.request({"type": "start"})["type"] == "ack"
    fresh = bob.table["id"] if bob.table else ""
    close_all()
    client.__exit__(None, None, None)
    store = Store.open(database)
    touch_games(store, [old], now=datetime.now(UTC) - timedelta(hours=2))
    store.close()
    again = make()
    assert fresh in hub_of(again).tables
    assert old not in hub_of(again).tables
    assert hub_of(again).store.game(old).status == "abandoned"


def test_idle_upload_ends_sooner(make: Callable[..., TestClient]) -> None:
    client = make(sweep_seconds=3600, upload_idle_minutes=10, abandon_minutes=30)
    hub = hub_of(client)
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    now = [0.0]
    janitor.clock = lambda: now[0]
    token = guest(client, "Uploader")
    r = client.post("/api/records", json={"record": partial_record(), "mode": "continue",
                                          "seat": 0},
                    headers={"Authorization": f"Bearer {token}"})
    tid = r.json()["table_id"]
    assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
    now[0] += 11 * 60
    assert client.portal.call(janitor.sweep) == [tid]  # type: ignore[union-attr]
    assert tid not in hub.tables and hub.store.game(tid).status == "abandoned"


# Lobby ---------------------------------------------------------------------------------------

def test_lobby_is_cached_paged_and_rate_limited(make: Callable[..., TestClient]) -> None:
    client = make(lobby_rate=0.001, lobby_burst=4)
    hub = hub_of(client)
    owners = [Player(client, f"Owner{i}") for i in range(3)]
    for i in range(9):
        p = owners[i % 3] if i < 3 else Player(client, f"O{i}", owners[i % 3].token)
        assert create(p, name=f"t{i}")["type"] == "ack"
    eve = Player(client, "Eve")
    eve.send({"type": "lobby", "subscribe": False})
    whole = eve.until(lambda m: m["type"] == "lobby")
    assert [t["name"] for t in whole["tables"]] == [f"t{i}" for i in range(9)]
    builds = hub.lobby_cache.builds
    eve.send({"type": "lobby", "subscribe": False, "offset": 3, "limit": 4})
    page = eve.until(lambda m: m["type"] == "lobby")
    assert page["tables"] == whole["tables"][3:7]
    assert (page["total"], page["offset"], page["limit"]) == (9, 3, 4)
    r = client.get("/api/tables", params={"offset": 6, "limit": 100})
    assert r.json() == whole["tables"][6:] and r.headers["X-Total-Count"] == "9"
    assert client.get("/api/tables").json() == whole["tables"]  # no page: every row
    assert hub.lobby_cache.builds == builds  # nothing changed: nothing rebuilt
    assert client.get("/api/tables", params={"limit": 0}).status_code == 422
    # Two more are answered, then the rate: an error, nothing else happens.
    answers = []
    for _ in range(4):
        eve.send({"type": "lobby", "subscribe": False})
        answers.append(eve.until(lambda m: m["type"] in ("lobby", "error")))
    assert [a["type"] for a in answers] == ["lobby", "lobby", "error", "error"]
    assert answers[2]["code"] == "rate_limit" and "lobby" in answers[2]["message"]


def test_lobby_rows_follow_changes(make: Callable[..., TestClient]) -> None:
    client = make(lobby_cache_ms=3_600_000)
    ann = Player(client, "Ann")
    assert create(ann, name="one")["type"] == "ack"
    assert [t["open_seats"] for t in client.get("/api/tables").json()] == [3]
    bob = Player(client, "Bob")
    tid = ann.table["id"] if ann.table else ""
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert [t["open_seats"] for t in client.get("/api/tables").json()] == [2]
    assert ann.request({"type": "leave"})["type"] == "ack"
    assert bob.request({"type": "leave"})["type"] == "ack"
    assert client.get("/api/tables").json() == []


# HTTP ----------------------------------------------------------------------------------------

def test_big_bodies_are_refused_without_echo(make: Callable[..., TestClient]) -> None:
    client = make()
    big = '{"name": "' + "x" * 200_000 + '"}'
    r = client.post("/api/guest", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "xxxxxxxx" not in r.text
    assert "16384" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(100):
            yield b"y" * 10_000
        yield b'"}'

    r = client.post("/api/guest", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "yyyyyyyy" not in r.text
    # Under the limit but invalid: 422 says where and why, without the input.
    r = client.post("/api/guest", json={"name": "z" * 5000})
    assert r.status_code == 422 and "zzzzzzzz" not in r.text
    assert r.json()["detail"][0]["loc"] == ["body", "name"]
    # A record too big says the record's limit and its size (before: "the request body may
    # be at most 1004096 bytes", a figure nobody can check a file against).
    r = client.post("/api/records", content=b"{" + b" " * 3_000_000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json()["detail"] == ("a record may be at most 1000000 bytes; this one is "
                                  "3000002 bytes")
    # A record may be bigger than other bodies.
    token = guest(client, "Ann")
    r = client.post("/api/records", json={"record": partial_record(), "mode": "review",
                                          "pad": "p" * 50_000},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 422 and "ppppppp" not in r.text


def test_http_requests_are_rate_limited_per_address(make: Callable[..., TestClient]) -> None:
    client = make(http_rate=0.001, http_burst=5)
    codes = [client.get("/api/health") for _ in range(8)]
    assert [r.status_code for r in codes] == [200] * 5 + [429] * 3
    assert int(codes[-1].headers["Retry-After"]) >= 1
    assert "too many requests" in codes[-1].json()["detail"]
    with pytest.raises(WebSocketDenialResponse) as denied:  # handshakes count too
        client.websocket_connect("/ws").__enter__()
    assert denied.value.status_code == 429
    assert client.get("/").status_code in (200, 404)  # the page itself is not counted


# Hints ---------------------------------------------------------------------------------------

def test_hints_are_rate_limited_per_player(make: Callable[..., TestClient]) -> None:
    client = make(hint_rate=0.001, hint_burst=2)
    ann = Player(client, "Ann")
    assert create(ann, one_hand=True)["type"] == "ack"
    assert ann.request({"type": "start"})["type"] == "ack"
    while not ann.my_turn():
        ann.recv()
    got = []
    for i in range(4):
        ann.send({"type": "hint", "ref": f"h{i}"})
        got.append(ann.until(lambda m, i=i: m.get("ref") == f"h{i}"))
    assert [g["type"] for g in got] == ["hint", "hint", "error", "error"]
    assert got[2]["code"] == "rate_limit"


def test_hint_spam_does_not_hold_up_cpu_turns(make: Callable[..., TestClient],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Six players' hints are stuck (a slow hint); another table's CPUs still play at once."""
    release = stuck_hints(monkeypatch)
    client = make(bot_executor="thread", bot_workers=2, hint_workers=1, hint_queue=4)
    try:
        spammers = [Player(client, f"S{i}") for i in range(6)]
        for p in spammers:
            assert create(p, one_hand=True)["type"] == "ack"
            assert p.request({"type": "start"})["type"] == "ack"
            while not p.my_turn():
                p.recv()
            p.send({"type": "hint", "ref": "spam"})
        zed = Player(client, "Zed")
        assert create(zed, one_hand=True)["type"] == "ack"
        assert zed.request({"type": "start"})["type"] == "ack"
        done: list[Msg] = []
        player = threading.Thread(target=lambda: done.append(play_to_end([zed])), daemon=True)
        player.start()
        player.join(60)
        assert done and done[0]["event"]["kind"] == "match_over", "the CPU turns stalled"
        busy = [p.until(lambda m: m.get("ref") == "spam") for p in spammers[4:]]
        assert all(b["type"] == "error" and b["code"] == "busy" for b in busy), busy
    finally:
        release.set()


# Spectators ----------------------------------------------------------------------------------

def test_spectators_coming_and_going_do_not_resend_the_table(
        make: Callable[..., TestClient]) -> None:
    client = make(spectator_notice_ms=0, spectators_per_table=4)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    ann.frames.clear()
    watchers = [Player(client, f"W{i}") for i in range(5)]
    answers = [w.request({"type": "join", "table_id": tid, "role": "spectator"})
               for w in watchers]
    assert [a["type"] for a in answers] == ["ack"] * 4 + ["error"]
    assert answers[4]["code"] == "limit"
    note = ann.until(lambda m: m["type"] == "spectators" and m["spectating"] == 4)
    assert note["names"] == ["W0", "W1", "W2", "W3"] and note["table_id"] == tid
    for w in watchers[:4]:
        assert w.request({"type": "leave"})["type"] == "ack"
    ann.until(lambda m: m["type"] == "spectators" and m["spectating"] == 0)
    assert not [m for m in ann.frames if m["type"] in ("event", "table")], ann.frames
    # The room freed is usable again.
    assert watchers[4].request({"type": "join", "table_id": tid,
                                "role": "spectator"})["type"] == "ack"


def test_chat_and_joins_are_rate_limited_per_user_and_chat_per_table(
        make: Callable[..., TestClient]) -> None:
    # One guest on ten connections, each within its own message rate, sent a table's player
    # 600 chat lines in 3 s (each said by the page's live region, drowning "Your turn"), and
    # 40 "sits down"/"leaves" by joining and leaving: the rates were per connection only.
    client = make(chat_rate=0.001, chat_burst=3, table_chat_rate=0.001, table_chat_burst=5,
                  join_rate=0.001, join_burst=4)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    token = guest(client, "Mallory")
    conns = [Player(client, "Mallory", token) for _ in range(4)]
    joined = [c.request({"type": "join", "table_id": tid, "role": "spectator"}) for c in conns]
    assert [j["type"] for j in joined] == ["ack"] * 4
    chats = [c.request({"type": "chat", "text": f"spam {i}"})
             for i in range(3) for c in conns]  # 12 lines, 3 from each connection
    assert [a["type"] for a in chats] == ["ack"] * 3 + ["error"] * 9, chats
    assert chats[3]["code"] == "rate_limit" and "chat" in chats[3]["message"]
    # the table's own cap: other people's lines count together
    others = [Player(client, f"O{i}") for i in range(3)]
    for o in others:
        assert o.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    said = [o.request({"type": "chat", "text": "hi"})["type"] for o in others]
    assert said == ["ack", "ack", "error"], said  # 3 + 2 = the table's burst of 5
    # joining again and again: the fifth join of one user is refused, whichever connection
    assert conns[0].request({"type": "leave"})["type"] == "ack"
    again = conns[0].request({"type": "join", "table_id": tid, "role": "spectator"})
    assert again["type"] == "error" and again["code"] == "rate_limit", again
    assert "join" in again["message"]
    assert ann.request({"type": "chat", "text": "still here"})["type"] == "error"  # table cap
    lines = [m for m in ann.frames if m["type"] == "chat"]
    assert len(lines) == 5, lines


def test_the_chat_rate_refusals_say_line_or_lines(make: Callable[..., TestClient]) -> None:
    """The refusal said "at most 1 lines a second": now "1 line", "2 lines" (the code,
    rate_limit, is kept)."""
    client = make(chat_rate=1, chat_burst=1, table_chat_rate=2, table_chat_burst=2)
    # the buckets' clock held still: nothing flows back in while the test goes on (on a busy
    # machine, Cat joining took over half a second, and the table's bucket let her line in)
    hub = hub_of(client)
    hub.chat_buckets.clock = hub.table_chat_buckets.clock = lambda: 0.0
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    bob = Player(client, "Bob")
    assert bob.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    said = [ann.request({"type": "chat", "text": f"hi {i}"}) for i in range(2)]
    assert said[0]["type"] == "ack" and said[1]["code"] == "rate_limit", said
    assert said[1]["message"] == ("chat: at most 1 line a second from you, all your "
                                  "connections together"), said
    cat = Player(client, "Cat")
    assert cat.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    # Ann's line and Bob's take the table's burst of 2
    said = [bob.request({"type": "chat", "text": "hi"}), cat.request({"type": "chat",
                                                                      "text": "hi"})]
    assert said[0]["type"] == "ack" and said[1]["code"] == "rate_limit", said
    assert said[1]["message"] == ("chat: this table takes at most 2 lines a second from "
                                  "everyone; wait a moment"), said


def test_how_many_says_one_thing_or_many() -> None:
    from spades.server.limits import how_many
    assert [how_many(n, "hint") for n in (1, 1.0, 2, 0.5, 0)] == [
        "1 hint", "1 hint", "2 hints", "0.5 hints", "0 hints"]


def test_the_spectator_cap_counts_people_not_connections(
        make: Callable[..., TestClient]) -> None:
    """One guest watching from three connections takes one of three places (before: all
    three, and the next person was told "this table has its 3 spectators")."""
    client = make(spectator_notice_ms=0, spectators_per_table=3)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    join = {"type": "join", "table_id": tid, "role": "spectator"}
    bob = Player(client, "Bob")
    tabs = [bob] + [Player(client, "Bob", token=bob.token) for _ in range(3)]
    for tab in tabs:
        ans = tab.request(join)
        assert ans["type"] == "ack", ans  # before: the fourth was refused
    cat, dan, eve = (Player(client, n) for n in ("Cat", "Dan", "Eve"))
    assert cat.request(join)["type"] == "ack"
    assert dan.request(join)["type"] == "ack"
    refused = eve.request(join)  # Bob, Cat and Dan: three people, the cap
    assert refused["type"] == "error" and refused["code"] == "limit", refused
    assert "3 spectators" in refused["message"], refused
    # Bob may still open another tab: he holds his place already.
    last = Player(client, "Bob", token=bob.token)
    assert last.request(join)["type"] == "ack"
    # His tabs leaving free his place only with the last of them.
    for tab in tabs:
        assert tab.request({"type": "leave"})["type"] == "ack"
    assert eve.request(join)["type"] == "error"
    assert last.request({"type": "leave"})["type"] == "ack"
    assert eve.request(join)["type"] == "ack"


def test_spectators_are_counted_and_named_once_a_person(
        make: Callable[..., TestClient]) -> None:
    # One person watching in three tabs showed as 3 spectators, named three times, in the
    # spectators frame, the table's state and the lobby.
    client = make(spectator_notice_ms=0)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    join = {"type": "join", "table_id": tid, "role": "spectator"}
    bob = Player(client, "Bob")
    tabs = [bob] + [Player(client, "Bob", token=bob.token) for _ in range(2)]
    for tab in tabs:
        assert tab.request(join)["type"] == "ack"
    assert Player(client, "Cat").request(join)["type"] == "ack"
    note = ann.until(lambda m: m["type"] == "spectators" and "Cat" in m["names"])
    assert note["names"] == ["Bob", "Cat"] and note["spectating"] == 2, note
    ann.send({"type": "resync", "ref": "rs"})
    snap = ann.until(lambda m: m["type"] == "table" and m.get("ref") == "rs")
    assert snap["table"]["spectating"] == 2, snap["table"]
    row = next(r for r in client.get("/api/tables").json() if r["id"] == tid)
    assert row["spectating"] == 2, row


def test_guests_of_one_address_cannot_take_every_spectator_place(
        make: Callable[..., TestClient]) -> None:
    # A guest costs one POST /api/guest: one address made a guest per place and took all
    # of a table's spectators_per_table places, and real watchers were told "this table has
    # its 50 spectators". The places one address may take at a table are capped too.
    client = make(spectator_notice_ms=0, spectators_per_table=6, spectators_per_address=3)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    join = {"type": "join", "table_id": tid, "role": "spectator"}
    rotating = [Player(client, f"Rot{i}") for i in range(5)]  # five guests, one address
    answers = [r.request(join) for r in rotating]
    assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"] * 2, answers
    assert answers[3]["code"] == "limit", answers[3]
    assert "from your address" in answers[3]["message"], answers[3]
    # one of them in another tab still counts once: it holds its place already
    assert Player(client, "Rot0", token=rotating[0].token).request(join)["type"] == "ack"
    # people of other addresses still find room
    far = []
    for i in range(3):
        other = TestClient(client.app, client=(f"198.51.100.{30 + i}", 1))
        other.portal = client.portal  # the same running app
        far.append(Player(other, f"Far{i}"))
    assert [f.request(join)["type"] for f in far] == ["ack"] * 3
    note = ann.until(lambda m: m["type"] == "spectators" and m["spectating"] == 6)
    assert sorted(note["names"]) == ["Far0", "Far1", "Far2", "Rot0", "Rot1", "Rot2"], note
    # a place given back is one more for that address
    assert rotating[1].request({"type": "leave"})["type"] == "ack"
    assert rotating[3].request(join)["type"] == "ack"
    assert client.get("/api/tables").status_code == 200
    assert parse_limit("spectators_per_address=0") == ("spectators_per_address", 0)
    assert hub_of(client).settings.spectators_per_address == 3
    assert ann.welcome["limits"]["spectators_per_address"] == 3


# Pruning -------------------------------------------------------------------------------------

def test_old_guests_sessions_and_chat_are_pruned(make: Callable[..., TestClient]) -> None:
    client = make(sweep_seconds=3600, guest_days=7, chat_days=30)
    hub = hub_of(client)
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    ann = Player(client, "Ann")  # plays a match and chats
    assert create(ann, one_hand=True)["type"] == "ack"
    assert ann.request({"type": "chat", "text": "gl"})["type"] == "ack"
    assert ann.request({"type": "start"})["type"] == "ack"
    play_to_end([ann])
    idle = guest(client, "Idle")  # a guest who never played
    store = hub.store
    with store.engine.begin() as conn:
        conn.execute(update(users).values(created_at=datetime.now(UTC) - timedelta(days=8)))
        conn.execute(update(chat_lines).values(created_at=datetime.now(UTC)
                                               - timedelta(days=31)))
    later = datetime.now(UTC) + timedelta(days=40)  # every session has expired by then
    janitor.wall = lambda: later
    got = client.portal.call(janitor.prune)  # type: ignore[union-attr]
    assert got["sessions"] >= 2 and got["chat"] == 1 and got["guests"] == 1, got
    assert hub.user_for(idle) is None
    ids = {u for u in (ann.welcome["user"]["id"],)}
    assert all(store.user(u) is not None for u in ids)  # Ann has a game: kept


# Outgoing queues -----------------------------------------------------------------------------

def test_send_queues_are_capped_per_connection_and_in_all(tmp_path: Path) -> None:
    """Frames for clients that do not read: the slowest is let go, the others keep theirs."""
    import asyncio

    from spades.server.hub import Conn, Hub
    from spades.store import UserRow

    s = limited(tmp_path, send_queue=50, send_queue_bytes=5000, send_total_bytes=8000)
    user = UserRow(1, "Slow", None, True, datetime.now(UTC))

    async def run() -> None:
        hub = Hub(s)
        try:
            budget = getattr(hub, "send_budget", None)
            a, b, c = (Conn(None, user, s, budget) for _ in range(3))  # type: ignore[arg-type]
            for _ in range(4):
                a.send("a" * 1000)  # 4000 bytes: under its own cap
            for _ in range(3):
                b.send("b" * 1000)
            c.send("c" * 1000)  # 8000 in all: at the total cap
            assert not any(x.closed for x in (a, b, c))
            c.send("c" * 1000)  # over: the connection holding most (a) goes
            assert a.closed and a.close_code == 1008 and "slowest" in a.close_reason
            assert a.queue.qsize() == 1  # its frames were let go (only the end marker)
            assert not b.closed and not c.closed
            for _ in range(6):
                b.send("b" * 1000)  # over its own 5000 bytes
            assert b.closed and "bytes" in b.close_reason
            for _ in range(60):
                c.send("x")  # over 50 frames
            assert c.closed and "frames" in c.close_reason
        finally:
            await hub.close()

    asyncio.run(run())


def test_closed_connections_give_back_their_share_of_the_send_budget(tmp_path: Path) -> None:
    """A socket that goes away with frames still queued (its sender cancelled, as the
    endpoint does) must not keep holding part of the budget."""
    import asyncio

    from spades.server.hub import Conn, Hub
    from spades.store import UserRow

    s = limited(tmp_path)
    user = UserRow(1, "Gone", None, True, datetime.now(UTC))

    class StuckSocket:  # a client that never reads: every write waits
        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    async def run() -> None:
        hub = Hub(s)
        try:
            conn = Conn(StuckSocket(), user, s, hub.send_budget)  # type: ignore[arg-type]
            task = asyncio.create_task(conn.sender())
            for _ in range(20):
                conn.send("f" * 1000)
            await asyncio.sleep(0)  # the sender takes the first frame and is stuck on it
            assert hub.send_budget.used == 19_000
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            assert hub.send_budget.used == 0 and not hub.send_budget.holders
        finally:
            await hub.close()

    asyncio.run(run())


def test_a_message_rate_of_0_is_no_limit(make: Callable[..., TestClient]) -> None:
    """docs/server.md: for caps and rates, 0 turns the limit off (it dropped every message
    after the first burst, then closed the connection)."""
    client = make(rate_per_second=0.0, rate_burst=2)
    eve = Player(client, "Eve")
    for _ in range(6):
        eve.send({"type": "nope"})
    for _ in range(6):
        m = eve.until(lambda m: m["type"] == "error")
        assert m["code"] != "rate_limit", m


def test_the_frame_limit_counts_utf8_bytes_not_characters(
        make: Callable[..., TestClient]) -> None:
    """docs/server.md: max_frame is bytes. A frame of 4-byte characters under the limit in
    characters but over it in bytes is refused as too big (before: measured in characters,
    so 4096 such characters, 16 KB, were read and parsed)."""
    client = make()
    eve = Player(client, "Eve")
    limit = hub_of(client).settings.max_frame
    over = json.dumps({"type": "chat", "text": "\U0001F4A5" * (limit // 4 + 1)},
                      ensure_ascii=False)
    assert len(over) < limit < len(over.encode())
    eve.ws.send_text(over)
    m = eve.until(lambda m: m["type"] == "error")
    assert m["code"] == "too_big" and f"at most {limit} bytes" in m["message"], m
    # Just within the limit in bytes, even of many-byte characters, is read.
    fits = json.dumps({"type": "chat", "text": "\u00e9" * 10}, ensure_ascii=False)
    eve.ws.send_text(fits)
    m = eve.until(lambda m: m["type"] == "error")
    assert m["code"] != "too_big", m


def test_limit_flags_are_checked() -> None:
    from spades.server.limits import parse_limit

    assert parse_limit("lobby_rate=2.5") == ("lobby_rate", 2.5)
    assert parse_limit("tables-per-user=3") == ("tables_per_user", 3)
    for bad, why in (("nope=1", "NAME one of"), ("tables_per_user=2.5", "whole number"),
                     ("lobby_rate=-1", "negative"), ("lobby_rate", "NAME=VALUE")):
        with pytest.raises(ValueError, match=why) as err:
            parse_limit(bad)
        assert bad in str(err.value)
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "spades", "serve", "--limit", "max_body=x"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "max_body must be a whole number" in done.stderr


# Table creation: rows and tables one guest, or one address, can make ----------------------

def table_rows(client: TestClient) -> int:
    """Server tables ever stored (a table closed before its start keeps its row)."""
    store = hub_of(client).store
    return len(store.game_ids(kind="table", status=["waiting", "active", "abandoned"]))


def test_one_guest_cannot_churn_out_table_rows(make: Callable[..., TestClient]) -> None:
    # Each create made a table the previous one (not started) left, closed: a row of
    # ``games`` kept for ever. One connection at its message rate stored 20 a second, and
    # 64 connections of an address 1,280: the cap on held tables never counted them.
    client = make(create_rate=0.001, create_burst=5, create_address_rate=0.001,
                  create_address_burst=8)
    mal = Player(client, "Mallory")
    answers = [mal.request({"type": "create", "options": {"name": f"churn {i}"}})
               for i in range(12)]
    assert [a["type"] for a in answers] == ["ack"] * 5 + ["error"] * 7, answers
    assert answers[5]["code"] == "rate_limit", answers[5]
    assert "tables" in answers[5]["message"] and "you" in answers[5]["message"]
    assert table_rows(client) == 5
    # A new guest from the same address (guests cost one HTTP request each) gets what is
    # left of the address's burst of 8, then a refusal that says it is the address's.
    eve = Player(client, "Eve")
    more = [eve.request({"type": "create", "options": {"name": f"eve {i}"}}) for i in range(5)]
    assert [a["type"] for a in more] == ["ack"] * 3 + ["error"] * 2, more
    assert more[3]["code"] == "rate_limit" and "address" in more[3]["message"], more[3]
    assert table_rows(client) == 8
    # the refusals changed nothing: the tables they had are still theirs
    assert mal.table is not None and mal.table["name"] == "churn 4"
    # a record upload stores a row (up to 1 MB) too: the same rate
    r = client.post("/api/records", json={"record": partial_record(), "mode": "review"},
                    headers={"Authorization": f"Bearer {mal.token}"})
    assert r.status_code == 429 and "upload records" in r.json()["detail"], r.text
    assert int(r.headers["Retry-After"]) >= 1
    assert table_rows(client) == 8 and len(hub_of(client).store.game_ids(
        kind="import", status=["finished", "active", "waiting"])) == 0
    assert eve.request({"type": "chat", "text": "still here"})["type"] == "ack"


def test_guests_of_one_address_cannot_fill_the_server_with_tables(
        make: Callable[..., TestClient]) -> None:
    # Guests are one HTTP request each; each may hold 5 tables, and a started table whose
    # player left stays (covered by a CPU, paused) for ``abandon_minutes``: 10 guests a
    # second from one address kept 50 tables a second, 90,000 in half an hour, in memory.
    client = make(tables_per_address=6)
    hub = hub_of(client)
    answers = []
    for i in range(9):
        p = Player(client, f"Spam{i}")
        answers.append(p.request({"type": "create", "cpus": True,
                                  "options": {"cpu": "random", "name": f"spam {i}"}}))
        p.close()  # gone: the table plays on, covered, until abandoned
    assert [a["type"] for a in answers] == ["ack"] * 6 + ["error"] * 3, answers
    assert answers[6]["code"] == "limit" and "address" in answers[6]["message"], answers[6]
    assert "6" in answers[6]["message"]
    assert len(hub.tables) == 6
    # uploads of a continued match count as well
    token = guest(client, "Uploader")
    r = client.post("/api/records", json={"record": partial_record(), "mode": "continue",
                                          "seat": 0},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 429 and "address" in r.json()["detail"], r.text
    assert len(hub.tables) == 6


def test_invite_codes_cannot_be_guessed_at_the_message_rate(
        make: Callable[..., TestClient]) -> None:
    # A join is charged to the user's join rate only once its table is found: a wrong
    # invite code cost nothing but the message rate, 20 guesses a second per connection,
    # 1,280 for the 64 connections of an address, each guest's just as many.
    client = make(join_miss_rate=0.001, join_miss_burst=5)
    ann = Player(client, "Ann")
    assert create(ann, private=True)["type"] == "ack"
    assert ann.table is not None and ann.table["invite"]
    mal = Player(client, "Mallory")
    guesses = [mal.request({"type": "join", "invite": f"AAAA{i:04d}"}) for i in range(8)]
    assert [g.get("code") for g in guesses] == ["not_found"] * 5 + ["rate_limit"] * 3, guesses
    assert "address" in guesses[5]["message"], guesses[5]
    # a private table's id with a wrong code is a miss too
    eve = Player(client, "Eve")  # another guest of the same address: the same count
    wrong = eve.request({"type": "join", "table_id": ann.table["id"], "invite": "WRONG123"})
    assert wrong["code"] == "rate_limit", wrong
    assert eve.request({"type": "join", "invite": "BBBB0000"})["code"] == "rate_limit"
    # nothing changed at the table, and its people go on
    assert ann.request({"type": "chat", "text": "still private"})["type"] == "ack"
    assert hub_of(client).tables[ann.table["id"]].spectators == set()


def test_guests_and_accounts_are_made_at_a_bounded_rate_per_address(
        make: Callable[..., TestClient]) -> None:
    # Only the HTTP rate held sign-ups back: 10 a second from one address, 864,000 users
    # and sessions a day kept for the sessions' 30 days, and as many argon2 hashes (64 MiB
    # each) for registrations, which the sign-in throttle does not count.
    client = make(signup_rate=0.001, signup_burst=3)
    made = [client.post("/api/guest", json={"name": f"Spam{i}"}) for i in range(3)]
    assert [r.status_code for r in made] == [200] * 3
    more = client.post("/api/guest", json={"name": "Spam3"})
    assert more.status_code == 429 and "address" in more.json()["detail"], more.text
    assert int(more.headers["Retry-After"]) >= 1
    reg = client.post("/api/register", json={"name": "Spammer", "password": "long enough"})
    assert reg.status_code == 429, reg.text
    with hub_of(client).store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(users)).scalar() == 3
    # what was made still works: a guest made before plays on
    p = Player(client, "Spam0", made[0].json()["token"])
    assert create(p)["type"] == "ack"


def test_chat_lines_stored_are_bounded_per_address(make: Callable[..., TestClient]) -> None:
    # Every chat line is a row of ``chat_lines`` kept while its table lives (and 30 days
    # after). The rates were per user and per table: 50 guests of one address at 50
    # tables stored 50 lines a second, 4 million rows a day, all their tables still open.
    client = make(chat_address_rate=0.001, chat_address_burst=6)
    talkers = [Player(client, f"Talk{i}") for i in range(3)]
    for t in talkers:
        assert create(t)["type"] == "ack"
    said = [t.request({"type": "chat", "text": f"line {k}"}) for k in range(3) for t in talkers]
    assert [s["type"] for s in said] == ["ack"] * 6 + ["error"] * 3, said
    assert said[6]["code"] == "rate_limit" and "address" in said[6]["message"], said[6]
    with hub_of(client).store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(chat_lines)).scalar() == 6
    # another address is not held back by it
    other = TestClient(client.app, client=("198.51.100.20", 1))
    other.portal = client.portal  # the same running app
    far = Player(other, "Far")
    assert create(far)["type"] == "ack"
    assert far.request({"type": "chat", "text": "hello"})["type"] == "ack"
