"""How far real play takes a side's tricks from the intermediate play-out of the same deal.

Deals cardems hands; every seat bids as ``BIDS`` does, and then, before the first card, the
hand is played out once with the intermediate policy from the real deal and the real bids
(the play-out the expert's bid simulation uses), and once for real, every card by ``PLAY``.
Prints one JSON line per hand (bids, real tricks, play-out tricks) and, at the end, the share
of each shift (real − play-out tricks of a side) and how often nils and contracts were made
in each.

    python bench/trick_spread.py 75 0 > a.jsonl & python bench/trick_spread.py 75 1000 > b.jsonl
    python bench/trick_spread.py --summary a.jsonl b.jsonl

``TRICK_SPREAD`` in spades/bots/expert.py is this script's summary over the first 150 of
180 hands measured on 2026-12-01 for the expert of that day (``75 0`` and ``75 1000`` run on to
90 each; the 180 gave the same shares within 0.006). Their raw lines were not kept. Measured
again on 2026-12-02 for the current expert (``90 0`` and ``90 1000``), raw lines in
bench/results/runs/trick_spread.jsonl.gz, which ``--summary`` reads as it is:

    python bench/trick_spread.py --summary bench/results/runs/trick_spread.jsonl.gz
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter

from spades.bots.arena import make_player
from spades.bots.policy import rollout
from spades.engine.handstate import HandState
from spades.engine.match import Match
from spades.engine.rules import profile

BIDS = "expert:0.25cpu"
PLAY = "ismcts:0.1cpu"


def measure(hands: int, offset: int) -> None:
    rules = profile("cardems")
    for i in range(hands):
        match = Match.new(rules, 888000 + offset + i)
        bidders = [make_player(BIDS, i * 8 + s) for s in range(rules.players)]
        players = [make_player(PLAY, i * 8 + s) for s in range(rules.players)]
        while True:
            obs = match.observation(match.current_player)
            if obs.phase != "bid":
                break
            match.apply(bidders[obs.seat].act(obs))
        played_out = HandState.from_obs(obs, list(match.hands))
        rollout(played_out)
        while not match.results:
            seat = match.current_player
            match.apply(players[seat].act(match.observation(seat)))
        print(json.dumps({"bids": list(obs.bids), "tricks": list(match.results[-1].tricks),
                          "roll": list(played_out.tricks)}), flush=True)


def summary(paths: list[str]) -> None:
    rows = []
    for p in paths:
        with (gzip.open(p, "rt", encoding="utf-8") if p.endswith(".gz")
              else open(p, encoding="utf-8")) as f:
            rows += [json.loads(line) for line in f]
    shifts: Counter[int] = Counter()
    made = Counter[str]()
    for r in rows:
        for side in ((0, 2), (1, 3)):
            bid = sum(r["bids"][p] for p in side)
            real = sum(r["tricks"][p] for p in side)
            out = sum(r["roll"][p] for p in side)
            shifts[real - out] += 1
            if bid:
                made["contracts"] += 1
                made["contracts made, play-out"] += out >= bid
                made["contracts made, real"] += real >= bid
        for p, b in enumerate(r["bids"]):
            if b == 0:
                made["nils"] += 1
                made["nils made, play-out"] += r["roll"][p] == 0
                made["nils made, real"] += r["tricks"][p] == 0
    n = sum(shifts.values())
    print(f"{len(rows)} hands, {n} sides")
    for k in sorted(shifts):
        print(f"shift {k:+d}: {shifts[k] / n:.3f}")
    print(dict(made))


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    else:
        measure(int(sys.argv[1]), int(sys.argv[2]))
