"""The server's CPU pools: closing them ends their workers before it returns."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import threading

from spades.engine import Match, profile
from spades.server.cpu import CpuPool


def test_close_ends_the_process_pools_before_it_returns() -> None:
    # Closed without waiting, the pools' manager threads and workers outlived close(); the
    # interpreter's exit then woke a manager through a pipe it was closing, and a graceful
    # stop printed "OSError: [Errno 9] Bad file descriptor" (tests/server/test_crash.py).
    match = Match(profile("cardems"), rng=random.Random(3))
    obs = match.observation(match.current_player)
    cpu = CpuPool("process", workers=1, hint_workers=1)

    async def use_both() -> None:
        assert await cpu.decide("random", 1, obs) in obs.legal_actions
        await cpu.hint(obs)

    asyncio.run(use_both())
    assert multiprocessing.active_children()  # the workers are there
    cpu.close()
    assert multiprocessing.active_children() == []
    managers = [t.name for t in threading.enumerate() if "ExecutorManager" in type(t).__name__]
    assert managers == []
