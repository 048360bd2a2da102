"""Persistence: the one module that talks to the database (SQLAlchemy 2; SQLite by default).

A game is a row of ``games`` plus its ``events``, appended one per accepted action and
committed before the caller acknowledges the action, so a killed process loses nothing.
:func:`rebuild` turns the events back into a :class:`~spades.engine.Match`.

>>> store = Store.open(":memory:")
>>> gid = store.create_game("terminal", profile("cardems"), seats=[{"name": "Ann"}] * 4)
>>> store.game(gid).status
'active'
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Engine,
    String,
    bindparam,
    cast,
    create_engine,
    event,
    func,
    insert,
    literal,
    make_url,
    or_,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError
from sqlalchemy.pool import StaticPool

from spades.engine import Match, Rules, profile, rules_from_json, summary
from spades.engine.records import FORMAT, rules_json
from spades.names import name_key
from spades.stats import Stats, StatsBook, contribution
from spades.store.schema import (
    SchemaTooNew,
    SchemaTooOld,
    chat_lines,
    check_version,
    events,
    game_players,
    games,
    metadata,
    migrate,
    sessions,
    user_stats,
    users,
)

log = logging.getLogger("spades.store")


def default_path() -> Path:
    """The SQLite file in the user's data folder (``$SPADES_DB`` overrides it)."""
    if os.environ.get("SPADES_DB"):
        return Path(os.environ["SPADES_DB"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "spades" / "spades.sqlite3"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    kind: str
    status: str
    rules: Rules
    first_dealer: int | None
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    kind: str  # "deal", "act", "timeout"
    seat: int | None
    value: Any


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    name: str
    password_hash: str | None
    guest: bool
    created_at: datetime


#: The PostgreSQL advisory lock held while the schema is brought up to date.
_MIGRATE_LOCK = 0x5ADE5


class StoreError(RuntimeError):
    """A stored game or user that is missing or inconsistent."""


class ConflictError(StoreError):
    """Another writer already stored the event this writer expected to store: the game has
    moved on elsewhere, and nothing was written."""


class FencedError(ConflictError):
    """The game was taken over by another writer (a higher fencing number, see
    :meth:`Store.take_game`) since this writer took it: nothing was written, and this writer
    must stop writing the game."""


class AmbiguousId(StoreError):
    """An id prefix that begins more than one game's id: ``ids`` are the first few of them,
    the most recently played first (``more``: there are others)."""

    def __init__(self, prefix: str, ids: list[str], more: bool) -> None:
        super().__init__(f"{prefix!r} matches more than one game; type more of its id")
        self.prefix = prefix
        self.ids = ids
        self.more = more


class NameTaken(StoreError):
    """An account already has this name (as :func:`~spades.names.name_key` compares)."""


#: New users' ids are random in this range (above older databases' sequential ids, and
#: exact in JavaScript numbers).
USER_ID_LOW, USER_ID_HIGH = 2**32, 2**53


def _without_password(url: str) -> str:
    """``url`` with its password shown as ``***`` (also a URL SQLAlchemy cannot parse)."""
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.partition(':')[0]}:***@{host}"


def one_line(exc: BaseException) -> str:
    """A database error in one line (for a log or a refusal): psycopg's reason spans lines
    ("Is the server running ...?"), and SQLAlchemy adds "(Background on this error at:
    URL)"."""
    return "; ".join(line.strip() for line in str(exc).splitlines()
                     if line.strip() and not line.startswith("(Background on this error"))


#: PostgreSQL's SQLSTATE for "permission denied" (insufficient_privilege).
_NO_PRIVILEGE = "42501"


def _sqlstate(exc: DatabaseError) -> str | None:
    return getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)


def _foreign_tables(engine: Engine) -> tuple[list[tuple[str, str]], str | None]:
    """The spades tables of this PostgreSQL database that the connected user may not use as
    their owner, each with its owner, and the name of the database's bootstrap superuser
    (``postgres``; ``REASSIGN OWNED`` refuses to give away its objects). Empty if it cannot
    be read."""
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT tablename, tableowner FROM pg_tables WHERE schemaname = "
                "current_schema() AND tablename = ANY(:names) AND NOT "
                "pg_has_role(tableowner, 'USAGE') ORDER BY tablename"),
                {"names": sorted(metadata.tables)}).all()
            boot = conn.execute(text("SELECT rolname FROM pg_roles WHERE oid = 10")).scalar()
    except DatabaseError:
        return [], None
    return [(str(t), str(o)) for t, o in rows], (str(boot) if boot is not None else None)


def _no_privilege(engine: Engine, reason: str) -> str:
    """What to do about a database user without the rights spades needs (in one line)."""
    user = engine.url.username or "this user"
    db = engine.url.database or "DB"
    if "table" in reason:  # the tables are there, made by another user
        tables, boot = _foreign_tables(engine)
        owners = sorted({owner for _, owner in tables})
        if boot is not None and boot in owners:
            # REASSIGN OWNED BY postgres: "cannot reassign ownership of objects owned by
            # role postgres because they are required by the database system"
            alter = "; ".join(f"ALTER TABLE {t} OWNER TO {user}" for t, _ in tables)
            how = f"sudo -u {boot} psql -d {db} -c '{alter}'"
        else:
            how = (f"psql -d {db}, as that user or postgres: REASSIGN OWNED BY "
                   f"{owners[0] if len(owners) == 1 else 'THAT_USER'} TO {user}")
        made = f"the user that made them ({', '.join(owners)})" if owners else \
            "the user that made them"
        return (f"the database user {user} may not use or change the spades tables there "
                f"({reason}): give --db {made}, or make {user} their owner ({how})")
    return (f"the database user {user} may not create the spades tables there ({reason}): "
            f"make it the database's owner (sudo -u postgres psql -c 'ALTER DATABASE {db} "
            f"OWNER TO {user}', or a new database: createdb -O {user} {db}), or let it "
            f"create tables (psql -d {db}: GRANT CREATE ON SCHEMA public TO {user})")


