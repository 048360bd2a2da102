"""Benchmark: how long uploading a long record to continue it (``POST /api/records``,
``"mode": "continue"``) holds back the server's other users (hostile-guest trial).

Builds once a record of a cardems match going on, ``--hands`` hands scored (1,600: about
930 KB of JSON, as tests/server/test_long_match_cost.py's ``long_unfinished`` makes it),
then, for each run, starts a real ``spades serve`` (127.0.0.1, a fresh SQLite file in a
temporary folder, the default bot executor; only the limits that would refuse the uploads,
or the bystander's probes, relaxed) and measures:

* a bystander from 127.0.0.2, a signed-in guest: every ``--interval`` seconds (0.02) a
  WebSocket ping on its connection (the event loop) and a ``GET /api/health`` (the event
  loop and the database thread every table's moves are stored on, a ``SELECT 1`` there),
  each sent on its own schedule whether or not the last one has come back (up to
  ``HEALTH_CONNECTIONS`` health checks at once), so that a stall counts once for every
  probe it holds up;
* an uploader from 127.0.0.3, a guest that uploads the record ``--uploads`` times (3), one
  after another, each to continue the match at a table of its own (random CPUs);

and reports the bystander's round trips (p50, p99, max) while idle (``--idle`` seconds
before the uploads), during the uploads (first sent to last answered) and just after
(``--after`` seconds, the continued tables playing), and each upload's wall time, as JSON
on stdout (and in ``--out``), with a short summary on stderr.

    PYTHONPATH=. python3 bench/upload_stall.py --runs 3

``--python-path DIR`` runs the server from another checkout (``PYTHONPATH=DIR``; the record
is built by this one); given several times, each run goes through the trees in turn, with
the same record, so the load of the machine falls on all of them alike. An old tree
against this one:

    git worktree add /tmp/spades-old 305d3a4
    PYTHONPATH=. python3 bench/upload_stall.py --runs 3 \\
        --python-path /tmp/spades-old --python-path .

A worktree has no compiled engine: copy this checkout's (``find spades -name '*.so' -exec cp
--parents {} /tmp/spades-old/ \\;`` and the ``*__mypyc*.so`` at the top) when the engine's
modules are the same, or the old tree runs on the pure-Python engine.

About a minute a run on a 2-core machine; loopback only, every wait bounded, the server
always stopped (Ctrl-C too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from spades.engine import Match, profile, to_record
from spades.server.cpu import bot_act
from spades.server.limits import RECORD_COST_BYTES
from spades.server.settings import Settings

HOST = "127.0.0.1"
BYSTANDER = "127.0.0.2"
UPLOADER = "127.0.0.3"
ROOT = Path(__file__).resolve().parent.parent
#: Seconds a probe may wait for its answer (then it counts as lost).
PROBE_TIMEOUT = 10.0
#: Health checks the bystander may have under way at once, each on a connection of its own:
#: at 50 a second, a 2 s stall of the database thread. One more waits for a connection and
#: reaches the server after the stall, maybe behind the next upload's work (over the
#: ``conns_per_address`` default, 64: the server is let take them).
HEALTH_CONNECTIONS = 100
#: Seconds one upload may take.
UPLOAD_TIMEOUT = 180.0
#: Seconds the server may take to start answering /api/health.
START_TIMEOUT = 60.0
#: Most ``--uploads``, ``--runs`` and seconds of ``--idle`` / ``--after``.
MAX_UPLOADS = 20
MAX_RUNS = 10
MAX_SECONDS = 60.0


def long_unfinished(hands: int) -> dict[str, Any]:
    """A record of a match going on, ``hands`` hands scored (its next not begun): as
    tests/server/test_long_match_cost.py makes it."""
    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(8))
    while len(m.results) < hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player, past=False)))
    return to_record(m)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def relaxed_limits(uploads: int, cost: int, body: int) -> list[str]:
    """The server options that let one guest from one address upload ``uploads`` records of
    ``cost`` (in the create and upload rates: one per 100 KB begun) and ``body`` bytes one
    after another, and the bystander probe the server: only the limits that would refuse
    them are changed."""
    s = Settings()
    total = uploads * cost
    out = ["--http-rate", "1000"]  # the bystander's probes: 2 / --interval a second
    if s.conns_per_address < HEALTH_CONNECTIONS + 1:  # (its WebSocket too)
        out += ["--conns-per-address", str(HEALTH_CONNECTIONS + 8)]
    if body > s.max_record_bytes + 4096:
        out += ["--limit", f"max_record_bytes={body}"]
    if total > s.upload_address_burst:
        out += ["--limit", "upload_address_rate=0"]
    if total > s.create_burst:
        out += ["--limit", "create_rate=0"]
    if total > s.create_address_burst:
        out += ["--limit", "create_address_rate=0"]
    if uploads > s.uploads_per_user:
        out += ["--uploads-per-user", "0"]
    if uploads > s.tables_per_user:  # (each continued table holds the uploader's place)
        out += ["--tables-per-user", "0"]
    if uploads > s.tables_per_address:
        out += ["--limit", "tables_per_address=0"]
    if total > s.review_uploads_per_address:
        out += ["--limit", "review_uploads_per_address=0"]
    return out


class Server:
    """``spades serve`` in a subprocess on 127.0.0.1 (as tests/server/netclient.py's
    ``Server``), run from the checkout ``tree``; a context manager that stops it."""

    def __init__(self, tree: Path, db: Path, port: int, *extra: str) -> None:
        self.tree, self.db, self.port, self.extra = tree, db, port, extra
        self.proc: subprocess.Popen[bytes] | None = None
        # The output goes to a file, never to a pipe nobody reads (64 KiB, then it blocks).
        self.log_file = tempfile.TemporaryFile("a+b")  # noqa: SIM115 (closed in stop)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    def log(self) -> str:
        """What the server printed so far (its stdout and stderr)."""
        self.log_file.seek(0)
        return self.log_file.read().decode(errors="replace")

    def __enter__(self) -> Server:
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(self.tree))
        # A session of its own: Ctrl-C reaches this process alone, which stops the server
        # (and its bot workers with it) in order.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "spades", "serve", "--host", HOST, "--port",
             str(self.port), "--db", str(self.db), *self.extra],
            env=env, cwd=self.tree, stdout=self.log_file, stderr=subprocess.STDOUT,
            start_new_session=True)
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while time.monotonic() < deadline and self.proc.poll() is None:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                        return self
                time.sleep(0.1)
            raise RuntimeError("the server did not start: " + self.log()[-3000:])
        except BaseException:
            self.stop()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def stop(self) -> None:
        """SIGTERM, then (after 15 s) SIGKILL to the server's process group."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        if proc is not None:  # its bot workers, should any outlive it
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        self.log_file.close()


