"""``spades serve``: the game server (HTTP + WebSocket) on the embedded SQLite store."""

from __future__ import annotations

import argparse
import contextlib
import errno
import fcntl
import gc
import hashlib
import ipaddress
import json
import logging
import os
import secrets
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from spades.cli.checks import (
    db_is_a_folder,
    missing_db_folder,
    positive_int,
    seconds_or_zero,
    sqlite_file,
)
from spades.tui.console import print_error

#: uvicorn's log levels (``--log-level``).
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the game server (lobby, tables, live play)",
                       description="Run the game server: the browser page at /, the HTTP API "
                       "under /api (OpenAPI docs at /api/docs) and the WebSocket at /ws.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000,
                   help="port (8000; 0: any free port, the one taken is printed)")
    p.add_argument("--db", default=None, type=database,
                   help="SQLite file, or a SQLAlchemy URL such as postgresql+psycopg://USER@HOST/DB "
                   "(default: $SPADES_DB or the data folder)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   type=origin,
                   help="another origin (scheme://host[:port], as a browser sends it in its "
                   "Origin header) allowed to open the WebSocket; the page's own origin "
                   "always is (repeatable)")
    p.add_argument("--cpu-delay", type=seconds_or_zero, default=0.6,
                   help="seconds a CPU waits before acting (0.6)")
    p.add_argument("--bots", choices=("process", "thread", "inline"), default="process",
                   help="where CPU players think (default process: a process pool)")
    p.add_argument("--bot-workers", type=positive_int, default=2, metavar="N",
                   help="processes (or threads, with --bots thread) where CPU players think (2)")
    p.add_argument("--bot", action="append", default=[], metavar="NAME=cmd:PROGRAM",
                   help="offer an external bot program (docs/bot-protocol.md) as a CPU "
                        "strength named NAME; a program that fails is replaced by a CPU")
    p.add_argument("--ws-compression", action="store_true",
                   help="offer permessage-deflate on the WebSocket (saves bandwidth, costs "
                   "CPU: off by default)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="redis://HOST:PORT/N shared by several spades serve processes that "
                   "serve one room (with a shared --db such as PostgreSQL); docs/deploy.md")
    p.add_argument("--redis-prefix", default="spades:", metavar="PREFIX",
                   help="prefix of this room's Redis keys and channels (spades:), so that "
                   "several rooms can share one Redis")
    p.add_argument("--forwarded-allow-ips", default="127.0.0.1", metavar="ADDRESSES",
                   type=proxy_addresses,
                   help="comma-separated addresses or networks (10.0.0.0/8) of trusted reverse "
                   "proxies (or *): only "
                   "from these are X-Forwarded-For/-Proto believed, so that limits see the "
                   "real client; '' trusts none (default: 127.0.0.1)")
    lim = p.add_argument_group("limits", "what one client can make the server hold or do "
                               "(docs/server.md, Limits); 0 turns a cap or a rate off")
    lim.add_argument("--tables-per-user", metavar="N",
                     help="unfinished tables where one user may hold a place (5)")
    lim.add_argument("--uploads-per-user", metavar="N",
                     help="live tables from continue uploads per user (2)")
    lim.add_argument("--abandon-minutes", metavar="M",
                     help="a table with nobody connected this long ends (30)")
    lim.add_argument("--http-rate", metavar="R",
                     help="HTTP requests a second per client address, bursts of 60 (10)")
    lim.add_argument("--conns-per-address", metavar="N",
                     help="open connections per client address, an IPv6 client's whole "
                     "/64 together; with --redis, WebSockets counted for all the "
                     "processes (64)")
    lim.add_argument("--spectators-per-table", metavar="N",
                     help="spectators per table (50)")
    lim.add_argument("--hint-workers", metavar="N",
                     help="workers computing hints, apart from the CPU players' (1)")
    lim.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                     help="set any limit listed in docs/server.md by its Settings name, "
                     "e.g. --limit lobby_rate=2 (repeatable)")
    p.add_argument("--log-level", default="warning", choices=LOG_LEVELS, type=str.lower,
                   help="how much the server and uvicorn log to stderr (warning; info adds "
                   "each request and the tables restored at start)")
    p.add_argument("--print-schema", action="store_true",
                   help="print the JSON schema of every WebSocket message and exit")
    p.add_argument("--check-db", action="store_true",
                   help="list the tables in the database that cannot be restored (each with "
                   "its id and why; a start sets them aside and serves the others) and exit: "
                   "status 1 if there are any; writes nothing (an older schema is reported, "
                   "not upgraded)")
    p.set_defaults(func=run)


