from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from spades.server.app import create_app
from spades.server.settings import Settings
from tests.server.helpers import close_all, in_process


@pytest.fixture
def settings(database: str, tmp_path: Path) -> Settings:
    """Every in-process server test runs once on SQLite and once on PostgreSQL."""
    return Settings(db=database, bot_executor="inline", cpu_delay=0.0,
                    web_static=str(tmp_path / "noweb"))


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with in_process(settings) as c:
        yield c


@pytest.fixture
def restart(settings: Settings) -> Iterator[Any]:
    """``restart()`` opens the app again on the same database (the previous one closed)."""
    opened: list[Any] = []

    def again() -> TestClient:
        close_all()
        while opened:
            opened.pop().__exit__(None, None, None)
        c = TestClient(create_app(settings))
        c.__enter__()
        opened.append(c)
        return c

    yield again
    close_all()
    while opened:
        opened.pop().__exit__(None, None, None)
