"""``spades bench engine``: random full hands per second through the public API."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from spades.cli.checks import positive_int, positive_seconds
from spades.engine import PROFILES, Match, profile


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="benchmarks (engine speed)",
                       description="Measure the engine: random full hands per second through "
                       "the public API (every legal action generated at every step), for "
                       "--seconds in each of --runs runs, the median reported; with open-spiel "
                       "installed, the same loop through pyspiel too, and the ratio (for the "
                       "profiles of four players in two partnerships, OpenSpiel's game).")
    p.add_argument("what", choices=["engine"], help="what to measure")
    p.add_argument("--seconds", type=positive_seconds, default=3.0,
                   help="time for each of the runs, more than 0 (default 3)")
    p.add_argument("--runs", type=positive_int, default=5,
                   help="runs, 1 or more; the median is reported (default 5)")
    p.add_argument("--rules", default="cardems", choices=sorted(PROFILES),
                   help="rules profile (default cardems)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the first run's deals and random choices (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def spades_hands(seconds: float, rules_name: str = "cardems", seed: int = 1) -> float:
    """Hands per second: a seeded deal, every bid and play chosen at random among the
    legal actions, generated at every step; a new match whenever one ends."""
    rules = profile(rules_name)
    pick = random.Random(seed).random
    deal_seed = seed
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        match = Match(rules, rng=random.Random(deal_seed), dealer=0)
        deal_seed += 1
        for _ in range(100):  # hands per match at most, then a fresh match
            number = match.hand_number
            while match.hand_number == number and match.phase != "over":
                actions = match.legal_actions()
                match.apply(actions[int(pick() * len(actions))])
            hands += 1
            if match.phase == "over":
                break
            if hands % 64 == 0 and time.perf_counter() > deadline:
                return hands / (time.perf_counter() - start)


def pyspiel_hands(seconds: float, seed: int = 1) -> float | None:
    """The same loop through OpenSpiel's Python API (``pyspiel``), or None if absent.

    OpenSpiel deals by chance actions, so the loop samples each chance outcome as
    OpenSpiel's own random playouts do, then picks random legal bids and plays."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    pick = random.Random(seed).random
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(pick() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(pick() * len(actions))])
        hands += 1
        if hands % 64 == 0 and time.perf_counter() > deadline:
            return hands / (time.perf_counter() - start)


def engine_build() -> str:
    """``compiled`` when the engine's hot path was built with mypyc, else ``pure``."""
    import spades.engine.match

    return "pure" if spades.engine.match.__file__.endswith(".py") else "compiled"


def engine_note() -> str:
    """Why the engine is pure ("" when compiled): from the build stamp (see setup.py)."""
    import spades.engine

    return spades.engine.BUILD_NOTE if engine_build() == "pure" else ""


def engine_line() -> str:
    """``engine compiled (mypyc)``, or ``engine pure Python (why)``."""
    if engine_build() == "compiled":
        return "engine compiled (mypyc)"
    return f"engine pure Python ({engine_note() or 'not compiled'})"


#: Why there is no pyspiel figure for a profile that is not OpenSpiel's game.
NOT_THE_SAME_GAME = ("OpenSpiel's spades is four players in two partnerships; {rules} is not, "
                     "so pyspiel is not measured beside it")


def run(args: argparse.Namespace) -> int:
    ours: list[float] = []
    theirs: list[float] = []
    rules = profile(args.rules)
    same_game = rules.players == 4 and len(rules.sides) == 2
    if not args.json:
        print(f"measuring the {engine_line()}", flush=True)
    for i in range(args.runs):
        ours.append(spades_hands(args.seconds, args.rules, args.seed + i))
        other = pyspiel_hands(args.seconds, args.seed + i) if same_game else None
        if other is not None:
            theirs.append(other)
        if not args.json:
            line = f"run {i + 1}: spades {ours[-1]:,.0f} hands/s"
            if other is not None:
                line += f", pyspiel {other:,.0f} hands/s"
            print(line, flush=True)
    # Rounded once, where shown: the JSON to 0.1, the text to whole hands, both from the
    # measured figures (the text from the JSON's rounding read 8,113 for a run, 8,112 for
    # its median).
    median = statistics.median(ours)
    result: dict[str, Any] = {
        "hands_per_second": round(median, 1),
        "engine": engine_build(),
        "engine_note": engine_note(),
        "runs": [round(x, 1) for x in ours],
        "rules": args.rules,
        "seconds_per_run": args.seconds,
    }
    if theirs:
        their_median = statistics.median(theirs)
        result["pyspiel_hands_per_second"] = round(their_median, 1)
        result["pyspiel_runs"] = [round(x, 1) for x in theirs]
        result["ratio"] = round(median / their_median, 2)
    elif not same_game:
        result["pyspiel_note"] = NOT_THE_SAME_GAME.format(rules=args.rules)
    if args.json:
        print(json.dumps(result))
    else:
        build = result["engine"] + (f": {result['engine_note']}" if result["engine_note"] else "")
        print(f"median: spades ({build}) {median:,.0f} hands/s", end="")
        if theirs:
            print(f", pyspiel {their_median:,.0f} hands/s, ratio {median / their_median:.2f}x")
        elif not same_game:
            print(f" ({NOT_THE_SAME_GAME.format(rules=args.rules)})")
        else:
            print(" (install open-spiel to compare with pyspiel)")
    return 0
