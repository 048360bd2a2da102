from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from spades.server.settings import Settings
from tests.server.helpers import in_process


@pytest.fixture
def settings(database: str, tmp_path: Path) -> Settings:
    """Every in-process server test runs once on SQLite and once on PostgreSQL."""
    return Settings(db=database, bot_executor="inline", cpu_delay=0.0,
                    web_static=str(tmp_path / "noweb"))


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with in_process(settings) as c:
        yield c
