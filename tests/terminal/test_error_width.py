"""Messages on standard error are broken between words at the terminal's width (a
40-column terminal cut them mid-word), with the same words; to a pipe each stays on one
line, as scripts read them."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

from tests.terminal.driver import env, run_cli

COLUMNS = 40


def narrow(*args: str) -> tuple[list[str], int]:
    """The lines ``spades ARGS`` writes in a pseudo-terminal 40 columns wide (its standard
    output and standard error both), and its exit status."""
    e = env()
    e.pop("COLUMNS", None)  # (the terminal's own width is the one to follow)
    child = pexpect.spawn(sys.executable, ["-m", "spades", *args], env=e, encoding="utf-8",
                          timeout=60, dimensions=(24, COLUMNS))
    child.expect(pexpect.EOF)
    child.close()
    status = child.exitstatus
    assert status is not None
    return child.before.replace("\r\n", "\n").rstrip("\n").split("\n"), status


def bad_record(tmp_path: Path) -> Path:
    record = tmp_path / "bad.json"
    record.write_text('{"rules": "cardems", "this": "is not a record"}\n', encoding="utf-8")
    return record


def cases(tmp_path: Path) -> list[tuple[str, ...]]:
    db = str(tmp_path / "games.sqlite3")
    not_a_db = tmp_path / "not-a-database.sqlite3"
    not_a_db.write_text("these are not the bytes of a database, as long as one line is\n" * 9,
                        encoding="utf-8")
    return [
        # an option argparse refuses (its usage first, then its error)
        ("play", "--players", "lots", "--db", db),
        # an option spades play refuses itself
        ("play", "--teams", "1,2/3", "--db", db),
        # a record that cannot be imported (spades play --resume then has nothing of it)
        ("import", str(bad_record(tmp_path)), "--db", db),
        # a database that cannot be opened
        ("play", "--db", str(not_a_db)),
    ]


@pytest.mark.parametrize("case", range(4))
def test_errors_are_broken_between_words_at_the_terminal_width(tmp_path: Path,
                                                               case: int) -> None:
    args = cases(tmp_path)[case]
    piped = run_cli(*args)
    assert piped.returncode in (1, 2)
    error = piped.stderr.rstrip("\n").split("\n")[-1]  # (after argparse's usage)
    assert len(error) > COLUMNS, error  # long enough to need breaking
    lines, status = narrow(*args)
    assert status == piped.returncode
    # (a word longer than a line, such as a long path, stays whole on a line of its own)
    assert all(len(line) <= COLUMNS or " " not in line.strip() for line in lines), lines
    # the error's words, in order, each whole on one line: the lines that end the output,
    # joined, are the message the pipe gets on one line
    words = error.split(" ")
    tail: list[str] = []
    for line in reversed(lines):
        tail.insert(0, line)
        if len(" ".join(tail).split()) >= len(words):
            break
    assert " ".join(tail) == error, lines
    assert len(tail) > 1


def test_a_pipe_gets_each_error_on_one_line(tmp_path: Path) -> None:
    """Not a terminal, nothing is broken: a script reads an error as one line."""
    result = run_cli("import", str(bad_record(tmp_path)), "--db", str(tmp_path / "g.sqlite3"))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) > 80, lines
    assert lines[0].startswith("spades import: ")
