"""Tables, and the migrations that build them. SQLite by default; any SQLAlchemy 2 URL works.

Every schema change is a new entry at the end of :data:`MIGRATIONS`; a database records
the number of migrations applied in ``schema_version`` and is brought up to date on open.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
    text,
    update,
)

metadata = MetaData()

#: User ids are random up to 2**53: 64-bit on PostgreSQL (SQLite's INTEGER already is, and
#: must stay INTEGER for its row ids).
UserId = BigInteger().with_variant(Integer, "sqlite")

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", UserId, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # NULL for guests; an argon2 hash for accounts.
    Column("password_hash", String(200), nullable=True),
    Column("guest", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Accounts only (NULL for guests): spades.names.name_key(name), unique, so two accounts
    # cannot have names that differ only in case, Unicode form or look-alike letters.
    Column("name_key", String(200), nullable=True),
)
Index("ix_users_account_name", users.c.name, users.c.guest)
Index("ux_users_name_key", users.c.name_key, unique=True)

sessions = Table(
    "sessions",
    metadata,
    # A SHA-256 of the token: the token itself is never stored.
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", UserId, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
Index("ix_sessions_user_id", sessions.c.user_id)

games = Table(
    "games",
    metadata,
    Column("id", String(36), primary_key=True),
    # "terminal" (a local game), "table" (a server table), "import" (a loaded record).
    Column("kind", String(16), nullable=False),
    # "waiting" (table not started), "active", "finished", "abandoned", "broken" (set aside:
    # it could not be restored; see the ``broken`` column).
    Column("status", String(16), nullable=False),
    Column("rules", JSON, nullable=False),  # Rules.to_json() plus "teams"
    Column("first_dealer", Integer, nullable=True),
    # Per seat: {"name": ..., "user_id": ... or null, "cpu": level or null}.
    Column("seats", JSON, nullable=False),
    # Anything the app needs: table options, owner, invite code, local player's seat...
    Column("options", JSON, nullable=False),
    Column("result", JSON, nullable=True),  # spades replay --json summary once finished
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # Why a table was set aside (status "broken": it could not be restored), else NULL.
    Column("broken", Text, nullable=True),
    # True once a finished game's players' statistics include it (see ``user_stats``).
    Column("stats_counted", Boolean, nullable=True),
    # The fencing number of the game's writer: raised by each server process that takes the
    # table over (Store.take_game); a write made under a lower number is refused, so a
    # table is never run by two processes at once (NULL: 0).
    Column("fence", Integer, nullable=True),
)
Index("ix_games_status", games.c.kind, games.c.status)

events = Table(
    "events",
    metadata,
    Column("game_id", String(36), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, 3... within the game
    # "deal" (value: card masks per seat, as a JSON list of ints),
    # "act" (value: the action int), "timeout" (the action the timer took).
    Column("kind", String(12), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("value", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

game_players = Table(
    "game_players",
    metadata,
    Column("game_id", String(36), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("user_id", UserId, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, nullable=False),
    # The game's ``created_at``, kept here so that a user's newest games are read from an
    # index (``ix_game_players_user_since``) without reading all of them: a user's history
    # cost in proportion to all the games they ever sat at (NULL: not known, oldest).
    Column("since", DateTime(timezone=True), nullable=True),
)
# (no index of ``user_id`` alone: this one leads with it, so it serves those lookups too,
# a user's seats and the cascade when a user is deleted; migration ``_one_player_index``)
Index("ix_game_players_user_since", game_players.c.user_id, game_players.c.since)


chat_lines = Table(
    "chat_lines",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(36), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    # {"name", "seat", "text", "html", "at"}: what the table showed, as it showed it.
    Column("line", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Index("ix_chat_lines_game", chat_lines.c.game_id, chat_lines.c.id)


user_stats = Table(
    "user_stats",
    metadata,
    # A player's totals per rules profile (spades.stats.Stats.counts()), kept up to date as
    # games finish, so reading them never replays a game.
    Column("user_id", UserId, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("profile", String(40), primary_key=True),
    Column("counts", JSON, nullable=False),
)


def _initial(conn: Connection) -> None:
    for table in (users, sessions, games, events, game_players):
        table.create(conn, checkfirst=True)


def _chat(conn: Connection) -> None:
    chat_lines.create(conn, checkfirst=True)


def _add_column(conn: Connection, table: Table, name: str) -> None:
    """Add a column declared on ``table`` to a database made before it existed."""
    if any(c["name"] == name for c in inspect(conn).get_columns(table.name)):
        return  # created with it (a new database)
    column = table.c[name]
    kind = column.type.compile(dialect=conn.dialect)
    conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {name} {kind}"))


def _broken(conn: Connection) -> None:
    _add_column(conn, games, "broken")


def _stats(conn: Connection) -> None:
    """Statistics are kept: the games finished before are counted once, right after this
    step, by ``migrate``'s ``recount`` (the store's, which replays them)."""
    _add_column(conn, games, "stats_counted")
    user_stats.create(conn, checkfirst=True)


def _name_keys(conn: Connection) -> None:
    from spades.names import name_key

    fresh = not any(c["name"] == "name_key" for c in inspect(conn).get_columns("users"))
    _add_column(conn, users, "name_key")
    if fresh:  # an older database: key its accounts; the first of a duplicated name keeps it
        taken: set[str] = set()
        rows = conn.execute(select(users.c.id, users.c.name).where(users.c.guest.is_(False))
                            .order_by(users.c.id)).all()
        for uid, name in rows:
            key = name_key(name)
            if key in taken:
                continue
            taken.add(key)
            conn.execute(update(users).where(users.c.id == uid).values(name_key=key))
    next(i for i in users.indexes if i.name == "ux_users_name_key").create(conn, checkfirst=True)


def _big_user_ids(conn: Connection) -> None:
    """User ids are random up to 2**53 (migration 5's store): 64-bit columns. SQLite's
    integers already are; PostgreSQL's ``integer`` is 32-bit."""
    if conn.dialect.name != "postgresql":
        return
    for table, column in (("users", "id"), ("sessions", "user_id"),
                          ("game_players", "user_id"), ("user_stats", "user_id")):
        conn.execute(text(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE BIGINT"))


def _fence(conn: Connection) -> None:
    _add_column(conn, games, "fence")


def _session_users(conn: Connection) -> None:
    """Sessions are found by user (a sign-in ends the user's oldest past a cap)."""
    next(i for i in sessions.indexes if i.name == "ix_sessions_user_id").create(
        conn, checkfirst=True)


def _player_since(conn: Connection) -> None:
    """A user's newest games are found by an index: each seat kept takes its game's
    ``created_at`` (:data:`game_players` ``since``)."""
    _add_column(conn, game_players, "since")
    conn.execute(update(game_players).where(game_players.c.since.is_(None)).values(
        since=select(games.c.created_at).where(games.c.id == game_players.c.game_id)
        .scalar_subquery()))
    next(i for i in game_players.indexes if i.name == "ix_game_players_user_since").create(
        conn, checkfirst=True)


def _one_player_index(conn: Connection) -> None:
    """The index of ``game_players.user_id`` alone goes: ``ix_game_players_user_since``
    leads with that column and serves every lookup it served, and each seat stored wrote
    both."""
    if any(i["name"] == "ix_game_players_user"
           for i in inspect(conn).get_indexes(game_players.name)):
        conn.execute(text("DROP INDEX ix_game_players_user"))


#: Ordered schema changes; append, never edit or reorder.
MIGRATIONS: list[Callable[[Connection], None]] = [_initial, _chat, _broken, _stats, _name_keys,
                                                  _big_user_ids, _fence, _session_users,
                                                  _player_since, _one_player_index]


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of spades than this one."""


class SchemaTooOld(RuntimeError):
    """The database needs migrating, and the caller asked not to change it."""


def check_version(conn: Connection) -> int:
    """The schema version in force, changing nothing; raises :class:`SchemaTooNew` or
    :class:`SchemaTooOld` unless it is this program's."""
    has = inspect(conn).has_table("schema_version")
    row = conn.execute(text("SELECT version FROM schema_version")).first() if has else None
    current = row[0] if row else 0
    if current > len(MIGRATIONS):
        raise SchemaTooNew(f"the database has schema version {current}, newer than this "
                           f"program ({len(MIGRATIONS)}): upgrade spades")
    if current < len(MIGRATIONS):
        raise SchemaTooOld(
            f"the database has schema version {current}, older than this program's "
            f"({len(MIGRATIONS)}); a start of spades serve upgrades it (back it up first: "
            "docs/deploy.md, Upgrading)" if current
            else "it holds no spades tables yet (a new database: the first start of spades "
                 "serve creates them; the connection works)")
    return current


def migrate(conn: Connection, *, recount: Callable[[Connection], object] | None = None) -> int:
    """Bring the schema up to date; returns the version now in force. ``recount``: counts
    the finished games into the statistics, once, when the step that starts keeping them
    runs (:func:`spades.store.count_finished_games`)."""
    schema_version.create(conn, checkfirst=True)
    row = conn.execute(text("SELECT version FROM schema_version")).first()
    current = row[0] if row else 0
    if current > len(MIGRATIONS):
        raise SchemaTooNew(
            f"the database has schema version {current}, newer than this program "
            f"({len(MIGRATIONS)}): upgrade spades"
        )
    for step in MIGRATIONS[current:]:
        step(conn)
        if step is _stats and recount is not None:
            recount(conn)  # once: the games finished before statistics were kept
    if row is None:
        conn.execute(schema_version.insert().values(version=len(MIGRATIONS)))
    else:
        conn.execute(schema_version.update().values(version=len(MIGRATIONS)))
    return len(MIGRATIONS)


__all__ = ["MIGRATIONS", "SchemaTooNew", "SchemaTooOld", "Text", "chat_lines", "check_version",
           "events", "game_players", "games", "metadata", "migrate", "schema_version",
           "sessions", "user_stats", "users"]
