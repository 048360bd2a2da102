"""Terminal input and output for ``spades play``.

Output is one line per event (a screen reader reads them in order). Input is read line by
line from a file descriptor with :func:`select.select`, so a prompt can have a deadline
(the turn timer) without blocking forever, and scripted input through a pipe works too.
"""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable
from typing import TextIO

#: ANSI colours used by the richer view.
RED = "\x1b[31m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
RESET = "\x1b[0m"


#: Plain-ASCII stand-ins for the few other characters the game prints, for a terminal
#: whose encoding lacks them (``PYTHONIOENCODING=ascii``, a ``C`` locale).
ASCII_FALLBACK = str.maketrans({
    "·": ".", "—": "-", "–": "-", "±": "+/-", "…": "...", "’": "'", "‘": "'", "“": '"',
    "”": '"', "♠": "S", "♥": "H", "♦": "D", "♣": "C", "×": "x",
})


def fit(text: str, encoding: str | None) -> str:
    """``text`` as the output's encoding can write it: as it is when it can, else with
    ASCII stand-ins and ``?`` for anything else (a name typed in another script)."""
    if not encoding:
        return text
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:
        return text
    return text.translate(ASCII_FALLBACK).encode(encoding, "replace").decode(encoding)


class InputClosed(Exception):
    """Standard input reached its end (Ctrl-D, or the end of a script)."""


class LineReader:
    """Whole lines from a file descriptor, each read waiting at most until a deadline."""

    def __init__(self, fd: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.fd = fd
        self.clock = clock
        self.buffer = b""
        self.closed = False

    def read_line(self, deadline: float | None = None) -> str | None:
        """The next line without its newline; ``None`` if the deadline passes first.

        Raises :class:`InputClosed` at the end of the input."""
        while True:
            if b"\n" in self.buffer:
                line, _, self.buffer = self.buffer.partition(b"\n")
                return line.decode("utf-8", "replace").rstrip("\r")
            if self.closed:
                if self.buffer:
                    line, self.buffer = self.buffer, b""
                    return line.decode("utf-8", "replace")
                raise InputClosed
            wait = None if deadline is None else max(0.0, deadline - self.clock())
            if wait is not None and wait <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                if deadline is not None and self.clock() >= deadline:
                    return None
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self.closed = True
            self.buffer += chunk


class Console:
    """Where the game writes its lines and reads its answers."""

    def __init__(
        self,
        out: TextIO | None = None,
        reader: LineReader | None = None,
        *,
        rich: bool = False,
        symbols: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.out = out if out is not None else sys.stdout
        self.reader = reader if reader is not None else LineReader(sys.stdin.fileno(), clock)
        self.rich = rich
        self.symbols = symbols
        self.clock = clock

    def say(self, line: str = "") -> None:
        """One line of output (one sentence or one block)."""
        self.write(line + "\n")

    def write(self, text: str) -> None:
        """Text as the output's encoding can take it (see :func:`fit`), flushed."""
        self.out.write(fit(text, getattr(self.out, "encoding", None)))
        self.out.flush()

    def style(self, text: str, *codes: str) -> str:
        if not self.rich or not codes:
            return text
        return "".join(codes) + text + RESET

    def ask(
        self,
        prompt: str,
        *,
        deadline: float | None = None,
        warnings: tuple[float, ...] = (),
        on_warning: Callable[[float], None] | None = None,
    ) -> str | None:
        """Print ``prompt`` and read one line. With a deadline, call ``on_warning(seconds)``
        as each of ``warnings`` (seconds left) is reached; ``None`` once the deadline passes.
        """
        self.write(prompt)
        pending = sorted((w for w in warnings if deadline is None
                          or deadline - self.clock() > w), reverse=True)
        while True:
            if deadline is None:
                return self.reader.read_line(None)
            step = deadline if not pending else deadline - pending[0]
            line = self.reader.read_line(step)
            if line is not None:
                return line
            if not pending:
                self.write("\n")
                return None
            left = pending.pop(0)
            if on_warning is not None:
                self.write("\n")
                on_warning(left)
                self.write(prompt)


def supports_rich(out: TextIO) -> bool:
    """Colour and the laid-out trick: a real terminal that is not ``dumb``, no ``NO_COLOR``."""
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):
        return False
    term = os.environ.get("TERM", "")
    return tty and term not in ("", "dumb") and "NO_COLOR" not in os.environ


def supports_symbols(out: TextIO) -> bool:
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    return encoding.startswith("utf")
