"""Load test: many tables of four scripted clients playing through a real ``spades serve``.

Starts the server on 127.0.0.1 (a fresh database in a temporary folder), opens
``--tables`` tables of four WebSocket clients each, and lets them play for ``--duration``
seconds: each client acts ``--think`` seconds after its turn comes. It measures, at every
client, the time from an action being sent to the broadcast of its result arriving
(``event`` frame), checks that each client's event numbers go up by exactly one (nothing
lost or out of order), and prints and saves a JSON report under bench/results/.

    python bench/server_load.py --tables 100 --duration 60

Bounded: at most 250 tables and 300 seconds, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
MAX_TABLES = 250
MAX_SECONDS = 300


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.acks: list[float] = []
        self.actions = 0
        self.events = 0
        self.gaps = 0
        self.errors: list[str] = []
        self.measuring = False


class Client:
    def __init__(self, ws_url: str, token: str, stats: Stats, think: float, rng: random.Random,
                 sent: dict[int, float]) -> None:
        self.ws_url, self.token, self.stats, self.think, self.rng = ws_url, token, stats, think, rng
        self.sent = sent  # per table: seat -> time its action was sent
        self.ws: ClientConnection | None = None
        self.seq: int | None = None
        self.seat: int | None = None
        self.table_id: str | None = None
        self.acting = False
        self.ref = 0
        self.pending: dict[str, float] = {}

    async def open(self) -> None:
        self.ws = await connect(self.ws_url, max_size=2 ** 20,
                                open_timeout=30, ping_interval=None)
        await self.send({"type": "hello", "token": self.token})
        await self.wait_for("welcome")

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(msg))

    async def wait_for(self, kind: str) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            m: dict[str, Any] = json.loads(await self.ws.recv())
            self.track(m)
            if m["type"] == kind:
                return m
            if m["type"] == "error":
                raise RuntimeError(m["message"])

    def track(self, m: dict[str, Any]) -> None:
        t = m["type"]
        if t == "table":
            self.seq = m["seq"]
            self.seat = m["you"]["seat"]
            self.table_id = m["table"]["id"]
        elif t in ("event", "chat"):
            if self.seq is not None and m["seq"] != self.seq + 1:
                self.stats.gaps += 1
            self.seq = m["seq"]
            if t == "event" and m.get("you"):
                self.seat = m["you"]["seat"]

    async def run(self, stop: asyncio.Event) -> None:
        assert self.ws is not None
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(self.ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            now = time.perf_counter()
            m = json.loads(raw)
            self.track(m)
            t = m["type"]
            if t == "ack":
                t0 = self.pending.pop(str(m.get("ref")), None)
                if t0 is not None and self.stats.measuring:
                    self.stats.acks.append(now - t0)
                continue
            if t == "error":
                self.stats.errors.append(m["message"])
                self.acting = False
                continue
            if t != "event":
                continue
            ev = m["event"]
            if self.stats.measuring:
                self.stats.events += 1
            if ev["kind"] in ("bid", "play", "look", "timeout") and ev["seat"] is not None:
                t0 = self.sent.get(ev["seat"])
                if t0 is not None and self.stats.measuring:
                    self.stats.latencies.append(now - t0)
                if ev["seat"] == self.seat:
                    self.acting = False
            view = m.get("view")
            if (view and self.seat is not None and view["current_player"] == self.seat
                    and view["legal_actions"] and not self.acting):
                self.acting = True
                asyncio.get_running_loop().create_task(self.act(view["legal_actions"]))

    async def act(self, legal: list[str]) -> None:
        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        self.ref += 1
        ref = f"a{self.ref}"
        now = time.perf_counter()
        self.pending[ref] = now
        assert self.seat is not None
        self.sent[self.seat] = now
        if self.stats.measuring:
            self.stats.actions += 1
        with contextlib.suppress(ConnectionClosed):
            await self.send({"type": "act", "action": self.rng.choice(legal), "ref": ref})


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def serving(cmd: list[str], url: str) -> AsyncIterator[None]:
    """The server ``cmd`` running for the block, once ``url`` answers its health check (or
    after 30 s); stopped with SIGTERM (then SIGKILL) when the block ends."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        yield
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def write_report(report: dict[str, Any], name: str, out: str | None) -> None:
    """Print the JSON report and write it to ``out`` (default bench/results/``name``)."""
    print(json.dumps(report, indent=2))
    path = Path(out or Path(__file__).parent / "results" / name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n")


async def setup_table(ws_url: str, url: str, stats: Stats, think: float, rng: random.Random,
                      k: int) -> list[Client]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        tokens = [(await http.post("/api/guest", json={"name": f"P{k}x{i}"})).json()["token"]
                  for i in range(4)]
    sent: dict[int, float] = {}
    clients = [Client(ws_url, t, stats, think, random.Random(rng.random()), sent)
               for t in tokens]
    for c in clients:
        await c.open()
    owner = clients[0]
    await owner.send({"type": "create", "options": {"profile": "cardems", "target": 10000,
                                                    "cpu": "random", "private": True}})
    snap = await owner.wait_for("table")
    for c in clients[1:]:
        await c.send({"type": "join", "invite": snap["table"]["invite"]})
        await c.wait_for("table")
    return clients


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    port = args.connect or args.port or free_port()
    url = f"http://{HOST}:{port}"
    tmp = tempfile.mkdtemp(prefix="spades-bench-")
    db = Path(tmp) / "bench.sqlite3"
    cmd = [sys.executable, "-m", "spades", "serve", "--host", HOST, "--port", str(port),
           "--db", str(db), "--bots", "inline", "--cpu-delay", "0",
           # every client comes from 127.0.0.1: no per-address rate or connection cap
           "--http-rate", "0", "--conns-per-address", "0", "--limit", "tables_per_address=0",
           "--limit", "create_address_rate=0", "--limit", "signup_rate=0",
           "--limit", "places_per_address=0"]
    if args.connect:  # a server already running on 127.0.0.1 (e.g. under a profiler)
        cmd = [sys.executable, "-c", "import time; time.sleep(1e6)"]
    async with serving(cmd, url):
        return await measure(url, f"ws://{HOST}:{port}/ws", args)


async def measure(url: str, ws_url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Play ``args.tables`` tables through the server at ``url``/``ws_url``; the report."""
    load_before = [round(x, 2) for x in os.getloadavg()]
    tables = min(args.tables, MAX_TABLES)
    duration = min(args.duration, MAX_SECONDS)
    stats = Stats()
    rng = random.Random(args.seed)
    groups: list[list[Client]] = []
    for k in range(0, tables, 10):
        groups += await asyncio.gather(*(setup_table(ws_url, url, stats, args.think, rng, j)
                                         for j in range(k, min(tables, k + 10))))
    clients = [c for g in groups for c in g]
    stop = asyncio.Event()
    runners = [asyncio.create_task(c.run(stop)) for c in clients]
    for g in groups:
        await g[0].send({"type": "start"})
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(duration)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    stop.set()
    await asyncio.gather(*runners, return_exceptions=True)
    for c in clients:
        if c.ws is not None:
            await c.ws.close()
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else 0.0

    return {
        "tables": tables, "players": 4 * tables, "duration_s": round(elapsed, 1),
        "think_s": args.think, "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "broadcasts_measured": len(lat), "events_received": stats.events,
        "latency_ms": {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99),
                       "max": round(1000 * lat[-1], 2) if lat else 0.0,
                       "mean": round(1000 * statistics.fmean(lat), 2) if lat else 0.0},
        "ack_p99_ms": round(1000 * sorted(stats.acks)[int(0.99 * len(stats.acks))], 2)
        if stats.acks else 0.0,
        "lost_or_out_of_order": stats.gaps, "errors": len(stats.errors),
        "error_samples": stats.errors[:5], "cpus": os.cpu_count(),
        "loadavg_before": load_before, "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "note": "the load averages include other jobs on this shared machine",
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--duration", type=float, default=60.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--think", type=float, default=0.5,
                   help="mean seconds a client waits before acting (0.5)")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--connect", type=int, default=0, metavar="PORT",
                   help="use a server already listening on 127.0.0.1:PORT")
    p.add_argument("--out", default=None, help="JSON report (default bench/results/...)")
    args = p.parse_args(argv)
    report = asyncio.run(main_async(args))
    write_report(report, f"server_load_{report['players']}p.json", args.out)
    return 0 if report["lost_or_out_of_order"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
