"""Pool several ``spades arena --json`` runs of the same pairing into one estimate.

Each file's last line is the arena's JSON summary. The runs must pit the same specs under
the same rules and player count, with different seeds (so no deal is counted twice). The
pooled mean weights each run by its deals; its standard error comes from each run's own
(half the 95% interval over 1.96), so runs with different spreads combine correctly.

    python bench/pool_arena.py bench/results/bots_expert_vs_ismcts_equal_time*.out
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

Z95 = 1.959964


def load(path: str) -> dict[str, Any]:
    lines = [line for line in Path(path).read_text().splitlines() if line.strip()]
    if not lines:
        raise ValueError(f"{path}: empty file, no arena summary")
    try:
        run = json.loads(lines[-1])
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: the last line is not JSON ({exc.msg})") from None
    for key in ("a", "b", "rules", "players", "seed", "deals", "mean", "ci95"):
        if key not in run:
            raise ValueError(f"{path}: the arena summary has no {key!r}")
    if not run["deals"] or run["mean"] is None:
        raise ValueError(f"{path}: no deal of this run was played (every deal void)")
    return dict(run)


def pool(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The pooled mean and 95% interval of ``runs`` (arena summaries)."""
    if not runs:
        raise ValueError("no runs to pool")
    first = runs[0]
    seeds: set[int] = set()
    for run in runs:
        for key in ("a", "b", "rules", "players"):
            if run[key] != first[key]:
                raise ValueError(f"seed {run['seed']}: {key} is {run[key]!r}, "
                                 f"the first run has {first[key]!r}")
        if run["seed"] in seeds:
            raise ValueError(f"seed {run['seed']} appears twice: its deals would count twice")
        seeds.add(run["seed"])
    total = sum(run["deals"] for run in runs)
    mean = sum(run["deals"] * run["mean"] for run in runs) / total
    var = 0.0
    for run in runs:
        low, high = run["ci95"]
        se = (high - low) / (2 * Z95)
        var += (run["deals"] / total) ** 2 * se * se
    half = Z95 * math.sqrt(var)
    return {"a": first["a"], "b": first["b"], "rules": first["rules"],
            "players": first["players"], "seeds": sorted(seeds), "deals": total,
            "mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)]}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    try:
        result = pool([load(p) for p in argv])
    except (OSError, ValueError) as exc:
        print(f"pool_arena: {exc}", file=sys.stderr)
        return 2
    for path in argv:
        run = load(path)
        low, high = run["ci95"]
        print(f"seed {run['seed']:>5}: {run['deals']:>5} deals, {run['mean']:+7.2f} "
              f"[{low:+.2f}, {high:+.2f}]  ({path})")
    low, high = result["ci95"]
    print(f"pooled    : {result['deals']:>5} deals, {result['mean']:+7.2f} [{low:+.2f}, {high:+.2f}]")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
