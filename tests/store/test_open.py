"""Opening a store: SQLite paths and SQLAlchemy URLs, and clear errors for wrong ones."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys

import pytest

from spades.engine import profile
from spades.store import Store, StoreError
from tests.services import PostgresServer, free_port


def test_a_store_keeps_games_users_and_events_on_each_backend(database: str) -> None:
    store = Store.open(database)
    try:
        gid = store.create_game("terminal", profile("cardems"), seats=[{"name": "Ann"}] * 4)
        store.append_many(gid, [("deal", [1, 2, 3, 4], None), ("act", 7, 1)])
        uid = store.create_user("Zoë")
        assert store.account("ZOË") is not None and store.user(uid) is not None
        assert [e.seq for e in store.events(gid)] == [1, 2]
        assert store.find_game(gid[:8]).id == gid
    finally:
        store.close()


def test_a_game_id_prefix_is_found_regardless_of_case_on_each_backend(database: str) -> None:
    # SQLite's LIKE ignores case, PostgreSQL's does not: spades show 2333CCC0 found the game
    # on the one and said "no game with id" on the other.
    store = Store.open(database)
    try:
        gid = store.create_game("terminal", profile("cardems"), seats=[{"name": "Ann"}] * 4)
        for typed in (gid[:8].upper(), gid[:8], gid.upper(), gid[:8].swapcase()):
            assert store.find_game(typed).id == gid, typed
        with pytest.raises(StoreError, match="no game with id"):
            store.find_game("zz" + gid[:6])
    finally:
        store.close()


def test_a_url_whose_driver_is_missing_says_so() -> None:
    with pytest.raises(StoreError, match=r"No module named 'nosuchdriver'|Can't load plugin"):
        Store.open("postgresql+nosuchdriver://u@127.0.0.1/db")


def test_a_url_that_cannot_be_used_is_a_store_error_without_the_password() -> None:
    # docs/server.md: "a password in the URL is not printed"; a port that is not a number
    # raised a bare ValueError (a traceback from spades serve, status 1)
    for url in ("postgresql+nosuchdriver://ann:secret@127.0.0.1/db",
                "postgresql+psycopg://ann:secret@127.0.0.1:notaport/db"):
        with pytest.raises(StoreError, match="cannot use the database URL") as info:
            Store.open(url)
        assert "secret" not in str(info.value), str(info.value)
        assert "ann:***@127.0.0.1" in str(info.value), str(info.value)


def test_an_unreachable_database_is_a_store_error_naming_it_without_the_password() -> None:
    url = f"postgresql+psycopg://ann:secret@127.0.0.1:{free_port()}/spades"
    with pytest.raises(StoreError, match="cannot open the database") as info:
        Store.open(url)
    assert "secret" not in str(info.value)
    # one line (docs/server.md): psycopg's reason spans two, "Is the server running ...?"
    assert "\n" not in str(info.value), str(info.value)


def test_spades_serve_refuses_an_unreachable_database_in_one_line() -> None:
    url = f"postgresql+psycopg://spades@127.0.0.1:{free_port()}/nowhere"
    done = subprocess.run([sys.executable, "-m", "spades", "serve", "--db", url, "--port",
                           str(free_port())], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("spades serve: cannot open the database")
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_processes_starting_together_migrate_one_at_a_time(postgres: PostgresServer) -> None:
    url = postgres.create_database("together")
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _i: Store.open(url), range(4)))
    try:
        assert stores[0].create_user("Ann") > 0
    finally:
        for s in stores:
            s.close()


def test_the_scores_so_far_of_an_unfinished_game_on_each_backend(database: str) -> None:
    """The history's scores of an unfinished match (not stored until it ends): replayed."""
    import json
    from pathlib import Path

    from spades.engine import replay

    example = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
    record = json.loads(example.read_text(encoding="utf-8"))
    done = replay(dict(record, hands=record["hands"][:2]))
    record["hands"] = [*record["hands"][:2], dict(record["hands"][2], plays=[])]
    match = replay(record)
    store = Store.open(database)
    try:
        gid = store.save_record(match, seats=[{"name": "Ann"}] * 4)
        fresh = store.create_game("terminal", profile("cardems"), seats=[{"name": "Ann"}] * 4)
        games = [store.game(gid), store.game(fresh)]
        assert store.scores_so_far(games) == {gid: (2, list(done.scores)), fresh: (0, [0, 0])}
    finally:
        store.close()
