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


def sqlite_file(db: str) -> str | None:
    """The file a database given as a path or a ``sqlite:///PATH`` URL names (None for
    ``:memory:``, an in-memory ``sqlite://`` and any other database's URL)."""
    if db == ":memory:":
        return None
    if "://" not in db:
        return db
    if not db.lower().startswith("sqlite"):
        return None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        path = make_url(db).database
    except (ArgumentError, ValueError):
        return None
    return path if path and path != ":memory:" and not path.startswith("file:") else None


def missing_db_folder(db: str | None, command: str) -> str | None:
    """Why a database path the user gave (``--db``, else ``$SPADES_DB``) cannot be used: a
    SQLite file in a folder that does not exist is most likely a typo, so it is refused
    rather than the folder made. None when there is nothing to refuse (a URL, ``:memory:``,
    an existing folder, or the default path, whose folder is made when needed)."""
    if refused := db_is_a_folder(db, command):
        return refused
    given, source = (db, "--db") if db else (os.environ.get("SPADES_DB"), "$SPADES_DB")
    path = sqlite_file(given) if given else None
    if not given or path is None:
        return None
    folder = Path(path).expanduser().parent
    if folder.exists():
        return None
    return (f"spades {command}: {source} {given}: the folder {folder} does not exist; "
            "make it first, or give a path in a folder that exists")


def db_is_a_folder(db: str | None, command: str) -> str | None:
    """Why a database path the user gave (``--db``, else ``$SPADES_DB``) that names a folder
    cannot be used (SQLite's own words, "unable to open database file", do not say why), or
    None."""
    given, source = (db, "--db") if db else (os.environ.get("SPADES_DB"), "$SPADES_DB")
    path = sqlite_file(given) if given else None
    if not given or path is None:
        return None
    if not Path(path).expanduser().is_dir():
        return None
    return (f"spades {command}: {source} {given}: that is a folder, not a database file; "
            f"give a file's path, such as {Path(path) / 'spades.sqlite3'}")