def _cannot_migrate(conn: Connection) -> str | None:
    """Why the first start could not create or upgrade the tables of this PostgreSQL
    database as the connected user (None when it could, and on SQLite): ``--check-db`` says
    so before a start fails on it."""
    if conn.dialect.name != "postgresql":
        return None
    row = conn.execute(text(
        "SELECT current_user, current_schema(), "
        "COALESCE(has_schema_privilege(current_schema(), 'CREATE'), false), "
        "(SELECT string_agg(tablename, ', ' ORDER BY tablename) FROM pg_tables "
        " WHERE schemaname = current_schema() AND tablename = ANY(:names)"
        " AND NOT pg_has_role(tableowner, 'USAGE'))"
    ), {"names": sorted(metadata.tables)}).one()
    user, schema, can_create, not_owned = row
    if schema is None:
        return (f"the database user {user} has no schema to create the tables in (its "
                "search_path names none that exists): a start would fail")
    if not can_create:
        reason = f"permission denied for schema {schema}"
    elif not_owned:
        reason = f"{user} does not own the tables {not_owned}"
    else:
        return None
    return f"a start would fail: {_no_privilege(conn.engine, reason)}"


def _cannot_write(conn: Connection) -> str | None:
    """Why a start could not write to the (up to date) spades tables of this PostgreSQL
    database as the connected user, or None (and on SQLite)."""
    if conn.dialect.name != "postgresql":
        return None
    user, tables = conn.execute(text(
        "SELECT current_user, (SELECT string_agg(tablename, ', ' ORDER BY tablename) "
        "FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY(:names) AND "
        "NOT (SELECT bool_and(has_table_privilege(format('%I.%I', schemaname, tablename), p)) "
        "     FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p))"),
        {"names": sorted(metadata.tables)}).one()
    if not tables:
        return None
    reason = f"{user} may not write to the tables {tables}"
    return f"a start would fail: {_no_privilege(conn.engine, reason)}"


