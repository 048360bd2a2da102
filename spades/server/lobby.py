"""The lobby: rows of the public tables, built once and shared until a table changes (or
``lobby_cache_ms`` passes), and served whole or a page at a time; and its changes, told to
subscribers coalesced (:class:`LobbyNotices`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from spades.server import frames
from spades.server.settings import Settings

if TYPE_CHECKING:
    from spades.server.tables import Member, Table


class Rows(Protocol):
    """Every process's lobby rows, as their owners told them (the cluster)."""

    @property
    def lobby(self) -> Mapping[str, dict[str, Any]]: ...


class Host(Protocol):
    """What the lobby needs of the server (:class:`spades.server.hub.Hub`)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...
    @property
    def cluster(self) -> Rows | None: ...
    @property
    def lobby_subs(self) -> Collection[Member]: ...

    def listed(self, table: Table) -> bool: ...


class LobbyCache:
    def __init__(self, hub: Host, clock: Callable[[], float] = time.monotonic) -> None:
        self.hub = hub
        self.clock = clock
        self._rows: list[dict[str, Any]] | None = None
        self._text: str | None = None
        self._body: bytes | None = None
        self._built = 0.0
        self.builds = 0  # how many times the rows were built (tests and benchmarks)

    def invalidate(self) -> None:
        self._rows = None
        self._text = None
        self._body = None

    def rows(self) -> list[dict[str, Any]]:
        """Every listed table's summary, oldest table first. Shared: do not change it."""
        max_age = self.hub.settings.lobby_cache_ms / 1000
        if self._rows is None or self.clock() - self._built > max_age:
            hub = self.hub
            if hub.cluster is not None:  # every process's tables, as their owners said
                self._rows = list(hub.cluster.lobby.values())
            else:
                self._rows = [t.summary().model_dump() for t in hub.tables.values()
                              if hub.listed(t)]
            self._text = None
            self._body = None
            self._built = self.clock()
            self.builds += 1
        return self._rows

    def page(self, offset: int, limit: int | None) -> tuple[list[dict[str, Any]], int]:
        """Rows ``offset`` to ``offset + limit`` (all from ``offset`` when ``limit`` is
        None), and how many rows there are in all."""
        rows = self.rows()
        end = None if limit is None else offset + limit
        return rows[offset:end], len(rows)

    def body(self) -> tuple[bytes, int]:
        """Every row, and how many, as ``GET /api/tables`` without ``limit`` answers (a JSON list), made
        once for each state of the lobby and shared, as the ``lobby`` frame is (before, the
        whole lobby was checked and written out again for each request: at 2,000 tables,
        480 KB and 5.5 ms of the event loop each, at the HTTP rate)."""
        rows = self.rows()
        if self._body is None:
            self._body = frames.summaries_json(rows)
        return self._body, len(rows)

    def message(self, offset: int = 0, limit: int | None = None,
                ref: frames.Ref = None) -> str:
        """The ``lobby`` frame: every row (the whole lobby is serialised once and shared),
        or one page with ``offset``, ``limit`` and ``total``; ``ref``: of the request."""
        rows = self.rows()
        if offset == 0 and limit is None:
            if self._text is None:
                self._text = frames.lobby(rows, len(rows), 0, None)
            return frames.with_ref(self._text, ref)
        part, total = self.page(offset, limit)
        return frames.lobby(part, total, offset, limit, ref)


class LobbyNotices:
    """Changes to the lobby, told to its subscribers at most once every ``lobby_notice_ms``:
    the changes of one table within that time are one frame, with its latest state (a
    ``lobby_update`` row, or ``lobby_remove`` if it left the lobby), so a burst of changes
    costs each subscriber one frame per table that changed, not one per change."""

    def __init__(self, hub: Host) -> None:
        self.hub = hub
        # table id -> the table (its row is made when sent), a row (from another process),
        # or None (it left the lobby); in the order they first changed.
        self.pending: dict[str, Table | dict[str, Any] | None] = {}
        self.handle: asyncio.TimerHandle | None = None
        self.sent = 0  # frames sent (tests)

    def changed(self, table_id: str, what: Table | dict[str, Any] | None) -> None:
        self.pending[table_id] = what
        if self.handle is not None:
            return
        delay = max(0.0, self.hub.settings.lobby_notice_ms / 1000)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        if delay <= 0:
            self.flush()
        else:
            self.handle = loop.call_later(delay, self.flush)

    def flush(self) -> None:
        self.handle = None
        pending, self.pending = self.pending, {}
        subs = list(self.hub.lobby_subs)
        if not subs:
            return
        hub = self.hub
        for table_id, what in pending.items():
            row: dict[str, Any] | None
            if isinstance(what, dict) or what is None:
                row = what
            else:
                row = (what.summary().model_dump() if hub.listed(what) and hub.tables.get(table_id) is what
                       else None)
            if row is not None:
                text = frames.lobby_update(row)
            else:
                text = frames.lobby_remove(table_id)
            for conn in subs:
                conn.send(text)
                self.sent += 1

    def close(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
