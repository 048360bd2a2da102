"""What outlives one match in the terminal: saved games, records carried between the apps,
statistics (a user's trial of them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.terminal.driver import run_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def example() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return record


def stats(db: Path) -> dict[str, Any]:
    out = run_cli("stats", "--json", "--db", str(db))
    assert out.returncode == 0, out.stderr
    book: dict[str, Any] = json.loads(out.stdout)
    return book


def test_a_match_imported_again_is_counted_once(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    record = example()
    first = tmp_path / "match.json"
    first.write_text(json.dumps(record), encoding="utf-8")
    # The same match as the server gives it back (another id, its own names for the seats).
    served = tmp_path / "served.json"
    served.write_text(json.dumps({**record, "id": "0f0e0d0c-0000-4000-8000-000000000000",
                                  "names": ["CPU 1", "Ann", "CPU 3", "CPU 4"]}),
                      encoding="utf-8")
    for path in (first, first, served):
        out = run_cli("import", str(path), "--db", str(db))
        assert out.returncode == 0, out.stderr
    history = run_cli("history", "--db", str(db)).stdout
    assert history.count("(imported)") == 3  # all three are kept, to review
    book = stats(db)
    assert book["total"]["matches_played"] == 1, book["total"]
    assert book["total"]["hands_played"] == len(record["hands"])
    # A different match (cut after its first hand) is a game of its own.
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps({**record, "hands": record["hands"][:1]}), encoding="utf-8")
    assert run_cli("import", str(cut), "--db", str(db)).returncode == 0
    book = stats(db)
    assert book["total"]["matches_played"] == 1
    assert book["total"]["hands_played"] == len(record["hands"]) + 1