@dataclass
class Probe:
    """One kind of round trip: (seconds since the bystander began, milliseconds or None
    when lost) for each sent."""
    samples: list[tuple[float, float | None]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def window(self, start: float, end: float) -> dict[str, Any]:
        """p50, p99, max and mean (ms) of the round trips sent between ``start`` and
        ``end``, how many, how many over 100 ms, and how many were lost."""
        sent = [ms for t, ms in self.samples if start <= t < end]
        got = sorted(ms for ms in sent if ms is not None)

        def pct(p: float) -> float:
            return round(got[min(len(got) - 1, int(p * len(got)))], 2) if got else 0.0

        return {"n": len(got), "p50": pct(0.50), "p99": pct(0.99),
                "max": round(got[-1], 2) if got else 0.0,
                "mean": round(statistics.fmean(got), 2) if got else 0.0,
                "over_100ms": sum(ms > 100 for ms in got), "lost": len(sent) - len(got)}


class Bystander:
    """A guest from 127.0.0.2, signed in on a WebSocket, probing the server's round trips."""

    def __init__(self, server: Server, interval: float) -> None:
        self.server, self.interval = server, interval
        self.origin = time.perf_counter()
        self.ping, self.health = Probe(), Probe()
        self.http = httpx.AsyncClient(
            base_url=server.url, timeout=PROBE_TIMEOUT,
            transport=httpx.AsyncHTTPTransport(local_address=BYSTANDER,
                                               limits=httpx.Limits(max_connections=HEALTH_CONNECTIONS)))
        self.ws: ClientConnection | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.probes: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.perf_counter() - self.origin

    async def open(self) -> None:
        r = await self.http.post("/api/guest", json={"name": "Bystander"})
        r.raise_for_status()
        self.ws = await connect(self.server.ws_url, open_timeout=30, ping_interval=None,
                                max_size=2 ** 24, local_addr=(BYSTANDER, 0))
        await self.ws.send(json.dumps({"type": "hello", "token": r.json()["token"]}))
        async with asyncio.timeout(30):
            while True:
                m = json.loads(await self.ws.recv())
                if m["type"] == "welcome":
                    break
                if m["type"] == "error":
                    raise RuntimeError(f"hello: {m}")
        self.origin = time.perf_counter()
        self.tasks = [asyncio.create_task(self.drain()),
                      asyncio.create_task(self.every(self.send_ping)),
                      asyncio.create_task(self.every(self.get_health))]

    async def drain(self) -> None:
        """Reads every frame the server sends (unread, they would hold up the pongs)."""
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            async for _ in self.ws:
                pass

    async def every(self, probe: Any) -> None:
        """Starts ``probe`` every ``interval`` seconds, not waiting for the last one."""
        start = time.perf_counter()
        k = 0
        while True:
            k += 1
            await asyncio.sleep(max(0.0, start + k * self.interval - time.perf_counter()))
            task = asyncio.create_task(probe())
            self.probes.add(task)
            task.add_done_callback(self.probes.discard)

    async def send_ping(self) -> None:
        assert self.ws is not None
        t = self.now()
        start = time.perf_counter()
        try:
            pong = await self.ws.ping()
            await asyncio.wait_for(pong, PROBE_TIMEOUT)
            self.ping.samples.append((t, 1000 * (time.perf_counter() - start)))
        except (TimeoutError, ConnectionClosed) as exc:
            self.ping.samples.append((t, None))
            self.ping.errors.append(type(exc).__name__)

    async def get_health(self) -> None:
        t = self.now()
        start = time.perf_counter()
        try:
            r = await self.http.get("/api/health")
            ms = 1000 * (time.perf_counter() - start)
            self.health.samples.append((t, ms if r.status_code == 200 else None))
            if r.status_code != 200:
                self.health.errors.append(f"{r.status_code}")
        except httpx.HTTPError as exc:
            self.health.samples.append((t, None))
            self.health.errors.append(type(exc).__name__)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        # the probes under way come back or time out (PROBE_TIMEOUT) first
        if self.probes:
            await asyncio.wait(list(self.probes), timeout=PROBE_TIMEOUT + 5)
        for task in [*self.tasks, *self.probes]:
            task.cancel()
        await asyncio.gather(*self.tasks, *self.probes, return_exceptions=True)
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        await self.http.aclose()


async def upload_all(server: Server, body: bytes, uploads: int, clock: Bystander
                     ) -> list[dict[str, Any]]:
    """A guest from 127.0.0.3 uploads ``body`` ``uploads`` times, one after another: each
    upload's start (on ``clock``'s time), wall time and answer."""
    out: list[dict[str, Any]] = []
    transport = httpx.AsyncHTTPTransport(local_address=UPLOADER)
    async with httpx.AsyncClient(base_url=server.url, timeout=UPLOAD_TIMEOUT,
                                 transport=transport) as http:
        r = await http.post("/api/guest", json={"name": "Uploader"})
        r.raise_for_status()
        headers = {"Authorization": f"Bearer {r.json()['token']}",
                   "Content-Type": "application/json"}
        for _ in range(uploads):
            t = clock.now()
            start = time.perf_counter()
            try:
                up = await http.post("/api/records", content=body, headers=headers)
                status, answer = up.status_code, up.text
            except httpx.HTTPError as exc:
                status, answer = 0, f"{type(exc).__name__}: {exc}"
            wall = time.perf_counter() - start
            item: dict[str, Any] = {"start_s": round(t, 3), "end_s": round(clock.now(), 3),
                                    "wall_s": round(wall, 3), "status": status}
            if status == 200:
                item["table_id"] = json.loads(answer).get("table_id")
            else:
                item["error"] = answer[:300]
            out.append(item)
    return out


async def measure(server: Server, body: bytes, args: argparse.Namespace) -> dict[str, Any]:
    """The bystander's round trips before, during and after the uploads; the uploads."""
    bystander = Bystander(server, args.interval)
    try:
        await bystander.open()
        await asyncio.sleep(args.warmup)
        idle_start = bystander.now()
        await asyncio.sleep(args.idle)
        uploads = await upload_all(server, body, args.uploads, bystander)
        up_start, up_end = uploads[0]["start_s"], uploads[-1]["end_s"]
        await asyncio.sleep(args.after)
        after_end = bystander.now()
    finally:
        await bystander.close()
    windows = {"idle": (idle_start, up_start), "uploads": (up_start, up_end),
               "after": (up_end, after_end)}
    return {
        "uploads": uploads,
        "windows_s": {k: [round(a, 3), round(b, 3)] for k, (a, b) in windows.items()},
        "ws_ping_ms": {k: bystander.ping.window(a, b) for k, (a, b) in windows.items()},
        "health_ms": {k: bystander.health.window(a, b) for k, (a, b) in windows.items()},
        "probe_errors": sorted(set(bystander.ping.errors + bystander.health.errors)),
    }


def tree_info(tree: Path) -> dict[str, Any]:
    """Which spades package the server runs from ``tree``, and its commit."""
    info: dict[str, Any] = {"python_path": str(tree)}
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        info["spades"] = subprocess.run(
            [sys.executable, "-c", "import spades; print(spades.__file__)"],
            env=dict(os.environ, PYTHONPATH=str(tree)), cwd=tree, capture_output=True,
            text=True, timeout=60).stdout.strip()
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        git = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h %s"],
                             capture_output=True, text=True, timeout=30)
        info["commit"] = git.stdout.strip()[:100]
        dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=30)
        info["dirty"] = bool(dirty.stdout.strip())
    return info


