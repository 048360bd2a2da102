"""Does one client hammering the expensive requests slow another table? (issue 15)

Starts ``spades serve`` on 127.0.0.1 (fresh database, CPU players and hints in process
pools, default limits). A *victim* plays against three CPUs and measures act→ack (send to
acknowledgement); it acts ``--think`` seconds after its turn comes. A *hammer* from the same
address asks, at two to four times each rate limit so the limits are what holds it back:
``GET /api/users/{id}/stats`` and ``GET /api/tables`` (the HTTP rate), ``lobby`` over the
WebSocket (``lobby_rate``) and ``hint`` on its own turn at its own table (``hint_rate``). The
first half of the run is quiet, the second half hammered; the report gives both, and how the
hammer was answered.

    nice -n 10 python bench/server_limits.py --duration 60

Bounded: at most 600 seconds, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import HOST, free_port, serving, write_report

MAX_SECONDS = 600


class Client:
    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.phase = ""
        self.ref = 0

    async def open(self) -> None:
        self.ws = await connect(f"ws://{HOST}:{self.port}/ws", max_size=2 ** 22,
                                open_timeout=30, ping_interval=None)
        await self.send({"type": "hello", "token": self.token})
        await self.until(lambda m: m["type"] == "welcome")

    async def send(self, msg: dict[str, Any]) -> str:
        assert self.ws is not None
        self.ref += 1
        ref = f"r{self.ref}"
        await self.ws.send(json.dumps({**msg, "ref": ref}))
        return ref

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        m: dict[str, Any] = json.loads(await self.ws.recv())
        if m.get("view") is not None:
            self.view = m["view"]
        return m

    async def until(self, pred: Any) -> dict[str, Any]:
        while True:
            m = await self.recv()
            if pred(m):
                return m

    def my_turn(self) -> bool:
        v = self.view
        return bool(v and v["seat"] is not None and v["current_player"] == v["seat"]
                    and v["legal_actions"])

    async def new_table(self, one_hand: bool = False) -> None:
        ref = await self.send({"type": "create", "cpus": True, "options": {
            "cpu": "random", "private": True, "one_hand": one_hand}})
        ans = await self.until(lambda m: m.get("ref") == ref)
        if ans["type"] != "ack":
            raise RuntimeError(f"create refused: {ans}")


async def guest(url: str, name: str) -> tuple[str, int]:
    async with httpx.AsyncClient() as h:
        r = await h.post(url + "/api/guest", json={"name": name})
        r.raise_for_status()
        return r.json()["token"], r.json()["user"]["id"]


async def victim(c: Client, stop: asyncio.Event, samples: list[tuple[float, float]],
                 think: float) -> None:
    """Play on, table after table: every act's time to its ack."""
    await c.new_table()
    while not stop.is_set():
        if c.view is not None and c.view["phase"] == "over":
            c.view = None
            await c.new_table()
        elif c.my_turn():
            assert c.view is not None
            await asyncio.sleep(think)  # under the message rate (20 a second)
            start = time.perf_counter()
            ref = await c.send({"type": "act", "action": c.view["legal_actions"][0]})
            ans = await c.until(lambda m, ref=ref: m.get("ref") == ref)
            if ans["type"] == "ack":
                samples.append((time.monotonic(), time.perf_counter() - start))
        else:
            await c.recv()


async def finish_games(c: Client, games: int) -> None:
    """Play ``games`` one-hand matches to their end, so the statistics have games to count."""
    for _ in range(games):
        await c.new_table(one_hand=True)
        while c.view is None or c.view["phase"] != "over":
            if c.my_turn():
                assert c.view is not None
                await asyncio.sleep(0.06)  # under the message rate
                ref = await c.send({"type": "act", "action": c.view["legal_actions"][0]})
                await c.until(lambda m, ref=ref: m.get("ref") == ref)
            else:
                await c.recv()
        c.view = None


async def hammer_ready(c: Client, games: int) -> None:
    """Finished games for the statistics, then the hammer's own table, its turn (it never
    plays, so hints stay allowed), and one hint answered (the hint workers have started)."""
    await finish_games(c, games)
    await c.new_table()
    while not c.my_turn():
        await c.recv()
    ref = await c.send({"type": "hint"})
    await c.until(lambda m: m.get("ref") == ref)


