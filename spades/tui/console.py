"""Terminal input and output for ``spades play``.

Output is one line per event (a screen reader reads them in order), broken between words
where it is longer than the terminal is wide. Input is read line by
line from a file descriptor with :func:`select.select`, so a prompt can have a deadline
(the turn timer) without blocking forever, and scripted input through a pipe works too.
"""

from __future__ import annotations

import codecs
import os
import re
import select
import shutil
import sys
import termios
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress
from typing import Any, TextIO

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


#: The name of the codec error handler that writes what an encoding lacks as :func:`fit`
#: does (see :func:`fit_streams`).
FIT_ERRORS = "spades-fit"


def _fit_error(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return fit(exc.object[exc.start:exc.end], exc.encoding), exc.end


codecs.register_error(FIT_ERRORS, _fit_error)


def fit_streams(*streams: TextIO) -> None:
    """Make every command's output fit its encoding the way the game's does (:func:`fit`):
    the suit symbols, dashes... in ASCII stand-ins and anything else as ``?``, instead of
    an error or backslash escapes."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with suppress(Exception):  # a stream that cannot change its error handling
                reconfigure(errors=FIT_ERRORS)


class InputClosed(Exception):
    """Standard input reached its end (Ctrl-D, or the end of a script)."""


class LineReader:
    """Whole lines from a file descriptor, each read waiting at most until a deadline.

    Lines are read as the terminal hands them over (the terminal echoes and edits them),
    except under a deadline on a terminal (:meth:`keys`): there the reader takes the keys one
    by one and echoes and edits the line itself, so it always knows what has been typed so
    far (:attr:`partial`): a warning can show it again, and a timeout can drop it instead of
    joining it to the next answer."""

    def __init__(self, fd: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.fd = fd
        self.clock = clock
        self.buffer = b""
        self.closed = False
        #: What has been typed of the current line, key by key (see :meth:`keys`).
        self.partial = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._escape = 0  # inside a key's escape sequence (arrows...): 1 after ESC, 2 in CSI

    def _fill(self, deadline: float | None) -> bool:
        """Read what is available into the buffer, waiting at most until ``deadline``;
        False if the deadline passed first."""
        wait = None if deadline is None else max(0.0, deadline - self.clock())
        if wait is not None and wait <= 0:
            return False
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return deadline is None or self.clock() < deadline
        chunk = os.read(self.fd, 4096)
        if not chunk:
            self.closed = True
        self.buffer += chunk
        return True

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
            if not self._fill(deadline):
                return None

    @contextmanager
    def keys(self) -> Iterator[bool]:
        """On a terminal, take keys one at a time without the terminal's echo for the time
        of the block (True); elsewhere (a pipe, a file) change nothing (False)."""
        with _line_editing_off(self.fd, echo=False, wait=True) as changed:
            yield changed is not None

    def read_keys(self, deadline: float | None, echo: Callable[[str], None]) -> str | None:
        """The next line typed key by key (inside :meth:`keys`), echoed through ``echo``
        with Backspace and Ctrl-U editing it; ``None`` if the deadline passes first (what
        was typed stays in :attr:`partial`). Raises :class:`InputClosed` on Ctrl-D at the
        start of a line or at the end of the input."""
        while True:
            if self.buffer:
                chars = self._decoder.decode(self.buffer)
                self.buffer = b""
                for i, ch in enumerate(chars):
                    if self._escape:
                        if self._escape == 1:
                            self._escape = 2 if ch in "[O" else 0
                        elif "@" <= ch <= "~":
                            self._escape = 0
                        continue
                    if ch in "\r\n":
                        rest = chars[i + 1:]
                        if ch == "\r" and rest.startswith("\n"):
                            rest = rest[1:]
                        held, _ = self._decoder.getstate()
                        self._decoder.reset()
                        self.buffer = rest.encode() + held + self.buffer
                        line, self.partial = self.partial, ""
                        echo("\n")
                        return line
                    if ch == "\x1b":
                        self._escape = 1
                    elif ch in ("\x7f", "\b"):
                        if self.partial:
                            self.partial = self.partial[:-1]
                            echo("\b \b")
                    elif ch == "\x15":  # Ctrl-U: the whole line
                        echo("\b \b" * len(self.partial))
                        self.partial = ""
                    elif ch == "\x04" and not self.partial:  # Ctrl-D
                        raise InputClosed
                    elif ch.isprintable():
                        self.partial += ch
                        echo(ch)
            if self.closed:
                if self.partial:
                    line, self.partial = self.partial, ""
                    return line
                raise InputClosed
            if not self._fill(deadline):
                return None

    def drop_partial(self) -> str:
        """Forget the line being typed (its keys, a piped line without its newline yet, or
        what a terminal holds unread) and return it."""
        dropped, self.partial = self.partial, ""
        self.buffer += self._held_by_terminal()
        with suppress(termios.error, OSError):  # not a terminal: nothing held there
            termios.tcflush(self.fd, termios.TCIFLUSH)
        if b"\n" not in self.buffer and self.buffer:
            dropped += self.buffer.decode("utf-8", "replace")
            self.buffer = b""
        return dropped

    def _held_by_terminal(self) -> bytes:
        """What a terminal in its own line editing (keys not taken one by one: the output
        is a pipe or a log) holds of a line not entered yet: read by turning that editing
        off for a moment, which hands it over; nothing elsewhere."""
        held = b""
        with _line_editing_off(self.fd, echo=True, wait=False) as before:
            if before is None or not before[3] & termios.ICANON:
                return b""  # not a terminal, or keys are already taken one by one
            try:
                while select.select([self.fd], [], [], 0)[0]:
                    chunk = os.read(self.fd, 4096)
                    if not chunk:
                        break
                    held += chunk
            except OSError:
                pass
        return held


@contextmanager
def _line_editing_off(fd: int, *, echo: bool, wait: bool) -> Iterator[list[Any] | None]:
    """For the time of the block, the terminal ``fd`` hands over each key as it comes (and
    echoes it only with ``echo``; a read waits for a key only with ``wait``). Gives the
    settings it had, which come back afterwards, or ``None`` when ``fd`` is no terminal."""
    try:
        old = termios.tcgetattr(fd)
    except (termios.error, OSError):
        yield None
        return
    new = termios.tcgetattr(fd)
    new[3] &= ~(termios.ICANON if echo else termios.ICANON | termios.ECHO)
    new[6][termios.VMIN] = 1 if wait else 0
    new[6][termios.VTIME] = 0
    try:
        termios.tcsetattr(fd, termios.TCSANOW, new)
        yield old
    finally:
        with suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSANOW, old)

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
        echo_keys: bool | None = None,
        columns: Callable[[], int | None] | None = None,
    ) -> None:
        self.out = out if out is not None else sys.stdout
        #: The terminal's width now (None: not a terminal); both views wrap their lines
        #: there, between words, rather than leave the terminal to cut words in two (not
        #: a terminal: piped output, a log a screen reader reads, keeps its lines whole).
        self.columns = columns if columns is not None else lambda: _columns(self.out)
        #: Under a deadline, read keys one by one and echo them here (default: when the
        #: output is a terminal, where the echo is seen).
        self.echo_keys = _is_tty(self.out) if echo_keys is None else echo_keys
        self.reader = reader if reader is not None else LineReader(sys.stdin.fileno(), clock)
        self.rich = rich
        self.symbols = symbols
        self.clock = clock
        #: What was typed but not entered when the last prompt's deadline passed.
        self.dropped = ""

    def say(self, line: str = "", *, hang: int = 0) -> None:
        """One line of output (one sentence or one block), wrapped between words to the
        terminal's width (whole when the output is not a terminal); with ``hang``, its
        further lines start at that column (under a table's last column, such as the
        description of a command in the help)."""
        self.write(self.wrap(line, hang=hang) + "\n")

    def wrap_prompt(self, prompt: str) -> str:
        """A prompt wrapped as :meth:`wrap` does, keeping the space after it where the
        answer is typed."""
        body = prompt.rstrip(" ")
        return self.wrap(body) + prompt[len(body):]

    def wrap(self, text: str, *, hang: int = 0) -> str:
        """``text`` with each line longer than the terminal broken between words (a line
        that starts with spaces keeps them on its further lines, or starts them at column
        ``hang`` when given); lines with colour codes are measured by what they show (the
        codes take no room on the screen), and words longer than a line stay whole."""
        return wrap_text(text, self.columns(), hang=hang)

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
        as each of ``warnings`` (seconds left) is reached, then print the prompt again with
        what has been typed so far; ``None`` once the deadline passes, when what was typed
        is dropped (kept in :attr:`dropped`) rather than joined to the next answer."""
        self.dropped = ""
        prompt = self.wrap_prompt(prompt)
        self.write(prompt)
        if deadline is None:
            return self.reader.read_line(None)
        pending = sorted((w for w in warnings if deadline - self.clock() > w), reverse=True)
        keys = self.reader.keys() if self.echo_keys else nullcontext(False)
        with keys as keyed:
            while True:
                step = deadline if not pending else deadline - pending[0]
                line = (self.reader.read_keys(step, self.write) if keyed
                        else self.reader.read_line(step))
                if line is not None:
                    return line
                if not pending:
                    self.dropped = self.reader.drop_partial().strip()
                    self.write("\n")
                    return None
                left = pending.pop(0)
                if on_warning is not None:
                    self.write("\n")
                    on_warning(left)
                    self.write(prompt + (self.reader.partial if keyed else ""))


def wrap_text(text: str, width: int | None, *, hang: int = 0) -> str:
    """``text`` broken between words at ``width`` as :meth:`Console.wrap` says (None, or a
    width under 20: as it is)."""
    if not width or width < 20:
        return text
    lines = []
    for line in text.split("\n"):
        if visible_width(line) <= width:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip(" "))]
        if 0 < hang <= width // 2:  # (a narrower terminal keeps the line's own indent)
            indent = " " * hang
        if "\x1b" in line:
            lines.extend(_wrap_styled(line, width, indent))
            continue
        lines.extend(textwrap.wrap(line, width, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False)
                     or [line])
    return "\n".join(lines)


