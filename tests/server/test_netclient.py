"""The harness that runs ``spades serve`` in a subprocess for the tests."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.server.netclient import Server, free_port


def test_a_server_that_has_logged_much_keeps_answering(tmp_path: Path) -> None:
    """The server's output went to a pipe nobody read: once 64 KiB were logged, its next
    line blocked it, and every later request of the test hung (a CI run stopped at its
    time limit). It goes to a file now."""
    server = Server(tmp_path / "spades.sqlite3", free_port(), "--bots", "inline",
                    "--limit", "http_rate=0").start()
    try:
        for i in range(300):  # each refused origin is logged once: about 90 KiB in all
            with pytest.raises(InvalidStatus):
                connect(server.ws_url, origin=f"https://page-{i}.example",  # type: ignore[arg-type]
                        open_timeout=10)
        assert httpx.get(server.url + "/api/health", timeout=10).status_code == 200
        log = server.log()
        assert len(log) > 64 * 1024 and "page-299.example" in log
    finally:
        server.stop()
