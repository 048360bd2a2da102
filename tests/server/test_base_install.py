"""`bash scripts/start` installs the base package only: the server must start and play
without the optional drivers of PostgreSQL (psycopg) and several processes (redis)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
sys.modules["redis"] = None      # as if not installed
sys.modules["psycopg"] = None
from starlette.testclient import TestClient
from spades.server.app import create_app
from spades.server.settings import Settings
with TestClient(create_app(Settings(db=":memory:", bot_executor="inline"))) as c:
    assert c.get("/api/health").json()["ok"]
    token = c.post("/api/guest", json={"name": "Ann"}).json()["token"]
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
from spades.cli import main
sys.exit(main(["serve", "--redis", "redis://127.0.0.1:1/0", "--port", "1"]))
"""


def test_the_server_runs_without_the_optional_drivers() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "--redis needs the redis package: install the cluster extra" in done.stderr
    assert "pip install '.[cluster]'" in done.stderr
