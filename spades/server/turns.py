"""Whose turn it is, and what makes it move: a CPU's decision, or the turn timer (with its
warning). A table's :class:`Turns` starts what the seat to act needs and cancels it once the
turn moved on; it acts through the table (:meth:`Turned.act`), like a player.

A table's turns end for good with :meth:`Turns.close` (the table stops, finishes or the
server shuts down): nothing is scheduled after it, and no CPU turn is begun that will not
run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

from spades.engine import Match, Observation
from spades.present.narrate import Narrator
from spades.server.cpu import PAST_HANDS, default_strength, is_external, spec_of
from spades.server.seating import Place
from spades.server.settings import Settings
from spades.session import forced_bid

log = logging.getLogger("spades.server")

#: At a table with a turn timer the page shows a hand's summary for up to this long (its
#: ``armSummary``), and holds the next deal's events back behind it: a person's turn that
#: starts meanwhile has its clock started when the summary goes, so that the summary takes
#: none of the turn's time (with a 5 s timer, "Your turn" came with 2 s left).
SUMMARY_SECONDS = 3.0


class Refused(Exception):
    """What :meth:`Turned.act` raises for a refused action (the table's TableError)."""


class Bots(Protocol):
    async def decide(self, spec: str, seed: int, obs: Observation, key: str = "") -> int: ...


class TurnHost(Protocol):
    """What turns need of the server that runs the table."""

    @property
    def settings(self) -> Settings: ...
    @property
    def cpu(self) -> Bots: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...


class Turned(Protocol):
    """What turns need of their table (:class:`spades.server.tables.Table`)."""

    @property
    def hub(self) -> TurnHost: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def status(self) -> str: ...
    @property
    def places(self) -> Sequence[Place]: ...
    @property
    def version(self) -> int: ...
    @property
    def turn_timer(self) -> int | None: ...
    @property
    def cpu_default(self) -> str: ...
    @property
    def seed_base(self) -> int: ...
    @property
    def id(self) -> str: ...
    @property
    def address(self) -> str: ...

    def any_human_connected(self) -> bool: ...

    async def act(self, conn: None, seat: int, action: int | None, source: str,
                  version: int | None = None) -> int: ...

    def emit(self, event: dict[str, Any]) -> int: ...

    async def cover_idle(self, seat: int, version: int) -> None: ...

    def idle_wait(self, seat: int) -> float: ...


class Turns:
    """The CPU decision or the turn timer of one table's seat to act."""

    def __init__(self, table: Turned, refused: type[Exception] = Refused) -> None:
        self.table = table
        self.refused = refused  # what the table's act raises for a refused action
        self.deadline: float | None = None  # unix time when the turn timer fires
        self.summary_until = 0.0  # (unix time) the last hand's summary shown until then
        self.closed = False
        self._handles: list[asyncio.TimerHandle] = []
        self._cpu_task: asyncio.Task[None] | None = None
        #: CPU moves in a row that could not be stored (the database not answering)
        self.store_failures = 0
        self._retry: asyncio.TimerHandle | None = None  # the next try of such a move
        #: a person's turn at a table without a turn timer: when it has waited
        #: ``idle_seconds``, a CPU covers the seat (``Turned.cover_idle``)
        self._idle: asyncio.TimerHandle | None = None
        self._idle_turn: tuple[int, int] | None = None  # (seat, version) it watches

    def hand_scored(self) -> None:
        """A hand ended: its summary is on the pages for ``SUMMARY_SECONDS`` from now."""
        self.summary_until = time.time() + SUMMARY_SECONDS

    def turn_over(self) -> None:
        """The seat acted: its timer (and warning) no longer run."""
        self.deadline = None
        self.cancel_timers()

    def cancel_timers(self) -> None:
        for h in self._handles:
            h.cancel()
        self._handles.clear()
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        if self._idle is not None:
            self._idle.cancel()
            self._idle = self._idle_turn = None

    def close(self) -> None:
        """No more turns: timers and a CPU's decision are cancelled, nothing is scheduled
        again."""
        self.closed = True
        self.cancel_timers()
        if self._cpu_task is not None:
            self._cpu_task.cancel()

    def schedule(self) -> None:
        """Start what the seat to act needs: a CPU decision, or the turn timer."""
        t = self.table
        m = t.match
        if self.closed or m is None or t.status != "active" or m.current_player < 0:
            return
        seat = m.current_player
        place = t.places[seat]
        version = t.version
        running = self.deadline is not None and bool(self._handles)
        if not t.any_human_connected():
            if running and place.kind == "human":
                return  # a turn's timer runs out even if its player went away
            self.cancel_timers()
            self.deadline = None
            return  # nobody is watching: the table pauses
        if running and place.kind == "human":
            return  # covered during its timed turn: the timer takes it (and its penalty)
        if place.kind == "cpu" or place.covered:
            if self._cpu_task is None or self._cpu_task.done():
                loop = asyncio.get_running_loop()
                self._cpu_task = loop.create_task(self._cpu_turn(seat, version))
            return
        forced = forced_bid(m)
        if forced is not None:  # no choice (Mirror bidding): made for the person at once
            if self._cpu_task is None or self._cpu_task.done():
                loop = asyncio.get_running_loop()
                self._cpu_task = loop.create_task(self._forced_turn(seat, version, forced))
            return
        seconds = t.turn_timer
        if seconds is None:
            self.watch_idle(seat, version)
            return
        if self._handles:
            return
        loop = asyncio.get_running_loop()
        now = time.time()
        held = max(0.0, self.summary_until - now)  # (behind the last hand's summary)
        self.deadline = now + held + seconds
        warn_in = max(seconds / 2, seconds - 10)
        left = seconds - warn_in
        self._handles.append(loop.call_later(held + warn_in, self._warn, seat, version, left))
        self._handles.append(loop.call_later(held + seconds, self._time_out, seat, version))

    def watch_idle(self, seat: int, version: int) -> None:
        """A person's turn at a table without a turn timer: after ``idle_seconds`` of it
        (while someone is connected: a paused table's time does not count, and after a
        restart it starts again when someone is back) a CPU covers the seat, as a dropped
        player's. Before, one person who never acted stalled the table for ever."""
        idle = self.table.idle_wait(seat)
        if idle <= 0 or self.table.places[seat].kind != "human":
            return
        if self._idle is not None and self._idle_turn == (seat, version):
            return  # already counting this turn (a join or a reconnect does not reset it)
        if self._idle is not None:
            self._idle.cancel()
        self._idle_turn = (seat, version)
        self._idle = asyncio.get_running_loop().call_later(idle, self._idle_over, seat, version)

    def _idle_over(self, seat: int, version: int) -> None:
        self._idle = self._idle_turn = None
        if not self.closed:
            self.table.hub.spawn(self.table.cover_idle(seat, version))

    def _try_again(self) -> None:
        self._retry = None
        self.schedule()

    def schedule_soon(self) -> None:
        if not self.closed:
            asyncio.get_running_loop().call_soon(self.schedule)

    def _time_out(self, seat: int, version: int) -> None:
        if not self.closed:
            self.table.hub.spawn(self._timed_out(seat, version))

    async def _timed_out(self, seat: int, version: int) -> None:
        """The turn's time ran out: the timer acts for the seat. A move that cannot be
        stored is tried again after a pause, as a CPU's is (before: a traceback, and the
        turn waited until someone acted)."""
        try:
            await self.table.act(None, seat, None, "timer", version)
        except self.refused:
            return
        except SQLAlchemyError as exc:
            delay = self._not_stored(f"the turn timer's move for seat {seat}", exc)
            if not self.closed:
                self._retry = asyncio.get_running_loop().call_later(
                    delay, self._time_out, seat, version)
            return
        self.store_failures = 0

    def _warn(self, seat: int, version: int, left: float) -> None:
        t = self.table
        if self.closed or version != t.version or t.status != "active":
            return
        m = t.match
        assert m is not None

        def words(n: Narrator) -> str:
            return f"{n.seat(seat)}: {left:.0f} seconds left"

        t.emit({"kind": "timer_warning", "hand": m.hand_number, "seat": seat,
                "seconds_left": round(left, 1), "text": words})

    def _not_stored(self, what: str, exc: SQLAlchemyError) -> float:
        """A CPU's (or the turn timer's) move could not be stored: one line, and the pause
        before it is tried again (0.5 s, doubling to 30 s), as for a deal. Before, it was
        logged as a failed decision with a traceback and tried again at once, for ever."""
        delay = min(30.0, 0.5 * 2.0 ** self.store_failures)
        self.store_failures += 1
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        log.error("table %s: %s could not be stored (the database is not answering: %s); "
                  "trying again in %.1f s", self.table.id, what, why, delay)
        return delay

    async def _forced_turn(self, seat: int, version: int, bid: int) -> None:
        """Make the bid the rules leave ``seat``'s person no choice in (before, the table
        waited for them to confirm it, and a turn timer made it with a penalty bag)."""
        retry_in: float | None = None
        try:
            await self.table.act(None, seat, bid, "forced", version)
            self.store_failures = 0
        except self.refused:
            pass
        except SQLAlchemyError as exc:
            retry_in = self._not_stored(f"the bid made for seat {seat}", exc)
        finally:
            self._turn_done(retry_in)

    def _turn_done(self, retry_in: float | None) -> None:
        """A CPU's turn (or a bid made for a person) ended: the next turn begins, or this
        one is tried again after ``retry_in`` seconds (its move could not be stored)."""
        self._cpu_task = None
        if retry_in is None:
            self.schedule_soon()  # not once closed: no turn is begun that will not run
        elif not self.closed:
            self._retry = asyncio.get_running_loop().call_later(retry_in, self._try_again)

    async def _cpu_turn(self, seat: int, version: int) -> None:
        t = self.table
        retry_in: float | None = None
        try:
            delay = t.hub.settings.cpu_delay
            if delay:
                await asyncio.sleep(delay)
            while True:
                m = t.match
                if m is None or version != t.version or t.status != "active":
                    return
                place = t.places[seat]
                spec = spec_of(place.cpu or t.cpu_default)
                obs = m.observation(seat, recent=PAST_HANDS)
                try:
                    # the workers are shared fairly between the addresses that made the
                    # tables (a table of unknown origin, restored: its own share)
                    action = await t.hub.cpu.decide(spec, t.seed_base + seat, obs,
                                                    t.address or f"table {t.id}")
                except Exception as exc:
                    if not is_external(spec):
                        raise
                    # a dead program: a CPU takes the seat, and the log says which and why
                    # (the error names the program, the decision and what went wrong)
                    log.warning("table %s: the CPU strength %s at seat %d failed: %s; the %s "
                                "CPU plays for it for the rest of the match", t.id,
                                place.cpu or t.cpu_default, seat, exc, default_strength())
                    place.cpu = default_strength()
                    continue
                if version != t.version:
                    return
                if action not in obs.legal_actions:  # a bot bug must not stall the table
                    if is_external(spec):
                        place.cpu = default_strength()
                        continue
                    log.error("table %s: the CPU (%s) at seat %d chose an illegal action %r;"
                              " playing its first legal action instead", t.id, spec, seat,
                              action)
                    action = obs.legal_actions[0]
                await t.act(None, seat, action, "cpu", version)
                self.store_failures = 0
                return
        except self.refused:
            return
        except SQLAlchemyError as exc:
            retry_in = self._not_stored(f"the move of the CPU at seat {seat}", exc)
        except Exception:  # a failing bot: play the first legal action instead
            log.exception("table %s: the CPU at seat %d failed to decide; playing its first"
                          " legal action instead", t.id, seat)
            m = t.match
            if m is not None and version == t.version and m.current_player == seat:
                try:
                    with contextlib.suppress(self.refused):
                        await t.act(None, seat, m.legal_actions()[0], "cpu", version)
                except SQLAlchemyError as exc:
                    retry_in = self._not_stored(f"the move of the CPU at seat {seat}", exc)
        finally:
            self._turn_done(retry_in)
