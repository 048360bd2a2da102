"""Bots from outside: a separate program speaking the line protocol of docs/bot-protocol.md.

:class:`ExternalBot` starts the program on its first decision, sends it the rules and its
seat, then one observation each time it must act, and reads one action per line. A refused
answer (garbage, or an illegal action) is reported to the program and asked again, at most
``retries`` times. A program that exits, stops answering within ``timeout`` seconds, or keeps
answering wrongly raises an :class:`ExternalBotError`; the caller decides what happens next
(the arena voids the deal, a table seats a CPU player instead).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import select
import shlex
import shutil
import subprocess
import time
from typing import Any

from spades.bots.base import check_turn
from spades.engine import Observation, Rules, SpadesError, action_str, parse_action
from spades.engine.records import rules_json

PROTOCOL = "spades-bot/1"
#: The longest answer line read (bytes): a program writing without end, and no newline, was
#: kept in memory until its time was up.
MAX_LINE = 1 << 20
log = logging.getLogger("spades.bots.external")


class ExternalBotError(Exception):
    """The external program cannot go on playing."""


class BotDied(ExternalBotError):
    """The program exited, or closed its standard input or output."""


class BotTimeout(ExternalBotError):
    """The program did not answer in time (it has been stopped)."""


class BotRefused(ExternalBotError):
    """The program kept giving answers that are not legal actions."""


def rules_message(rules: Rules, seat: int) -> dict[str, Any]:
    """The ``start`` message: the rules (as in records, and every knob spelled out) and the
    program's seat."""
    knobs = dataclasses.asdict(rules)
    if knobs["teams"] is not None:
        knobs["teams"] = [list(side) for side in knobs["teams"]]
    return {
        "type": "start",
        "protocol": PROTOCOL,
        "seat": seat,
        "rules": rules_json(rules),
        "knobs": knobs,
        "sides": [list(side) for side in rules.sides],
        "hand_size": rules.hand_size,
    }


def _seconds(name: str, value: object, *, zero: bool) -> float:
    """A time limit given to :class:`ExternalBot`: a finite number of seconds above 0 (or
    0 too, for ``zero``), else an error naming the argument."""
    what = f"{name}: must be a number of seconds{', 0 or more' if zero else ' above 0'}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what}, not {value!r}")
    if not (value >= 0 if zero else value > 0) or not math.isfinite(value):
        raise ValueError(f"{what}, not {value!r}")
    return value


def program_problem(argv0: str) -> str | None:
    """Why the program ``argv0`` of a command cannot be started, or ``None`` if it can be:
    ``"not found"``, ``"not found on PATH"``, ``"a folder, not a program"`` or ``"not
    executable"`` (a path holding a slash is taken from the current folder, a bare name is
    looked for on PATH, as the program is started). Callers refuse such a spec before
    anything is played; a program is still only started on its first decision."""
    if os.sep in argv0 or (os.altsep and os.altsep in argv0):
        if os.path.isdir(argv0):
            return "a folder, not a program"
        if not os.path.exists(argv0):
            return "not found"
        return None if os.access(argv0, os.X_OK) else "not executable"
    if shutil.which(argv0) is not None:
        return None
    for folder in os.get_exec_path():
        if os.path.isfile(os.path.join(folder or ".", argv0)):
            return "not executable"
    return "not found on PATH"


def check_program(command: str) -> None:
    """Refuse (``ValueError``) a ``cmd:`` command whose program cannot be started, naming
    the spec, the program and why."""
    program = ExternalBot(command).argv[0]
    why = program_problem(program)
    if why is None:
        return
    hint = ""
    if why == "not executable":
        hint = " (make it executable, or put its interpreter first, like cmd:\"python3 bot.py\")"
    elif why == "not found on PATH" and os.path.isfile(program):
        hint = f" (a program in this folder is named ./{program})"
    raise ValueError(f"cmd:{command}: cannot run the program {program!r}: {why}{hint}")