def one_run(tree: Path, body: bytes, extra: list[str], args: argparse.Namespace
            ) -> dict[str, Any]:
    """A fresh server from ``tree``, measured."""
    load_before = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="spades-upload-stall-") as tmp, \
            Server(tree, Path(tmp) / "bench.sqlite3", free_port(), *extra) as server:
        result = asyncio.run(measure(server, body, args))
        if any(u["status"] != 200 for u in result["uploads"]):
            result["server_log_tail"] = server.log()[-2000:]
    result["loadavg_before"] = load_before
    result["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    return result


def summary_line(tree: str, k: int, run: dict[str, Any]) -> str:
    ping, health = run["ws_ping_ms"], run["health_ms"]
    walls = ", ".join(f"{u['wall_s']:.2f}" + ("" if u["status"] == 200 else f" ({u['status']})")
                      for u in run["uploads"])
    return (f"{tree} run {k + 1}: uploads {walls} s; ws ping p50/p99/max ms idle "
            f"{ping['idle']['p50']}/{ping['idle']['p99']}/{ping['idle']['max']}, uploading "
            f"{ping['uploads']['p50']}/{ping['uploads']['p99']}/{ping['uploads']['max']}; "
            f"health idle {health['idle']['p50']}/{health['idle']['p99']}/"
            f"{health['idle']['max']}, uploading {health['uploads']['p50']}/"
            f"{health['uploads']['p99']}/{health['uploads']['max']}")


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median over ``runs`` of each probe's p99 (and max) in each window, and of the
    uploads' wall times."""
    out: dict[str, Any] = {}
    for probe in ("ws_ping_ms", "health_ms"):
        for window in ("idle", "uploads", "after"):
            for stat in ("p99", "max"):
                out[f"{probe}.{window}.{stat}"] = round(
                    statistics.median(r[probe][window][stat] for r in runs), 2)
    out["upload_wall_s"] = round(statistics.median(
        u["wall_s"] for r in runs for u in r["uploads"]), 3)
    return out


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # (the server is stopped on the way out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=1600, help="hands scored in the record (1600)")
    p.add_argument("--uploads", type=int, default=3, help="uploads one after another (3)")
    p.add_argument("--runs", type=int, default=1, help="fresh servers per tree (1)")
    p.add_argument("--interval", type=float, default=0.02,
                   help="seconds between the bystander's probes of each kind (0.02)")
    p.add_argument("--warmup", type=float, default=1.0,
                   help="seconds of probes not counted, once signed in (1)")
    p.add_argument("--idle", type=float, default=5.0,
                   help="seconds measured before the uploads (5)")
    p.add_argument("--after", type=float, default=3.0,
                   help="seconds measured after the uploads (3)")
    p.add_argument("--python-path", action="append", type=Path, metavar="DIR",
                   help="run the server from this checkout (PYTHONPATH=DIR); repeatable: "
                   "each run goes through them in turn (default: this script's)")
    p.add_argument("--out", default=None, help="also write the JSON report here")
    args = p.parse_args(argv)
    if not 0 < args.uploads <= MAX_UPLOADS or not 0 < args.runs <= MAX_RUNS:
        p.error(f"--uploads 1..{MAX_UPLOADS}, --runs 1..{MAX_RUNS}")
    if not 0.01 <= args.interval <= 1:  # (the server allows 100 frames a second)
        p.error("--interval 0.01..1")
    for name in ("warmup", "idle", "after"):
        setattr(args, name, min(max(getattr(args, name), 0.0), MAX_SECONDS))
    signal.signal(signal.SIGTERM, _stop)
    trees = list(dict.fromkeys(t.resolve() for t in (args.python_path or [ROOT])))

    start = time.perf_counter()
    record = long_unfinished(args.hands)
    body = json.dumps({"record": record, "mode": "continue", "seat": 0,
                       "options": {"cpu": "random"}}, separators=(",", ":")).encode()
    built = time.perf_counter() - start
    cost = max(1, math.ceil(len(body) / RECORD_COST_BYTES))
    extra = relaxed_limits(args.uploads, cost, len(body))
    print(f"record: {args.hands} hands, {len(body):,} bytes, built in {built:.1f} s; "
          f"server options: {' '.join(extra)}", file=sys.stderr)

    runs: dict[str, list[dict[str, Any]]] = {str(t): [] for t in trees}
    for k in range(args.runs):
        for tree in trees:
            run = one_run(tree, body, extra, args)
            runs[str(tree)].append(run)
            print(summary_line(str(tree), k, run), file=sys.stderr)
    report = {
        "hands": args.hands, "record_bytes": len(body), "uploads": args.uploads,
        "interval_s": args.interval, "idle_s": args.idle, "after_s": args.after,
        "server_options": extra, "cpus": os.cpu_count(),
        "trees": [{**tree_info(t), "runs": runs[str(t)], "median": medians(runs[str(t)])}
                  for t in trees],
        "note": "round trips in ms, sent every interval_s whether or not the last came "
                "back; the load averages include other jobs on this machine",
    }
    for tree in report["trees"]:
        m = tree["median"]
        print(f"{tree['python_path']} ({tree.get('commit', '?')[:60]}): median over "
              f"{args.runs} run(s) of the p99 (ms): ws ping idle {m['ws_ping_ms.idle.p99']}, "
              f"uploading {m['ws_ping_ms.uploads.p99']}; health idle "
              f"{m['health_ms.idle.p99']}, uploading {m['health_ms.uploads.p99']}; "
              f"upload {m['upload_wall_s']} s", file=sys.stderr)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    ok = all(u["status"] == 200 for t in report["trees"] for r in t["runs"]
             for u in r["uploads"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
