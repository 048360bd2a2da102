"""Hostile clients against what the server keeps: nothing stored can stop it from starting,
and what a start cannot restore is set aside, logged and listed by ``spades serve --check-db``."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from sqlalchemy import update
from starlette.testclient import TestClient

from spades.engine import Match, Rules
from spades.engine.rules import PROFILES
from spades.server.hub import SEQ_EPOCH, Hub
from spades.server.protocol import TableOptions
from spades.server.restore import check_db, load_table
from spades.server.settings import Settings
from spades.server.tables import Place, TableError
from spades.stats import compute
from spades.store import Store
from spades.store.schema import events, games
from tests.server.helpers import Player, close_all, guest, hub_of, play_to_end


def hub(client: TestClient) -> Hub:
    h: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return h


def test_a_race400_team_table_survives_a_restart(restart: Any) -> None:
    # First written for suicide bidding with teams, which made every start raise; race400
    # does not offer a bidding choice at a table any more (its profile's options only).
    client = restart()
    ann = Player(client, "Ann")
    ans = ann.request({"type": "create", "options": {"profile": "race400", "teams": 2,
                                                     "target": 300, "cpu": "random"}})
    assert ans["type"] == "ack", ans
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    client = restart()  # before the fix: every start raised RulesError here
    assert tid in hub(client).tables
    assert hub(client).tables[tid].rules.teams == ((0, 2), (1, 3))


def test_a_started_table_continues_its_numbering_above_what_clients_saw(restart: Any) -> None:
    client = restart()
    ann = Player(client, "Ann")
    ann.request({"type": "create", "options": {"cpu": "random"}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    assert ann.request({"type": "add_cpu"})["type"] == "ack"
    assert ann.request({"type": "start"})["type"] == "ack"
    for _ in range(30):  # membership frames are numbered but not stored
        ann.request({"type": "chat", "text": "hello"})
    seen = ann.seq
    assert seen is not None
    client = restart()
    ann2 = Player(client, "Ann", ann.token)
    assert ann2.request({"type": "join", "table_id": tid})["type"] == "ack"
    snap = ann2.until(lambda m: m["type"] == "table")
    assert snap["seq"] > seen
    assert snap["seq"] >= SEQ_EPOCH


def _custom_record(players: int, teams: tuple[tuple[int, ...], ...], acts: int) -> dict[str, Any]:
    rules = Rules(name="custom", players=players, bidding="suicide", teams=teams,
                  blind_nil=False)
    m = Match(rules, rng=random.Random(5))
    for _ in range(acts):
        m.apply(m.legal_actions()[0])
    record: dict[str, Any] = m.to_record()
    return record


def test_a_continued_upload_with_custom_rules_and_teams_survives_a_restart(
        restart: Any) -> None:
    client = restart()
    token = guest(client, "Ann")
    auth = {"Authorization": f"Bearer {token}"}
    record = _custom_record(6, ((0, 3), (1, 4), (2, 5)), 20)
    r = client.post("/api/records", json={"record": record, "mode": "continue", "seat": 0,
                                          "options": {"cpu": "random"}}, headers=auth)
    assert r.status_code == 200, r.text
    tid = r.json()["table_id"]
    me = client.get("/api/me", headers=auth).json()["id"]
    history = client.get(f"/api/users/{me}/history", headers=auth)
    assert history.status_code == 200, history.text
    assert [h["game_id"] for h in history.json()] == [tid]
    assert client.get(f"/api/users/{me}/history").json() == []  # private: not for others
    client = restart()
    assert tid in hub(client).tables
    table = hub(client).tables[tid]
    assert table.rules.teams == ((0, 3), (1, 4), (2, 5))
    assert table.match is not None and table.stored >= 21


def _make_table(store: Store, rules_json: Any = None) -> str:
    """An active table of four CPUs stored directly, then given one deal."""
    from spades.engine import profile

    rules = profile("cardems")
    seats = [Place("cpu", None, f"CPU {i}", "random").to_db() for i in range(4)]
    gid = store.create_game("table", rules, seats=seats, first_dealer=0, status="active",
                            options={"table": TableOptions(cpu="random").model_dump(),
                                     "owner": None, "invite": "ABCDEFGH"})
    store.append(gid, "deal", _deal(Match(rules, dealer=0)), None)
    return gid


def _deal(m: Match) -> list[int]:
    from spades.engine import cards_of

    cards = list(cards_of(m.rules.deck))
    random.Random(3).shuffle(cards)
    masks = [0] * m.n
    for i in range(m.n):
        for c in cards[i::m.n]:
            masks[(m.dealer + 1 + i) % m.n] |= 1 << c
    return masks


CORRUPTIONS: dict[str, Any] = {
    "an event value that is a list": ("event", [1, 2]),
    "a deal that is a number": ("deal", 7),
    "seats that are not objects": ("seats", ["x", "y", "z", "w"]),
    "too few seats": ("seats", [{"kind": "cpu", "cpu": "random", "name": "A"}]),
    "rules that do not build": ("rules", {"preset": "race400", "bidding": "suicide"}),
    "rules that are a list": ("rules", [1]),
    "options that are a list": ("options", [1]),
    "an unknown event kind": ("event_kind", "boom"),
}


def _corrupt(store: Store, gid: str, what: str, value: Any) -> None:
    with store.engine.begin() as conn:
        if what == "event":
            conn.execute(events.insert().values(game_id=gid, seq=2, kind="act", seat=1,
                                                value=value, created_at=store.game(gid)
                                                .created_at))
        elif what == "event_kind":
            conn.execute(update(events).where(events.c.game_id == gid).values(kind=value))
        elif what == "deal":
            conn.execute(update(events).where(events.c.game_id == gid).values(value=value))
        else:
            conn.execute(update(games).where(games.c.id == gid).values({what: value}))


def test_malformed_rows_are_set_aside_and_the_others_restored(
        settings: Settings, restart: Any, caplog: pytest.LogCaptureFixture) -> None:
    store = Store.open(settings.db)
    good = _make_table(store)
    bad = {}
    for why, (what, value) in CORRUPTIONS.items():
        gid = _make_table(store)
        _corrupt(store, gid, what, value)
        bad[gid] = why
    listed = dict(check_db(store))
    assert set(listed) == set(bad), listed
    store.close()
    with caplog.at_level("ERROR", logger="spades.server"):
        client = restart()  # before the fix: the first bad row stopped every start
    h = hub(client)
    assert good in h.tables
    assert not set(bad) & set(h.tables)
    for gid in bad:
        assert any(gid in r.getMessage() for r in caplog.records), gid
    store = Store.open(settings.db)
    try:
        assert {gid for gid, _kind, _why in store.broken_games()} == set(bad)
        assert all(store.game(gid).status == "broken" for gid in bad
                   if CORRUPTIONS[bad[gid]][0] not in ("rules", "options"))
        again = dict(check_db(store))  # still listed for the operator, marked as set aside
        assert set(again) == set(bad) and all(v.startswith("set aside") for v in again.values())
    finally:
        store.close()
    client = restart()  # and the next start is quiet
    assert good in hub(client).tables


def test_check_db_lists_them_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "check.sqlite3"
    store = Store.open(db)
    good = _make_table(store)
    gid = _make_table(store)
    _corrupt(store, gid, "event", [1, 2])
    store.close()
    out = subprocess.run([sys.executable, "-m", "spades", "serve", "--check-db", "--db",
                          str(db)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(gid + "\t") and "event 2" in lines[0]
    assert good not in out.stdout
    assert "1 table(s) cannot be restored" in out.stderr


# Every option combination the server accepts survives a restart -------------------------

options_space = st.builds(
    TableOptions,
    profile=st.sampled_from(list(PROFILES)),
    players=st.none() | st.integers(3, 6),
    teams=st.none() | st.integers(0, 3),
    target=st.none() | st.integers(1, 10000),
    one_hand=st.none() | st.booleans(),
    bag_limit=st.none() | st.integers(1, 100),
    bag_penalty=st.none() | st.integers(0, 10000),
    blind_nil=st.none() | st.booleans(),
    bidding=st.none() | st.sampled_from(["standard", "mirror", "suicide", "whiz"]),
    jokers=st.none() | st.booleans(),
    ten_for_200=st.none() | st.booleans(),
    turn_timer=st.none() | st.integers(5, 600),
    cpu=st.just("random"),
    first_dealer=st.none() | st.integers(0, 5),
)


@hsettings(max_examples=400, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=options_space)
def test_every_accepted_option_combination_survives_a_restart(
        options: TableOptions, tmp_path: Path) -> None:
    try:
        Hub.check_options(options)
    except TableError:
        return  # refused with a reason before anything was stored: fine
    from spades.server.options import build_rules

    rules = build_rules(options)
    db = tmp_path / f"p{random.getrandbits(64)}.sqlite3"
    store = Store.open(db)
    seats = [Place("cpu", None, "CPU", "random").to_db() for _ in range(rules.players)]
    gid = store.create_game("table", rules, seats=seats, status="waiting",
                            options={"table": options.model_dump(), "owner": None,
                                     "invite": "X"})
    store.close()
    store = Store.open(db)  # as a restart reads it
    try:
        back = load_table(store, gid, 1)
        assert back.row.rules == rules
        assert back.options == options
    finally:
        store.close()
        db.unlink()


# Statistics are kept, not replayed on the shared database thread ------------------------

def _play_one(client: TestClient, player: Player) -> str:
    player.request({"type": "create", "options": {"cpu": "random", "one_hand": True,
                                                  "profile": "game93"}})
    player.until(lambda m: m["type"] == "table")
    assert player.table is not None
    tid: str = player.table["id"]
    assert player.request({"type": "start"})["type"] == "ack"
    play_to_end([player])
    if not any(m["type"] == "event" and m["table_id"] == tid
               and m["event"]["kind"] == "match_over" for m in player.frames):
        player.until(lambda m: m["type"] == "event" and m["table_id"] == tid
                     and m["event"]["kind"] == "match_over")  # sent once it is stored
    return tid


def _replayed(store: Store, user_id: int) -> dict[str, Any]:
    pairs = []
    for g in store.list_games(user_id=user_id, status="finished", limit=1000):
        seat = next(i for i, s in enumerate(g.seats) if s.get("user_id") == user_id)
        pairs.append((store.load_match(g.id)[1], seat))
    return compute(pairs).to_json()


def test_stats_are_read_without_replaying_any_game(
        restart: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = restart()
    ann = Player(client, "Ann")
    for _ in range(2):
        _play_one(client, ann)
    h = hub(client)
    me = ann.welcome["user"]["id"]
    expected = _replayed(h.store, me)
    assert expected["total"]["matches_played"] == 2

    def no_replay(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("a stats request replayed a game")

    monkeypatch.setattr(h.store, "load_match", no_replay)
    monkeypatch.setattr(h.store, "events", no_replay)
    r = client.get(f"/api/users/{me}/stats")
    assert r.status_code == 200, r.text
    assert r.json()["stats"] == expected


def test_games_finished_before_stats_were_kept_are_counted_once_by_the_migration(
        settings: Settings, restart: Any) -> None:
    from sqlalchemy import text

    from spades.store.schema import user_stats

    client = restart()
    ann = Player(client, "Ann")
    _play_one(client, ann)
    me = ann.welcome["user"]["id"]
    close_all()
    store = Store.open(settings.db)
    expected = _replayed(store, me)
    with store.engine.begin() as conn:  # as an older database had it
        conn.execute(user_stats.delete())
        conn.execute(update(games).values(stats_counted=None))
        conn.execute(text("UPDATE schema_version SET version = 3"))
    store.close()
    store = Store.open(settings.db)
    try:
        assert store.user_stats(me).to_json() == expected
    finally:
        store.close()
    store = Store.open(settings.db)  # a second open counts nothing again
    try:
        assert store.user_stats(me).to_json() == expected
    finally:
        store.close()


def test_a_history_asked_for_again_replays_no_match_whose_moves_are_the_same(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The history shows an unfinished match's scores so far, worked out by replaying its
    stored moves on the database thread, for up to 20 matches a request. Asked for again
    and again (anyone may ask for anyone's history), it replayed them every time. Now a
    match is replayed once for each state of its moves (its row's ``updated_at``, which
    every stored move changes): again only after a move."""
    cy = Player(client, "Cy")
    assert cy.request({"type": "create", "cpus": True, "options": {
        "cpu": "random", "private": False}})["type"] == "ack"
    cy.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "deal")
    if not cy.my_turn():  # (she may bid first: the deal's frame says it is her turn)
        cy.until(lambda m: cy.my_turn())
    assert cy.table is not None
    tid = cy.table["id"]
    store = hub_of(client).store
    replayed: list[tuple[str, Any]] = []  # (game, the state of its moves) for each replay
    work = store.scores_so_far

    def counted(rows: Any) -> Any:
        replayed.extend((g.id, g.updated_at) for g in rows)
        return work(rows)

    monkeypatch.setattr(store, "scores_so_far", counted)
    auth = {"Authorization": f"Bearer {cy.token}"}
    me = client.get("/api/me", headers=auth).json()["id"]
    for _ in range(5):
        assert client.get(f"/api/users/{me}/history").status_code == 200
    assert replayed and len(replayed) == len(set(replayed)), replayed  # (before: 5 alike)
    assert cy.view is not None
    assert cy.request({"type": "act", "action": cy.view["legal_actions"][0]})["type"] == "ack"
    moved_at = store.game(tid).updated_at  # (stored before the ack; CPUs may move on)
    client.get(f"/api/users/{me}/history")
    assert any(g == tid and at >= moved_at for g, at in replayed), (moved_at, replayed)
    assert len(replayed) == len(set(replayed)), replayed
