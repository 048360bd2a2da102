"""A hostile client against the CPU workers: one address's many tables of slow CPU players
must not queue every other table's CPU turns behind theirs.

The decisions here are made by :mod:`tests.server.gated_bot`, which waits until the test
lets each one go, so the order in which the workers take them is seen without timing
anything (a test that measured the victim's wait against a threshold depended on the
machine's speed)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

from spades.engine import Match, Observation, profile
from spades.server.cpu import CpuPool
from tests.server import gated_bot

SPEC = "py:tests.server.gated_bot:GatedBot"
MALLORY, VICTIM = "203.0.113.66", "198.51.100.9"

Scenario = Callable[[CpuPool, Observation], Awaitable[None]]


async def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.005)


def started_in(scenario: Scenario) -> list[int]:
    """Run ``scenario`` on a real pool of two worker threads; the seeds of the decisions in
    the order the workers started them."""
    gated_bot.reset()
    match = Match(profile("cardems"), rng=random.Random(1))
    obs = match.observation(match.current_player)

    async def main() -> list[int]:
        pool = CpuPool("thread", workers=2)
        try:
            await scenario(pool, obs)
            return list(gated_bot.started)
        finally:
            gated_bot.release(100)
            pool.close()

    return asyncio.run(main())


def test_one_address_cannot_queue_everyone_elses_cpu_turns() -> None:
    """Six decisions of one address fill both workers and queue four more; a decision of
    another address, asked for after them, is the next to start when a worker frees (first
    come, first served, it waited for all four: six tables of slow CPU players made another
    table wait seconds for each of its CPU turns)."""

    async def scenario(pool: CpuPool, obs: Observation) -> None:
        mallory = [asyncio.create_task(pool.decide(SPEC, seed, obs, key=MALLORY))
                   for seed in range(6)]
        await until(lambda: len(gated_bot.started) == 2, "both workers busy")
        victim = asyncio.create_task(pool.decide(SPEC, 100, obs, key=VICTIM))
        for _ in range(10):  # (the task runs up to where it waits for a worker)
            await asyncio.sleep(0)
        gated_bot.release(1)
        await until(lambda: len(gated_bot.started) == 3, "a freed worker starts another")
        gated_bot.release(10)
        await asyncio.gather(*mallory, victim)

    order = started_in(scenario)
    assert sorted(order[:2]) == [0, 1] and order[2] == 100, order
    assert sorted(order) == [0, 1, 2, 3, 4, 5, 100]


def test_alone_one_address_gets_every_worker() -> None:
    """Fairness costs nothing when nobody else waits: one address's decisions run on both
    workers at once."""

    async def scenario(pool: CpuPool, obs: Observation) -> None:
        tasks = [asyncio.create_task(pool.decide(SPEC, seed, obs, key=MALLORY))
                 for seed in range(4)]
        await until(lambda: len(gated_bot.started) == 2, "both workers busy at once")
        gated_bot.release(10)
        await asyncio.gather(*tasks)

    assert sorted(started_in(scenario)) == [0, 1, 2, 3]