def limits_of(args: argparse.Namespace) -> list[tuple[str, int | float]]:
    """The limits set on the command line: the named flags (taken as typed, and checked as
    ``--limit`` checks them: ``--http-rate -3`` is named so, not ``-3.0``), then every
    ``--limit``."""
    from spades.server.limits import parse_limit

    out: list[tuple[str, int | float]] = []
    for name in ("tables_per_user", "uploads_per_user", "abandon_minutes", "http_rate",
                 "conns_per_address", "spectators_per_table", "hint_workers"):
        value = getattr(args, name)
        if value is not None:
            item = f"{name}={value}"
            try:
                out.append(parse_limit(item))
            except ValueError as exc:  # named as typed: --hint-workers 0, not --limit ...
                flag = f"--{name.replace('_', '-')} {value}"
                raise ValueError(str(exc).replace(f"--limit {item}", flag)) from None
    out += [parse_limit(item) for item in args.limit]
    return out


def run(args: argparse.Namespace) -> int:
    if args.print_schema:
        from spades.server.schema import schemas

        print(json.dumps(schemas(), indent=2))
        return 0
    if args.check_db:
        return check_db(args)
    import uvicorn

    from spades.cli.bench import engine_line
    from spades.server.app import create_app
    from spades.server.cpu import register_external
    from spades.server.netlimits import http_protocol, ws_protocol

    for item in args.bot:
        name, _, spec = item.partition("=")
        try:
            register_external(name.strip(), spec.strip())
        except ValueError as exc:
            print_error(f"spades serve: {exc}")
            return 2
    if refused := missing_db_folder(args.db, "serve"):
        print_error(refused)
        return 2
    from spades.server.settings import Settings
    from spades.store import default_path

    settings = Settings(db=str(args.db or default_path()), host=args.host, port=args.port,
                        allow_origins=list(args.allow_origin), cpu_delay=args.cpu_delay,
                        bot_executor=args.bots, bot_workers=args.bot_workers,
                        redis=args.redis, redis_prefix=args.redis_prefix,
                        forwarded_allow_ips=args.forwarded_allow_ips)
    try:
        for name, value in limits_of(args):
            setattr(settings, name, value)
    except ValueError as exc:
        print_error(f"spades serve: {exc}")
        return 2
    if settings.redis is not None:
        try:
            import redis  # noqa: F401
        except ImportError:
            print_error("spades serve: --redis needs the redis package: install the cluster extra "
                        "(pip install '.[cluster]' in the spades clone)")
            return 2
    # The address first: a port already in use (another server running?) stops the start
    # before anything is read from the database, let alone written.
    try:
        sockets = listen(args.host, args.port)
    except OSError as exc:
        print_error(f"spades serve: {exc}")
        return 2
    if settings.redis is not None and (refused := redis_refusal(settings.redis,
                                                                 settings.redis_prefix)):
        for sock in sockets:
            sock.close()
        print_error(f"spades serve: {refused}")
        return 2
    from spades.store import Store, StoreError

    # Another room on the database: refused before the start opens (and may upgrade) it;
    # a database that is not there yet is held once the start has made it.
    held, refused = hold_database(settings.db, room=settings.redis is not None,
                                  redis=settings.redis, prefix=settings.redis_prefix)
    if not refused:
        try:  # a wrong URL or an unreachable database: one clear line, not a traceback
            Store.open(settings.db).close()
        except StoreError as exc:
            refused = str(exc)
    if not refused and not held.done:
        held, refused = hold_database(settings.db, room=settings.redis is not None,
                                      redis=settings.redis, prefix=settings.redis_prefix)
    settings.room_token = held.room_token
    if refused:
        for sock in sockets:
            sock.close()
        held.close()
        print_error(f"spades serve: {refused}")
        return 2
    port = sockets[0].getsockname()[1]
    settings.port = port
    app = create_app(settings)
    # uvicorn stops gracefully on SIGTERM, then raises the signal again with the handler it
    # found. Killed by it, the process would skip its exit clean-up: the CPU worker pools'
    # semaphores would be left to the resource tracker, which warns of them as leaked. So the
    # handler it finds lets the process end normally, with status 0 (a graceful stop).
    # Set before the start line: whoever stops the server once it has said so gets that.
    stop = _Stop()
    signal.signal(signal.SIGTERM, stop.handle)
    print(f"spades server on http://{_host_in_url(args.host)}:{port}/ (database "
          f"{_shown(settings.db)}; {engine_line()})", flush=True)
    _log_to_stderr(args.log_level)
    config = uvicorn.Config(
        app, host=args.host, port=port, log_level=args.log_level,
        ws_max_size=settings.hard_frame, ws_ping_interval=20, ws_ping_timeout=20,
        ws_per_message_deflate=args.ws_compression, proxy_headers=True,
        forwarded_allow_ips=args.forwarded_allow_ips,
        http=http_protocol(settings, args.forwarded_allow_ips), ws=ws_protocol(settings),
        timeout_keep_alive=settings.keep_alive, server_header=False)
    # What is made by now (modules, the app, its schemas) lives as long as the process: out
    # of the collector's sight (gc.freeze), a full collection walks only what came after. An
    # upload of a long record (a few hundred thousand objects read, replayed and let go)
    # set off some six full collections of 60-90 ms each, the event loop stopped in each.
    gc.collect()
    gc.freeze()
    server = uvicorn.Server(config)
    stop.server = server
    try:
        if not stop.asked:  # (else stopped before it began: nothing to run)
            server.run(sockets=sockets)
    except KeyboardInterrupt:  # Ctrl-C: uvicorn has stopped gracefully
        pass
    finally:
        for sock in sockets:
            sock.close()
        held.close()
    return 0 if server.started or stop.asked else 3  # 3: the application did not start


