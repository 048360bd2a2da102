"""Capacity of each way of running the server: the most players it holds with the p99 of
action → broadcast under 100 ms and nothing lost or out of order.

Setups (all on this machine, loopback only; services are private instances started here):

* ``sqlite``    one ``spades serve`` on a SQLite file (the embedded default);
* ``pg-redis``  one process on PostgreSQL with ``--redis``;
* ``cluster2``, ``cluster3``  two or three processes on PostgreSQL + Redis behind nginx
  (round robin, no sticky sessions: a table's four clients land on different processes).

For each setup and each size in ``--players`` it starts everything afresh, runs the load of
``bench/server_load.py`` (four scripted clients a table, acting ``--think`` s after their
turn) and keeps the report; the curve goes to ``bench/results/server_capacity.json`` and a
table to ``bench/results/server_capacity.md``.

    python bench/server_capacity.py --setups sqlite,pg-redis,cluster2,cluster3 \\
        --players 200,400,600,800,1000 --duration 30

Bounded: at most 250 tables a run and 300 s of measurement a run, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import HOST, measure  # noqa: E402

from tests.server.netclient import Server, free_port  # noqa: E402
from tests.services import NginxServer, PostgresServer, RedisServer  # noqa: E402

#: The load comes from one address: lift the per-address limits for the measurement.
NO_LIMITS = ["--bots", "inline", "--cpu-delay", "0", "--http-rate", "0", "--conns-per-address",
             "0", "--tables-per-user", "0", "--limit", "tables_per_address=0", "--limit",
             "create_address_rate=0", "--limit", "create_rate=0", "--limit", "signup_rate=0",
             "--limit", "places_per_address=0"]

SITE = """
upstream spades {{
    {servers}
    keepalive 64;
}}
map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
server {{
    listen 127.0.0.1:{port};
    location / {{
        proxy_pass http://spades;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_read_timeout 120s;
    }}
}}
"""


@contextlib.contextmanager
def started(setup: str, pg: PostgresServer | None, redis: RedisServer | None
            ) -> Iterator[tuple[str, str]]:
    """Start ``setup``; yields the HTTP and WebSocket URLs the players use."""
    servers: list[Server] = []
    nginx: NginxServer | None = None
    try:
        if setup == "sqlite":
            db = str(Path(tempfile.mkdtemp(prefix="spades-cap-")) / "bench.sqlite3")
            servers.append(Server(db, free_port(), *NO_LIMITS).start())
        else:
            assert pg is not None and redis is not None
            db = pg.create_database("cap")
            n = 1 if setup == "pg-redis" else int(setup.removeprefix("cluster"))
            extra = [*NO_LIMITS, "--redis", redis.url, "--redis-prefix", f"cap{free_port()}:"]
            for _ in range(n):
                servers.append(Server(db, free_port(), *extra).start())
        if setup.startswith("cluster"):
            nginx = NginxServer("")
            lines = "\n    ".join(f"server 127.0.0.1:{s.port};" for s in servers)
            site = SITE.format(servers=lines, port=nginx.port)
            nginx.conf.write_text(nginx.conf.read_text().replace("\n\n}\n", f"\n{site}\n}}\n"))
            nginx.start()
            yield nginx.url, f"ws://{HOST}:{nginx.port}/ws"
        else:
            s = servers[0]
            yield s.url, s.ws_url
    finally:
        if nginx is not None:
            nginx.stop()
        for s in servers:
            s.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--setups", default="sqlite,pg-redis,cluster2,cluster3")
    p.add_argument("--players", default="200,400,600,800,1000",
                   help="sizes to try, in players (4 a table)")
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--think", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / "server_capacity.json"))
    p.add_argument("--append", action="store_true",
                   help="keep the runs already in --out (setups measured in separate runs)")
    args = p.parse_args(argv)
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    sizes = [int(x) for x in args.players.split(",")]
    pg = redis = None
    if any(s != "sqlite" for s in setups):
        pg = PostgresServer()
        pg.start()
        redis = RedisServer().start()
    runs: list[dict[str, Any]] = []
    try:
        for setup in setups:
            for players in sizes:
                args.tables = players // 4
                try:
                    with started(setup, pg, redis) as (url, ws_url):
                        assert httpx.get(url + "/api/health", timeout=10).status_code == 200
                        report = asyncio.run(measure(url, ws_url, args))
                except Exception as exc:  # a setup that breaks under the load: say so, go on
                    print(f"{setup:9} {players:5} players  failed: {exc!r}", flush=True)
                    runs.append({"setup": setup, "players": players, "failed": repr(exc)})
                    break
                report["setup"] = setup
                report["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
                runs.append(report)
                lat = report["latency_ms"]
                print(f"{setup:9} {report['players']:5} players  {report['actions_per_s']:7.1f} "
                      f"actions/s  p50 {lat['p50']:7.1f}  p99 {lat['p99']:7.1f} ms  "
                      f"lost {report['lost_or_out_of_order']}  errors {report['errors']}  "
                      f"load {report['loadavg_after'][0]}", flush=True)
                if lat["p99"] >= 100 or report["lost_or_out_of_order"]:
                    break  # past this setup's capacity: larger sizes only get worse
    finally:
        if redis is not None:
            redis.stop()
        if pg is not None:
            pg.stop()
    if args.append and Path(args.out).exists():
        runs = json.loads(Path(args.out).read_text())["runs"] + runs
    setups = list(dict.fromkeys(r["setup"] for r in runs))
    summary = {}
    for setup in setups:
        ok = [r["players"] for r in runs if r["setup"] == setup and "failed" not in r
              and r["latency_ms"]["p99"] < 100
              and r["lost_or_out_of_order"] == 0 and r["errors"] == 0]
        summary[setup] = max(ok) if ok else 0
    out = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(),
           "think_s": args.think, "duration_s": args.duration, "capacity_players": summary,
           "runs": runs}
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    lines = ["| setup | players | actions/s | p50 ms | p99 ms | max ms | lost | errors | load avg |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        if "failed" in r:
            lines.append(f"| {r['setup']} | {r['players']} | failed: {r['failed'][:80]} |"
                         " | | | | | |")
            continue
        lat = r["latency_ms"]
        lines.append(f"| {r['setup']} | {r['players']} | {r['actions_per_s']} | {lat['p50']} | "
                     f"{lat['p99']} | {lat['max']} | {r['lost_or_out_of_order']} | "
                     f"{r['errors']} | {r['loadavg_before'][0]} → {r['loadavg_after'][0]} |")
    lines.append("")
    lines.append("Capacity (most players with p99 < 100 ms, nothing lost): " + ", ".join(
        f"{k} {v}" for k, v in summary.items()))
    Path(args.out).with_suffix(".md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
