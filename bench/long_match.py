"""Micro-benchmark: what a very long match costs the server at each CPU decision and at each
scored hand, before and after they stopped growing with the hands already scored.

Run ``PYTHONPATH=. SPADES_PURE=1 python bench/frames_long.py`` for the events; this one
(``PYTHONPATH=. python bench/long_match.py --hands 1600``, about a minute) measures, in one
run, the old way and the new:

* a CPU decision's observation as sent to a worker process (pickled): with every past hand
  (``match.observation(seat)``, before) and with the last ``PAST_HANDS``
  (``match.observation(seat, recent=PAST_HANDS)``, now); and the expert deciding from each;
* the score sheet made after a hand is scored: from every hand (``views.sheet``, before) and
  by a table that has made it before (``Table.sheet_text``, now).

Prints the median of ``--runs`` runs (the process's CPU time) and the ratio old / new.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import time
import types
from collections.abc import Callable
from typing import Any

from spades.engine import Match, profile
from spades.server import frames, views
from spades.server.cpu import PAST_HANDS, bot_act
from spades.server.protocol import TableOptions
from spades.server.settings import Settings
from spades.server.tables import Place, Table


def median_ms(f: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        f()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1600)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    m = Match(profile("cardems", target=10**6), dealer=0, rng=random.Random(5))
    while len(m.results) < args.hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player, past=False)))
    seat = m.current_player
    out: dict[str, Any] = {"hands": args.hands, "past_hands": PAST_HANDS}

    full = m.observation(seat)
    recent = m.observation(seat, recent=PAST_HANDS)
    out["cpu_observation_bytes"] = [len(pickle.dumps(full)), len(pickle.dumps(recent))]
    out["cpu_observation_ms"] = [
        median_ms(lambda: pickle.loads(pickle.dumps(m.observation(seat))), args.runs),
        median_ms(lambda: pickle.loads(pickle.dumps(m.observation(seat, recent=PAST_HANDS))),
                  args.runs)]
    # the expert in a fresh worker (its per-match memory empty), as after a restart
    out["expert_decision_ms"] = [
        median_ms(lambda: bot_act("expert", random.randrange(10**9), full), args.runs),
        median_ms(lambda: bot_act("expert", random.randrange(10**9), recent), args.runs)]

    hub: Any = types.SimpleNamespace(settings=Settings(), uploads=set())
    table = Table(hub, "g1", TableOptions(), m.rules,
                  [Place("human", i + 1, f"P{i}") for i in range(4)], 1, "ABC", "active")
    table.resume(m, 0)
    names = table.names()
    table.sheet_text()  # (made once, as at the first request)
    old: list[float] = []
    new: list[float] = []
    for _ in range(args.runs):  # a hand scored, then its sheet made each way
        scored = len(m.results)
        while len(m.results) == scored:
            m.apply(bot_act("random", 1, m.observation(m.current_player, past=False)))
        start = time.process_time()
        frames.sheet_answer(frames.sheet("g1", views.sheet(m, names)))
        old.append(time.process_time() - start)
        start = time.process_time()
        table.sheet_text()
        new.append(time.process_time() - start)
    out["sheet_after_a_scored_hand_ms"] = [statistics.median(old) * 1000,
                                           statistics.median(new) * 1000]
    for key, value in out.items():
        if isinstance(value, list):
            before, after = value
            print(f"{key}: before {before:,.1f}, now {after:,.1f} ({before / after:,.1f}x)")
        else:
            print(f"{key}: {value}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