#: The PostgreSQL advisory lock that says which kind of spades serve serves a database: one
#: without --redis holds it alone, the processes of a room (--redis) share it.
SERVING_LOCK = 0x5ADE6
#: The rooms serving a PostgreSQL database: each process of a room holds, shared, the
#: advisory lock (ROOM_LOCKS, the room's number) beside SERVING_LOCK; a process of another
#: room sees it in ``pg_locks`` and is refused. ROOM_GATE (a transaction lock) makes looking
#: and taking one step, so that two rooms starting at once cannot both pass.
ROOM_LOCKS = 0x5ADE7
ROOM_GATE = 0x5ADE8
#: (On SQLite the same is done with ``flock``: :class:`_FileLocks`.)
#: The Redis key, under --redis-prefix, naming its room: a random token its first process
#: set, the same from any URL reaching that Redis and database number (its processes set it
#: again if Redis lost it: :class:`spades.server.room.Room`).
ROOM_TOKEN = "room-token"


class _Held:
    """What keeps a database marked as served until the process ends: files open with
    ``flock`` (SQLite: the database, and the room's file beside it) or a connection holding
    advisory locks (PostgreSQL)."""

    def __init__(self, close: Callable[[], object] | None = None, *, done: bool = True,
                 room_token: str | None = None) -> None:
        self._close = close
        self.done = done  # False: not held, the database was not there to hold yet
        self.room_token = room_token  # the room's token (ROOM_TOKEN) when one was read

    def close(self) -> None:
        if self._close is not None:
            with contextlib.suppress(Exception):
                self._close()
            self._close = None


