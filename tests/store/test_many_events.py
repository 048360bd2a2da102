"""Events stored many at once (an uploaded or imported record: ``append_many``) are written
in the same form as SQLAlchemy's own insert writes them, and cost no per-value work of
SQLAlchemy's: its insert turned each of the rows' six values one by one, about 1 s of
Python on the database thread for a record of 1,600 hands (91,000 events), every table's
writes waiting behind it."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, text

from spades.engine import Match, profile
from spades.server.cpu import bot_act
from spades.store import Store, match_events
from spades.store.schema import events


def played(hands: int) -> Match:
    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(2))
    while len(m.results) < hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player, past=False)))
    return m


def raw_rows(store: Store, game_id: str) -> list[tuple[Any, ...]]:
    """The events as the database holds them (the JSON as text, the time as stored)."""
    value = "value::text" if store.engine.dialect.name == "postgresql" else "value"
    with store.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            f"SELECT seq, kind, seat, {value}, created_at FROM events "
            "WHERE game_id = :g ORDER BY seq"), {"g": game_id})]


def test_events_stored_many_at_once_are_as_sqlalchemy_stores_them(database: str) -> None:
    store = Store.open(database)
    try:
        m = played(3)
        items = match_events(m) + [("timeout", 7, 2)]
        ours = store.create_game("import", m.rules, seats=[{"name": "A"}] * 4)
        theirs = store.create_game("import", m.rules, seats=[{"name": "A"}] * 4)
        assert store.append_many(ours, items) == list(range(1, len(items) + 1))
        now = datetime.now(UTC)
        with store.engine.begin() as conn:  # SQLAlchemy's own insert, row by row
            conn.execute(insert(events), [
                {"game_id": theirs, "seq": i, "kind": kind, "seat": seat, "value": value,
                 "created_at": now} for i, (kind, value, seat) in enumerate(items, start=1)])
        mine, reference = raw_rows(store, ours), raw_rows(store, theirs)
        assert [r[:4] for r in mine] == [r[:4] for r in reference]
        assert {type(r[4]) for r in mine} == {type(r[4]) for r in reference}
        assert len({r[4] for r in mine}) == 1  # one time for the whole insert
        read = [(e.kind, e.value, e.seat) for e in store.events(ours)]
        assert read == [(kind, value, seat) for kind, value, seat in items]
        assert store.append_many(ours, [("act", 5, 1)]) == [len(items) + 1]
        with store.engine.connect() as conn:
            assert conn.execute(select(events.c.created_at).where(
                events.c.game_id == ours, events.c.seq == 1)).scalar() is not None
    finally:
        store.close()


def test_many_events_cost_no_per_value_work_of_sqlalchemys(tmp_path: Any,
                                                              monkeypatch: Any) -> None:
    """The JSON type's own conversion is not called once per event (before: 91,000 times
    for a record of 1,600 hands, each through SQLAlchemy's parameter processing)."""
    store = Store.open(str(tmp_path / "s.sqlite3"))
    try:
        m = played(4)
        gid = store.create_game("import", m.rules, seats=[{"name": "A"}] * 4)
        items = match_events(m)
        assert len(items) > 200
        calls = 0
        real = events.c.value.type.dialect_impl(store.engine.dialect).__class__.bind_processor

        def counted(self: Any, dialect: Any) -> Any:
            process = real(self, dialect)

            def one(value: Any) -> Any:
                nonlocal calls
                calls += 1
                return process(value)
            return one if process is not None else None

        monkeypatch.setattr(
            events.c.value.type.dialect_impl(store.engine.dialect).__class__,
            "bind_processor", counted)
        store.append_many(gid, items)
        deals = sum(1 for kind, _, _ in items if kind == "deal")
        assert calls <= deals + 2, calls  # the deals' lists, and a check of an int's form
        assert [(e.kind, e.value, e.seat) for e in store.events(gid)] == items
    finally:
        store.close()