class ExternalBot:
    """A player run by another program (``cmd:PROGRAM ARGS`` in bot specs)."""

    name = "external"

    def __init__(self, command: str, *, timeout: float = 10.0, start_timeout: float = 10.0,
                 retries: int = 2) -> None:
        if not isinstance(command, str):  # (shlex.split(None) would read standard input)
            raise TypeError(f"command: must be text like 'python3 my_bot.py', "
                            f"not {command!r}"[:200])
        self.command = command
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"cmd:{command}: cannot split the command into words "
                             f"({str(exc).lower()})") from None
        if not self.argv:
            raise ValueError('cmd: needs a program to run, like cmd:"python3 my_bot.py"')
        self.timeout = _seconds("timeout", timeout, zero=False)
        self.start_timeout = _seconds("start_timeout", start_timeout, zero=True)
        if isinstance(retries, bool) or not isinstance(retries, int):
            raise TypeError(f"retries: must be a whole number 0 or more, not {retries!r}")
        if retries < 0:
            raise ValueError(f"retries: must be a whole number 0 or more, not {retries!r}")
        self.retries = retries
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.started_for: tuple[Rules, int] | None = None
        self.problems: list[str] = []
        self.first = True
        self.at = ""  # the decision being asked, for messages: " at seat 2's bid in hand 1"

    # Process handling ----------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        if self.proc is None:
            try:
                self.proc = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            except OSError as exc:
                raise self._fail(BotDied, f"cannot start {self.command!r}: {exc}") from None
        return self.proc

    def _fail(self, kind: type[ExternalBotError], why: str) -> ExternalBotError:
        self._report(why)
        self.close()
        return kind(f"external bot {self.command!r}{self.at}: {why}")

    def _report(self, why: str) -> None:
        self.problems.append(f"{self.at[4:]}: {why}" if self.at else why)
        log.warning("external bot %r%s: %s", self.command, self.at, why)

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._spawn()
        assert proc.stdin is not None
        try:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail(BotDied, self._exit_text()) from None

    def _exit_text(self) -> str:
        """Why the program stopped talking: its exit status, waited for a moment (its
        output closes just before it ends, and the status told a crash from a clean exit)."""
        proc = self.proc
        code: int | None = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                return "the program closed its standard output (it has not exited)"
        if code is None:
            return "the program has exited"
        if code < 0:
            return f"the program was killed by signal {-code}"
        return f"the program has exited (status {code})"

    def _readline(self, timeout: float) -> str:
        proc = self._spawn()
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._fail(BotTimeout, f"no answer within {timeout:g} s (an answer must "
                                             "end with a newline and be flushed)")
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._fail(BotDied, self._exit_text())
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
                raise self._fail(BotRefused, f"an answer line longer than {MAX_LINE} bytes "
                                             f"(it begins {self.buffer[:40]!r})")
        line, _, self.buffer = self.buffer.partition(b"\n")
        # (utf-8-sig: a byte order mark, as programs on Windows may begin their output
        # with, is no part of the answer; "\r" of a "\r\n" line end is stripped)
        return line.decode("utf-8-sig", errors="replace").strip()

    def close(self) -> None:
        """Tell the program to quit and make sure it has ended."""
        proc, self.proc = self.proc, None
        self.buffer = b""
        self.started_for = None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(b'{"type": "quit"}\n')
                proc.stdin.flush()
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # (no module globals here: at interpreter exit they may already be None)
        try:  # noqa: SIM105 (contextlib.suppress would need the module's globals)
            self.close()
        except Exception:
            pass

    # Playing -------------------------------------------------------------------------

    def act(self, obs: Observation) -> int:
        check_turn(obs)
        self.at = f" at {decision_text(obs)}"
        key = (obs.rules, obs.seat)
        if self.started_for != key:
            self._send(rules_message(obs.rules, obs.seat))
            self.started_for = key
        message = {"type": "act", "observation": obs.to_json()}
        legal = set(obs.legal_actions)
        last = ""
        for attempt in range(self.retries + 1):
            self._send(message)
            timeout = self.timeout + (self.start_timeout if self.first else 0.0)
            answer = self._readline(timeout)
            self.first = False
            action, why = parse_answer(answer, legal)
            if action is not None:
                return action
            self._report(f"refused answer {answer[:80]!r}: {why}")
            last = f" (the last, {answer[:80]!r}: {why})"
            if attempt < self.retries:
                self._send({"type": "error", "answer": answer[:200], "message": why})
        raise self._fail(BotRefused, f"{self.retries + 1} refused answers in a row{last}")


def decision_text(obs: Observation) -> str:
    """The decision ``obs`` asks for, in words: "seat 2's bid in hand 1", "seat 0's card
    2 of trick 5 in hand 3"."""
    if obs.phase == "play":
        trick = sum(obs.tricks) + 1
        return (f"seat {obs.seat}'s card {len(obs.trick) + 1} of trick {trick} "
                f"in hand {obs.hand_number}")
    return f"seat {obs.seat}'s bid in hand {obs.hand_number}"


def parse_answer(answer: str, legal: set[int]) -> tuple[int | None, str]:
    """An answer line (``QH``, ``3``, ``nil`` or ``{"action": "QH"}``) as a legal action,
    or ``None`` and the reason it is refused."""
    text = answer
    if answer.startswith("{"):
        try:
            value = json.loads(answer)
        except json.JSONDecodeError:
            return None, "not valid JSON"
        if not isinstance(value, dict) or "action" not in value:
            return None, 'a JSON answer needs "action"'
        given = value["action"]
        if isinstance(given, bool) or not isinstance(given, str | int):  # true is no 1
            return None, ('a JSON answer needs "action" as text or a whole number, not '
                          + json.dumps(given)[:40])
        text = str(given)
    if not text:
        return None, "empty answer"
    try:
        action = parse_action(text)
    except SpadesError as exc:  # often a line of debugging, printed to the wrong stream
        return None, f"{exc}; anything else a program prints goes to standard error"
    if action not in legal:
        options = " ".join(action_str(a) for a in sorted(legal))
        return None, f"{action_str(action)} is not legal now; legal: {options}"
    return action, ""