def hold_database(db: str, *, room: bool, wait: float = 5.0, redis: str | None = None,
                  prefix: str = "spades:") -> tuple[_Held, str | None]:
    """Mark ``db`` as served by this process, shared with the other processes of a room
    (``room``: --redis) or alone (without it), and keep it so (``_Held``) until the process
    ends; else why not, in one line. Two rooms on one database (two processes without
    --redis, say two instances of the systemd unit on one SQLite file) would each restore
    and run the same stored tables, each with a lobby of its own: nginx's round robin sent
    a player's friends to a lobby without the player's table. Two rooms (a room: the
    processes of one ``redis`` and ``prefix``) are told apart too: a process of another room
    is refused while any process of the first serves the database. ``wait``: how long a lock
    that a process just killed still holds is waited for (PostgreSQL ends its session a
    moment after). One decision (:func:`_hold`) for two kinds of locks: :class:`_FileLocks`
    (SQLite) and :class:`_PostgresLocks`."""
    named = (redis, prefix) if room and redis else None
    path = sqlite_file(db)
    if path is not None:
        try:  # the database file itself (SQLite locks it with fcntl, never flock)
            fd = os.open(Path(path).expanduser(), os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return _Held(done=False), None  # not there yet: held once the start has made it
        return _hold(_FileLocks(fd, Path(path).expanduser()), db, room, wait, named)
    if "://" in db and db.lower().startswith("postgres"):
        locks = _PostgresLocks.connect(db)
        if locks is None:
            return _Held(done=False), None  # the start says why it cannot connect
        return _hold(locks, db, room, wait, named)
    return _Held(), None  # :memory:, or a database of another kind: nothing to share


class _Locks(Protocol):
    """How one kind of database is marked as served, for :func:`_hold` to decide with."""

    def take(self, room: bool) -> bool:
        """Take the serving lock: shared (``room``) or alone; False if it is held so that
        this one cannot have it."""

    def take_room(self, token: str) -> tuple[bool, bool]:
        """Share the serving lock and take the lock of the room named ``token``, unless
        another room holds one of its own: (held, another room there). Looking and taking
        are one step, so that two rooms starting at once cannot both pass."""

    def shared_by_others(self) -> bool:
        """After ``take(False)`` failed: is the serving lock held shared (by a room)?"""

    def keep(self, token: str | None) -> _Held:
        """What holds the locks taken until the process ends."""

    def drop(self) -> None:
        """Refused: let go of what was opened."""


def _hold(locks: _Locks, db: str, room: bool, wait: float,
          redis: tuple[str, str] | None) -> tuple[_Held, str | None]:
    """:func:`hold_database`'s decision, the same on every kind of database."""
    named = room_token(*redis) if redis is not None else None
    deadline = time.monotonic() + wait
    another = False
    while True:
        if named is not None:
            got, another = locks.take_room(named[0])
        else:
            got, another = locks.take(room), False
        if got:
            return locks.keep(named[0] if named else None), None
        if another and named is not None and redis is not None and named[1]:
            # this start set the token: Redis may have lost the one of a room still
            # running (restarted empty), whose processes set theirs again within a round
            _forget_token(*redis, named[0])
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
        if another and redis is not None:
            named = room_token(*redis)
    if another:
        locks.drop()
        return _Held(), _other_room(db)
    others_share = not room and locks.shared_by_others()
    locks.drop()
    return _Held(), _busy(db, room, others_share)


def _busy(db: str, room: bool, others_share: bool) -> str:
    where = f"this database ({_shown(db)})"
    if room:
        return (f"another spades serve serves {where} without --redis, as a room of its own: "
                "processes with --redis cannot share its tables; stop it (or give it the same "
                "--redis), then start this one")
    if others_share:
        return (f"spades serve processes with --redis serve {where} as a room: a process "
                "without --redis would run the same tables in a room of its own; give this "
                "one the same --redis (and --redis-prefix), or stop them")
    return (f"another spades serve serves {where} already, without --redis: two would each "
            "run the same tables in lobbies of their own; stop it (systemctl stop "
            "spades@PORT), or run every process with one --redis on PostgreSQL "
            "(docs/deploy.md)")


def rooms_folder(path: Path) -> Path:
    """The folder beside a SQLite database (``DB-rooms``) where the rooms serving it keep
    their lock files (:class:`_FileLocks`)."""
    return path.with_name(path.name + "-rooms")


class _FileLocks:
    """SQLite's locks: a ``flock`` on the database file, shared by the processes of a room
    (--redis) or held alone by a process without --redis; and, beside the database, the
    folder ``DB-rooms`` with a lock file per room serving it (named after its token), which
    each of the room's processes holds shared with ``flock``. A lock file that nobody holds
    is a room's that has stopped (or was killed: a flock goes with its process) and is
    cleared; one held is another room's, and this one is refused. A ``flock`` on the folder
    itself makes looking and taking one step."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd  # never closed: that would drop SQLite's own fcntl locks of this process
        self.rooms = rooms_folder(path)
        self.mine: tuple[int, str] | None = None  # this room's lock file, and its name

    def take(self, room: bool) -> bool:
        try:
            fcntl.flock(self.fd, (fcntl.LOCK_SH if room else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def take_room(self, token: str) -> tuple[bool, bool]:
        try:
            self.rooms.mkdir(mode=0o700, exist_ok=True)
            gate = os.open(self.rooms, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:  # no folder beside the database (read-only?): rooms not told apart
            return self.take(True), False
        try:
            fcntl.flock(gate, fcntl.LOCK_EX)
            if not self.take(True):
                return False, False
            name = hashlib.sha256(token.encode()).hexdigest()[:32] + ".lock"
            if self._another_room(name):
                fcntl.flock(self.fd, fcntl.LOCK_UN)
                return False, True
            try:
                mine = os.open(self.rooms / name, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC,
                               0o600)
            except OSError:
                return True, False  # the database is held; this room's file could not be
            fcntl.flock(mine, fcntl.LOCK_SH)  # (held exclusively only under the gate)
            self.mine = mine, name
            return True, False
        finally:
            os.close(gate)  # and with it its flock

    def _another_room(self, mine: str) -> bool:
        """Is a lock file of another room held? Those nobody holds are cleared."""
        found = False
        for name in os.listdir(self.rooms):
            if name == mine or not name.endswith(".lock"):
                continue
            try:
                fd = os.open(self.rooms / name, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                found = True
            else:  # its room has stopped, or was killed
                with contextlib.suppress(OSError):
                    os.unlink(self.rooms / name)
            finally:
                os.close(fd)
        return found

    def shared_by_others(self) -> bool:
        return self.take(True)

    def keep(self, token: str | None) -> _Held:
        return _Held(self._leave if self.mine is not None else None, room_token=token)

    def _leave(self) -> None:
        """The room's lock file goes with its last process (a killed one's, with the start
        of another room)."""
        if self.mine is None:
            return
        (mine, name), self.mine = self.mine, None
        try:
            gate = os.open(self.rooms, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            os.close(mine)
            return
        try:
            fcntl.flock(gate, fcntl.LOCK_EX)
            with contextlib.suppress(BlockingIOError):
                fcntl.flock(mine, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the room's last process
                os.unlink(self.rooms / name)
        finally:
            os.close(mine)
            os.close(gate)

    def drop(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)


def _other_room(db: str) -> str:
    return (f"spades serve processes of another room serve this database ({_shown(db)}): "
            "their --redis or --redis-prefix is not this one's, and two rooms would each run "
            "the same tables in lobbies of their own; give this one the same --redis and "
            "--redis-prefix as theirs, or stop them first")


def room_token(url: str, prefix: str, timeout: float = 5.0) -> tuple[str, bool] | None:
    """The token naming the room of ``url`` and ``prefix`` (:data:`ROOM_TOKEN`), set now if
    it had none, and whether this call set it; None if Redis does not answer (the start
    then goes on without telling rooms apart, as before)."""
    import redis

    mine = secrets.token_hex(16)
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout,
                                      socket_timeout=timeout, decode_responses=True)
    except ValueError:
        return None
    try:
        created = bool(client.set(prefix + ROOM_TOKEN, mine, nx=True))
        token = client.get(prefix + ROOM_TOKEN)
    except redis.RedisError:
        return None
    finally:
        client.close()
    return (str(token), created and token == mine) if token else None


def _forget_token(url: str, prefix: str, token: str) -> None:
    """Take back a token set by a start that was refused (if still that one): if Redis had
    lost the token of a room still running, its processes set theirs again."""
    import redis

    with contextlib.suppress(Exception):
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then "
                        "return redis.call('DEL', KEYS[1]) end return 0",
                        1, prefix + ROOM_TOKEN, token)
        finally:
            client.close()


def room_number(token: str) -> int:
    """The room's key among the ROOM_LOCKS advisory locks (a positive 32-bit number)."""
    return int.from_bytes(hashlib.sha256(token.encode()).digest()[:4], "big") & 0x7FFFFFFF


