"""What ``GET /api/users/{id}/history`` costs for a user with 200 finished matches.

Starts the app in process (Starlette's test client, a fresh SQLite database, no HTTP
rate), stores 200 finished matches of one guest directly, then asks for the guest's
history ``--requests`` times in a row, ``--runs`` times, as the guest, as another guest
and unsigned. Reports the median of the runs' mean time per request, the answer's size,
and how many times the store's history query (``list_games``) ran.

    PYTHONPATH=. SPADES_PURE=1 python3 bench/history_cost.py --requests 50 --runs 5

Bounded: 200 matches and a few hundred requests, loopback only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from spades.engine import profile
from spades.server.app import create_app
from spades.server.settings import Settings

GAMES = 200


def _guest(client: TestClient, name: str) -> tuple[int, dict[str, str]]:
    r = client.post("/api/guest", json={"name": name})
    r.raise_for_status()
    auth = {"Authorization": f"Bearer {r.json()['token']}"}
    return int(client.get("/api/me", headers=auth).json()["id"]), auth


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=50, help="requests a run (default 50)")
    ap.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    args = ap.parse_args(argv)
    if not (1 <= args.requests <= 500 and 1 <= args.runs <= 20):
        ap.error("--requests: 1 to 500, --runs: 1 to 20")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(db=str(Path(tmp) / "h.sqlite3"), bot_executor="inline",
                            cpu_delay=0.0, http_rate=0.0, web_static=str(Path(tmp) / "noweb"))
        with TestClient(create_app(settings)) as client:
            hub: Any = client.app.state.hub  # type: ignore[attr-defined]
            me, mine = _guest(client, "Bencher")
            _, other = _guest(client, "Onlooker")
            rules = profile("cardems")
            for i in range(GAMES):
                seats = [{"user_id": me, "name": "Bencher"}] + [
                    {"cpu": "beginner", "name": f"CPU {k}"} for k in range(1, 4)]
                gid = hub.store.create_game("table", rules, seats=seats, options={
                    "table": {"private": i % 10 == 0}, "owner": me}, status="waiting")
                hub.store.update_game(gid, status="finished",
                                      result={"scores": [500 + i, 120], "winner": 0,
                                              "hands": []})
            calls = 0
            in_store = 0.0  # seconds in the store's calls (on the database thread)
            def timed(real: Any, counts: bool) -> Any:
                def call(*a: Any, **k: Any) -> Any:
                    nonlocal calls, in_store
                    calls += counts
                    t0 = time.perf_counter()
                    try:
                        return real(*a, **k)
                    finally:
                        in_store += time.perf_counter() - t0
                return call

            for name in ("list_games", "game_marks", "user", "session_user", "user_stats"):
                real = getattr(hub.store, name, None)
                if real is not None:
                    setattr(hub.store, name, timed(real, name == "list_games"))

            asked = [(f"history, {who}", f"/api/users/{me}/history", headers)
                     for who, headers in (("owner", mine), ("other", other),
                                          ("unsigned", {}))]
            asked.append(("stats (a floor)", f"/api/users/{me}/stats", {}))
            for what, path, headers in asked:
                walls, cpus, dbs = [], [], []
                size = 0
                calls = 0
                for _ in range(args.runs):
                    in_store = 0.0
                    t0, c0 = time.perf_counter(), time.process_time()
                    for _ in range(args.requests):
                        r = client.get(path, headers=headers)
                        assert r.status_code == 200, r.text
                        size = len(r.content)
                    walls.append((time.perf_counter() - t0) / args.requests)
                    cpus.append((time.process_time() - c0) / args.requests)
                    dbs.append(in_store / args.requests)
                print(f"{what:18s}: {statistics.median(walls) * 1000:6.2f} ms a request, "
                      f"{statistics.median(cpus) * 1000:6.2f} ms CPU, "
                      f"{statistics.median(dbs) * 1000:6.2f} ms in the store; "
                      f"{size / 1000:.1f} KB; history query run {calls} times")
            print(f"(medians of {args.runs} runs of {args.requests} requests)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
