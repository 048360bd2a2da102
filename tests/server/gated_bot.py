"""A CPU player for tests whose decisions wait until the test lets them go: which decision a
worker started, and in what order, is then known without timing anything."""

from __future__ import annotations

import threading

from spades.engine import Observation

#: The seeds of the decisions started, in the order the workers started them.
started: list[int] = []
_gate = threading.Semaphore(0)
_lock = threading.Lock()


def release(n: int = 1) -> None:
    """Let ``n`` waiting (or future) decisions finish."""
    for _ in range(n):
        _gate.release()


def reset() -> None:
    global _gate
    with _lock:
        started.clear()
    _gate = threading.Semaphore(0)


class GatedBot:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.name = "gated"

    def act(self, obs: Observation) -> int:
        with _lock:
            started.append(self.seed)
        gate = _gate
        if not gate.acquire(timeout=60):  # bounded: a test that forgets to release fails
            raise TimeoutError("gated_bot was never released")
        return obs.legal_actions[0]