class _PostgresLocks:
    """PostgreSQL's locks, held by one more connection: SERVING_LOCK, an advisory lock
    shared by the processes of a room (--redis) or held alone by a process without --redis;
    and, beside it, each room's advisory lock (ROOM_LOCKS, the room's number), held shared
    by its processes, which another room finds in ``pg_locks``. ROOM_GATE (a transaction
    lock) makes looking and taking one step."""

    def __init__(self, engine: Any, conn: Any, text: Callable[[str], Any]) -> None:
        self.engine, self.conn, self.text = engine, conn, text

    @classmethod
    def connect(cls, db: str) -> _PostgresLocks | None:
        """The connection that holds the locks; None if there is none (the start then
        says why)."""
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        try:
            engine = create_engine(db, poolclass=NullPool, connect_args={"connect_timeout": 5})
        except Exception:  # a URL or a driver the start refuses, saying why
            return None
        try:
            conn = engine.connect()
        except Exception:
            engine.dispose()
            return None
        return cls(engine, conn, text)

    def _one(self, sql: str, **values: Any) -> Any:
        return self.conn.execute(self.text(sql), values).scalar()

    def take(self, room: bool) -> bool:
        take = "pg_try_advisory_lock_shared" if room else "pg_try_advisory_lock"
        got = bool(self._one(f"SELECT {take}(:key)", key=SERVING_LOCK))
        self.conn.commit()  # a session lock: it outlives the transaction, held until the end
        return got

    def take_room(self, token: str) -> tuple[bool, bool]:
        number = room_number(token)
        self._one("SELECT pg_advisory_xact_lock(:gate)", gate=ROOM_GATE)
        if not self._one("SELECT pg_try_advisory_lock_shared(:key)", key=SERVING_LOCK):
            self.conn.commit()
            return False, False
        others = self._one(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND objsubid = 2 AND classid = CAST(:rooms AS oid)"
            " AND objid <> CAST(:mine AS oid)", rooms=ROOM_LOCKS, mine=number)
        if others:
            self._one("SELECT pg_advisory_unlock_shared(:key)", key=SERVING_LOCK)
            self.conn.commit()
            return False, True
        self._one("SELECT pg_advisory_lock_shared(:rooms, :mine)", rooms=ROOM_LOCKS,
                  mine=number)
        self.conn.commit()  # session locks: they outlive the transaction, held until the end
        return True, False

    def shared_by_others(self) -> bool:
        return bool(self._one("SELECT pg_try_advisory_lock_shared(:key)", key=SERVING_LOCK))

    def keep(self, token: str | None) -> _Held:
        return _Held(self.drop, room_token=token)

    def drop(self) -> None:
        self.conn.close()
        self.engine.dispose()