#: Where a score sheet's unindented line (its title, the totals, the result) goes on when
#: broken: further in than any of its rows starts (a hand's at 0, a side's at 2).
SHEET_HANG = 4


def sheet_hang(line: str) -> int:
    """The column where a line of a score sheet goes on when the terminal breaks it: a
    side's line two columns further in than it starts, any other line at
    :data:`SHEET_HANG`, so that a line that goes on is never taken for a new row."""
    indent = len(line) - len(line.lstrip(" "))
    return indent + 2 if indent else SHEET_HANG


def print_wrapped(text: str = "", out: TextIO | None = None, *, sheet: bool = False) -> None:
    """Print ``text`` to a terminal as the game writes there: each line longer than the
    terminal broken between words, an indented line (a list's item) going on two columns
    further in (with ``sheet``, a score sheet: every line as :func:`sheet_hang` says); to
    anything else (a pipe, a file) as it is (``spades history``, ``show``, ``stats``)."""
    out = out if out is not None else sys.stdout
    print(_wrap_lines(text, _columns(out), sheet=sheet), file=out)


def print_error(text: str) -> None:
    """Print a message on standard error (a bad option, a record that cannot be read, a
    database that cannot be opened: every message the ``spades`` commands write there), each
    line longer than the terminal broken between words, as :func:`print_wrapped` does; the
    words are the same. To anything that is not a terminal (a pipe, a file) it goes as it
    is, each message on its own line, so that a script that reads the messages line by line
    (``grep "record 2:"``) is not broken by a width the reader never sees."""
    print(_wrap_lines(text, error_columns()), file=sys.stderr, flush=True)


