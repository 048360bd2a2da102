"""Rates: a token bucket (every rate limit of the server), and failed sign-ins counted per
client address, so passwords cannot be guessed at speed."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

Clock = Callable[[], float]


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` spends one if it can."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.clock = clock
        self.tokens = self.burst
        self.stamp = clock()

    def _fill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, n: float = 1.0) -> bool:
        """Spend ``n`` tokens (at most the burst) if they are there."""
        if self.rate <= 0:
            return True  # 0: no limit
        self._fill()
        n = min(n, self.burst)
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False

    def charge(self, n: float) -> None:
        """Spend ``n`` tokens after the fact (a cost known once the work is done), going
        below 0 if need be, down to minus a burst: the wait that follows pays for it."""
        if self.rate <= 0:
            return
        self._fill()
        self.tokens = max(-self.burst, self.tokens - n)

    def give_back(self, n: float = 1.0) -> None:
        """Put back ``n`` tokens spent by :meth:`take` for something that did not happen
        after all (never above the burst)."""
        if self.rate <= 0:
            return
        self._fill()
        self.tokens = min(self.burst, self.tokens + n)

    def wait(self, n: float = 1.0) -> float:
        """Seconds until ``n`` tokens (at most the burst) are there (0: now)."""
        if self.rate <= 0:
            return 0.0
        self._fill()
        n = min(n, self.burst)
        return 0.0 if self.tokens >= n else (n - self.tokens) / self.rate

    def full(self) -> bool:
        self._fill()
        return self.tokens >= self.burst


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
