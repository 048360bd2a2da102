"""The lobby: rows of the public tables, built once and shared until a table changes (or
``lobby_cache_ms`` passes), and served whole or a page at a time."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spades.server.hub import Hub


class LobbyCache:
    def __init__(self, hub: Hub, clock: Callable[[], float] = time.monotonic) -> None:
        self.hub = hub
        self.clock = clock
        self._rows: list[dict[str, Any]] | None = None
        self._text: str | None = None
        self._built = 0.0
        self.builds = 0  # how many times the rows were built (tests and benchmarks)

    def invalidate(self) -> None:
        self._rows = None
        self._text = None

    def rows(self) -> list[dict[str, Any]]:
        """Every listed table's summary, oldest table first. Shared: do not change it."""
        max_age = self.hub.settings.lobby_cache_ms / 1000
        if self._rows is None or self.clock() - self._built > max_age:
            hub = self.hub
            if hub.cluster is not None:  # every process's tables, as their owners said
                self._rows = list(hub.cluster.lobby.values())
            else:
                self._rows = [t.summary() for t in hub.tables.values() if hub.listed(t)]
            self._text = None
            self._built = self.clock()
            self.builds += 1
        return self._rows

    def page(self, offset: int, limit: int | None) -> tuple[list[dict[str, Any]], int]:
        """Rows ``offset`` to ``offset + limit`` (all from ``offset`` when ``limit`` is
        None), and how many rows there are in all."""
        rows = self.rows()
        end = None if limit is None else offset + limit
        return rows[offset:end], len(rows)

    def message(self, offset: int = 0, limit: int | None = None) -> str:
        """The ``lobby`` frame: every row (the whole lobby is serialised once and shared),
        or one page with ``offset``, ``limit`` and ``total``."""
        rows = self.rows()
        if offset == 0 and limit is None:
            if self._text is None:
                self._text = json.dumps({"type": "lobby", "tables": rows, "total": len(rows),
                                         "offset": 0, "limit": None})
            return self._text
        part, total = self.page(offset, limit)
        return json.dumps({"type": "lobby", "tables": part, "total": total, "offset": offset,
                           "limit": limit})
