"""How soon does the page say what happened? (issue 10)

Starts ``spades serve`` on 127.0.0.1 (fresh database, default CPU delay) and plays whole
matches in Debian's chromium at the page's default settings and the default match (the home
page's "Play against CPUs now" as it comes: rules, CPU strength, to the target score), with
the keyboard (the hinted bid or card on each turn, Escape on each hand's summary). In the page,
the WebSocket's messages are timed as they arrive and a MutationObserver times every text added
to the live regions (tests/web/srview.py). For every news item of every event frame: the delay
from the frame's arrival to its text in the live region. Reports median, 90th percentile and
maximum (target on a quiet machine: median <= 300 ms, max <= 1 s), the order checks of the
browser test, and the load average; writes bench/results/live_region_<date>.json and .md.

    python bench/live_region.py --matches 2

Not a test: its figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.services import free_port  # noqa: E402
from tests.web.conftest import served  # noqa: E402
from tests.web.srview import RECORDER, check_order, delays, heard, play_match, start_match  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
RESULTS = ROOT / "bench" / "results"


def start_server(db: Path, port: int, cpu_delay: float | None, log: Any) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "spades", "serve", "--port", str(port), "--db", str(db),
           "--log-level", "warning"]
    if cpu_delay is not None:
        cmd += ["--cpu-delay", str(cpu_delay)]
    return served(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT), port, log)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def run(matches: int, cpu_delay: float | None, target: int | None) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    all_delays: list[float] = []
    per_match: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = open(Path(tmp) / "serve.log", "w")  # noqa: SIM115
        proc = start_server(Path(tmp) / "bench.sqlite3", port, cpu_delay, log)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                    "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"])
                for k in range(matches):
                    # bypass_csp: Playwright's waits evaluate strings, which the page's policy forbids
                    ctx = browser.new_context(viewport={"width": 1366, "height": 900},
                                              bypass_csp=True)
                    page = ctx.new_page()
                    page.add_init_script(RECORDER)
                    page.goto(f"http://127.0.0.1:{port}/")
                    page.wait_for_selector("#quick-name")
                    started = time.time()
                    start_match(page, f"Bench{k + 1}", target=target)
                    turns = play_match(page, turn_timeout=120000)
                    h = heard(page)
                    ds = delays(h)
                    all_delays += ds
                    per_match.append({
                        "match": k + 1, "seconds": round(time.time() - started, 1),
                        "turns": turns, "hands": sum(f["kind"] == "deal" for f in h.frames),
                        "frames": len(h.frames), "news": sum(len(f["news"]) for f in h.frames),
                        "said": len(ds), "median_ms": round(statistics.median(ds), 1),
                        "max_ms": round(max(ds), 1), "problems": check_order(h)[:10],
                    })
                    print(json.dumps(per_match[-1]), flush=True)
                    ctx.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
            log.close()
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "matches": matches, "cpu_delay": cpu_delay if cpu_delay is not None else "default",
        "target": target or "default", "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()], "cores": os.cpu_count(),
        "news_items": len(all_delays),
        "median_ms": round(statistics.median(all_delays), 1),
        "p90_ms": round(pct(all_delays, 0.9), 1),
        "p99_ms": round(pct(all_delays, 0.99), 1),
        "max_ms": round(max(all_delays), 1),
        "target_met": statistics.median(all_delays) <= 300 and max(all_delays) <= 1000,
        "per_match": per_match,
    }


def markdown(r: dict[str, Any]) -> str:
    lines = [
        f"# Live region delay ({r['when']})", "",
        "From each event frame's arrival in the page (WebSocket message) to each of its news",
        "texts in the live region (MutationObserver), over whole matches at the default",
        f"settings (bench/live_region.py; {r['matches']} matches, CPU delay {r['cpu_delay']},",
        f"target {r['target']}).", "",
        f"- news items said: {r['news_items']}",
        f"- median {r['median_ms']} ms, 90th percentile {r['p90_ms']} ms, 99th {r['p99_ms']} ms,"
        f" max {r['max_ms']} ms (target: median <= 300 ms, max <= 1000 ms):"
        f" {'met' if r['target_met'] else 'NOT met'}",
        f"- load average before {r['load_before']}, after {r['load_after']}"
        f" ({r['cores']} cores)", "",
        "| match | hands | turns | news | median ms | max ms | order problems |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in r["per_match"]:
        lines.append(f"| {m['match']} | {m['hands']} | {m['turns']} | {m['news']} |"
                     f" {m['median_ms']} | {m['max_ms']} | {len(m['problems'])} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--cpu-delay", type=float, default=None,
                    help="seconds a CPU waits before acting (default: the server's)")
    ap.add_argument("--target", type=int, default=None,
                    help="a lower target score (default: the rules')")
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()
    r = run(args.matches, args.cpu_delay, args.target)
    md = markdown(r)
    print(md)
    if not args.no_save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%d_%H%M%S")
        (RESULTS / f"live_region_{stamp}.json").write_text(json.dumps(r, indent=1) + "\n")
        (RESULTS / f"live_region_{stamp}.md").write_text(md)


if __name__ == "__main__":
    main()