def _log_to_stderr(level: str) -> None:
    """The server's own log lines (``spades.*``: tables restored, set aside or abandoned,
    database errors, refused origins) on stderr beside uvicorn's, with the time, the level
    and where from, at ``--log-level`` (without this, only warnings got out, bare)."""
    from uvicorn.config import LOG_LEVELS as levels

    logger = logging.getLogger("spades")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(levels[level])
    logger.propagate = False


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def database(text: str) -> str:
    """``--db``: not empty (``--db "$DB"`` with DB unset served the default database, the
    user's own, without a word)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "it is empty: give a SQLite file's path or a database URL, or leave --db out "
            "for the default ($SPADES_DB, else the data folder)")
    return text


def origin(text: str) -> str:
    """An origin as browsers send it, ``scheme://host[:port]`` (lower case), or ``*``."""
    if text == "*":
        return text
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an origin: give scheme://host[:port], such as "
            "https://spades.example.org")
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        bare = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an origin: a browser's Origin is scheme://host[:port] with "
            f"nothing after it ({bare!r} here), so this one would never match")
    return f"{parts.scheme}://{parts.netloc}".lower()


def proxy_addresses(text: str) -> str:
    """``--forwarded-allow-ips``: comma-separated addresses or networks (``10.0.0.0/8``),
    ``*``, or nothing. A typo would trust no proxy at all, silently (every client behind it
    would share the proxy's address, and its limits), so it is refused."""
    for item in text.split(","):
        item = item.strip()
        if item in ("", "*"):
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{item!r} is not an IP address or network (such as 10.0.0.5 or 10.0.0.0/8)"
                ) from None
    return text


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``host``:``port`` (each address the name has, as uvicorn would bind
    them), not yet listening. OSError saying which address and why."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise OSError(f"cannot listen on {host}: {exc.strerror}") from None
    sockets: list[socket.socket] = []
    seen: set[tuple[int, object]] = set()
    try:
        for family, kind, proto, _name, address in infos:
            if (family, address) in seen:
                continue
            seen.add((family, address))
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(sockets) > 1:  # the same free port on every address
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            try:
                sock.bind(address)
            except OSError as exc:
                host_of = str(address[0])
                where = f"[{host_of}]" if family == socket.AF_INET6 else host_of
                hint = (" (is another spades serve, or another server, running there? stop "
                        "it or choose another --port)" if exc.errno == errno.EADDRINUSE else "")
                raise OSError(f"cannot listen on {where}:{address[1]!s}: "
                              f"{exc.strerror or exc}{hint}") from None
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _host_in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _shown(db: str) -> str:
    """The database as printed: a URL without its password."""
    if "://" not in db:
        return db
    from sqlalchemy.engine import make_url

    try:
        return make_url(db).render_as_string(hide_password=True)
    except Exception:
        return db