async def hammer(url: str, c: Client, user_id: int, stop: asyncio.Event,
                 answers: Counter[str], only: set[str]) -> None:

    async def reader() -> None:
        while not stop.is_set():
            m = await c.recv()
            if m["type"] in ("lobby", "hint"):
                answers[f"ws {m['type']}: answered"] += 1
            elif m["type"] == "error":
                answers[f"ws error {m['code']}"] += 1

    async def every(seconds: float, job: Any) -> None:
        while not stop.is_set():
            await job()
            await asyncio.sleep(seconds)

    async with httpx.AsyncClient(timeout=30) as h:
        async def stats() -> None:
            r = await h.get(f"{url}/api/users/{user_id}/stats")
            answers[f"stats {r.status_code}"] += 1

        async def tables() -> None:
            r = await h.get(f"{url}/api/tables")
            answers[f"tables {r.status_code}"] += 1

        async def lobby() -> None:
            await c.send({"type": "lobby", "subscribe": False})

        async def hint() -> None:
            await c.send({"type": "hint"})

        chosen = {"stats": every(0.05, stats), "tables": every(0.05, tables),
                  "lobby": every(0.5, lobby), "hints": every(1.0, hint)}
        # HTTP 10/s, lobby 1/s, hints 0.5/s: at two to four times
        jobs = [reader()] + [job for name, job in chosen.items() if name in only]
        for name, job in chosen.items():
            if name not in only:
                job.close()
        tasks = [asyncio.create_task(j) for j in jobs]
        await stop.wait()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def pct(values: list[float], p: float) -> float:
    v = sorted(values)
    return round(1000 * v[min(len(v) - 1, int(p * len(v)))], 2) if v else 0.0


def summary(values: list[float]) -> dict[str, Any]:
    return {"acts": len(values), "p50_ms": pct(values, 0.5), "p95_ms": pct(values, 0.95),
            "p99_ms": pct(values, 0.99), "max_ms": round(1000 * max(values), 2) if values else 0,
            "mean_ms": round(1000 * statistics.fmean(values), 2) if values else 0}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    duration = min(args.duration, MAX_SECONDS)
    port = free_port()
    url = f"http://{HOST}:{port}"
    db = Path(tempfile.mkdtemp(prefix="spades-limits-")) / "bench.sqlite3"
    cmd = [sys.executable, "-m", "spades", "serve", "--host", HOST, "--port", str(port),
           "--db", str(db), "--bots", "process", "--cpu-delay", "0"]
    async with serving(cmd, url):
        vtoken, _ = await guest(url, "Victim")
        htoken, hid = await guest(url, "Hammer")
        v, hc = Client(port, vtoken), Client(port, htoken)
        await v.open()
        await hc.open()
        samples: list[tuple[float, float]] = []
        answers: Counter[str] = Counter()
        stop_v, stop_h = asyncio.Event(), asyncio.Event()
        await hammer_ready(hc, args.games)
        play = asyncio.create_task(victim(v, stop_v, samples, args.think))
        await asyncio.sleep(duration / 2)
        split = time.monotonic()
        hit = asyncio.create_task(hammer(url, hc, hid, stop_h, answers,
                                         set(args.only.split(","))))
        await asyncio.sleep(duration / 2)
        stop_h.set()
        stop_v.set()
        await asyncio.wait({play, hit}, timeout=30)
        for t in (play, hit):
            if t.done() and not t.cancelled() and t.exception() is not None:
                print(f"{t.get_name()}: {t.exception()!r}", file=sys.stderr)
            t.cancel()
        for c in (v, hc):
            if c.ws is not None:
                await c.ws.close()
    quiet = [d for t, d in samples if t < split]
    loud = [d for t, d in samples if t >= split]
    return {"duration_s": duration, "think_s": args.think, "hammer_games": args.games,
            "hammer_asks": args.only,
            "cpus": os.cpu_count(),
            "quiet": summary(quiet), "hammered": summary(loud),
            "hammer_answers": dict(sorted(answers.items())),
            "python": sys.version.split()[0],
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=60.0, help="seconds in all (half quiet)")
    p.add_argument("--think", type=float, default=0.1,
                   help="seconds the victim waits before acting (0.1)")
    p.add_argument("--games", type=int, default=6,
                   help="one-hand matches the hammer finishes first, for its statistics (6)")
    p.add_argument("--only", default="stats,tables,lobby,hints",
                   help="what the hammer asks for (comma-separated; default all four)")
    p.add_argument("--out", default=None, help="JSON report (default bench/results/...)")
    args = p.parse_args(argv)
    report = asyncio.run(main_async(args))
    write_report(report, f"server_limits_{time.strftime('%Y%m%d_%H%M%S')}.json", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
