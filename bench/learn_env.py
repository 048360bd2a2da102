#!/usr/bin/env python3
"""Steps per second of the PettingZoo AEC environment with random masked actions, against
OpenSpiel's own ``spades`` through its Python API, in the same run (median of runs).

    nice -n 10 python3 bench/learn_env.py [--seconds 1] [--runs 9] [--json FILE]

A step is one decision (a bid or a card). Both loops do the same work per step: the acting
seat's observation vector and legal-action mask, a uniformly random legal action, and
applying it; dealing is included in the time (OpenSpiel deals through 52 chance nodes). The
runs alternate between the loops, in reversed order every other round, so that changes in
the machine's load affect all of them alike. OpenSpiel's
loop without the observation tensor (``legal_actions()`` only) is reported too.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def env_rate(seconds: float, rules: str = "cardems", **knobs: Any) -> float:
    from spades.learn import env

    e = env(rules, **knobs)
    rng = random.Random(1)
    steps = 0
    episode = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=episode)
        episode += 1
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
    return steps / (time.perf_counter() - start)


def openspiel_rate(seconds: float, observe: bool = True) -> float:
    import pyspiel

    game = pyspiel.load_game("spades")
    rng = random.Random(1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            if observe:
                np.asarray(state.observation_tensor(player), np.float32)
                mask = np.asarray(state.legal_actions_mask(player), np.int8)
                action = rng.choice(np.flatnonzero(mask))
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=1.0, help="seconds per run (default 1)")
    p.add_argument("--runs", type=int, default=9, help="runs of each loop (default 9)")
    p.add_argument("--json", type=Path, help="also write the result here")
    args = p.parse_args(argv)
    loops: dict[str, Callable[[], float]] = {
        "env_cardems": lambda: env_rate(args.seconds),
        "env_race400_6p": lambda: env_rate(args.seconds, "race400", players=6),
        "openspiel_spades": lambda: openspiel_rate(args.seconds),
        "openspiel_spades_no_observation": lambda: openspiel_rate(args.seconds, observe=False),
    }
    rates: dict[str, list[float]] = {name: [] for name in loops}
    names = list(loops)
    for run in range(args.runs):
        for name in names if run % 2 == 0 else reversed(names):
            rates[name].append(loops[name]())
        print(f"run {run + 1}/{args.runs}: " + ", ".join(
            f"{name} {values[-1]:,.0f}" for name, values in rates.items()), file=sys.stderr)
    medians = {name: round(statistics.median(values)) for name, values in rates.items()}
    import pyspiel

    result = {
        "benchmark": "learn_env",
        "unit": "steps per second (decisions), median of runs",
        "seconds_per_run": args.seconds,
        "runs": args.runs,
        "median": medians,
        "all": {name: [round(v) for v in values] for name, values in rates.items()},
        "env_vs_openspiel": round(medians["env_cardems"] / medians["openspiel_spades"], 2),
        "env_vs_openspiel_per_run": [round(a / b, 2) for a, b in zip(
            rates["env_cardems"], rates["openspiel_spades"], strict=True)],
        "python": platform.python_version(),
        "open_spiel": getattr(pyspiel, "__version__", "unknown"),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
