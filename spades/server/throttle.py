"""Failed sign-ins, counted per client address, so passwords cannot be guessed at speed."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class LoginThrottle:
    """At most ``limit`` failed sign-ins per address within ``window`` seconds; a further
    attempt from that address is refused until the oldest failure is ``window`` old."""

    def __init__(self, limit: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        now = self.clock()
        q = self._failures.get(key)
        if q is None:
            return deque()
        while q and now - q[0] >= self.window:
            q.popleft()
        if not q:
            del self._failures[key]
        return q

    def wait(self, key: str) -> float:
        """Seconds ``key`` must wait before trying again (0: it may try now)."""
        if self.limit <= 0:
            return 0.0
        q = self._recent(key)
        if len(q) < self.limit:
            return 0.0
        return max(0.0, q[0] + self.window - self.clock())

    def failed(self, key: str) -> None:
        q = self._recent(key)
        q.append(self.clock())
        self._failures[key] = q
        if len(self._failures) > 100_000:  # bounded memory under a spray of addresses
            oldest = next(iter(self._failures))
            del self._failures[oldest]

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)