class Store:
    """A database of games, events, users and sessions."""

    def __init__(self, engine: Engine, *, upgrade: bool = True) -> None:
        """``upgrade=False``: change nothing; a schema older than this program's is a
        :class:`StoreError` (``spades serve --check-db`` looks without writing)."""
        self.engine = engine
        try:
            if not upgrade:
                with engine.connect() as conn:
                    try:
                        check_version(conn)
                    except SchemaTooOld as exc:  # a start would fill or upgrade it: can it?
                        if refusal := _cannot_migrate(conn):
                            raise SchemaTooOld(f"{exc}; but {refusal}") from None
                        raise
                    if refusal := _cannot_write(conn):
                        raise SchemaTooOld(refusal)
                return
            with engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # processes starting together wait
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATE_LOCK})
                migrate(conn, recount=count_finished_games)
        except (DatabaseError, SchemaTooNew, SchemaTooOld) as exc:  # unreachable, not a
            engine.dispose()                                    # database, too new or old
            where = (engine.url.database or ":memory:" if engine.url.get_backend_name() == "sqlite"
                     else engine.url.render_as_string(hide_password=True))
            why = exc if not isinstance(exc, DatabaseError) else (str(exc.orig).strip() or exc)
            if isinstance(exc, DatabaseError) and _sqlstate(exc) == _NO_PRIVILEGE:
                # A role that may connect but not create or change the tables: say what to
                # grant, not only PostgreSQL's "permission denied for schema public" and the
                # statement it refused.
                why = _no_privilege(engine, str(why).splitlines()[0].strip())
                engine.dispose()  # (it looked up the tables' owners)
            # One line (a driver's reason may span several: psycopg adds "Is the server
            # running on that host ...?" on a line of its own).
            why = "; ".join(line.strip() for line in str(why).splitlines() if line.strip())
            raise StoreError(f"cannot open the database {where}: {why}") from None

    @classmethod
    def open(cls, where: str | Path | None = None, *, upgrade: bool = True) -> Store:
        """Open (creating and migrating) a store: a SQLite file path, ``:memory:``, or a
        SQLAlchemy URL such as ``postgresql+psycopg://USER@HOST/DB`` (the same migrations
        run on both). Default: :func:`default_path`. A database that cannot be reached or
        a URL whose driver is missing raises :class:`StoreError` with the reason.
        ``upgrade=False`` opens without writing: a database that is not at this program's
        schema version is refused (:class:`StoreError`) instead of migrated."""
        if where is None:
            where = default_path()
        where = str(where)
        if "://" in where:
            try:
                url = make_url(where)
                engine = create_engine(url, pool_pre_ping=True)
            except (ArgumentError, ImportError, ValueError) as exc:  # (a port not a number)
                hint = (" (for PostgreSQL: postgresql+psycopg://... with the postgres extra: "
                        "pip install '.[postgres]' in the spades clone)"
                        if isinstance(exc, ImportError) else
                        " (give a SQLite file's path, or a URL such as "
                        "postgresql+psycopg://USER@HOST/DB)"
                        if "Can't load plugin" in str(exc) else "")
                raise StoreError(f"cannot use the database URL {_without_password(where)!r}: "
                                 f"{exc}{hint}") from None
            return cls(engine, upgrade=upgrade)
        if where == ":memory:":
            engine = create_engine("sqlite://", poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
        else:
            try:  # the folder is made if missing; one that cannot be is said in one line
                Path(where).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                folder = Path(where).expanduser().parent
                why = (f"{exc.filename or folder} is not a folder"
                       if isinstance(exc, FileExistsError | NotADirectoryError)
                       else f"cannot make its folder {folder}: {exc.strerror or exc}")
                raise StoreError(f"cannot open the database {where}: {why}") from None
            engine = create_engine(f"sqlite:///{Path(where).expanduser()}",
                                   connect_args={"check_same_thread": False, "timeout": 30})
        if upgrade:  # (WAL is written into the file: a look that changes nothing skips it)
            event.listen(engine, "connect", _sqlite_pragmas)
        return cls(engine, upgrade=upgrade)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """A round trip to the database (``SELECT 1``); raises if it does not answer."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    # Games ------------------------------------------------------------------------------

    def create_game(
        self,
        kind: str,
        rules: Rules,
        *,
        seats: Sequence[dict[str, Any]],
        first_dealer: int | None = None,
        options: dict[str, Any] | None = None,
        status: str = "active",
        game_id: str | None = None,
    ) -> str:
        gid = game_id or str(uuid.uuid4())
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                id=gid, kind=kind, status=status, rules=_rules_to_db(rules),
                first_dealer=first_dealer, seats=list(seats), options=options or {},
                result=None, created_at=now, updated_at=now,
            ))
            self._sync_players(conn, gid, seats)
        return gid

    def update_game(self, game_id: str, *, fence: int | None = None, **fields: Any) -> None:
        """Change ``status``, ``seats``, ``options``, ``result``, ``first_dealer`` or ``rules``.
        With ``fence``: only if the game was not taken over since (:class:`FencedError`)."""
        allowed = {"status", "seats", "options", "result", "first_dealer", "rules"}
        if set(fields) - allowed:
            raise ValueError(f"cannot update {sorted(set(fields) - allowed)}")
        if "rules" in fields:
            fields["rules"] = _rules_to_db(fields["rules"])
        with self.engine.begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id, *_fenced(fence))
                                .values(updated_at=_now(), **fields))
            if done.rowcount == 0:
                self._refused(conn, game_id, fence)
            if "seats" in fields:
                self._sync_players(conn, game_id, fields["seats"])

    def _sync_players(self, conn: Connection, game_id: str, seats: Sequence[dict[str, Any]]) -> None:
        conn.execute(game_players.delete().where(game_players.c.game_id == game_id))
        seen = set()
        for seat, info in enumerate(seats):
            uid = info.get("user_id")
            if uid is not None and uid not in seen:
                seen.add(uid)
                conn.execute(insert(game_players).values(
                    game_id=game_id, user_id=uid, seat=seat,
                    since=select(games.c.created_at).where(games.c.id == game_id)
                    .scalar_subquery()))

    def finish_game(self, game_id: str, match: Match, *, result: dict[str, Any],
                    seats: Sequence[dict[str, Any]], fence: int | None = None) -> None:
        """Mark a game finished with its result and add it to its players' statistics, in
        one transaction (a game is counted once, however often this is called). With
        ``fence``: only if the game was not taken over since (:class:`FencedError`)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id, *_fenced(fence))
                                .values(status="finished", result=result, seats=list(seats),
                                        updated_at=_now()))
            if done.rowcount == 0:
                self._refused(conn, game_id, fence)
            self._sync_players(conn, game_id, seats)
            _count_game(conn, game_id, match)

    def user_stats(self, user_id: int) -> StatsBook:
        """A player's statistics over their finished games: a read of kept totals."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(user_stats.c.profile, user_stats.c.counts)
                                .where(user_stats.c.user_id == user_id)).all()
        return StatsBook.from_profiles({p: Stats.from_counts(c) for p, c in sorted(rows)})

    def game(self, game_id: str, result_keys: Sequence[str] | None = None) -> GameRow:
        """A game's row. ``result_keys``: only these keys of its ``result`` are read, as
        :meth:`list_games` does (``()``: none of it, ``result`` None)."""
        if "\x00" in game_id:  # no id holds one (PostgreSQL refuses the query)
            raise StoreError(f"no game {game_id!r}")
        with self.engine.connect() as conn:
            row = conn.execute(select(*_game_columns(result_keys))
                               .where(games.c.id == game_id)).mappings().first()
        if row is None:
            raise StoreError(f"no game {game_id!r}")
        return _game_row(_with_result(row, result_keys))

    def find_game(self, prefix: str, shown: int = 5) -> GameRow:
        """A game by its id or a unique prefix of it (as people type them). A prefix of
        several raises :class:`AmbiguousId` with up to ``shown`` of their ids, the most
        recently played first. Case does not matter, on every backend."""
        if not prefix.strip():  # '' is a prefix of every id: "'' matches more than one game"
            raise StoreError("no game id given: type a game's id, or its first letters "
                             "(spades history lists them), or last")
        if "\x00" in prefix:  # (PostgreSQL refuses the query)
            raise StoreError(f"no game with id {prefix!r}")
        with self.engine.connect() as conn:
            # Regardless of case on every backend (SQLite's LIKE ignores ASCII case,
            # PostgreSQL's does not: "2333CCC0" found a game on the one, not the other).
            found = func.lower(games.c.id).startswith(prefix.lower(), autoescape=True)
            rows = conn.execute(select(games).where(found)
                                .order_by(games.c.updated_at.desc(), games.c.id)
                                .limit(max(shown, 1) + 1)).mappings().all()
        if not rows:
            raise StoreError(f"no game with id {prefix!r}")
        if len(rows) > 1:
            raise AmbiguousId(prefix, [r["id"] for r in rows[:max(shown, 1)]],
                              more=len(rows) > max(shown, 1))
        return _game_row(rows[0])

    def list_games(
        self,
        *,
        kind: str | None = None,
        status: str | Iterable[str] | None = None,
        user_id: int | None = None,
        uploader: int | None = None,
        limit: int = 100,
        offset: int = 0,
        unreadable: list[tuple[str, StoreError]] | None = None,
        result_keys: Sequence[str] | None = None,
    ) -> list[GameRow]:
        """Games, newest first (``limit`` of them, past the first ``offset``): those
        ``user_id`` sat at, and (or, alone) the records ``uploader`` uploaded for review
        (``import`` games with that ``uploader`` option). A row that cannot be read is left
        out: logged, or, given ``unreadable``, added to it as its id and why (for the caller
        to say). ``result_keys``: only these keys of each finished game's ``result`` are
        read (by the database: ``{"scores": ..., "winner": ...}``), not the whole summary,
        whose ``hands`` holds every hand's result (a long match's: hundreds of KB, decoded
        in Python on the thread that reads it)."""
        q = _listing(select(*_game_columns(result_keys)), kind=kind, status=status,
                     user_id=user_id, uploader=uploader, limit=limit, offset=offset)
        with self.engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
        out = []
        for row in rows:
            r = _with_result(row, result_keys)
            try:
                out.append(_game_row(r))
            except StoreError as exc:  # one bad row must not hide the others
                if unreadable is None:
                    log.warning("skipping an unreadable game: %s", exc)
                else:
                    unreadable.append((r["id"], exc))
        return out

    def game_marks(self, *, user_id: int | None = None, uploader: int | None = None,
                   limit: int = 100) -> list[tuple[str, object, str]]:
        """What :meth:`list_games` given the same arguments lists, as each game's id,
        ``updated_at`` and status, newest first, and no more: no JSON column is read, so it
        costs a small part of the listing. Whether a listing changed shows in them: every
        write of a game's row sets its ``updated_at`` (each move stored, a seat, its options,
        its end), but for the status of a table abandoned unused (which keeps it) and the
        options of an older version's continued uploads (:func:`upkeep.adopt_old_uploads`);
        a game deleted, or new, is gone from them, or in them."""
        q = _marks_query(user_id is not None, uploader is not None, limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q, {"user_id": user_id, "uploader": uploader}).all()
        return [tuple(r) for r in rows]

    def game_ids(self, *, kind: str, status: Iterable[str]) -> list[str]:
        """The ids of games of ``kind`` in one of the statuses, oldest first (read without
        decoding the rows: a malformed one is found when it is read by :meth:`game`)."""
        q = (select(games.c.id).where(games.c.kind == kind, games.c.status.in_(list(status)))
             .order_by(games.c.created_at))
        with self.engine.connect() as conn:
            return list(conn.execute(q).scalars())

    def set_aside(self, game_id: str, reason: str) -> None:
        """Mark an unfinished game that cannot be restored: status ``broken``, the reason
        kept. A game that has ended (finished, abandoned) keeps its status."""
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id,
                                             games.c.status.in_(["waiting", "active"]))
                         .values(status="broken", broken=reason[:2000], updated_at=_now()))

    def broken_games(self) -> list[tuple[str, str, str]]:
        """Games set aside by :meth:`set_aside`: ``(id, kind, reason)``, oldest first."""
        q = (select(games.c.id, games.c.kind, games.c.broken)
             .where(games.c.status == "broken").order_by(games.c.created_at))
        with self.engine.connect() as conn:
            return [(r[0], r[1], r[2] or "") for r in conn.execute(q)]

    # Events -----------------------------------------------------------------------------

    def append(self, game_id: str, kind: str, value: Any, seat: int | None = None) -> int:
        """Append one event, committed before returning its sequence number."""
        return self.append_many(game_id, [(kind, value, seat)])[-1]

    def append_many(self, game_id: str, items: Sequence[tuple[str, Any, int | None]]) -> list[int]:
        """Append events in one transaction (all or none)."""
        if not items:
            return []
        now = _now()
        with self.engine.begin() as conn:
            last = self._last_seq(conn, game_id)
            _insert_events(conn, game_id, last + 1, items, now)
            conn.execute(update(games).where(games.c.id == game_id).values(updated_at=now))
        return list(range(last + 1, last + 1 + len(items)))

    def append_at(self, game_id: str, seq: int, kind: str, value: Any,
                  seat: int | None = None, *, fence: int | None = None) -> int:
        """Append one event at the number the writer expects to be next (its own count of
        the game's events, plus one), committed before returning, with the game's
        ``updated_at`` set in the same transaction (so the game last played lists first).
        A number already taken (by another writer on the same game) raises
        :class:`ConflictError` and writes nothing: the primary key refuses it, so nothing is
        ever overwritten.

        With ``fence`` (the number :meth:`take_game` gave this writer) the game's row is
        locked and checked first, in the same transaction: a game taken over since raises
        :class:`FencedError` and nothing is written."""
        try:
            if self.engine.dialect.name == "postgresql":
                self._insert_fenced(events, game_id, fence, seq=seq, kind=kind, seat=seat,
                                    value=value)
            else:
                now = _now()
                with self.engine.begin() as conn:
                    if fence is not None:
                        self._check_fence(conn, game_id, fence, now)
                    conn.execute(insert(events).values(game_id=game_id, seq=seq, kind=kind,
                                                       seat=seat, value=value, created_at=now))
                    if fence is None:
                        conn.execute(update(games).where(games.c.id == game_id)
                                     .values(updated_at=now))
        except IntegrityError:
            with self.engine.connect() as conn:
                taken = conn.execute(select(events.c.seq).where(
                    events.c.game_id == game_id, events.c.seq == seq)).first()
            if taken is None:
                raise StoreError(f"no game {game_id!r}") from None
            raise ConflictError(f"game {game_id[:8]}: event {seq} is already stored by "
                                "another writer; this one was not stored") from None
        return seq

    def _insert_fenced(self, target: Any, game_id: str, fence: int | None,
                       **values: Any) -> None:
        """PostgreSQL: a fenced write's check and its insert of one row of ``target`` (a
        table with a ``game_id`` column) as one statement that is its own transaction: one
        round trip, not BEGIN, UPDATE, INSERT and COMMIT:

            WITH f AS (UPDATE games SET updated_at = now WHERE id = :game AND
                       coalesce(fence, 0) = :fence RETURNING id)
            INSERT INTO target (game_id, ...) SELECT f.id, :value, ... FROM f

        The UPDATE locks the game's row as the separate check does, so a take-over waits
        for it (or it finds the new number and nothing is inserted: :class:`FencedError`);
        a failing insert (a taken ``seq``) fails the whole statement, the update included.
        Without ``fence`` the game's ``updated_at`` is set all the same, and nothing is
        checked."""
        now = _now()
        values.setdefault("created_at", now)
        fenced = (update(games).where(games.c.id == game_id, *_fenced(fence))
                  .values(updated_at=now).returning(games.c.id).cte("fenced"))
        names = list(values)
        row = select(fenced.c.id, *[literal(values[n], target.c[n].type) for n in names])
        stmt = (insert(target).from_select(["game_id", *names], row).add_cte(fenced)
                .returning(target.c.game_id))
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            if conn.execute(stmt).first() is None:
                self._refused(conn, game_id, fence)

    # Fencing: one writer per game ----------------------------------------------------------

    def take_game(self, game_id: str) -> int:
        """Become the game's writer: raise its fencing number and return it. Every write
        made with a lower number is refused from then on (:class:`FencedError`). The row is
        locked until this commits, so a write under the old number that was under way
        finishes first, and a reader that takes the game and then loads it sees it."""
        with self.engine.begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id)
                                .values(fence=func.coalesce(games.c.fence, 0) + 1))
            if done.rowcount == 0:
                raise StoreError(f"no game {game_id!r}")
            fence = conn.execute(select(games.c.fence).where(games.c.id == game_id)).scalar()
        return int(fence or 0)

    def fence(self, game_id: str) -> int:
        """The game's fencing number now (0 for a game nobody took over)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games.c.fence).where(games.c.id == game_id)).first()
        if row is None:
            raise StoreError(f"no game {game_id!r}")
        return int(row[0] or 0)

    def _check_fence(self, conn: Connection, game_id: str, fence: int,
                     now: datetime | None = None) -> None:
        """Lock the game's row (a write: PostgreSQL's row lock, SQLite's write lock) if its
        fencing number is still ``fence``; else raise (nothing is written)."""
        done = conn.execute(update(games).where(games.c.id == game_id, *_fenced(fence))
                            .values(updated_at=now or _now()))
        if done.rowcount == 0:
            self._refused(conn, game_id, fence)

    @staticmethod
    def _refused(conn: Connection, game_id: str, fence: int | None) -> None:
        now = conn.execute(select(games.c.fence).where(games.c.id == game_id)).first()
        if now is None:
            raise StoreError(f"no game {game_id!r}")
        raise FencedError(f"game {game_id[:8]}: taken over by another writer (fence "
                          f"{now[0] or 0}, this writer's {fence}); nothing was written")

    def last_seq(self, game_id: str) -> int:
        """The number of the game's last event (0: none), which is how many it has: what a
        writer counts on from (reading them all to count them took 0.4 s at a record of
        1,600 hands continued, on the database thread)."""
        with self.engine.connect() as conn:
            return self._last_seq(conn, game_id)

    @staticmethod
    def _last_seq(conn: Connection, game_id: str) -> int:
        last = conn.execute(select(func.max(events.c.seq))
                            .where(events.c.game_id == game_id)).scalar()
        return int(last or 0)

    def events(self, game_id: str, after: int = 0) -> list[EventRow]:
        """The game's events, in order; with ``after``: those numbered above it only."""
        q = select(events).where(events.c.game_id == game_id)
        if after:
            q = q.where(events.c.seq > after)
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(events.c.seq)).mappings().all()
        return [EventRow(r["seq"], r["kind"], r["seat"], r["value"]) for r in rows]

    # Chat -------------------------------------------------------------------------------

    def add_chat(self, game_id: str, line: dict[str, Any], *, fence: int | None = None) -> None:
        """Keep one chat line of a table, committed before returning (with ``fence``: only if
        the game was not taken over since, else :class:`FencedError`)."""
        if fence is not None and self.engine.dialect.name == "postgresql":
            self._insert_fenced(chat_lines, game_id, fence, line=line)
            return
        with self.engine.begin() as conn:
            if fence is not None:
                self._check_fence(conn, game_id, fence)
            conn.execute(insert(chat_lines).values(game_id=game_id, line=line, created_at=_now()))

    def chat(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        """The last ``limit`` chat lines of a table, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(chat_lines.c.line).where(chat_lines.c.game_id == game_id)
                                .order_by(chat_lines.c.id.desc()).limit(limit)).scalars().all()
        return [dict(r) for r in reversed(rows)]

    def load_match(self, game_id: str) -> tuple[GameRow, Match]:
        game = self.game(game_id)
        return game, rebuild(game.rules, game.first_dealer or 0, self.events(game_id))

    def scores_so_far(self, rows: Sequence[GameRow]) -> dict[str, tuple[int, list[int]]]:
        """For games not finished: by id, how many hands are scored and each side's score
        after them, replayed from the stored events (as far as they fit). This reads and
        replays each game whole: callers bound how many they ask for. A game whose events
        cannot be replayed from the start is left out."""
        out: dict[str, tuple[int, list[int]]] = {}
        for game in rows:
            try:
                match, _, _ = rebuild_readable(game.rules, game.first_dealer or 0,
                                               self.events(game.id))
            except StoreError:
                continue
            out[game.id] = (len(match.results), [int(x) for x in match.scores])
        return out

    def load_readable(self, game_id: str) -> tuple[GameRow, Match, StoreError | None, int]:
        """The game and as much of its match as its stored events describe, with the error
        of the first event that does not fit (None if all do) and how many are left out
        (:func:`rebuild_readable`). A game whose row cannot be read raises."""
        game = self.game(game_id)
        match, error, left = rebuild_readable(game.rules, game.first_dealer or 0,
                                              self.events(game_id))
        return game, match, error, left

    def save_record(self, match: Match, *, kind: str = "import", seats: Sequence[dict[str, Any]],
                    options: dict[str, Any] | None = None, game_id: str | None = None) -> str:
        """Store a replayed match (e.g. an imported record) as a game with its events."""
        status = "finished" if match.is_over() else "active"
        first = match.log[0].dealer if match.log else match.dealer
        gid = self.create_game(kind, match.rules, seats=seats, first_dealer=first,
                               options=options, status=status, game_id=game_id)
        self.append_many(gid, match_events(match))
        if match.is_over():
            self.update_game(gid, result=summary(match))
        return gid

    # Users and sessions -----------------------------------------------------------------

    def create_user(self, name: str, password_hash: str | None = None, *, guest: bool = False) -> int:
        """A new user with a random id (not the next number: ids cannot be guessed). An
        account's name must be unique by :func:`~spades.names.name_key` (the database
        enforces it): raises :class:`NameTaken` otherwise."""
        key = None if guest else name_key(name)
        for _ in range(8):
            uid = USER_ID_LOW + secrets.randbelow(USER_ID_HIGH - USER_ID_LOW)
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(users).values(id=uid, name=name, name_key=key,
                                                      password_hash=password_hash,
                                                      guest=guest, created_at=_now()))
                return uid
            except IntegrityError:
                if key is not None and self.account(name) is not None:
                    raise NameTaken(f"the name {name!r} is taken") from None
        raise StoreError("could not choose a free user id")

    def user(self, user_id: int) -> UserRow | None:
        """The user with this id, or None; an id past a 64-bit integer (as a URL can
        carry) is no user, not an OverflowError from the database driver."""
        if not -2**63 <= user_id < 2**63:
            return None
        with self.engine.connect() as conn:
            r = conn.execute(select(users).where(users.c.id == user_id)).mappings().first()
        return None if r is None else UserRow(r["id"], r["name"], r["password_hash"],
                                              bool(r["guest"]), r["created_at"])

    def account(self, name: str) -> UserRow | None:
        """The account (not guest) whose name is this one as people read it (same
        :func:`~spades.names.name_key`: case, Unicode form, look-alikes, spaces)."""
        if "\x00" in name:  # no name holds one (PostgreSQL refuses the query)
            return None
        with self.engine.connect() as conn:
            r = conn.execute(select(users).where(users.c.name_key == name_key(name),
                                                 users.c.guest.is_(False))).mappings().first()
        return None if r is None else UserRow(r["id"], r["name"], r["password_hash"],
                                              bool(r["guest"]), r["created_at"])

    def create_session(self, token_hash: str, user_id: int, expires_at: datetime,
                       keep: int = 0) -> None:
        """Store a session; with ``keep``, the user's sessions beyond the ``keep`` newest
        (this one among them) are deleted: those signed in longest ago end."""
        with self.engine.begin() as conn:
            conn.execute(insert(sessions).values(token_hash=token_hash, user_id=user_id,
                                                 created_at=_now(), expires_at=expires_at))
            if keep > 0:
                newest = (select(sessions.c.token_hash).where(sessions.c.user_id == user_id)
                          .order_by(sessions.c.created_at.desc(),
                                    (sessions.c.token_hash == token_hash).desc())
                          .limit(keep).scalar_subquery())
                conn.execute(sessions.delete().where(sessions.c.user_id == user_id,
                                                     sessions.c.token_hash.not_in(newest)))

    def session_user(self, token_hash: str, now: datetime | None = None) -> UserRow | None:
        """The user of an unexpired session, or None."""
        found = self.session(token_hash, now)
        return None if found is None else found[0]

    def session(self, token_hash: str,
                now: datetime | None = None) -> tuple[UserRow, datetime] | None:
        """The user of an unexpired session and when it expires, or None."""
        now = now or _now()
        with self.engine.connect() as conn:
            r = conn.execute(select(sessions).where(sessions.c.token_hash == token_hash)
                             ).mappings().first()
        if r is None:
            return None
        expires = r["expires_at"]
        if expires.tzinfo is None:
            expires = expires.replace(tzinfo=UTC)
        if expires <= now:
            self.delete_session(token_hash)
            return None
        user = self.user(r["user_id"])
        return None if user is None else (user, expires)

    def delete_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions.delete().where(sessions.c.token_hash == token_hash))


#: The columns :func:`_insert_events` fills, in its rows' order.
_EVENT_COLUMNS = ("game_id", "seq", "kind", "seat", "value", "created_at")


def _insert_events(conn: Connection, game_id: str, first: int,
                   items: Sequence[tuple[str, Any, int | None]], now: datetime) -> None:
    """Insert ``items`` (kind, value, seat) as events ``first``, ``first + 1``... of
    ``game_id``, made at ``now``, in one ``executemany``. Each value is put in the form the
    column's type gives it (``bind_processor``: JSON text), the time once for all, and an
    int's JSON is its digits: SQLAlchemy's own insert turned each of the rows' six values
    one by one, about 1 s of Python for a record of 1,600 hands (91,000 events) held on
    the database thread, every table's writes waiting behind it."""
    dialect = conn.dialect
    compiled = insert(events).compile(dialect=dialect, column_keys=list(_EVENT_COLUMNS))
    to_json = events.c.value.type.dialect_impl(dialect).bind_processor(dialect)
    to_time = events.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)
    when = to_time(now) if to_time is not None else now
    value: Callable[[Any], Any]
    if to_json is None:  # (a driver that takes the values as they are)
        value = _as_is
    elif to_json(12) == "12":  # JSON text, where an int's JSON is its digits
        json_text = to_json
        value = lambda v: str(v) if type(v) is int else json_text(v)  # noqa: E731
    else:
        value = to_json
    rows = [(game_id, first + i, kind, seat, value(v), when)
            for i, (kind, v, seat) in enumerate(items)]
    params: list[Any] = rows
    if compiled.positional and tuple(compiled.positiontup or ()) != _EVENT_COLUMNS:
        order = [_EVENT_COLUMNS.index(name) for name in compiled.positiontup or ()]
        params = [tuple(row[k] for k in order) for row in rows]
    elif not compiled.positional:
        params = [dict(zip(_EVENT_COLUMNS, row, strict=True)) for row in rows]
    conn.exec_driver_sql(compiled.string, params)


