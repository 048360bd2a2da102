from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from spades.server.app import create_app
from spades.server.settings import Settings
from tests.server.helpers import close_all, in_process, limited


@pytest.fixture
def settings(database: str, tmp_path: Path) -> Settings:
    """Every in-process server test runs once on SQLite and once on PostgreSQL. Its clients
    act as fast as the server answers, so the message rate per connection is off (a whole
    match between two test clients went over 20 a second on a fast machine, or in bursts on
    a busy one); the tests of that rate set it themselves (test_fuzz, test_attack_limits).
    So is the rate of ``resync`` and ``sheet`` (tests ask for a snapshot after a step;
    test_attack_round5 sets it)."""
    return Settings(db=database, bot_executor="inline", cpu_delay=0.0, rate_per_second=0.0,
                    move_address_rate=0.0,
                    snapshot_rate=0.0, snapshot_address_rate=0.0,
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


@pytest.fixture
def make(tmp_path: Path, database: str) -> Iterator[Callable[..., TestClient]]:
    """Start the app on this test's database (SQLite, then PostgreSQL) with some limits
    (:func:`tests.server.helpers.limited`)."""
    opened: list[TestClient] = []

    def start(**limits: Any) -> TestClient:
        c = TestClient(create_app(limited(tmp_path, database, **limits)))
        c.__enter__()
        opened.append(c)
        return c

    yield start
    close_all()
    for c in opened:
        with contextlib.suppress(Exception):  # a test may have stopped it already
            c.__exit__(None, None, None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test behind nginx (test_deploy's ``front``) reports what nginx and the
    server processes logged, read before they are stopped and their folders removed."""
    report = yield
    if report.when == "call" and report.failed:
        front = getattr(item, "funcargs", {}).get("front")
        if front is not None and hasattr(front, "logs"):
            for name, text in front.logs():
                report.sections.append((f"Captured {name}", text))
    return report

