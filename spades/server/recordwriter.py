"""Uploaded records stored by a worker process.

A record uploaded to continue or to keep for review is stored as one row per action: a
match of 1,600 hands is some 91,000 rows, about 1 s of Python in SQLAlchemy's parameter
processing. Run on the server's database thread, that second held the interpreter lock
against the event loop, and every other table's moves and pings waited behind it (a
bystander's round trips: p99 210-300 ms during such uploads, 6-10 ms otherwise). With
``--bots process`` (``spades serve``'s default) a worker process of its own replays the
uploaded record again and stores it, while the database thread waits for it without the
lock; with a database only this process can open (``:memory:``), or with bots in threads
or inline (tests), the database thread stores it as before.
"""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import os
import threading
from typing import Any

from spades.engine import Match
from spades.engine.records import replay
from spades.server.cpu import _watch_parent
from spades.store import Store

#: The worker's open stores, by where they are.
_STORES: dict[str, Store] = {}


def shareable(store: Store) -> str | None:
    """Where another process opens ``store`` (:meth:`Store.open`): a SQLite file's path,
    or the database URL with its password; None for a database in this process's memory."""
    url = store.engine.url
    if url.get_backend_name() == "sqlite":
        return url.database if url.database not in (None, "", ":memory:") else None
    return url.render_as_string(hide_password=False)


def _save(where: str, raw: bytes, kwargs: dict[str, Any]) -> str:
    """In the worker: the record in the upload body ``raw`` (``{"record": ...}``, already
    checked and replayed by the server) replayed and stored (:meth:`Store.save_record`)."""
    store = _STORES.get(where)
    if store is None:
        store = _STORES[where] = Store.open(where)
    return store.save_record(replay(json.loads(raw)["record"]), **kwargs)


class RecordWriter:
    """Stores uploaded records (:meth:`save`), in a worker process when ``kind`` is
    ``"process"`` and the store can be opened from another process."""

    def __init__(self, store: Store, kind: str) -> None:
        self.store = store
        self.where = shareable(store) if kind == "process" else None
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    @property
    def in_worker(self) -> bool:
        """Whether records are stored by a worker process."""
        return self.where is not None

    def _worker(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:  # started at the first upload, then kept
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_watch_parent, initargs=(os.getpid(),))
            return self._pool

    def save(self, match: Match, raw: bytes, **kwargs: Any) -> str:
        """Store ``match``, replayed from the upload body ``raw``, as
        :meth:`Store.save_record` does with ``kwargs``; its game's id. Called on the
        database thread, which it holds until the record is stored, so that no other
        write comes between (the caps on uploads counted just before)."""
        if self.where is None:
            return self.store.save_record(match, **kwargs)
        pool = self._worker()
        try:
            return pool.submit(_save, self.where, raw, kwargs).result()
        except concurrent.futures.process.BrokenProcessPool:
            with self._lock:  # (a worker killed: the next upload starts another)
                if self._pool is pool:
                    self._pool = None
            raise

    def close(self) -> None:
        """Stop the worker (waiting for a record being stored)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
