"""Fixtures shared by every test folder: real services started privately for the session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

import pytest

from tests.services import PostgresServer, RedisServer, ServiceMissing


class _Service(Protocol):
    def start(self) -> object: ...
    def stop(self) -> None: ...


S = TypeVar("S", bound=_Service)


def _running(make: Callable[[], S]) -> Iterator[S]:
    try:
        server = make()
    except ServiceMissing as exc:
        pytest.fail(f"{exc}: run the suite with `bash scripts/test`")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A private PostgreSQL server for this test session (started on first use)."""
    yield from _running(PostgresServer)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh database for one test, once on each backend: a SQLite file path or a
    PostgreSQL URL (both forms that ``Store.open`` and ``spades serve --db`` take)."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("db") / "test.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A private Redis for this test session (started on first use)."""
    yield from _running(RedisServer)