def _as_is(v: Any) -> Any:
    return v


def _fenced(fence: int | None) -> list[Any]:
    """The condition that the game's fencing number is still ``fence`` (none if None)."""
    return [] if fence is None else [func.coalesce(games.c.fence, 0) == fence]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # committed data survives a killed process
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _rules_to_db(rules: Rules) -> dict[str, Any]:
    data = rules.to_json()
    data["teams"] = None if rules.teams is None else [list(s) for s in rules.teams]
    return data


def _rules_from_db(data: Any) -> Rules:
    """Rules as stored: built in one step with their teams (the knobs are checked together,
    so rules valid only with their teams, such as suicide bidding, come back)."""
    if not isinstance(data, dict):
        raise StoreError(f"rules: must be an object, not {type(data).__name__}")
    data = dict(data)
    data.setdefault("teams", None)
    players = data.get("players")
    try:
        return rules_from_json(data, None, players)
    except (ValueError, TypeError) as exc:
        raise StoreError(f"rules: {exc}") from None


def storable_rules(rules: Rules) -> Rules:
    """``rules`` as a restart will build them from the database (raises :class:`StoreError`
    saying why if they cannot be, or come back different): check before storing."""
    back = _rules_from_db(json.loads(json.dumps(_rules_to_db(rules))))
    if back != rules:
        raise StoreError("rules: they would not come back the same after a restart")
    return back


