"""Histories (``GET /api/users/{id}/history``) written once for each state of a user's
games and shared by every request that asks for the same, each viewer shown only what it
may see.

A history is made from up to 200 stored games (read whole, on the database thread every
table's moves use) and written out: at 200 finished matches about 14 ms and 67 KB a
request, at the HTTP rate of every address (anyone may ask for anyone's). It is now kept
with its *stamp*: the id, ``updated_at`` and status of each game listed
(:meth:`spades.store.Store.game_marks`, read from the database at every request, no JSON
decoded), so any change another process of the room made shows at once too: a game
finished, deleted, new, a move stored (the scores so far), a seat taken or left, a table
made private or public. Kept answers go, the least recently asked first, past
:data:`HISTORY_CACHE_BYTES` or :data:`HISTORY_KEPT` histories.

One history is kept for the user's own view (with their uploads and what they may delete)
and one for everyone else's: a private table's match is in it with the people who may see
it (:func:`spades.server.app._member`), and left out of the answer for anyone else."""

from __future__ import annotations

import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

#: Bytes of histories kept ready to send (each as written, and at most once more without
#: its private matches); a history over an eighth of it is not kept.
HISTORY_CACHE_BYTES = 16_000_000
#: Histories kept at most (a user's own view and everyone else's count apart), however
#: small: asking for many users' histories cannot grow what is kept past it.
HISTORY_KEPT = 2_000
#: Seconds a kept history is answered at most: the two changes its stamp cannot see (a
#: table abandoned unused keeps its ``updated_at``, but its status shows in the stamp; the
#: options an older version's continued upload is given when it is first counted,
#: :func:`spades.store.upkeep.adopt_old_uploads`, change whether it shows as ``continued``)
#: show after this at the latest.
HISTORY_KEPT_SECONDS = 60.0
#: Bytes a kept history counts for besides its answers and offsets (its key and stamp).
_OVERHEAD = 200


def stamp_of(marks: Sequence[tuple[str, object, str]]) -> int:
    """One number for a listing's marks (:meth:`spades.store.Store.game_marks`)."""
    return hash(tuple(marks))


@dataclass(slots=True)
class Kept:
    """One history as written: ``body`` every item (a JSON list), ``starts`` where each
    item begins in it (it ends before the next one's comma, the last before the ``]``),
    ``hidden`` the private items (their index, and the ids of the people who may see
    them), ``public`` the body without them (``body`` itself when there are none)."""

    stamp: int
    body: bytes
    starts: array[int]
    hidden: dict[int, frozenset[object]]
    public: bytes
    #: Every unfinished match that is worked out has the scores of its latest move.
    complete: bool
    made: float = field(default_factory=time.monotonic)

    @property
    def size(self) -> int:
        extra = len(self.public) if self.public is not self.body else 0
        return (len(self.body) + extra + self.starts.itemsize * len(self.starts)
                + 100 * len(self.hidden) + _OVERHEAD)

    def for_viewer(self, viewer: object | None) -> bytes:
        """The answer for ``viewer`` (a user id, None unsigned): the private matches left
        out unless they are among the people who may see them."""
        if not self.hidden:
            return self.body
        if viewer is None or not any(viewer in people for people in self.hidden.values()):
            return self.public
        ends = [*self.starts[1:], len(self.body)]
        parts = [self.body[a:b - 1] for i, (a, b) in enumerate(zip(self.starts, ends, strict=True))
                 if i not in self.hidden or viewer in self.hidden[i]]
        return b"[" + b",".join(parts) + b"]"


def written(stamp: int, items: Sequence[tuple[bytes, frozenset[object] | None]],
            complete: bool) -> Kept:
    """A history from its items in order, each its JSON and, if its match is private, who
    may see it."""
    body = bytearray(b"[")
    starts = array("I")
    hidden: dict[int, frozenset[object]] = {}
    for i, (text, people) in enumerate(items):
        if i:
            body += b","
        starts.append(len(body))
        body += text
        if people is not None:
            hidden[i] = people
    body += b"]"
    whole = bytes(body)
    public = whole
    if hidden:
        public = b"[" + b",".join(text for text, people in items if people is None) + b"]"
    return Kept(stamp, whole, starts, hidden, public, complete)


class HistoryCache:
    """Kept histories by key (the user's id, and whether it is their own view), the least
    recently asked for dropped past ``most`` bytes or ``count`` histories."""

    def __init__(self, most: int = HISTORY_CACHE_BYTES, count: int = HISTORY_KEPT,
                 seconds: float = HISTORY_KEPT_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.count = count
        self.seconds = seconds
        self.clock = clock
        self.used = 0
        self.items: OrderedDict[Hashable, Kept] = OrderedDict()
        self.builds = 0  # how many histories were made (tests and benchmarks)

    def get(self, key: Hashable, stamp: int) -> Kept | None:
        """The history kept for ``key`` if it was made for ``stamp``, not too long ago."""
        kept = self.items.get(key)
        if kept is None:
            return None
        if kept.stamp != stamp or self.clock() - kept.made > self.seconds:
            self.drop(key)
            return None
        self.items.move_to_end(key)
        return kept

    def drop(self, key: Hashable) -> None:
        old = self.items.pop(key, None)
        if old is not None:
            self.used -= old.size

    def clear(self) -> None:
        self.items.clear()
        self.used = 0

    def put(self, key: Hashable, kept: Kept) -> None:
        """Keep ``kept`` for ``key`` (in place of what it had)."""
        self.builds += 1
        self.drop(key)
        kept.made = self.clock()
        if kept.size > self.most // 8:
            return
        self.items[key] = kept
        self.used += kept.size
        while self.used > self.most or len(self.items) > self.count:
            _, gone = self.items.popitem(last=False)
            self.used -= gone.size
