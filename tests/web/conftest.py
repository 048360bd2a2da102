"""Browser tests of the page served by ``spades serve`` (issue 6).

A real server runs as a subprocess on a free 127.0.0.1 port with a temporary database; the
page is driven by Playwright in Debian's chromium. Without /usr/bin/chromium the tests are
skipped with that reason (``scripts/test`` installs it).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.services import free_port

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "web"
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = pytest.mark.browser


def start_serve(port: int, db: str, log: Any, extra: tuple[str, ...] = ()
                ) -> subprocess.Popen[bytes]:
    """``spades serve`` on ``port`` with database ``db`` (fast CPU players), its output to
    ``log``, once its health check answers. ``extra``: more options."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", db,
         "--cpu-delay", "0.05", "--log-level", "warning",
         # one server for the whole session, every page from 127.0.0.1: the per-address
         # limits on what a crowd of guests makes would count all the tests together
         *(arg for name in ("signup_rate", "create_address_rate", "tables_per_address",
                            "join_miss_rate", "chat_address_rate", "change_address_rate",
                            "replay_rate", "upload_address_rate", "review_uploads_per_address",
                            "hint_address_rate", "join_address_rate", "login_address_rate",
                            "snapshot_address_rate", "places_per_address",
                            "uploads_at_once_per_address")
           for arg in ("--limit", f"{name}=0")), *extra],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    return served(proc, port, log)


def served(proc: subprocess.Popen[bytes], port: int, log: Any) -> subprocess.Popen[bytes]:
    """``proc``, a ``spades serve`` on ``port``, once its health check answers (within 30 s,
    else it is killed and the error names its ``log``)."""
    deadline = time.time() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
                if json.load(r).get("ok"):
                    return proc
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise RuntimeError("spades serve did not start; see " + str(getattr(log, "name", log)))
        time.sleep(0.1)


@contextlib.contextmanager
def serving(folder: Path, *extra: str) -> Iterator[str]:
    """A ``spades serve`` of a test's own, its database and log in ``folder``, with more
    options ``extra`` (``"--limit", "idle_seconds=2"``): its address, stopped after."""
    port = free_port()
    with open(folder / "serve.log", "w") as log:
        proc = start_serve(port, str(folder / "spades.sqlite3"), log, extra)
        try:
            yield f"http://127.0.0.1:{port}/"
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a running ``spades serve`` (fast CPU players)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (scripts/test installs Debian's chromium)")
    db = tmp_path_factory.mktemp("web") / "spades.sqlite3"
    port = free_port()
    log = open(tmp_path_factory.mktemp("weblog") / "serve.log", "w")  # noqa: SIM115
    url = f"http://127.0.0.1:{port}/"
    proc = start_serve(port, str(db), log)
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="package")
def browser(server: str) -> Iterator[Any]:
    """One chromium for the browser tests. Package-scoped, not session-scoped: Playwright's
    sync API keeps an event loop running in the main thread while it is open, so tests run
    after these in the same session (``pytest tests/web tests/server``) could not call
    ``asyncio.run``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync",
            "--autoplay-policy=no-user-gesture-required"])
        yield b
        b.close()


# no pause between announcements; the hand's summary goes after a second (tests that look at
# it choose 0: it stays until it is put away)
FAST = json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 1})


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Any]:
    """``new_page(viewport=..., settings=...)`` → a page at the home page of the server."""
    contexts = []

    def make(viewport: dict[str, int] | None = None, settings: str = FAST,
             reduced_motion: str = "reduce", device_scale_factor: float = 1,
             has_touch: bool = False) -> Any:
        # bypass_csp: wait_for_function evaluates strings, which the page's policy forbids
        # (tests/web/test_csp.py checks the page under the policy).
        ctx = browser.new_context(viewport=viewport or {"width": 1366, "height": 900},
                                  bypass_csp=True, reduced_motion=reduced_motion,
                                  device_scale_factor=device_scale_factor,
                                  has_touch=has_touch)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.add_init_script(
            f"if (!localStorage.getItem('spades.settings')) "
            f"localStorage.setItem('spades.settings', {json.dumps(settings)});")
        page.goto(server)
        page.wait_for_selector("#quick-name")
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("axe-core is not installed and npm is missing (cd tests/web && npm install)")
        # every pytest-xdist worker may get here at once on a fresh clone: one installs, the
        # others wait for it (two npm installs into one folder break each other)
        AXE.parents[1].mkdir(exist_ok=True)
        with open(AXE.parents[1] / ".spades-install.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not AXE.exists():
                subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=AXE.parents[2],
                               check=True, capture_output=True, timeout=300)
    return AXE.read_text()


os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