#: How many of a user's newest games (by when each was made) a listing of their games reads
#: at least: it lists the ones changed last among them, so a game made longer ago than these
#: is no longer listed for them (it is kept, and its statistics count).
USER_GAMES_READ = 1000


def user_games_read(limit: int, offset: int) -> int:
    """How many of a user's newest games a listing of ``limit`` from ``offset`` reads."""
    return max(USER_GAMES_READ, 2 * (limit + offset))


def _listing(q: Any, *, kind: str | None, status: str | Iterable[str] | None,
             user_id: Any, uploader: Any, limit: int, offset: int) -> Any:
    """``q`` (a select of ``games``) narrowed and ordered as :meth:`Store.list_games`
    lists: newest first, the games ``user_id`` sat at and (or) the records ``uploader``
    uploaded for review (each an id, or a bound parameter)."""
    q = q.order_by(games.c.updated_at.desc(), games.c.id).limit(limit).offset(offset)
    if kind is not None:
        q = q.where(games.c.kind == kind)
    if isinstance(status, str):
        q = q.where(games.c.status == status)
    elif status is not None:
        q = q.where(games.c.status.in_(list(status)))
    whose: list[Any] = []
    if user_id is not None:
        # among the user's newest games only (by the index on ``since``): before, every game
        # they ever sat at was read and sorted, so one user's history took the database
        # seconds once an attacker had played tens of thousands of short matches as them
        newest = (select(game_players.c.game_id).where(game_players.c.user_id == user_id)
                  .order_by(game_players.c.since.desc()).limit(user_games_read(limit, offset)))
        whose.append(games.c.id.in_(newest))
    if uploader is not None:
        whose.append((games.c.kind == "import")
                     & (cast(games.c.options["uploader"].as_string(), BigInteger) == uploader))
    if whose:
        q = q.where(or_(*whose))
    return q


