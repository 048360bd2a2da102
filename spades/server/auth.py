"""Signing in: a throttle on password guesses, and answers that take as long for any name.

How the throttle works (docs/server.md, "Protections"):

- Every sign-in is counted *before* its password is checked, so concurrent requests cannot
  outrun the limits; a success takes back only its own count, never anyone else's failures.
- Three limits over a sliding ``window``: failures per (address, account) pair, per account
  from any address, and per address over all accounts.
- A pair (address, account) that signed in successfully is *known* for ``known_for`` seconds:
  it is held only to its own pair limit. So the owner of an account, at an address they
  have used before, is not locked out by someone else behind the same address (NAT) trying
  other accounts, nor by guesses at their account from other addresses. Only guesses at the
  same account from the same address can delay them, and only for that address.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error, InvalidHashError

from spades.server.fair import FairGate

MAX_KEYS = 100_000  # bounded memory under a spray of addresses or names
#: Passwords hashed or checked at once (argon2id: 64 MiB and four threads each, so a
#: quarter of the cores keeps them all busy; at least 2); more wait their turn. Before, as
#: many as the default thread pool's workers ran at once (6 on two cores, up to 32): ten
#: sign-ins sent together grew the server by 380 MB. Shared fairly between client
#: addresses (:class:`Passwords`).
PASSWORD_WORKERS = max(2, (os.cpu_count() or 1) // 4)


class TooMany(Exception):
    """Refused: ``wait`` seconds before a new attempt can be counted; ``what`` says which
    limit (``"account from your address"``, ``"account"``, ``"address"``)."""

    def __init__(self, wait: float, what: str) -> None:
        super().__init__(f"too many failed sign-ins for this {what}")
        self.wait = wait
        self.what = what


@dataclass(slots=True)
class Attempt:
    keys: list[tuple[str, ...]]
    stamp: float
    pair: tuple[str, ...]
    #: With several processes (spades.server.room.SharedLogins): the attempt's entry in
    #: the shared windows.
    member: str = ""


NAMES = {"pair": "account from your address", "account": "account", "address": "address"}


class _Windows:
    """Timestamps per key within a sliding window (oldest keys dropped past ``MAX_KEYS``)."""

    def __init__(self, window: float, clock: Callable[[], float]) -> None:
        self.window = window
        self.clock = clock
        self.stamps: OrderedDict[tuple[str, ...], deque[float]] = OrderedDict()

    def recent(self, key: tuple[str, ...]) -> deque[float]:
        q = self.stamps.get(key)
        if q is None:
            return deque()
        now = self.clock()
        while q and now - q[0] >= self.window:
            q.popleft()
        if not q:
            del self.stamps[key]
        return q

    def add(self, key: tuple[str, ...], stamp: float) -> None:
        q = self.recent(key)
        q.append(stamp)
        self.stamps[key] = q
        self.stamps.move_to_end(key)
        while len(self.stamps) > MAX_KEYS:
            self.stamps.popitem(last=False)

    def take_back(self, key: tuple[str, ...], stamp: float) -> None:
        q = self.stamps.get(key)
        if q is not None:
            with contextlib.suppress(ValueError):
                q.remove(stamp)
            if not q:
                del self.stamps[key]


class LoginGuard:
    def __init__(self, *, pair_limit: int, account_limit: int, address_limit: int,
                 window: float, known_for: float = 30 * 86400.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = {"pair": pair_limit, "account": account_limit, "address": address_limit}
        self.window = window
        self.known_for = known_for
        self.clock = clock
        self.counts = _Windows(window, clock)
        self.known: OrderedDict[tuple[str, ...], float] = OrderedDict()

    def _is_known(self, pair: tuple[str, ...]) -> bool:
        at = self.known.get(pair)
        if at is None:
            return False
        if self.clock() - at >= self.known_for:
            del self.known[pair]
            return False
        return True

    def begin(self, address: str, account: str) -> Attempt:
        """Count an attempt (raises :class:`TooMany` if a limit is reached)."""
        pair: tuple[str, ...] = ("pair", address, account)
        keys: list[tuple[str, ...]] = [pair]
        if not self._is_known(pair):
            keys += [("account", account), ("address", address)]
        for key in keys:
            limit = self.limits[key[0]]
            if limit <= 0:
                continue
            q = self.counts.recent(key)
            if len(q) >= limit:
                wait = max(0.0, q[0] + self.window - self.clock())
                raise TooMany(wait, NAMES[key[0]])
        stamp = self.clock()
        counted = [k for k in keys if self.limits[k[0]] > 0]
        for key in counted:
            self.counts.add(key, stamp)
        return Attempt(counted, stamp, pair)

    def succeeded(self, attempt: Attempt) -> None:
        """Take back this attempt's own count (no one else's) and know the pair."""
        for key in attempt.keys:
            self.counts.take_back(key, attempt.stamp)
        self.known[attempt.pair] = self.clock()
        self.known.move_to_end(attempt.pair)
        while len(self.known) > MAX_KEYS:
            self.known.popitem(last=False)


class Passwords:
    """argon2 hashing; checking a password takes as long whether the name exists or not
    (an unknown name is checked against a hash of a random password). At most ``workers``
    hash or check at once, shared fairly between client addresses (:class:`FairGate`): a
    burst of sign-ups and sign-ins from one address waits behind another address's
    sign-in, not the other way round (first come, first served, 20 of each from one
    address held another's sign-in 3.4 s)."""

    def __init__(self, workers: int = PASSWORD_WORKERS) -> None:
        self.hasher = PasswordHasher()
        self.dummy = self.hasher.hash("not a password: " + str(time.time_ns()))
        self.workers = workers
        self._gates: dict[asyncio.AbstractEventLoop, FairGate] = {}

    def _gate(self) -> FairGate:
        """The running loop's gate (an app may be run by one loop, then another)."""
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            self._gates = {k: v for k, v in self._gates.items() if not k.is_closed()}
            gate = self._gates[loop] = FairGate(self.workers)
        return gate

    async def hashed(self, password: str, key: str = "") -> str:
        """:meth:`hash` on a worker thread, at most ``workers`` at once; ``key`` (the
        client's address): whose turn it is when several wait."""
        gate = self._gate()
        await gate.enter(key)
        try:
            return await asyncio.to_thread(self.hash, password)
        finally:
            gate.leave(key)

    async def verified(self, digest: str | None, password: str, key: str = "") -> bool:
        """:meth:`verify` on a worker thread, at most ``workers`` at once; ``key`` as for
        :meth:`hashed`."""
        gate = self._gate()
        await gate.enter(key)
        try:
            return await asyncio.to_thread(self.verify, digest, password)
        finally:
            gate.leave(key)

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, digest: str | None, password: str) -> bool:
        """True if ``password`` matches ``digest`` (None: no account, still as slow)."""
        try:
            return self.hasher.verify(digest or self.dummy, password) and digest is not None
        except (Argon2Error, InvalidHashError):
            return False
