"""The ``spades`` command. Each module of this package that defines
``register(subparsers)`` adds one subcommand."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import NoReturn

import spades

#: The modules whose commands the top-level help lists first, in this order.
FIRST = ("play", "serve", "games")


class _Help(argparse.HelpFormatter):
    """argparse's help, wrapped only at spaces: by default it also breaks after a hyphen,
    and a path (``/tmp/my-home/...``) or an option (``--no-color``) came out cut in two."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False,
                             break_long_words=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False,
                             break_long_words=False)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser with that help; its subcommands' parsers are of this class too."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: The parser of each command (``spades`` itself: its subcommands').
        self.commands: Mapping[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> NoReturn:
        """A bad command line: the usage and ``spades play: error: ...`` on standard error,
        exit status 2, as argparse says them, but through :func:`print_error`: broken
        between words at the terminal's width (the usage laid out for that width too)."""
        from spades.tui.console import error_columns, print_error

        columns, kind = error_columns(), self.formatter_class
        formatter = (kind(prog=self.prog, width=max(columns - 2, 11))
                     if columns and isinstance(kind, type) and issubclass(kind, _Help)
                     else self._get_formatter())
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        print_error(f"{formatter.format_help().rstrip()}\n{self.prog}: error: {message}")
        raise SystemExit(2)


def build_parser() -> _Parser:
    parser = _Parser(
        prog="spades",
        description="Spades: play against CPU players, replay and check match records, "
        "run the game server.",
        epilog="To start: spades play (a match in this terminal) or spades serve (the game "
        "in your browser, at http://127.0.0.1:8000/). spades COMMAND --help gives a "
        "command's options.",
    )
    parser.add_argument("--version", action="version", version=f"spades {spades.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.commands = sub.choices  # (each command's own parser, for its errors)
    # The commands a newcomer starts with come first in the list, then the rest by name.
    for info in sorted(pkgutil.iter_modules(__path__),
                       key=lambda m: (m.name not in FIRST, FIRST.index(m.name)
                                      if m.name in FIRST else 0, m.name)):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from spades.tui.console import fit_streams

    fit_streams(sys.stdout, sys.stderr)  # an ASCII terminal gets QH, -, ... (docs/terminal.md)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # An optional positional (``spades export GAME [FILE]``) typed after an option
    # (``spades export last --db games.sqlite3 match.json``) is left over by argparse: it
    # takes it as given nothing before the option. Such a word fills the first of them.
    for name in getattr(args, "late_positionals", ()):
        if extra and getattr(args, name) is None and not extra[0].startswith("-"):
            setattr(args, name, extra.pop(0))
    if extra:  # said with the usage of the command they were given to (spades play ...)
        parser.commands.get(args.command, parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        result: int = args.func(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return result