def error_columns() -> int | None:
    """The width :func:`print_error` breaks its lines at: standard error's terminal's; when
    that terminal does not say (some report a width of 0), :func:`shutil.get_terminal_size`'s
    (``$COLUMNS``, else standard output's terminal, else 80); None when standard error is no
    terminal. (Not shutil's first: it measures standard output, and ``spades export last >
    match.json`` would then break the errors at 80 in a narrower terminal.)"""
    if not _is_tty(sys.stderr):
        return None
    return _columns(sys.stderr) or shutil.get_terminal_size((80, 24)).columns


def _wrap_lines(text: str, width: int | None, *, sheet: bool = False) -> str:
    """``text`` broken as :func:`print_wrapped` says, at ``width`` (None: as it is)."""
    lines = []
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        hang = sheet_hang(line) if sheet else indent + 2 if indent else 0
        lines.append(wrap_text(line, width, hang=hang))
    return "\n".join(lines)


#: A colour code of the richer view (it takes no room on the screen).
STYLE_CODE = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(text: str) -> int:
    """How many columns ``text`` takes on the screen: its colour codes take none."""
    return len(STYLE_CODE.sub("", text))


def _wrap_styled(line: str, width: int, indent: str) -> list[str]:
    """A line with colour codes broken between words as :func:`textwrap.wrap` breaks plain
    text (a refusal's red ``Refused:``, a bold prompt, a long row of cards), measured by
    what it shows; the codes stay with their words, so the colours still start and end
    where they did."""
    parts = re.split(r"( +)", line)  # words, and the spaces between them
    lines: list[str] = []
    current = parts[0]
    shown = visible_width(current)
    worded = shown > 0  # the line being made shows a word already
    for space, word in zip(parts[1::2], parts[2::2], strict=True):
        seen = visible_width(word)
        if seen and worded and shown + len(space) + seen > width:
            lines.append(current)  # the spaces at the break are dropped
            current, shown = indent + word, len(indent) + seen
        else:
            current, shown = current + space + word, shown + len(space) + seen
            worded = worded or seen > 0
    lines.append(current)
    return lines


def _columns(out: TextIO) -> int | None:
    """The width of the terminal ``out`` writes to, or None when it is not one."""
    try:
        return os.get_terminal_size(out.fileno()).columns if out.isatty() else None
    except (AttributeError, ValueError, OSError):
        return None


def _is_tty(out: TextIO) -> bool:
    """Whether ``out`` is a terminal (where the game may echo the keys it reads itself)."""
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


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
