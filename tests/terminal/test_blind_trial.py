"""A blind player's trial of the terminal: what the listings read aloud."""

from __future__ import annotations

import re
from pathlib import Path

from tests.terminal.driver import run_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def test_dates_read_aloud_without_a_leading_zero(tmp_path: Path) -> None:
    """`spades history` and `spades show` wrote "05 Dec 2026 08:58": read "zero five Dec".
    They write "5 December 2026 at 08:58"."""
    db = str(tmp_path / "g.db")
    assert run_cli("import", str(EXAMPLE), "--db", db).returncode == 0
    when = r"[1-9]\d? (January|February|March|April|May|June|July|August|September|October|"
    when += r"November|December) \d{4} at \d\d:\d\d"
    listing = run_cli("history", "--db", db).stdout
    assert re.search(rf"^  [0-9a-f]{{8}}, {when}, ", listing, re.M), listing
    shown = run_cli("show", "last", "--db", db).stdout
    assert re.search(rf"^Game [0-9a-f]{{8}}, started {when}; ", shown), shown
