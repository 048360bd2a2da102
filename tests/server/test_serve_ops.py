"""``spades serve`` as an operator meets it: a start that cannot happen says why in one line
(status 2) before it touches the database; bad option values are refused naming the option;
the server's own log lines reach stderr; ``/api/health`` tells whether the database answers."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import platform
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.server.helpers import ctrl_c, process_family, wait_until
from tests.server.netclient import NetPlayer, Server, free_port, new_table
from tests.services import PostgresServer, RedisServer


def serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``spades serve ARGS`` that is expected to stop by itself."""
    return subprocess.run([sys.executable, "-m", "spades", "serve", *args],
                          capture_output=True, text=True, timeout=timeout)


def one_line_refusal(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("spades serve: "), done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def test_a_port_in_use_stops_the_start_before_the_database_is_touched(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "second.sqlite3"
        done = serve("--port", str(port), "--db", str(db))
    one_line_refusal(done, f"127.0.0.1:{port}", "in use", "--port")
    assert not db.exists()  # no tables restored, nothing written, by a server that cannot run


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    one_line_refusal(serve("--port", "0", "--db", str(not_a_folder / "x.sqlite3")),
                     "is not a folder")
    text = tmp_path / "notes.txt"
    text.write_text("these are notes, not a database " * 10)
    one_line_refusal(serve("--port", "0", "--db", str(text)), "not a database", str(text))


def test_a_db_in_a_folder_that_does_not_exist_is_refused_and_nothing_is_made(
        tmp_path: Path) -> None:
    """A path the operator gave (``--db`` or ``$SPADES_DB``) in a missing folder is a typo
    more often than a wish: refused in one line, status 2, and no folder is made (the default
    database's folder, under the data folder, still is)."""
    db = tmp_path / "nosuchdir" / "x.sqlite3"
    done = serve("--port", "0", "--db", str(db))
    one_line_refusal(done, f"--db {db}: the folder {db.parent} does not exist")
    assert not db.parent.exists()
    env = dict(os.environ, SPADES_DB=str(db))
    done = subprocess.run([sys.executable, "-m", "spades", "serve", "--port", "0"],
                          capture_output=True, text=True, timeout=60, env=env)
    one_line_refusal(done, f"$SPADES_DB {db}: the folder {db.parent} does not exist")
    assert not db.parent.exists()


def test_check_db_says_why_it_cannot_look_and_makes_no_database(tmp_path: Path) -> None:
    url = f"postgresql+psycopg://spades:secret@127.0.0.1:{free_port()}/nowhere"
    done = serve("--check-db", "--db", url)
    one_line_refusal(done, "cannot open the database")  # 2, not 1 ("broken tables")
    assert "secret" not in done.stderr
    missing = tmp_path / "typo.sqlite3"
    one_line_refusal(serve("--check-db", "--db", str(missing)), "no database", str(missing))
    assert not missing.exists()


def test_check_db_on_a_new_empty_database_says_that_a_start_fills_it(
        postgres: PostgresServer) -> None:
    """docs/deploy.md has the operator try the new PostgreSQL database with --check-db
    before the first start; it answered only "cannot open the database URL: it holds no
    spades tables yet", as if something were wrong. It still stops with status 2 (nothing to
    look at), and now says that the connection works and a start creates the tables."""
    done = serve("--check-db", "--db", postgres.create_database("fresh"))
    one_line_refusal(done, "holds no spades tables yet", "the first start of spades serve "
                     "creates them", "the connection works")


def test_check_db_leaves_an_older_database_as_it_is(tmp_path: Path) -> None:
    """--check-db on a database of an older release upgraded its schema as it looked, before
    the operator had backed it up: a look now writes nothing and says what a start would do."""
    from sqlalchemy import create_engine

    from spades.store import Store, schema

    old = tmp_path / "old.sqlite3"
    engine = create_engine(f"sqlite:///{old}")
    with engine.begin() as conn:  # a database written by the first release
        schema.schema_version.create(conn)
        schema.MIGRATIONS[0](conn)
        conn.execute(schema.schema_version.insert().values(version=1))
    engine.dispose()
    before = old.read_bytes()
    one_line_refusal(serve("--check-db", "--db", str(old)), "schema version 1, older",
                     "a start of spades serve upgrades it", "back it up first")
    assert old.read_bytes() == before
    Store.open(old).close()  # a start upgrades it; then the look answers
    done = serve("--check-db", "--db", str(old))
    assert done.returncode == 0, done.stderr
    assert "0 table(s) cannot be restored" in done.stderr


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_stop_right_after_the_start_line_stops_the_server(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """SIGTERM just after the start line raised SystemExit from the process's own handler,
    wherever the main thread was: inside the collection made just before serving, a weakref
    callback of SQLAlchemy's swallowed it ("Exception ignored in ..."), and the server served
    on, deaf to that stop (most of the time on PostgreSQL; a CI run failed so, waiting on
    the password test's stop). Each try stops within seconds, with status 0."""
    for i in range(3):
        db = (str(tmp_path / f"s{i}.sqlite3") if backend == "sqlite"
              else request.getfixturevalue("postgres").create_database("stop"))
        proc = subprocess.Popen([sys.executable, "-m", "spades", "serve", "--port",
                                 str(free_port()), "--db", db, "--bots", "inline"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline().startswith("spades server on")
            proc.terminate()
            _out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 0 and "Exception ignored" not in err, (i, err[-2000:])


def test_the_start_line_does_not_print_the_database_password(postgres: PostgresServer) -> None:
    url = postgres.create_database("banner").replace("spades@", "spades:hunter2@")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "spades", "serve", "--port", str(port),
                             "--db", url, "--bots", "inline"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the server is about to listen
        assert line.startswith("spades server on"), line
        assert "hunter2" not in line and "spades:***@" in line
    finally:
        proc.terminate()
        proc.wait(30)
    assert proc.returncode == 0


WRITE = {"x86_64": "1", "aarch64": "64"}  # the write system call's number


@pytest.mark.skipif(platform.machine() not in WRITE, reason="reads Linux's /proc/PID/syscall")
def test_a_stop_the_moment_the_start_line_is_written_is_a_graceful_one(tmp_path: Path) -> None:
    """Stopped right as it says it has started, the server ends with status 0. (Its SIGTERM
    handler was set after the line: a CI run that stopped it at once saw -15, killed.) The
    line goes into a full pipe, so the server is held inside that write while it is stopped."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    os.set_blocking(write_end, False)
    with pytest.raises(BlockingIOError):
        while True:
            os.write(write_end, b"-" * 512)
    os.set_blocking(write_end, True)
    proc = subprocess.Popen([sys.executable, "-m", "spades", "serve", "--port", "0",
                             "--db", str(tmp_path / "s.db"), "--bots", "inline"],
                            stdout=write_end, stderr=subprocess.DEVNULL)
    os.close(write_end)
    calls = Path(f"/proc/{proc.pid}/syscall")
    try:
        wait_until(lambda: proc.poll() is None
                   and calls.read_text().split()[:2] == [WRITE[platform.machine()], "0x1"],
                   "the server to write its start line", seconds=120)
        proc.send_signal(signal.SIGTERM)
        with os.fdopen(read_end, "rb") as pipe:
            out = pipe.read()  # to the end: the server has gone
        assert proc.wait(30) == 0, out[-300:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "70000"], ["--port", "65535"]),
    (["--bot-workers", "0"], ["--bot-workers", "1 or more"]),
    (["--cpu-delay", "nan"], ["--cpu-delay", "finite"]),
    (["--log-level", "verbose"], ["--log-level", "warning"]),
    (["--allow-origin", "https://spades.example.org/"], ["--allow-origin", "never match"]),
    (["--allow-origin", "spades.example.org"], ["--allow-origin", "scheme://host"]),
    (["--hint-workers", "0"], ["--hint-workers 0", "more than 0"]),
    (["--http-rate", "inf"], ["--http-rate inf", "finite"]),
    (["--http-rate", "-3"], ["--http-rate -3:", "cannot be negative"]),
    (["--tables-per-user", "2.5"], ["--tables-per-user 2.5:", "a whole number"]),
    (["--abandon-minutes", "soon"], ["--abandon-minutes soon:", "a number"]),
    (["--limit", "max_frame=0"], ["max_frame", "more than 0"]),
    (["--limit", "hello_timeout=0"], ["hello_timeout", "more than 0"]),
    (["--limit", "sweep_seconds=0"], ["sweep_seconds", "more than 0"]),
    (["--limit", "rate_burst=0"], ["rate_burst", "1 or more"]),
    (["--limit", "login_window=nan"], ["login_window", "finite"]),
    (["--forwarded-allow-ips", "127.0.0.1,10.0.0.300"], ["--forwarded-allow-ips", "'10.0.0.300'"]),
    (["--forwarded-allow-ips", "proxy.local"], ["--forwarded-allow-ips", "not an IP address"]),
])
def test_a_bad_option_value_is_refused_naming_the_option(tmp_path: Path, args: list[str],
                                                         words: list[str]) -> None:
    done = serve("--port", "0", "--db", str(tmp_path / "x.sqlite3"), *args)
    assert done.returncode == 2, (args, done.stderr)
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr, (args, done.stderr)
    assert not (tmp_path / "x.sqlite3").exists()


def test_every_serve_option_has_a_help_line() -> None:
    from spades.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    serve_parser = sub.choices["serve"]
    bare = [a.option_strings for a in serve_parser._actions if not a.help]
    assert bare == [], bare


def test_limits_the_docs_list_can_be_set() -> None:
    from spades.server.limits import parse_limit

    assert parse_limit("session_days=7") == ("session_days", 7.0)
    assert parse_limit("login_account_failures=50") == ("login_account_failures", 50)
    assert parse_limit("login_address_failures=0") == ("login_address_failures", 0)
    assert parse_limit("rate_per_second=0") == ("rate_per_second", 0.0)


def test_the_servers_own_log_lines_reach_stderr(tmp_path: Path) -> None:
    db = tmp_path / "log.sqlite3"
    server = Server(db, free_port(), "--bots", "inline", "--log-level", "info").start()
    try:
        ann = NetPlayer(server, "Ann")
        new_table(ann, {"profile": "cardems"})
        ann.close()
        with pytest.raises(InvalidStatus):
            connect(server.ws_url, origin="https://evil.example", open_timeout=60)  # type: ignore[arg-type]
    finally:
        server.stop()
    first = server.log()
    assert "WARNING spades.server: refused a WebSocket" in first, first
    assert "'https://evil.example'" in first
    again = Server(db, free_port(), "--bots", "inline", "--log-level", "info").start()
    again.stop()
    second = again.log()
    assert "INFO spades.server: restored 1 tables" in second, second


def test_health_says_when_the_database_does_not_answer(tmp_path: Path) -> None:
    pg = PostgresServer()
    pg.start()
    server = None
    try:
        server = Server(pg.create_database("health"), free_port(), "--bots", "inline").start()
        ok = httpx.get(server.url + "/api/health", timeout=30)
        assert ok.status_code == 200 and ok.json()["ok"] is True
        assert ok.json()["database"] is True
        assert "server" not in ok.headers  # was "uvicorn": nothing to tell a prober
        pg.stop()
        down = httpx.get(server.url + "/api/health", timeout=30)
        assert down.status_code == 503, down.text
        assert down.json()["ok"] is False and down.json()["database"] is False
        assert "database" in down.json()["detail"]
    finally:
        if server is not None:
            server.stop()
        pg.stop()


@pytest.mark.parametrize(("url", "words"), [
    ("redis://127.0.0.1:{port}/0", ["cannot reach Redis at redis://127.0.0.1:{port}/0",
                                    "--redis", "refused"]),
    ("redis://:topsecret@127.0.0.1:{port}/0", ["cannot reach Redis", "--redis", "***"]),
    ("127.0.0.1:6379", ["--redis", "'127.0.0.1:6379'", "redis://"]),
    ("http://127.0.0.1:6379", ["--redis", "redis://"]),
])
def test_a_redis_that_cannot_be_reached_is_one_line_before_the_database(
        tmp_path: Path, url: str, words: list[str]) -> None:
    """A wrong ``--redis`` (nothing listening, no scheme, another scheme) stopped the start
    with uvicorn's traceback and status 3, after the start line and after the database had
    been opened: now one line naming --redis and the URL (its password hidden), status 2,
    nothing written."""
    port = free_port()  # nothing listens there
    url = url.format(port=port)
    db = tmp_path / "x.sqlite3"
    done = serve("--port", "0", "--db", str(db), "--redis", url, "--bots", "inline")
    one_line_refusal(done, *(w.format(port=port) for w in words))
    assert "topsecret" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "spades server on" not in done.stdout
    assert not db.exists()


@contextlib.contextmanager
def served_on_postgres(name: str, *args: str) -> Iterator[tuple[PostgresServer, Server]]:
    """``spades serve ARGS`` on a private PostgreSQL of its own (which the test may pause);
    both stopped afterwards."""
    pg = PostgresServer()
    pg.start()
    server = None
    try:
        server = Server(pg.create_database(name), free_port(), "--bots", "inline", *args).start()
        yield pg, server
    finally:
        if server is not None:
            server.stop()
        pg.stop()


def retried_without_a_traceback(server: Server, what: str) -> str:
    """Wait until the server's log says twice that a move could not be stored (or shows a
    traceback); the log, which must have no traceback."""
    wait_until(lambda: server.log().count("could not be stored") >= 2
               or "Traceback" in server.log(), what, seconds=120)
    log = server.log()
    assert "Traceback" not in log, log[-3000:]
    return log


def test_a_database_that_goes_away_mid_hand_pauses_the_cpus_without_a_flood() -> None:
    """PostgreSQL stopped while a CPU player was to act: its move failed to be stored, was
    logged as "the CPU failed to decide" with a traceback, and was tried again at once, for
    ever (a traceback per try; thousands a second with --cpu-delay 0). Now the move is tried
    again after a pause (0.5 s, doubling to 30 s), each failure one line saying that it
    could not be stored; when the database is back the table goes on."""
    # The CPUs wait 5 s before acting: the database is gone by then.
    with served_on_postgres("gone", "--cpu-delay", "5") as (pg, server):
        ann = NetPlayer(server, "Ann")
        new_table(ann, {"one_hand": True, "profile": "cardems", "first_dealer": 3})
        assert ann.request({"type": "start"})["type"] == "ack"
        if not ann.my_turn():  # (the first to bid, after dealer 3)
            ann.until(lambda m: ann.my_turn())
        assert ann.view is not None and ann.you is not None
        seat = ann.you["seat"]
        assert ann.request({"type": "act", "action": ann.view["legal_actions"][0]}
                           )["type"] == "ack"
        pg.pause()
        log = retried_without_a_traceback(server, "the CPU's move to be tried again")
        assert "failed to decide" not in log, log[-3000:]
        pg.resume()
        # The table goes on: the next seat's bid comes.
        ann.until(lambda m: m["type"] == "event" and m["event"].get("kind") == "bid"
                  and m["event"].get("seat") == (seat + 1) % 4)


def test_a_turn_timers_move_that_cannot_be_stored_is_tried_again() -> None:
    """PostgreSQL stopped during a person's timed turn: when the time ran out the timer's
    move failed to be stored, the log had a traceback ("background task failed") and the
    move was never tried again, so the turn waited until someone acted. Now it is tried
    again after a pause, one line each time, and made once the database is back."""
    with served_on_postgres("timer", "--cpu-delay", "0") as (pg, server):
        ann = NetPlayer(server, "Ann")
        new_table(ann, {"one_hand": True, "profile": "cardems", "turn_timer": 15})
        assert ann.request({"type": "start"})["type"] == "ack"
        if not ann.my_turn():  # the CPUs before her bid at once
            ann.until(lambda m: ann.my_turn())
        assert ann.you is not None
        seat = ann.you["seat"]
        pg.pause()  # (well within her 15 s)
        log = retried_without_a_traceback(server, "the timer's move to be tried again")
        assert f"the turn timer's move for seat {seat} could not be stored" in log, log[-3000:]
        pg.resume()
        # The timer's bid for her is made, and the hand goes on.
        ann.until(lambda m: m["type"] == "event" and m["event"].get("kind") == "timeout"
                  and m["event"].get("seat") == seat)


def test_ctrl_c_stops_the_server_and_its_cpu_workers_without_a_traceback(tmp_path: Path) -> None:
    # Ctrl-C in the terminal signals the whole foreground group: the process pool's workers
    # (started by the first CPU turn) each printed a KeyboardInterrupt traceback.
    server = Server(tmp_path / "s.db", free_port(), "--cpu-delay", "0").start()
    try:
        ann = NetPlayer(server, "Ann")
        new_table(ann, {"first_dealer": 0})  # Ann sits first: the CPU after her bids first
        assert ann.request({"type": "start"})["type"] == "ack"
        ann.until(lambda m: m["type"] == "event" and " bids " in m["event"].get("text", ""))
        ann.close()
        assert server.proc is not None
        assert len(process_family(server.proc.pid)) > 1  # the workers are there
        ctrl_c(server.proc.pid)
        assert server.proc.wait(60) == 0, server.log()[-2000:]
        log = server.log()
        assert "Traceback" not in log and "KeyboardInterrupt" not in log, log[-3000:]
    finally:
        server.stop()


def test_a_database_user_without_rights_is_told_what_to_grant(postgres: PostgresServer) -> None:
    """A PostgreSQL role that may connect but not create tables (the database made without
    ``createdb -O``): --check-db said "the first start of spades serve creates them", then
    the start stopped on "permission denied for schema public; LINE 2: CREATE TABLE
    schema_version (; ^". Both now say what is wrong and what to grant, before a start."""
    import psycopg

    role = f"guest_{os.getpid()}"
    url = postgres.create_database("rights")
    with psycopg.connect(postgres.dsn("postgres"), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
    as_role = url.replace("spades@", f"{role}@")
    done = serve("--check-db", "--db", as_role)
    one_line_refusal(done, "holds no spades tables yet", "a start would fail",
                     "permission denied for schema public",
                     f"GRANT CREATE ON SCHEMA public TO {role}")
    done = serve("--port", "0", "--db", as_role)
    one_line_refusal(done, f"the database user {role} may not create the spades tables",
                     f"OWNER TO {role}", f"GRANT CREATE ON SCHEMA public TO {role}")
    assert "LINE" not in done.stderr and "CREATE TABLE" not in done.stderr, done.stderr
    from spades.store import Store

    Store.open(url).close()  # made by the database's owner: the role may not use them
    for args in (("--check-db",), ("--port", "0")):
        one_line_refusal(serve(*args, "--db", as_role), "permission denied for table",
                         "give --db the user that made them", f"OWNER TO {role}")
    with psycopg.connect(postgres.dsn(url.rpartition("/")[2]), autocommit=True) as conn:
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
    done = serve("--check-db", "--db", as_role)  # it may look, not write: not "0 tables"
    one_line_refusal(done, "a start would fail", f"{role} may not write to the tables")


def _advice(stderr: str) -> str:
    """The SQL of the last ``psql ... -c '...'`` or ``REASSIGN ...`` a refusal suggests."""
    if "-c '" in stderr:
        return stderr.rpartition("-c '")[2].partition("'")[0]
    return "REASSIGN OWNED BY " + stderr.rpartition("REASSIGN OWNED BY ")[2].partition(")")[0]


def test_tables_of_another_owner_are_given_to_the_user_as_the_refusal_says(
        postgres: PostgresServer) -> None:
    """Tables restored by the superuser ``postgres`` (docs/deploy.md, Backups): the refusal
    said to run ``REASSIGN OWNED BY THAT_USER TO spades``, which PostgreSQL refuses for the
    bootstrap superuser ("cannot reassign ownership of objects owned by role postgres
    because they are required by the database system"). It now gives the ``ALTER TABLE``s
    that work; for tables of an ordinary role, the ``REASSIGN OWNED BY`` with its name.
    Either, run as the refusal says, lets the user in."""
    import psycopg

    from spades.store import Store

    role, maker = f"player_{os.getpid()}", f"maker_{os.getpid()}"
    with psycopg.connect(postgres.dsn("postgres"), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"CREATE ROLE {maker} LOGIN")
    for owner in ("spades", maker):
        url = postgres.create_database("owned")
        name = url.rpartition("/")[2]
        with psycopg.connect(postgres.dsn(name), autocommit=True) as conn:
            conn.execute(f"GRANT CREATE ON SCHEMA public TO {maker}")
        Store.open(url.replace("spades@", f"{owner}@")).close()
        as_role = url.replace("spades@", f"{role}@")
        done = serve("--check-db", "--db", as_role)
        one_line_refusal(done, "may not use or change the spades tables",
                         f"give --db the user that made them ({owner})")
        sql = _advice(done.stderr)
        assert "THAT_USER" not in sql, done.stderr
        if owner == "spades":
            assert sql.startswith("ALTER TABLE") and f"OWNER TO {role}" in sql, done.stderr
            assert f"sudo -u spades psql -d {name} -c" in done.stderr, done.stderr
        else:
            assert sql == f"REASSIGN OWNED BY {maker} TO {role}", done.stderr
        with psycopg.connect(postgres.dsn(name), autocommit=True) as conn:
            conn.execute(sql)  # as the refusal says (as the superuser): it is not refused
        done = serve("--check-db", "--db", as_role)
        assert done.returncode == 0, done.stderr
        assert done.stderr.startswith("0 table(s) cannot be restored"), done.stderr


def test_a_database_url_of_no_known_kind_names_the_form_to_use() -> None:
    """``postgres://`` (as other programs write it) said only "Can't load plugin:
    sqlalchemy.dialects:postgres"."""
    for args in (("--check-db",), ("--port", "0")):
        done = serve(*args, "--db", "postgres://spades:secret@127.0.0.1:1/spades")
        one_line_refusal(done, "postgresql+psycopg://USER@HOST/DB")
        assert "secret" not in done.stderr


def test_a_sqlite_url_is_checked_like_a_path(tmp_path: Path) -> None:
    """``--check-db --db sqlite:///PATH`` made an empty file where there was none (docs:
    "a SQLite file that does not exist is reported, not created"), and a start in a folder
    that does not exist said only "unable to open database file"."""
    missing = tmp_path / "typo.sqlite3"
    one_line_refusal(serve("--check-db", "--db", f"sqlite:///{missing}"), "no database",
                     str(missing), "the first start of spades serve creates it")
    assert not missing.exists()
    nowhere = tmp_path / "nosuchdir" / "x.sqlite3"
    one_line_refusal(serve("--port", "0", "--db", f"sqlite:///{nowhere}"),
                     f"the folder {nowhere.parent} does not exist")
    one_line_refusal(serve("--check-db", "--db", str(nowhere)),
                     f"make its folder {nowhere.parent} first")
    assert not nowhere.parent.exists()


def test_an_empty_db_is_refused_not_taken_for_the_default() -> None:
    """``--db "$DB"`` with DB unset served the user's own default database silently."""
    done = serve("--port", "0", "--db", "")
    assert done.returncode == 2 and "argument --db: it is empty" in done.stderr, done.stderr


def test_a_database_outage_is_not_told_as_a_lost_link_to_redis(
        tmp_path: Path, redis_server: RedisServer) -> None:
    """With --redis, the round that looks for tables without a process every second reads
    the database: while the database did not answer, its failure was logged as "lost its
    link to Redis ..." and /api/health said "redis": false, though Redis answered."""
    own = PostgresServer()  # paused below: not the session's, which other tests use
    own.start()
    log = tmp_path / "stderr.log"
    port = free_port()
    try:
        url = own.create_database("outage")
        with open(log, "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", url,
                 "--bots", "inline", "--redis", redis_server.url,
                 "--redis-prefix", f"outage{os.getpid()}:"],
                stdout=subprocess.DEVNULL, stderr=err)
        try:
            health = f"http://127.0.0.1:{port}/api/health"

            def answers() -> bool:
                with contextlib.suppress(httpx.HTTPError):
                    return httpx.get(health, timeout=5).status_code == 200
                return False

            wait_until(answers, "the server to start", 60)
            own.pause()
            said = ("lost its link to Redis", "the database does not answer")
            wait_until(lambda: any(words in log.read_text() for words in said),
                       "the round looking for tables to fail", 30)
            assert "lost its link to Redis" not in log.read_text(), log.read_text()
            answer = httpx.get(health, timeout=10)
            assert answer.status_code == 503 and answer.json()["redis"] is True, answer.text
            wait_until(lambda: "health: the database is not answering" in log.read_text(),
                       "the health check's log line")
            for line in log.read_text().splitlines():  # each line one whole message
                assert line[:4].isdigit() or line.startswith("INFO"), log.read_text()
            own.resume()
            wait_until(lambda: "works again" in log.read_text(), "the database to be back", 30)
            assert httpx.get(health, timeout=10).json()["ok"] is True
        finally:
            proc.terminate()
            proc.wait(30)
    finally:
        own.stop()


def test_a_redis_user_without_the_rooms_keys_is_refused_in_one_line(
        tmp_path: Path, redis_server: RedisServer) -> None:
    """A Redis ACL user that may PING but not use the room's keys (or channels) passed the
    start's check, then stopped it with uvicorn's traceback (NoPermissionError), status 3,
    after the start line; and a database number that is not one (``/abc``) was taken for 0.
    Both are refused in one line before the database is opened, saying what to grant."""
    import redis

    user = f"narrow{os.getpid()}"
    prefix = f"rights{os.getpid()}:"
    with contextlib.closing(redis.Redis.from_url(redis_server.url)) as admin:
        admin.execute_command("ACL", "SETUSER", user, "on", ">pw", "~other:*", "&*", "+@all")
        try:
            db = tmp_path / "x.sqlite3"
            url = f"redis://{user}:pw@127.0.0.1:{redis_server.port}/0"
            done = serve("--port", "0", "--db", str(db), "--redis", url,
                         "--redis-prefix", prefix)
            one_line_refusal(done, f"does not let its user {user}", "no permissions",
                             f"ACL SETUSER {user} ~{prefix}* &{prefix}*")
            assert "pw@" not in done.stderr and not db.exists()
            assert not admin.keys(f"{prefix}*")  # the check leaves nothing behind
        finally:
            admin.execute_command("ACL", "DELUSER", user)
    done = serve("--port", "0", "--db", str(tmp_path / "y.sqlite3"), "--redis",
                 f"redis://127.0.0.1:{redis_server.port}/abc")
    one_line_refusal(done, "'abc' is not a database number")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_second_room_on_one_database_is_refused(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Two processes without --redis on one database (docs/deploy.md had both instances of
    the systemd unit enabled, with the SQLite --db of "one process"): each started, restored
    the same stored tables and ran a lobby of its own, and nginx sent a player's friends to
    the one without the player's table. A process without --redis now holds its database
    alone; one with --redis shares it with its room only."""
    if backend == "sqlite":
        db = str(tmp_path / "one.sqlite3")
    else:
        db = request.getfixturevalue("postgres").create_database("tworooms")
    redis_server: RedisServer = request.getfixturevalue("redis_server")
    room = ("--redis", redis_server.url, "--redis-prefix", f"two{free_port()}:")
    first = Server(db, free_port(), "--bots", "inline").start()
    try:
        one_line_refusal(serve("--port", "0", "--db", db, "--bots", "inline"),
                         "another spades serve serves this database", "without --redis")
        one_line_refusal(serve("--port", "0", "--db", db, "--bots", "inline", *room),
                         "without --redis, as a room of its own")
    finally:
        first.stop()
    a = Server(db, free_port(), "--bots", "inline", *room).start()
    try:  # a room: its processes share the database, a process alone may not
        b = Server(db, free_port(), "--bots", "inline", *room).start()
        b.stop()
        one_line_refusal(serve("--port", "0", "--db", db, "--bots", "inline"),
                         "processes with --redis serve this database", "as a room")
    finally:
        a.stop()
    again = Server(db, free_port(), "--bots", "inline").start()  # all gone: free again
    again.stop()


def _database(backend: str, tmp_path: Path, request: pytest.FixtureRequest, name: str) -> str:
    """A fresh database of ``backend``: a SQLite file, or one on the session's PostgreSQL."""
    if backend == "sqlite":
        return str(tmp_path / f"{name}.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database(name)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_second_room_with_another_redis_or_prefix_on_one_database_is_refused(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest,
        redis_server: RedisServer) -> None:
    """Processes with --redis share their database with their room, but a room of another
    --redis-prefix (or another Redis, or another database number of one) on the same
    database was let start (on SQLite still after PostgreSQL refused it): both rooms
    restored and ran the same stored tables, each with a lobby of its own. It is now refused
    in one line, while the processes of one room (its Redis however spelled) share the
    database, and once they have all stopped another room may serve it."""
    db = _database(backend, tmp_path, request, "otherprefix")
    prefix = f"first{free_port()}:"
    room = ("--redis", redis_server.url, "--redis-prefix", prefix)
    spelled = ("--redis", f"redis://localhost:{redis_server.port}", "--redis-prefix", prefix)
    other = ("--redis", redis_server.url, "--redis-prefix", f"second{free_port()}:")
    number = ("--redis", f"redis://127.0.0.1:{redis_server.port}/1", "--redis-prefix", prefix)
    a = Server(db, free_port(), "--bots", "inline", *room).start()
    try:
        b = Server(db, free_port(), "--bots", "inline", *spelled).start()  # one room
        try:
            for refused in (other, number):
                one_line_refusal(serve("--port", "0", "--db", db, "--bots", "inline",
                                       *refused),
                                 "another room", "serve this database", "--redis-prefix")
        finally:
            b.stop()
    finally:
        a.stop()
    again = Server(db, free_port(), "--bots", "inline", *other).start()  # all gone: free
    try:  # and now the first prefix is the other room
        one_line_refusal(serve("--port", "0", "--db", db, "--bots", "inline", *room),
                         "another room")
    finally:
        again.stop()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_room_whose_redis_lost_its_token_still_takes_new_processes(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest,
        redis_server: RedisServer) -> None:
    """The rooms on a database are told apart by a token each keeps in its Redis. A Redis
    restarted empty under a running room lost it: a new process of that room would have set
    another, and been refused as a second room. The room's processes set theirs again."""
    import redis

    db = _database(backend, tmp_path, request, "losttoken")
    prefix = f"lost{free_port()}:"
    room = ("--redis", redis_server.url, "--redis-prefix", prefix)
    a = Server(db, free_port(), "--bots", "inline", *room).start()
    try:
        with contextlib.closing(redis.Redis.from_url(redis_server.url)) as client:
            token = client.get(prefix + "room-token")
            assert token
            client.delete(prefix + "room-token")  # (as a Redis restarted empty)
            wait_until(lambda: client.get(prefix + "room-token") == token,
                       "the room's process to set its token again")
        b = Server(db, free_port(), "--bots", "inline", *room).start()
        b.stop()
    finally:
        a.stop()


def test_a_killed_rooms_leftovers_on_a_sqlite_file_do_not_block_another_room(
        tmp_path: Path, redis_server: RedisServer) -> None:
    """On SQLite each room holds a lock file of its own beside the database (in
    ``DB-rooms``), with ``flock``: a room killed with SIGKILL leaves its file, but no lock,
    and another room may start at once (the leftover is cleared); a room stopped cleanly
    takes its file away."""
    db = tmp_path / "killed.sqlite3"
    rooms = tmp_path / "killed.sqlite3-rooms"
    first = ("--redis", redis_server.url, "--redis-prefix", f"killed{free_port()}:")
    second = ("--redis", redis_server.url, "--redis-prefix", f"after{free_port()}:")
    a = Server(db, free_port(), "--bots", "inline", *first).start()
    try:
        one_line_refusal(serve("--port", "0", "--db", str(db), "--bots", "inline", *second),
                         "another room", "serve this database")
        left = sorted(rooms.iterdir())
        assert len(left) == 1, left
    finally:
        a.kill()
    b = Server(db, free_port(), "--bots", "inline", *second).start()
    try:
        now = sorted(rooms.iterdir())
        assert len(now) == 1 and now != left, (left, now)  # the killed room's file is gone
    finally:
        b.stop()
    assert not list(rooms.iterdir())  # stopped cleanly: its file is taken away


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_rooms_starting_at_once_on_one_database_are_not_both_let_in(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest,
        redis_server: RedisServer) -> None:
    """Two rooms started at the same moment on one database: looking for another room and
    taking this one's lock are one step, so one starts and the other is refused."""
    db = _database(backend, tmp_path, request, "atonce")
    Server(db, free_port(), "--bots", "inline").start().stop()  # made: both only hold it
    servers = [Server(db, free_port(), "--bots", "inline", "--redis", redis_server.url,
                      "--redis-prefix", f"once{n}{free_port()}:") for n in range(2)]
    logs = [tmp_path / f"once{n}.log" for n in range(2)]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for server, log in zip(servers, logs, strict=True):
            with open(log, "wb") as err:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "spades", "serve", "--port", str(server.port),
                     "--db", db, *server.extra], stdout=subprocess.DEVNULL, stderr=err))

        def answers(server: Server) -> bool:
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(server.url + "/api/health", timeout=2).status_code == 200
            return False

        def settled() -> bool:
            return all(proc.poll() is not None or answers(server)
                       for proc, server in zip(procs, servers, strict=True))

        wait_until(settled, "each room to start or be refused", 60, every=0.1)
        refused = [n for n, proc in enumerate(procs) if proc.poll() is not None]
        assert len(refused) == 1, [proc.poll() for proc in procs]
        assert procs[refused[0]].returncode == 2
        assert "another room" in logs[refused[0]].read_text(), logs[refused[0]].read_text()
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(30)


def test_the_server_keeps_what_it_made_before_serving_out_of_full_collections(
        tmp_path: Path) -> None:
    """``spades serve`` freezes (``gc.freeze``) what it has made when it starts serving:
    modules, the app, its schemas. Before, each full collection walked all of it, and an
    upload of a long record set off some six of 60-90 ms each in the serving process, the
    event loop stopped in each (14-37 ms now)."""
    program = (
        "import gc, sys, uvicorn\n"
        "def run(self, sockets=None):\n"
        "    print('frozen', gc.get_freeze_count(), flush=True)\n"
        "uvicorn.Server.run = run\n"
        "from spades.cli import main\n"
        f"main(['serve', '--db', {str(tmp_path / 's.db')!r}, '--port', '{free_port()}'])\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         timeout=120)
    frozen = [line for line in out.stdout.splitlines() if line.startswith("frozen ")]
    assert frozen, out.stdout + out.stderr
    assert int(frozen[0].split()[1]) > 10_000, frozen