def redis_refusal(url: str, prefix: str = "spades:", timeout: float = 5.0) -> str | None:
    """Why ``--redis URL`` cannot serve (a URL Redis does not take, nothing answering
    there, a Redis user that may not use the room's keys and channels), in one line with
    the password hidden; None when it answers and lets this connection do what the room
    does. Asked before the database is opened: without it, the start line was printed,
    then uvicorn's traceback, status 3."""
    import redis

    shown = _shown(url)
    if "://" not in url:
        return (f"--redis {url!r} is not a Redis URL: write redis://HOST:PORT/N (or "
                "rediss:// for TLS, unix:///PATH)")
    parts = urlsplit(url)
    number = parts.path.strip("/")
    if parts.scheme in ("redis", "rediss") and number and not number.isdigit():
        # (redis-py took /abc for database 0, without a word)
        return (f"--redis {shown}: {number!r} is not a database number: write "
                "redis://HOST:PORT/N, N a whole number (0 if you have no reason for another)")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout,
                                      socket_timeout=timeout)
    except ValueError as exc:
        return f"--redis {shown}: {exc}"
    try:
        client.ping()
        if refused := _redis_rights(client, prefix, timeout):
            return f"Redis at {shown} (--redis) {refused}"
    except redis.RedisError as exc:
        reason = str(exc).replace(url, shown).rstrip(".")
        return f"cannot reach Redis at {shown} (--redis): {reason}"
    finally:
        client.close()
    return None


