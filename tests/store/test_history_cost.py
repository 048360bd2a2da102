"""A user's history costs the database the same however many games the user ever sat at
(hostile-guest trial, 2026-12-07, high): every request for ``/api/users/{id}/history`` read
and sorted all of the user's games before taking the newest 200, on the one database
thread; one address could play some 80,000 one-hand matches a day as one guest, and then
about ten such requests a second held the database, so that nobody's move was stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import create_engine, insert, text

from spades.store import USER_GAMES_READ, Store, _marks_query, schema

START = datetime(2026, 1, 1, tzinfo=UTC)


def _seed(store: Store, user_id: int, count: int, first: int = 0) -> None:
    """``count`` finished tables of ``user_id``, made a minute apart; game ``i`` last
    changed ``(i * 7919) % count`` minutes after the first was made (an order unlike the
    one they were made in)."""
    rows: list[dict[str, Any]] = []
    players: list[dict[str, Any]] = []
    for i in range(first, first + count):
        made = START + timedelta(minutes=i)
        rows.append({"id": f"g{i:07d}", "kind": "table", "status": "finished", "rules": {},
                     "first_dealer": 0, "seats": [], "options": {}, "result": None,
                     "created_at": made,
                     "updated_at": START + timedelta(minutes=(i * 7919) % (first + count),
                                                     seconds=30)})
        players.append({"game_id": f"g{i:07d}", "user_id": user_id, "seat": 0, "since": made})
    with store.engine.begin() as conn:
        conn.execute(insert(schema.games), rows)
        conn.execute(insert(schema.game_players), players)


def test_a_history_lists_the_latest_changed_of_the_users_newest_games(database: str) -> None:
    store = Store.open(database)
    try:
        uid = store.create_user("Hoarder")
        other = store.create_user("Other")
        total = USER_GAMES_READ + 300
        _seed(store, uid, total)
        _seed(store, other, 50, first=total)  # another user's games are not listed
        marks = store.game_marks(user_id=uid, limit=200)
        newest = {f"g{i:07d}" for i in range(total - USER_GAMES_READ, total)}
        expected = sorted(newest, key=lambda g: ((int(g[1:]) * 7919) % total, g),
                          reverse=True)[:200]
        assert [m[0] for m in marks] == sorted(expected, key=lambda g: (
            -((int(g[1:]) * 7919) % total), g)), marks[:5]
    finally:
        store.close()


def _steps(path: str, user_id: int) -> int:
    """The SQLite virtual machine's steps (in thousands) to read a history's marks."""
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        raw: Any = conn.connection.dbapi_connection
        raw.set_progress_handler(tick, 1000)
        conn.execute(_marks_query(True, False, 200), {"user_id": user_id, "uploader": None}).all()
        raw.set_progress_handler(None, 1000)
    engine.dispose()
    return count[0]


def test_a_historys_cost_does_not_grow_with_the_users_games(tmp_path: Any) -> None:
    small, large = str(tmp_path / "small.sqlite3"), str(tmp_path / "large.sqlite3")
    steps = []
    for path, count in ((small, 3_000), (large, 30_000)):
        store = Store.open(path)
        uid = store.create_user("Hoarder")
        _seed(store, uid, count)
        store.close()
        steps.append(_steps(path, uid))
    # before: ten times the games, about ten times the work (all read and sorted)
    assert steps[1] < 1.5 * steps[0] + 5, steps


def test_an_older_database_gets_the_seats_dates(tmp_path: Any) -> None:
    path = str(tmp_path / "old.sqlite3")
    store = Store.open(path)
    uid = store.create_user("Olde")
    _seed(store, uid, 3)
    store.close()
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:  # as the version before kept it: no date with a seat
        conn.execute(text("DROP INDEX ix_game_players_user_since"))
        conn.execute(text("ALTER TABLE game_players DROP COLUMN since"))
        conn.execute(text("UPDATE schema_version SET version = :v"),
                     {"v": schema.MIGRATIONS.index(schema._player_since)})
    engine.dispose()
    store = Store.open(path)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(text("SELECT p.since, g.created_at FROM game_players p JOIN"
                                     " games g ON g.id = p.game_id")).all()
        assert len(rows) == 3 and all(a == b for a, b in rows), rows
        assert [m[0] for m in store.game_marks(user_id=uid)] == ["g0000001", "g0000002",
                                                                 "g0000000"]
    finally:
        store.close()
