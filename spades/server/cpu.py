"""CPU players for the server: strengths, and deciding off the event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Mapping
from typing import Any

from spades import bots
from spades.bots.external import ExternalBot, ExternalBotError, check_program
from spades.engine import Observation
from spades.server.fair import FairGate

_CACHE: dict[tuple[str, int], Any] = {}
#: When each cached external program last decided (``time.monotonic``).
_USED: dict[tuple[str, int], float] = {}
#: The seats deciding now, and those of them released meanwhile (their program is stopped
#: once the decision is over: :func:`release` may run in a worker's release thread).
_ACTING: set[tuple[str, int]] = set()
_CLOSE_AFTER: dict[tuple[str, int], Any] = {}
_LOCK = threading.Lock()
#: A cached external program idle this long (seconds) is stopped: its table stopped
#: mid-match without releasing it (an abandoned one releases its programs:
#: ``Table.release_programs``). Asked again, it starts anew.
EXTERNAL_IDLE = 600.0
#: The scored hands a CPU player (and a hint) is shown: the last 100 (``Match.observation``'s
#: ``recent``). What it learns of the other seats it learns from them. Before, it was shown
#: every hand: a match of 1,600 hands (a long record continued) cost 45 ms to send each
#: decision to a worker process and about 100 ms more to read there.
PAST_HANDS = 100
#: External programs the operator offers as CPU strengths (``spades serve --bot NAME=cmd:...``).
_EXTERNAL: dict[str, str] = {}


def register_external(name: str, spec: str) -> None:
    """Offer an external bot program (bot protocol) to table owners under ``name``."""
    where = f"--bot {name}={spec}" if spec else f"--bot {name}"
    if not name:
        raise ValueError(f"{where}: give the strength a NAME before the =, as in "
                         "--bot mybot=cmd:PROGRAM ARGS")
    if name in strengths():
        raise ValueError(f"{where}: {name} is already a CPU strength; choose another NAME")
    if not spec.startswith("cmd:"):
        raise ValueError(f"{where}: after the = give the program as cmd:PROGRAM ARGS"
                         + (f", not {spec!r}" if spec else ""))
    try:
        ExternalBot(spec[4:])  # checks the words of the command; no program is started
        check_program(spec[4:])  # and that its program can be run (refused at the start,
        # not at every table that chose it, each seat then covered by an intermediate CPU)
    except ValueError as exc:
        raise ValueError(f"--bot {name}: {exc}") from None
    _EXTERNAL[name] = spec


def strengths() -> dict[str, str]:
    """CPU strength name → bot spec: ``spades.bots.STRENGTHS`` plus ``random`` (the
    fastest, for tests and load runs). Clients choose names only, never a spec (a spec such
    as ``cmd:...`` would run a program)."""
    out: dict[str, str] = {}
    table = getattr(bots, "STRENGTHS", None)
    if isinstance(table, Mapping):
        out.update({str(k): str(v) for k, v in table.items() if not str(v).startswith("cmd:")})
    out["random"] = "random"
    out.update(_EXTERNAL)  # registered by the operator, never by a client
    return out


def default_strength() -> str:
    pick = getattr(bots, "DEFAULT_STRENGTH", None)
    names = strengths()
    return pick if isinstance(pick, str) and pick in names else next(iter(names))


def is_external(spec: str) -> bool:
    return spec.startswith("cmd:")


def spec_of(strength: str) -> str:
    names = strengths()
    if strength in names:
        return names[strength]
    raise ValueError(f"unknown CPU strength {strength!r}; choose one of {', '.join(names)}")


def bot_act(spec: str, seed: int, obs: Observation) -> int:
    """Decide for one seat (runs in a worker). Bots are cached per (spec, seed); external
    programs idle for :data:`EXTERNAL_IDLE` seconds are stopped."""
    key = (spec, seed)
    now = time.monotonic()
    with _LOCK:
        idle = [k for k, at in _USED.items() if now - at > EXTERNAL_IDLE and k != key]
        bot = _CACHE.get(key)
        if bot is None:
            if len(_CACHE) > 2000:
                idle = list(_USED)  # (every program of the cache, not only the idle ones)
                _CACHE.clear()
            bot = _CACHE[key] = bots.make_bot(spec, seed)
        if is_external(spec):
            _USED[key] = now
        _ACTING.add(key)
    for k in idle:
        release(*k)
    try:
        return int(bot.act(obs))
    except ExternalBotError:
        release(spec, seed)  # (stopped already; the table seats a CPU instead)
        raise
    finally:
        with _LOCK:
            _ACTING.discard(key)
            late = _CLOSE_AFTER.pop(key, None)
        if isinstance(late, ExternalBot):
            late.close()


def release(spec: str, seed: int) -> None:
    """The seat's external program (``spec``, ``seed``) is no longer needed (its match is
    over): send it ``quit`` and reap it. Other bots, and a program not started, are let be."""
    key = (spec, seed)
    with _LOCK:
        _USED.pop(key, None)
        bot = _CACHE.get(key) if is_external(spec) else None
        if bot is not None:
            del _CACHE[key]
            if key in _ACTING:  # (deciding in another thread: stopped when it is done)
                _CLOSE_AFTER[key] = bot
                return
    if isinstance(bot, ExternalBot):
        bot.close()


def hint_for(obs: Observation, names: tuple[str, ...] | None = None) -> tuple[int, str]:
    """The bots' suggestion for the seat of ``obs`` (runs in a worker), its reason naming
    the seats by ``names`` (default: compass points)."""
    h = bots.hint(obs, names=names)
    return int(h.action), str(h.reason)


#: Hint workers run this much nicer than the server (``os.nice``): under load, CPU players'
#: turns and the event loop come first.
HINT_NICENESS = 10


def _drop_signal(signum: int, frame: object) -> None:
    """A signal handler that does nothing (unlike ``SIG_IGN``, reset to the default in a
    program started from here)."""


def _watch_parent(parent: int, niceness: int = 0) -> None:
    """Worker initializer: exit as soon as the server that started this worker is gone
    (even killed with SIGKILL), so no worker, and no resource tracker waiting on the
    workers, is left behind. ``niceness``: run at a lower priority (hints give way to the
    server and the CPU players). Ctrl-C is left to the server: the terminal sends SIGINT
    to the whole foreground group, and a worker that took it printed a KeyboardInterrupt
    traceback while the server was stopping it anyway."""
    signal.signal(signal.SIGINT, _drop_signal)  # (SIG_IGN would be inherited by external
    # programs started here: they outlived a Ctrl-C)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _cpu_worker(parent: int, boards: list[Any], claimed: Any) -> None:
    """Initializer of a CPU worker process (:func:`_watch_parent`). The worker takes the
    first unclaimed of the pool's release ``boards`` (one queue per worker; ``claimed``
    counts those taken) and stops the external programs named on it, from a thread of its
    own: the end of a match reaches every worker, busy or not (:meth:`CpuPool.release`)."""
    _watch_parent(parent)
    with claimed.get_lock():
        index = claimed.value
        claimed.value = index + 1
    if index < len(boards):
        threading.Thread(target=_take_releases, args=(boards[index],), name="cpu-release",
                         daemon=True).start()


def _take_releases(board: Any) -> None:
    """Stop each (spec, seed) program put on ``board``, until ``None`` or the queue ends."""
    while True:
        try:
            item = board.get()
        except (EOFError, OSError):
            return
        if item is None:
            return
        with contextlib.suppress(Exception):  # (a program that will not end is killed)
            release(*item)


class CpuPool:
    """Runs bot decisions in a process pool, a thread pool, or inline (tests). Hints run
    on their own ``hint_workers``, so asking for hints never delays CPU players."""

    def __init__(self, kind: str = "thread", workers: int = 2, hint_workers: int = 1) -> None:
        self.kind = kind
        self.gate = FairGate(workers)  # the workers, shared fairly between addresses
        self.pool: concurrent.futures.Executor | None = None
        self.hints: concurrent.futures.Executor | None = None
        #: One release queue per worker process (:func:`_cpu_worker`), and how many of them
        #: started workers have taken.
        self.boards: list[Any] = []
        self.claimed: Any = None
        if kind == "process":
            ctx = multiprocessing.get_context("spawn")
            self.boards = [ctx.Queue() for _ in range(max(1, workers))]
            self.claimed = ctx.Value("i", 0)
            self.pool = concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=ctx, initializer=_cpu_worker,
                initargs=(os.getpid(), self.boards, self.claimed))
            self.hints = concurrent.futures.ProcessPoolExecutor(
                max(1, hint_workers), mp_context=ctx, initializer=_watch_parent,
                initargs=(os.getpid(), HINT_NICENESS))
        elif kind == "thread":
            self.pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="cpu")
            self.hints = concurrent.futures.ThreadPoolExecutor(max(1, hint_workers),
                                                               thread_name_prefix="hint")

    async def decide(self, spec: str, seed: int, obs: Observation, key: str = "") -> int:
        """The bot's action; ``key`` (the table's client address): whose turn it is to
        use a worker when several wait (:class:`FairGate`)."""
        if self.pool is None:
            return bot_act(spec, seed, obs)
        loop = asyncio.get_running_loop()
        await self.gate.enter(key)
        try:
            return await loop.run_in_executor(self.pool, bot_act, spec, seed, obs)
        finally:
            self.gate.leave(key)

    async def release(self, spec: str, seed: int) -> None:
        """Stop a seat's external program (:func:`release`) off the event loop (it waits up
        to 1 s for the program to end). In a process pool each worker may have started one
        for the seat: every started worker is told, on its release queue, and stops its own
        at once, even while it decides for another table (this returns without waiting)."""
        if not is_external(spec):
            return
        if self.pool is None:
            release(spec, seed)
            return
        if self.boards:
            with self.claimed.get_lock():
                started = self.claimed.value
            for board in self.boards[:started]:  # (a worker started later has none)
                board.put((spec, seed))
            return
        await asyncio.get_running_loop().run_in_executor(self.pool, release, spec, seed)

    async def hint(self, obs: Observation, names: tuple[str, ...] | None = None
                   ) -> tuple[int, str]:
        if self.hints is None:
            return hint_for(obs, names)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.hints, hint_for, obs, names)

    def close(self) -> None:
        """Cancel what is queued and wait for the workers to end. Left to the interpreter's
        exit, a process pool was woken through a pipe its own thread was closing at that
        moment (Python 3.11's exit hook, unlocked): a stop printed an EBADF traceback."""
        for pool in (self.pool, self.hints):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        for board in self.boards:  # (its worker has ended: nothing left to read it)
            board.cancel_join_thread()
            board.close()
