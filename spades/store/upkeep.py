"""Upkeep of a server's database: tables nobody came back to, and pruning of what nobody
needs any more (expired sessions, guests with nothing left, old chat of ended tables)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from sqlalchemy import and_, delete, exists, func, select, update

from spades.store import Store
from spades.store.schema import chat_lines, game_players, games, sessions, users


def abandon_stale_tables(store: Store, before: datetime) -> list[str]:
    """Mark ``abandoned`` every unfinished server table not updated since ``before``;
    returns their ids."""
    live = and_(games.c.kind == "table", games.c.status.in_(["waiting", "active"]),
                games.c.updated_at < before)
    with store.engine.begin() as conn:
        ids = [str(r) for r in conn.execute(select(games.c.id).where(live)).scalars()]
        if ids:
            conn.execute(update(games).where(games.c.id.in_(ids)).values(status="abandoned"))
    return ids


def stale_tables(store: Store, before: datetime) -> list[str]:
    """The unfinished server tables not updated since ``before`` (nothing is written)."""
    live = and_(games.c.kind == "table", games.c.status.in_(["waiting", "active"]),
                games.c.updated_at < before)
    with store.engine.connect() as conn:
        return [str(r) for r in conn.execute(select(games.c.id).where(live)).scalars()]


def abandon_stale_table(store: Store, game_id: str, before: datetime, fence: int) -> bool:
    """Mark one unfinished server table ``abandoned`` if it was not updated since
    ``before`` and its fencing number is still ``fence`` (the writer that checks and
    abandons it took the game with :meth:`Store.take_game`): True if it was."""
    with store.engine.begin() as conn:
        done = conn.execute(update(games).where(
            games.c.id == game_id, games.c.kind == "table",
            games.c.status.in_(["waiting", "active"]), games.c.updated_at < before,
            func.coalesce(games.c.fence, 0) == fence).values(status="abandoned"))
    return bool(done.rowcount)


def touch_tables(store: Store, fences: Mapping[str, int],
                 now: datetime | None = None) -> list[str]:
    """Mark tables as used now, each only if its fencing number is still the one given
    (the instance that runs it here); returns the ids whose number moved on (another
    writer took them over: nothing was written for them)."""
    refused: list[str] = []
    if not fences:
        return refused
    when = now or datetime.now(UTC)
    with store.engine.begin() as conn:
        for gid, fence in fences.items():
            done = conn.execute(update(games).where(
                games.c.id == gid, func.coalesce(games.c.fence, 0) == fence)
                .values(updated_at=when))
            if not done.rowcount:
                refused.append(gid)
    return refused


def touch_games(store: Store, ids: Iterable[str], now: datetime | None = None) -> None:
    """Mark games as used now (a table where people are still connected)."""
    ids = list(ids)
    if not ids:
        return
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id.in_(ids))
                     .values(updated_at=now or datetime.now(UTC)))


def prune(store: Store, *, now: datetime, guests_before: datetime,
          chat_before: datetime) -> dict[str, int]:
    """Delete expired sessions, guests created before ``guests_before`` that have no
    session and no game left, and chat lines older than ``chat_before`` of finished or
    abandoned games. Returns how many rows of each went."""
    with store.engine.begin() as conn:
        n_sessions = conn.execute(delete(sessions).where(sessions.c.expires_at <= now)).rowcount
        idle = and_(users.c.guest.is_(True), users.c.created_at < guests_before,
                    ~exists().where(sessions.c.user_id == users.c.id),
                    ~exists().where(game_players.c.user_id == users.c.id))
        n_guests = conn.execute(delete(users).where(idle)).rowcount
        ended = select(games.c.id).where(games.c.status.in_(["finished", "abandoned"]))
        n_chat = conn.execute(delete(chat_lines).where(chat_lines.c.created_at < chat_before,
                                                       chat_lines.c.game_id.in_(ended))).rowcount
    return {"sessions": n_sessions, "guests": n_guests, "chat": n_chat}
