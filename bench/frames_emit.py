"""Micro-benchmark: the cost of one event frame (a card played) sent to four players.

Run ``PYTHONPATH=. python bench/frames_emit.py`` (and with another checkout on PYTHONPATH
to compare): prints the best time per emit over 7 runs of 2,000 emits. Recipients are
stand-ins that only count bytes, so this measures building the frames, not sending them.
"""

from __future__ import annotations

import inspect
import random
import timeit
import types
from typing import Any

from spades.engine import PLAY, Match, cards_of, profile
from spades.server.protocol import TableOptions
from spades.server.settings import Settings
from spades.server.tables import Place, Table


class Recipient:
    def __init__(self, uid: int) -> None:
        self.user_id = uid
        self.sent = 0
        self.results_new = False  # (its hello asked for every scored hand, as before)
        self.ended = None

    def send(self, text: str) -> None:
        self.sent += len(text)


def main() -> None:
    rules = profile("cardems")
    hub: Any = types.SimpleNamespace(settings=Settings(), uploads=set())
    places = [Place("human", i + 1, f"P{i}") for i in range(4)]
    table = Table(hub, "g1", TableOptions(), rules, places, 1, "ABC", "active")
    for i in range(4):
        table.members[i + 1] = Recipient(i + 1)  # type: ignore[assignment]
    match = Match(rules, dealer=0)
    cards = list(cards_of(rules.deck))
    random.Random(1).shuffle(cards)
    match.deal([sum(1 << c for c in cards[i::4]) for i in range(4)])
    while match.phase is not PLAY:
        match.apply(match.legal_actions()[0])
    if hasattr(table, "resume"):
        table.resume(match, 0)
    else:
        table.match = match  # type: ignore[misc]  # before sessions
    sim = match.clone()
    sim.record_events()
    sim.apply(sim.legal_actions()[0])
    news = sim.take_events()
    ev = {"kind": "play", "hand": 1, "seat": 1, "action": "3C",
          "text": "P1 plays the three of clubs"}
    if "news" in inspect.signature(table.emit).parameters:
        def once() -> None:
            table.emit(ev, news=news)  # type: ignore[call-arg]
    else:
        def once() -> None:
            table.emit(ev)
    n = 2000
    best = min(timeit.repeat(once, number=n, repeat=7)) / n
    print(f"emit of one play event to 4 players: {best * 1e6:.1f} us")


if __name__ == "__main__":
    main()
