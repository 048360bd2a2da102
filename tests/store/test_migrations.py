"""The schema is brought up to date on open, keeping what an older database holds: the
same steps on SQLite and on PostgreSQL (each test runs on both)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, create_engine, inspect, text

from spades.store import Store, schema


def _engine(database: str) -> Engine:
    return create_engine(database if "://" in database else f"sqlite:///{database}")


def test_a_version_1_database_gains_the_chat_table_and_keeps_its_rows(database: str) -> None:
    path = database
    engine = _engine(database)
    with engine.begin() as conn:  # a database written by the first release
        schema.schema_version.create(conn)
        schema.MIGRATIONS[0](conn)
        conn.execute(schema.schema_version.insert().values(version=1))
        uid = conn.execute(schema.users.insert().values(
            name="Ann", guest=True, created_at=datetime.now(UTC))).inserted_primary_key[0]
    engine.dispose()
    store = Store.open(path)
    try:
        assert "chat_lines" in inspect(store.engine).get_table_names()
        with store.engine.connect() as conn:
            version = conn.execute(text("SELECT version FROM schema_version")).scalar()
        assert version == len(schema.MIGRATIONS)
        user = store.user(uid)
        assert user is not None and user.name == "Ann"
        # New users get random ids up to 2**53: the old 32-bit columns were widened.
        new = store.create_user("Bob")
        assert new >= 2**32 and store.user(new) is not None
    finally:
        store.close()


def test_a_newer_database_is_refused_with_the_reason(database: str) -> None:
    path = database
    Store.open(path).close()
    engine = _engine(database)
    with engine.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = 99"))
    engine.dispose()
    with pytest.raises(RuntimeError, match="newer than this program"):
        Store.open(path)


def _player_indexes(store: Store) -> set[str]:
    return {i["name"] for i in inspect(store.engine).get_indexes("game_players")}


def test_the_index_of_a_players_games_is_one_after_the_upgrade(database: str) -> None:
    # A database of the version before: ix_game_players_user beside the index that leads
    # with the same column, each seat written to both.
    Store.open(database).close()
    engine = _engine(database)
    with engine.begin() as conn:
        conn.execute(text("CREATE INDEX ix_game_players_user ON game_players (user_id)"))
        conn.execute(text("UPDATE schema_version SET version = :v"),
                     {"v": schema.MIGRATIONS.index(schema._one_player_index)})
    engine.dispose()
    store = Store.open(database)
    try:
        assert _player_indexes(store) == {"ix_game_players_user_since"}
        uid = store.create_user("Ann")
        assert store.game_marks(user_id=uid) == []
        if store.engine.dialect.name == "sqlite":  # a user's seats are still found by index
            with store.engine.connect() as conn:
                plan = conn.execute(text("EXPLAIN QUERY PLAN SELECT game_id FROM game_players"
                                         " WHERE user_id = 1")).all()
            assert any("ix_game_players_user_since" in str(r) for r in plan), plan
    finally:
        store.close()
    # and a new database is made without it
    assert {i.name for i in schema.game_players.indexes} == {"ix_game_players_user_since"}
