"""The janitor: ends tables nobody is connected to, and prunes the database on a schedule.

A table where no person has been connected for ``abandon_minutes`` (a ``continue`` upload:
``upload_idle_minutes``) ends: it is stored as ``abandoned``, leaves the lobby and memory, and
is not brought back at the next start. A finished table that only spectators have been at for
``watch_finished_minutes`` leaves memory; they keep its last frames
(:meth:`spades.server.tables.Table.let_watchers_go`). At start, an unfinished table untouched for
``abandon_minutes`` is marked abandoned before the others are restored. Every
``prune_minutes`` expired sessions, idle guests, old chat of ended tables and records kept
for review that nobody opened for ``review_unopened_days`` are deleted; at the start and
before each pruning, continued uploads stored by an older version (no ``upload_cost``) are
given what new ones keep for the caps on uploads, so they count and go as those do. A
continued match is pruned only if no process of the room has its table open: under its
table's lease and a new fencing number (:meth:`Janitor.prune_table`).

Every write of a table is made like the table's own writes, under its fencing number
(``Store.take_game``): with several processes (``--redis``) a table that another live
process runs (it holds the table's lease) is never abandoned or touched from here; a stale
table nobody runs is abandoned under its lease and a new fencing number, so that an old
instance still running somewhere unaware can write nothing more to it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from spades.store import StoreError, upkeep

if TYPE_CHECKING:
    from spades.server.hub import Hub
    from spades.server.tables import Table

log = logging.getLogger("spades.server")

#: how long pruning waits for Redis to hold a continued match's table (:meth:`Janitor.
#: prune_table`) before it leaves the match for a later round
HOLD_SECONDS = 5.0


class Janitor:
    def __init__(self, hub: Hub, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.hub = hub
        self.clock = clock
        self.wall = wall
        self.seen: dict[str, float] = {}  # table id -> last time a person was connected
        self.touched: dict[str, float] = {}  # table id -> last time its row was touched
        self.last_prune: float | None = None
        self.pruned: dict[str, int] = {}
        #: finished tables nobody was at when last swept (restored for people who did not
        #: come back): forgotten if still so at the next sweep
        self.empty: set[str] = set()
        #: finished tables only spectators are at: since when (they leave memory after
        #: ``watch_finished_minutes``, :meth:`Table.let_watchers_go`)
        self.watched: dict[str, float] = {}

    async def at_start(self) -> list[str]:
        """Mark abandoned the unfinished tables untouched for ``abandon_minutes`` (and
        first give the continued uploads an older version stored what new ones keep for
        the caps on uploads: :meth:`adopt_old_uploads`)."""
        s = self.hub.settings
        await self.adopt_old_uploads()
        if s.abandon_minutes <= 0:
            return []
        before = self.wall() - timedelta(minutes=s.abandon_minutes)
        if self.hub.cluster is not None:  # each under its lease and fencing number
            ids = await self.hub.cluster.abandon_stale(before)
        else:  # one process: nothing runs yet, nobody else writes
            ids = await self.hub.db(upkeep.abandon_stale_tables, self.hub.store, before)
        for gid in ids:
            log.info("table %s: nobody for %g minutes; not restored (abandoned)", gid,
                     s.abandon_minutes)
        return ids

    async def after_restore(self) -> None:
        """Note which restored tables came from uploads, then start sweeping."""
        rows = await self.hub.db(self.hub.store.list_games, kind="table", status="active",
                                 limit=100000)
        for row in rows:
            if row.options.get("upload") and row.id in self.hub.tables:
                self.hub.uploads.add(row.id)
        self.hub.spawn(self.run())

    async def run(self) -> None:
        s = self.hub.settings
        while True:
            await asyncio.sleep(max(0.01, s.sweep_seconds))
            try:
                await self.sweep()
            except Exception:  # keep sweeping: the next round may do better
                log.exception("janitor sweep failed")

    async def sweep(self) -> list[str]:
        """End the tables nobody has been connected to for too long; prune when it is
        time. Returns the ids of the tables ended."""
        hub, s = self.hub, self.hub.settings
        now = self.clock()
        ended: list[str] = []
        touch: dict[str, int] = {}  # table id -> the fencing number of its instance here
        empty: set[str] = set()
        watched: dict[str, float] = {}
        for table in list(hub.tables.values()):
            if table.status == "finished" and not table.members and not table.spectators:
                # restored (a take-over) for people who did not come back to it: it leaves
                # memory as it does when its last member leaves, a sweep later (they may be
                # on their way)
                if table.id in self.empty:
                    hub.forget(table)
                else:
                    empty.add(table.id)
            if table.status == "finished" and not table.members and table.spectators:
                since = watched[table.id] = self.watched.get(table.id, now)
                if s.watch_finished_minutes > 0 and (
                        now - since >= s.watch_finished_minutes * 60) and (
                        await table.let_watchers_go()):
                    log.info("table %s: finished, watched by spectators only for %g "
                             "minutes: it leaves memory", table.id, s.watch_finished_minutes)
                    watched.pop(table.id, None)
            if table.status not in ("waiting", "active"):
                continue
            if table.any_human_connected():
                self.seen[table.id] = now
                if now - self.touched.setdefault(table.id, now) >= s.abandon_minutes * 20:
                    touch[table.id] = table.fence  # a third of the time: restarts keep it
                    self.touched[table.id] = now
                continue
            since = self.seen.setdefault(table.id, now)
            minutes = s.upload_idle_minutes if table.id in hub.uploads else s.abandon_minutes
            if minutes > 0 and now - since >= minutes * 60 and await self.abandon(table,
                                                                                  minutes):
                ended.append(table.id)
        self.empty = empty
        self.watched = watched
        for gone in set(self.seen) - set(hub.tables):
            self.seen.pop(gone, None)
            self.touched.pop(gone, None)
        if touch:  # under each instance's fencing number, like its other writes
            for gid in await hub.db(upkeep.touch_tables, hub.store, touch):
                mine = hub.tables.get(gid)
                if mine is not None and mine.fence == touch[gid]:
                    hub.lost_table(mine, "another process took it over")
        if s.prune_minutes > 0 and (self.last_prune is None
                                    or now - self.last_prune >= s.prune_minutes * 60):
            self.last_prune = now
            await self.prune()
        return ended

    async def abandon(self, table: Table, minutes: float) -> bool:
        """End ``table`` (True), unless someone came back or its match is over: a result
        still being written (tried again until it is stored) is not thrown away."""
        hub = self.hub
        async with table.lock:
            if table.status not in ("waiting", "active") or table.any_human_connected():
                return False
            if table.match is not None and table.match.is_over():
                return False
            table.status = "closed"
            table.close_timers()
            table.release_programs()  # (mid-match: nothing else stops them)
            await table.save_meta()  # stored as "abandoned"
            table.emit({"kind": "left", "text": f"the table closes: nobody has been "
                        f"connected for {minutes:g} minutes"}, with_table=True)
            for conn in list(table.spectators):
                conn.table = None
            table.spectators.clear()
            hub.forget(table)
        log.info("table %s abandoned: nobody connected for %g minutes", table.id, minutes)
        return True

    async def adopt_old_uploads(self) -> int:
        """The continued uploads stored by a version before they counted in the caps on
        uploads (no ``upload_cost`` in their options) are counted, deletable and pruned
        from now on as new ones are (:func:`upkeep.adopt_old_uploads`): at the start, and
        at each pruning (a process of an older version may have stored one since). Never
        fatal: they are tried again at the next pruning."""
        try:
            n = await self.hub.db(upkeep.adopt_old_uploads, self.hub.store, self.wall())
        except Exception:
            log.exception("continued uploads stored by an older version could not be "
                          "counted yet (tried again at the next pruning)")
            return 0
        if n:
            log.info("%d continued uploads stored by an older version now count in the caps "
                     "on uploads (%d each; their days unopened count from now)", n,
                     upkeep.OLD_UPLOAD_COST)
        return n

    async def prune_uploads(self, now: datetime) -> int:
        """Delete the records kept for review (``POST /api/records`` ``review``) that
        nobody has opened for ``review_unopened_days`` (made and last opened before then;
        at most ``upkeep.PRUNE_UPLOADS_AT_ONCE`` a round), and the matches continued from
        uploads (``continue``) that ended and that nobody has opened since: how many went.
        Only such games: no table still going, no other table, no game imported in the
        terminal, nothing running here, and with several processes (``--redis``) no table
        open at any process of the room: each continued match is deleted under its table's
        lease and a new fencing number (:meth:`prune_table`), as ``DELETE /api/games/{id}``
        deletes one. Before, only the tables open here were left alone, and a finished
        table open at another process (brought back for someone who was at it) had its
        match deleted under it."""
        hub, days = self.hub, self.hub.settings.review_unopened_days
        if days <= 0:
            return 0
        ids = await hub.db(upkeep.unopened_uploads, hub.store, now - timedelta(days=days),
                           set(hub.tables))
        tables: set[str] = set()
        if hub.cluster is not None and ids:
            tables = await hub.db(upkeep.tables_among, hub.store, ids)
        records = [gid for gid in ids if gid not in tables]
        gone = await hub.db(upkeep.delete_uploads, hub.store, records, hub.upload_counts)
        deleted = list(records)
        for gid in (gid for gid in ids if gid in tables):
            if await self.prune_table(gid):
                gone += 1
                deleted.append(gid)
        hub.games_deleted(deleted)
        return gone

    async def prune_table(self, game_id: str) -> bool:
        """Delete the continued match ``game_id``, which ended, if no process of the room
        has its table open (True if it went). Its table's lease is taken first
        (:meth:`Cluster.hold_closed`: none is if a process holds it, this one neither), so
        that no process brings the table back meanwhile, then the game's fencing number
        (:meth:`Store.take_game`), which the delete is made under: a process that brings
        the table back all the same (this one's lease ran out: it was cut off, or paused)
        raises that number, and nothing is deleted. Redis not answering (within
        :data:`HOLD_SECONDS`): left for a later round (the table may be open elsewhere)."""
        hub, cluster = self.hub, self.hub.cluster
        assert cluster is not None
        try:
            held = await asyncio.wait_for(cluster.hold_closed(game_id), HOLD_SECONDS)
        except Exception as exc:
            cluster.room.failed("holding a table to prune its continued match", exc)
            return False
        if not held:
            return False  # open at its table, here or at another process
        try:
            try:
                fence = await hub.db(hub.store.take_game, game_id)
            except StoreError:
                return False  # (deleted meanwhile)
            return bool(await hub.db(upkeep.delete_uploads, hub.store, [game_id],
                                     hub.upload_counts, fence=fence))
        finally:
            await cluster.let_go(game_id)

    async def prune(self) -> dict[str, int]:
        s = self.hub.settings
        now = self.wall()
        got = await self.hub.db(upkeep.prune, self.hub.store, now=now,
                                guests_before=now - timedelta(days=s.guest_days),
                                chat_before=now - timedelta(days=s.chat_days))
        await self.adopt_old_uploads()
        got["uploads"] = await self.prune_uploads(now)
        self.pruned = got
        if any(got.values()):
            log.info("pruned %d expired sessions, %d idle guests, %d old chat lines, %d "
                     "records kept for review unopened for %g days", got["sessions"],
                     got["guests"], got["chat"], got["uploads"], s.review_unopened_days)
        return got
