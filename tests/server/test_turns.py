"""spades.server.turns: a table's CPU turns and turn timer, and their end."""

from __future__ import annotations

import asyncio
import random
import types
from typing import Any

from spades.engine import BID, Match, cards_of, profile
from spades.server.protocol import TableOptions
from spades.server.settings import Settings
from spades.server.tables import Place, Table


class Member:
    def __init__(self, uid: int) -> None:
        self.user_id = uid
        self.name = f"P{uid}"
        self.guest = False
        self.table: Table | None = None
        self.results_new = False
        self.ended = None
        self.frames: list[str] = []

    def send(self, text: str) -> None:
        self.frames.append(text)


def _table(cpu_delay: float) -> Table:
    """A table whose seat to act is a CPU's, one human connected, a CPU taking
    ``cpu_delay`` seconds before it decides."""
    rules = profile("cardems")
    settings = Settings()
    settings.cpu_delay = cpu_delay
    hub: Any = types.SimpleNamespace(settings=settings, uploads=set(),
                                     spawn=lambda coro: asyncio.ensure_future(coro))
    places = [Place("human", 1, "Kim")] + [Place("cpu", None, f"CPU {i}", "normal")
                                            for i in (1, 2, 3)]
    table = Table(hub, "g1", TableOptions(), rules, places, 1, "ABC", "active")
    table.members[1] = Member(1)
    match = Match(rules, dealer=0)
    cards = list(cards_of(rules.deck))
    random.Random(1).shuffle(cards)
    match.deal([sum(1 << c for c in cards[i::4]) for i in range(4)])
    assert match.phase is BID and match.current_player == 1  # a CPU is to bid
    table.resume(match, 0)
    return table


def test_a_closed_table_begins_no_cpu_turn() -> None:
    """Closing a table cancels its CPU's decision, and the cancelled turn does not schedule
    another one: a task made then would never run once the server's loop ends (the
    "coroutine 'Table._cpu_turn' was never awaited" warning of a test run)."""

    async def run() -> None:
        table = _table(cpu_delay=3600.0)
        table.schedule()
        me = asyncio.current_task()
        (cpu,) = [t for t in asyncio.all_tasks() if t is not me]
        await asyncio.sleep(0)  # the CPU's turn has begun: it waits its delay
        table.close_timers()
        await asyncio.wait({cpu})
        assert cpu.cancelled()
        for _ in range(3):  # what the cancelled turn asked the loop to do, done
            await asyncio.sleep(0)
        left = [t for t in asyncio.all_tasks() if t is not me]
        assert not left, f"tasks begun after the table closed: {left}"
        table.schedule()
        assert not [t for t in asyncio.all_tasks() if t is not me]

    asyncio.run(run())


def test_a_cpu_turn_is_played_and_the_next_one_scheduled() -> None:
    async def run() -> None:
        table = _table(cpu_delay=0.0)
        hub: Any = table.hub
        played = asyncio.Event()

        async def decide(spec: str, seed: int, obs: Any, key: str = "") -> int:
            assert key == "table g1"  # the workers' share: a table of no known address
            if obs.seat == 2:
                played.set()
            return int(obs.legal_actions[0])

        hub.cpu = types.SimpleNamespace(decide=decide)

        async def act(conn: None, seat: int, action: int | None, source: str,
                      version: int | None = None) -> int:
            assert source == "cpu" and action is not None
            m = table.match
            assert m is not None and m.current_player == seat
            m.apply(action)
            table.version += 1
            return 0

        table.act = act  # type: ignore[method-assign]
        table.schedule()
        await asyncio.wait_for(played.wait(), 60)  # seat 1 bid, seat 2 was scheduled
        table.close_timers()

    asyncio.run(run())
