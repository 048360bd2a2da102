"""Argument types shared by the subcommands: numbers that must be finite and positive, and
the checks that a database path someone gave is a file in a folder that exists.

A bad value is refused by argparse with the option's name and the reason (exit 2)."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path


def positive_int(text: str) -> int:
    """A whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0."""
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def seconds_or_zero(text: str) -> float:
    """A finite number of seconds, 0 or more."""
    value = _finite(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, not {text}")
    return value


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
    return value


def missing_db_folder(db: str | None, command: str) -> str | None:
    """Why a database path the user gave (``--db``, else ``$SPADES_DB``) cannot be used: a
    SQLite file in a folder that does not exist is most likely a typo, so it is refused
    rather than the folder made. None when there is nothing to refuse (a URL, ``:memory:``,
    an existing folder, or the default path, whose folder is made when needed)."""
    if refused := db_is_a_folder(db, command):
        return refused
    given, source = (db, "--db") if db else (os.environ.get("SPADES_DB"), "$SPADES_DB")
    if not given or "://" in given or given == ":memory:":
        return None
    folder = Path(given).expanduser().parent
    if folder.exists():
        return None
    return (f"spades {command}: {source} {given}: the folder {folder} does not exist; "
            "make it first, or give a path in a folder that exists")


def db_is_a_folder(db: str | None, command: str) -> str | None:
    """Why a database path the user gave (``--db``, else ``$SPADES_DB``) that names a folder
    cannot be used (SQLite's own words, "unable to open database file", do not say why), or
    None."""
    given, source = (db, "--db") if db else (os.environ.get("SPADES_DB"), "$SPADES_DB")
    if not given or "://" in given or given == ":memory:":
        return None
    if not Path(given).expanduser().is_dir():
        return None
    return (f"spades {command}: {source} {given}: that is a folder, not a database file; "
            f"give a file's path, such as {Path(given) / 'spades.sqlite3'}")