def _redis_rights(client: Any, prefix: str, timeout: float) -> str | None:
    """Why the Redis user of ``client`` may not run the room (the kinds of commands it
    runs, on keys and a channel under ``prefix``), or None. An ACL user without them
    passed the PING, then stopped the start with a traceback (``NoPermissionError``)."""
    import redis

    key = f"{prefix}check:{secrets.token_hex(8)}"
    hkey, skey, zkey, channel = key + ":h", key + ":s", key + ":z", key + ":c"
    pipe = client.pipeline(transaction=False)
    pipe.set(key, "1", px=10_000)
    pipe.get(key)
    pipe.mget([key])
    pipe.exists(key)
    pipe.pexpire(key, 10_000)
    pipe.hset(hkey, "f", "1")
    pipe.hgetall(hkey)
    pipe.hdel(hkey, "f")
    pipe.sadd(skey, "m")
    pipe.sismember(skey, "m")
    pipe.zrem(zkey, "m")
    pipe.eval("return 1", 1, key)
    pipe.publish(channel, "check")
    pipe.delete(key, hkey, skey)
    answers = pipe.execute(raise_on_error=False)
    pubsub = client.pubsub()
    try:
        pubsub.subscribe(channel)
        pubsub.get_message(timeout=timeout)
    except redis.ResponseError as exc:
        answers.append(exc)
    finally:
        pubsub.close()
    for answer in answers:
        if isinstance(answer, redis.ResponseError):
            user = client.connection_pool.connection_kwargs.get("username") or "default"
            return (f"does not let its user {user} do what the room needs with its keys and "
                    f"channels ({prefix}*): {str(answer).rstrip('.')}; give that user the "
                    f"room's keys and channels (ACL SETUSER {user} ~{prefix}* &{prefix}* "
                    "+@all, or a --redis-prefix its keys allow)")
    return None


class _Stop:
    """SIGTERM until uvicorn takes it over, and again when uvicorn raises it after its
    graceful stop: noted, and told to the server (``should_exit``, what uvicorn's own
    handler sets), never raised. It raised ``SystemExit`` before, and a signal that came
    while a weakref callback or a ``__del__`` ran (the ``gc.collect`` just before serving,
    SQLAlchemy's callbacks) had it swallowed ("Exception ignored in ..."): the server served
    on, and a stop right after the start line waited for ever (most of the time on
    PostgreSQL; a CI run failed so)."""

    def __init__(self) -> None:
        self.asked = False
        self.server: Any = None  # the uvicorn.Server, once made

    def handle(self, signum: int, frame: object) -> None:
        self.asked = True
        if self.server is not None:
            self.server.should_exit = True


def check_db(args: argparse.Namespace) -> int:
    from spades.server.restore import check_db as broken_tables
    from spades.store import Store, StoreError, default_path

    db = str(args.db or default_path())
    if refused := db_is_a_folder(args.db, "serve"):
        print_error(refused)
        return 2
    if (path := sqlite_file(db)) is not None and not Path(path).expanduser().exists():
        # Opening it would make a new, empty database, and "0 tables" would hide the typo.
        # (A sqlite:/// URL too: it made an empty file.)
        folder = Path(path).expanduser().parent
        then = ("the first start of spades serve creates it" if folder.is_dir() else
                f"make its folder {folder} first; the first start of spades serve creates it")
        print_error(f"spades serve: there is no database at {path} (if that is where you want it, "
                    f"{then})")
        return 2
    try:  # a look that writes nothing: an older schema is said, not upgraded
        store = Store.open(db, upgrade=False)
    except StoreError as exc:  # as at a start: one line, status 2 (1 means broken tables)
        print_error(f"spades serve: {exc}")
        return 2
    try:
        broken = broken_tables(store)
    finally:
        store.close()
    for gid, why in broken:
        print(f"{gid}\t{why}")
    print_error(f"{len(broken)} table(s) cannot be restored (database {_shown(db)})")
    return 1 if broken else 0
