"""The schema is brought up to date on open, keeping what an older database holds."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from spades.store import Store, schema


def test_a_version_1_database_gains_the_chat_table_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    engine = create_engine(f"sqlite:///{path}")
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
    finally:
        store.close()


def test_a_newer_database_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    Store.open(path).close()
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = 99"))
    engine.dispose()
    with pytest.raises(RuntimeError, match="newer than this program"):
        Store.open(path)
