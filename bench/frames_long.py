"""Micro-benchmark: building one event's frames (a card played) for every member of a table
late in a long match, for clients that keep the scored hands themselves (``hello`` with
``results: "new"``) and for those that get every scored hand in each frame (as before).

Run ``PYTHONPATH=. SPADES_PURE=1 python bench/frames_long.py`` (and with another checkout
on PYTHONPATH to compare; about half a minute): a cardems match to a target nobody reaches,
played by random CPUs to hand ``--hands`` + 1 (its cards being played), at a table of four
players and ``--spectators`` spectators. Prints the median time of one emit (over ``--runs``
runs of ``--number`` emits each; the process's CPU time, less swayed by other processes on
the machine than the clock), and that per member. Recipients are stand-ins that only
count bytes, so this measures building the frames, not sending them. The emits after the
first tell no new hand (as most events of a match), which is what a "new" client then gets.

Figures of 2026-12 (pure Python, 4 players and 4 spectators, median of 7 runs of 20 emits;
a shared machine under load, so within some 30 %), before and after the view of a "new"
client was built from its new hands only (``Observation.to_json(results_from)``, and
``Match.observation(seat, past=False)``: not the past hands' deals and actions):

====  =======  ==========================  ==========================
hand  results  before: an emit (a member)  after: an emit (a member)
====  =======  ==========================  ==========================
301   new      2.2 ms (275 us)             0.23-0.41 ms (29-52 us)
481   new      2.5-4.1 ms (307-507 us)     0.24 ms (30 us)
301   all      4.8-5.9 ms (605-734 us)     5.0-6.0 ms (620-751 us)
481   all      9.2-10.7 ms (1154-1338 us)  8.2-9.0 ms (1020-1125 us)
====  =======  ==========================  ==========================

Then each scored hand's JSON was made once for every view (``views.ResultsJson``), so that
a client taking every scored hand costs about what one taking the new ones does (2026-12-07,
the same run, 5 runs of 10 emits, pure Python; the hands built with ``past=False``):

====  =======  ==========================  ==========================
hand  results  before: an emit (a member)  after: an emit (a member)
====  =======  ==========================  ==========================
481   all      9.06 ms (1132 us)           0.50 ms (62 us)
1601  all      38.10 ms (4763 us)          0.89 ms (111 us)
1601  new      0.57 ms (71 us)             0.54 ms (67 us)
====  =======  ==========================  ==========================
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
import timeit
import types
from typing import Any

from spades.engine import PLAY, Match, profile
from spades.server.cpu import bot_act
from spades.server.protocol import TableOptions
from spades.server.settings import Settings
from spades.server.tables import Place, Table


class Recipient:
    """A member that only counts the bytes it is sent."""

    def __init__(self, uid: int, new: bool) -> None:
        self.user_id = uid
        self.sent = 0
        self.results_new = new  # (its hello asked for only the new hands, or for all)
        self.ended = None

    def send(self, text: str) -> None:
        self.sent += len(text)


def long_match(hands: int, seed: int = 1) -> Match:
    """A match of ``hands`` scored hands, the next one dealt, bid and its first card
    played."""
    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(seed))
    while len(m.results) < hands or m.phase is not PLAY or not m.log[-1].plays:
        m.apply(bot_act("random", 1, m.observation(m.current_player, past=False)))
    return m


def table_of(match: Match, spectators: int, new: bool) -> Table:
    hub: Any = types.SimpleNamespace(settings=Settings(), uploads=set())
    places = [Place("human", i + 1, f"P{i}") for i in range(4)]
    table = Table(hub, "g1", TableOptions(), match.rules, places, 1, "ABC", "active")
    for i in range(4):
        table.members[i + 1] = Recipient(i + 1, new)  # type: ignore[assignment]
    for i in range(spectators):
        table.spectators.add(Recipient(100 + i, new))  # type: ignore[arg-type]
    table.resume(match, 0)
    return table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, nargs="+", default=[300, 480],
                    help="scored hands before the one being played (default 300 480)")
    ap.add_argument("--spectators", type=int, default=4)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--number", type=int, default=20, help="emits per run")
    args = ap.parse_args()
    for hands in args.hands:
        match = long_match(hands)
        sim = match.clone()
        sim.record_events()
        sim.apply(sim.legal_actions()[0])
        news = sim.take_events()
        ev = {"kind": "play", "hand": hands + 1, "seat": match.current_player,
              "action": "3C", "text": "a card"}
        members = 4 + args.spectators
        for new in (True, False):
            table = table_of(match, args.spectators, new)
            once = functools.partial(table.emit, ev, news=news)
            once()  # (the hands scored before are told: the next events tell none)
            runs = timeit.repeat(once, timer=time.process_time, number=args.number,
                                 repeat=args.runs)
            median = statistics.median(runs) / args.number
            print(f"hand {hands + 1}, results {'new' if new else 'all'}: one emit to "
                  f"{members} members {median * 1e3:.2f} ms, {median / members * 1e6:.0f} us "
                  f"a member")


if __name__ == "__main__":
    main()
