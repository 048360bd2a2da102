"""``--help`` is wrapped only at spaces. argparse also broke lines after a hyphen, so a
sighted trial at 80 columns read the default database as ``/tmp/termtrial-`` and, on the next
line, ``home/.local/share/...``; options and names with hyphens were cut the same way."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from spades.cli import build_parser


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Every command's help text, the top level's as ``spades``."""
    helps = {"spades": parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                helps[name] = sub.format_help()
    return helps


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_help_never_cuts_a_word_after_its_hyphen(columns: int, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "trial-home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("SPADES_DB", raising=False)
    monkeypatch.setenv("COLUMNS", str(columns))
    helps = _helps(build_parser())
    assert len(helps) > 10, sorted(helps)
    for command, text in helps.items():
        for line in text.splitlines():
            assert not re.search(r"[A-Za-z0-9]-$", line), (command, line)
    default = str(home / ".local" / "share" / "spades" / "spades.sqlite3")
    assert default in helps["play"], helps["play"]  # on one line, whole