@functools.cache
def _marks_query(by_user: bool, by_uploader: bool, limit: int) -> Any:
    """:meth:`Store.game_marks`' query, made once (its ids bound at each call): it is read
    at every request for a history, and making it took longer than the database's work."""
    # (``updated_at`` as the database gives it: SQLite's text is not parsed)
    stamp = type_coerce(games.c.updated_at, String)
    return _listing(select(games.c.id, stamp, games.c.status), kind=None, status=None,
                    user_id=bindparam("user_id") if by_user else None,
                    uploader=bindparam("uploader") if by_uploader else None,
                    limit=limit, offset=0)


def _game_columns(result_keys: Sequence[str] | None) -> list[Any]:
    """What to select of ``games``: every column, or with ``result_keys`` (read by
    :func:`_with_result`) only those keys of ``result``, taken out by the database: the
    whole of it, a summary with every hand's result, is hundreds of KB for a long match,
    decoded in Python on the thread that reads it."""
    if result_keys is None:
        return [games]
    columns: list[Any] = [c for c in games.c if c.name != "result"]
    columns.append(games.c.result.is_(None).label("result_none"))
    columns += [games.c.result[key].label(f"result_{i}") for i, key in enumerate(result_keys)]
    return columns


def _with_result(r: Mapping[Any, Any], keys: Sequence[str] | None) -> Mapping[Any, Any]:
    """A row selected by :func:`_game_columns`, with its ``result``: the keys read that it
    has (None: no result, as in a row read whole, or none of the keys)."""
    if keys is None:
        return r
    found = {key: r[f"result_{i}"] for i, key in enumerate(keys)}
    result = None if r["result_none"] else (
        {key: value for key, value in found.items() if value is not None} or None)
    return {**r, "result": result}


