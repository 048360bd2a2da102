"""The expert's decisions, compiled build against pure Python, measured in the same run.

``python bench/expert_speed.py [--runs 5] [--worlds 200] [--json FILE]``: the same decisions
(every third decision of four cardems hands between intermediate players, decided by a
fresh ``expert`` each) timed in CPU seconds in a child process of the compiled build and one
with ``SPADES_PURE=1`` (pure Python from the same install), the two alternating; prints each
build's median over the runs and their ratio, and checks that both builds chose the same
actions. Needs the compiled build (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CHILD = r"""
import hashlib, json, sys, time
import spades.engine
from spades.bots import make_bot
from spades.engine import Match, profile
worlds = int(sys.argv[1])
rules = profile("cardems")
obs = []
for seed in range(4):
    m = Match.new(rules, 1000 + seed)
    bots = [make_bot("intermediate", seed=s) for s in range(4)]
    k = 0
    while not m.results:
        o = m.observation(m.current_player)
        if k % 3 == 0:
            obs.append(o)
        m.apply(bots[m.current_player].act(o))
        k += 1
t0 = time.process_time()
acts = [make_bot(f"expert:{worlds}", seed=i).act(o) for i, o in enumerate(obs)]
cpu = time.process_time() - t0
print(json.dumps({"build": spades.engine.BUILD, "decisions": len(obs), "cpu": cpu,
                  "actions": hashlib.sha256(json.dumps(acts).encode()).hexdigest()}))
"""


def child(worlds: int, pure: bool) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("SPADES_PURE", None)
    if pure:
        env["SPADES_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", CHILD, str(worlds)], capture_output=True,
                          text=True, env=env, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = ap.parse_args()
    times: dict[str, list[float]] = {"compiled": [], "pure": []}
    digests = set()
    decisions = 0
    for _ in range(args.runs):
        for pure in (False, True):
            r = child(args.worlds, pure)
            want = "pure" if pure else "compiled"
            if r["build"] != want:
                print(f"expert_speed: expected the {want} build, got {r['build']}"
                      " (install with pip install -e . to compile)", file=sys.stderr)
                return 1
            times[want].append(float(r["cpu"]))  # type: ignore[arg-type]
            digests.add(r["actions"])
            decisions = int(r["decisions"])  # type: ignore[call-overload]
    med = {k: statistics.median(v) for k, v in times.items()}
    result = {"worlds": args.worlds, "decisions": decisions, "runs": args.runs,
              "compiled_cpu_s": round(med["compiled"], 3), "pure_cpu_s": round(med["pure"], 3),
              "ratio": round(med["pure"] / med["compiled"], 2), "same_actions": len(digests) == 1,
              "load": os.getloadavg(), "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    print(f"{decisions} expert:{args.worlds} decisions, median of {args.runs} runs: compiled "
          f"{med['compiled']:.2f} s CPU, pure {med['pure']:.2f} s; ratio {result['ratio']}; "
          f"same actions: {result['same_actions']}")
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
