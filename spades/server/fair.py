"""A few slots shared fairly between keys (client addresses): the CPU workers
(spades.server.cpu) and the password workers (spades.server.auth)."""

from __future__ import annotations

import asyncio
import collections


class FairGate:
    """``slots`` at once, shared fairly between keys (client addresses): a free slot goes
    to the waiting key with the fewest running, the longest waiting of those first. One
    address with many tables of slow CPU players therefore cannot queue everyone else's
    CPU turns behind its own (the pool's own queue is first come, first served); with
    nobody else waiting it still gets every slot."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        self.running: dict[str, int] = {}
        self.waiting: dict[str, collections.deque[asyncio.Future[None]]] = {}

    async def enter(self, key: str) -> None:
        if self.busy < self.slots and not self.waiting:
            self._take(key)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, collections.deque()).append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.leave(key)  # granted as it was cancelled: hand the slot on
            else:
                queue = self.waiting.get(key)
                if queue is not None and fut in queue:
                    queue.remove(fut)
                    if not queue:
                        del self.waiting[key]
            raise

    def leave(self, key: str) -> None:
        self.busy -= 1
        left = self.running.get(key, 1) - 1
        if left > 0:
            self.running[key] = left
        else:
            self.running.pop(key, None)
        self._grant()

    def _take(self, key: str) -> None:
        self.busy += 1
        self.running[key] = self.running.get(key, 0) + 1

    def _grant(self) -> None:
        while self.busy < self.slots and self.waiting:
            key = min(self.waiting, key=lambda k: self.running.get(k, 0))  # oldest of ties
            queue = self.waiting.pop(key)
            fut = queue.popleft()
            if queue:
                self.waiting[key] = queue  # to the back: the others' turn first
            if fut.done():
                continue
            self._take(key)
            fut.set_result(None)