def _game_row(r: Any) -> GameRow:
    """A row of ``games`` (raises :class:`StoreError` naming the game and the bad column)."""
    gid = r["id"]
    try:
        rules = _rules_from_db(r["rules"])
    except StoreError as exc:
        raise StoreError(f"game {gid}: {exc}") from None
    for column, kind in (("seats", list), ("options", dict)):
        if not isinstance(r[column], kind):
            raise StoreError(f"game {gid}: {column} must be a JSON "
                             f"{'list' if kind is list else 'object'}")
    if r["first_dealer"] is not None and (not isinstance(r["first_dealer"], int)
                                          or isinstance(r["first_dealer"], bool)):
        raise StoreError(f"game {gid}: first_dealer must be a whole number")
    if r["result"] is not None and not isinstance(r["result"], dict):
        raise StoreError(f"game {gid}: result must be a JSON object")
    return GameRow(
        id=gid, kind=r["kind"], status=r["status"], rules=rules,
        first_dealer=r["first_dealer"], seats=list(r["seats"]), options=dict(r["options"]),
        result=r["result"], created_at=r["created_at"], updated_at=r["updated_at"],
    )


def _count_game(conn: Connection, game_id: str, match: Match) -> None:
    """Add a finished game to its players' kept statistics, unless it already is."""
    counted = conn.execute(select(games.c.stats_counted).where(games.c.id == game_id)).scalar()
    if counted or not match.is_over():
        return
    players = conn.execute(select(game_players.c.user_id, game_players.c.seat)
                           .where(game_players.c.game_id == game_id)).all()
    for uid, seat in players:
        if not 0 <= seat < match.n:
            continue
        add = contribution(match, seat)
        key = (user_stats.c.user_id == uid) & (user_stats.c.profile == match.rules.name)
        old = conn.execute(select(user_stats.c.counts).where(key)).scalar()
        if old is None:
            conn.execute(insert(user_stats).values(user_id=uid, profile=match.rules.name,
                                                   counts=add.counts()))
        else:
            total = Stats.from_counts(old)
            total.merge(add)
            conn.execute(update(user_stats).where(key).values(counts=total.counts()))
    conn.execute(update(games).where(games.c.id == game_id).values(stats_counted=True))


def count_finished_games(conn: Connection) -> int:
    """Count every finished game with players not yet in their statistics (each replayed
    once: run by the migration that started keeping statistics). Returns how many."""
    q = (select(games.c.id).where(games.c.status == "finished",
                                  games.c.stats_counted.is_(None),
                                  games.c.id.in_(select(game_players.c.game_id)))
         .order_by(games.c.created_at))
    n = 0
    for gid in list(conn.execute(q).scalars()):
        try:
            row = _game_row(conn.execute(select(games).where(games.c.id == gid))
                            .mappings().one())
            rows = conn.execute(select(events).where(events.c.game_id == gid)
                                .order_by(events.c.seq)).mappings().all()
            match = rebuild(row.rules, row.first_dealer or 0,
                            [EventRow(r["seq"], r["kind"], r["seat"], r["value"]) for r in rows])
        except StoreError as exc:
            log.warning("game %s left out of the statistics: %s", gid, exc)
            continue
        _count_game(conn, gid, match)
        n += 1
    return n


def match_events(match: Match) -> list[tuple[str, Any, int | None]]:
    """A match as store events: each hand's deal, then its actions (timer ones marked)."""
    out: list[tuple[str, Any, int | None]] = []
    for log in match.log:
        out.append(("deal", list(log.deal), None))
        replica = Match(match.rules, dealer=log.dealer)  # to know who acted
        replica.deal(log.deal)
        for i, action in enumerate(log.actions):
            seat = replica.current_player
            out.append(("timeout" if i in log.timeouts else "act", action, seat))
            if i in log.timeouts:
                replica.apply_timeout(action)
            else:
                replica.apply(action)
    return out


def rebuild_readable(rules: Rules, first_dealer: int, rows: Sequence[EventRow]
                     ) -> tuple[Match, StoreError | None, int]:
    """As much of the match as a game's events describe: the match after the events before
    the first one that does not fit, that event's error (None when every one fits) and how
    many events are left out (that one and those after it). A first dealer that does not
    fit raises :class:`StoreError`: there is no match to begin with."""
    try:
        match = Match(rules, dealer=first_dealer)
    except ValueError as exc:
        raise StoreError(f"first_dealer: {exc}") from None
    for i, row in enumerate(rows):
        try:
            _apply_event(match, row)
        except StoreError as exc:  # the match again without that step, whatever it changed
            return rebuild(rules, first_dealer, rows[:i]), exc, len(rows) - i
    return match, None, 0


def rebuild(rules: Rules, first_dealer: int, rows: Iterable[EventRow]) -> Match:
    """The match that a game's events describe (every step checked again)."""
    match, error, _ = rebuild_readable(rules, first_dealer, list(rows))
    if error is not None:
        raise error
    return match


def _apply_event(match: Match, row: EventRow) -> None:
    """One stored event applied to ``match`` (checked: :class:`StoreError` naming it)."""
    try:
        if row.kind == "deal":
            if not isinstance(row.value, list):
                raise StoreError(f"event {row.seq}: a deal must be a list of card masks, "
                                 f"not {type(row.value).__name__}")
            match.deal([_whole(m) for m in row.value])
        elif row.kind == "act":
            match.apply(_whole(row.value))
        elif row.kind == "timeout":
            match.apply_timeout(_whole(row.value))
        else:
            raise StoreError(f"event {row.seq}: unknown kind {row.kind!r}")
    except (ValueError, TypeError) as exc:
        raise StoreError(f"event {row.seq}: {exc}") from None


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected a whole number, not {type(value).__name__} {value!r:.40}")
    return value


def record_of(game: GameRow, match: Match) -> dict[str, Any]:
    """The game as a ``spades-record/1`` record, with player names (none when no seat has
    one, as a record uploaded without them)."""
    names = [s.get("name") or "" for s in game.seats]
    return match.to_record(id=game.id, **({"names": names} if any(names) else {}))


__all__ = [
    "FORMAT", "ConflictError", "EventRow", "FencedError", "GameRow", "NameTaken", "Store",
    "StoreError", "UserRow",
    "default_path", "match_events", "one_line", "profile", "rebuild", "rebuild_readable", "record_of",
    "rules_json", "storable_rules",
]
