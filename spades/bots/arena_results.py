"""The results file of ``spades arena --results FILE``: one JSON line per finished deal,
so that an interrupted run can be resumed (or extended with a larger ``--deals``) without
playing a deal twice.

The first line is a header naming the run (everything that decides what deal ``i`` is
and who plays it, but not the number of deals)::

    {"format": "spades-arena-results/1", "a": ..., "b": ..., "rules": ..., "players": ...,
     "teams": [[0, 2], [1, 3]] or null, "seed": ..., "mode": "hands" or "matches"}

Then one line per deal, in the order the deals finished::

    {"deal": 7, "diff": 12.5, "stats": {"a": {...SideStats...}, "b": {...}}}
    {"deal": 8, "diff": null, "error": "deal 8 (seed ...), play 1 of 2: ...", "stats": {...}}

Decision ``times`` are in seconds, rounded to microseconds.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from spades.bots.arena import ArenaConfig, DealOutcome, SideStats

FORMAT = "spades-arena-results/1"
#: The header fields that must match for a file to be resumed, in the order reported.
HEADER_FIELDS = ("a", "b", "rules", "players", "teams", "seed", "mode")
_INT_FIELDS = tuple(f.name for f in fields(SideStats) if f.name not in ("wins", "times"))


class ResultsError(Exception):
    """The results file cannot be used (its message names the file and what is wrong)."""


def header_for(cfg: ArenaConfig) -> dict[str, Any]:
    """The header line of ``cfg``'s results file (as it reads back from JSON)."""
    rules = cfg.rules
    teams = None if rules.teams is None else [list(side) for side in rules.teams]
    return {
        "format": FORMAT,
        "a": cfg.a,
        "b": cfg.b,
        "rules": rules.name,
        "players": rules.players,
        "teams": teams,
        "seed": cfg.seed,
        "mode": "matches" if cfg.matches else "hands",
    }


def stats_json(stats: SideStats) -> dict[str, Any]:
    out: dict[str, Any] = {name: getattr(stats, name) for name in _INT_FIELDS}
    out["wins"] = stats.wins
    out["times"] = [round(t, 6) for t in stats.times]
    return out


def outcome_json(outcome: DealOutcome) -> dict[str, Any]:
    """The line of a finished deal (without its records)."""
    line: dict[str, Any] = {"deal": outcome.index, "diff": outcome.diff}
    if outcome.diff is None:
        line["error"] = outcome.error or "void"
    line["stats"] = {key: stats_json(outcome.stats[key]) for key in ("a", "b")}
    return line


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _parse_stats(value: object) -> SideStats:
    if not isinstance(value, dict):
        raise ValueError("stats of a side is not an object")
    expected = set(_INT_FIELDS) | {"wins", "times"}
    if set(value) != expected:
        missing = sorted(expected - set(value))
        extra = sorted(set(value) - expected)
        what = ", ".join([f"missing {m!r}" for m in missing] + [f"unknown {e!r}" for e in extra])
        raise ValueError(f"stats fields: {what}")
    for name in _INT_FIELDS:
        if not _is_int(value[name]) or (name != "points" and value[name] < 0):
            raise ValueError(f"stats {name!r} is not " + (
                "an integer" if name == "points" else "a count (an integer 0 or more)"))
    if not _is_number(value["wins"]):
        raise ValueError("stats 'wins' is not a number")
    times = value["times"]
    if not isinstance(times, list) or not all(_is_number(t) for t in times):
        raise ValueError("stats 'times' is not a list of numbers")
    return SideStats(**{name: value[name] for name in _INT_FIELDS},
                     wins=float(value["wins"]), times=[float(t) for t in times])


def parse_outcome(line: object) -> DealOutcome:
    """A deal line read back (``ValueError`` saying what is wrong)."""
    if not isinstance(line, dict):
        raise ValueError("not a JSON object")
    index = line.get("deal")
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError("'deal' is not a deal index (an integer 0 or more)")
    diff = line.get("diff", "missing")
    error: str | None = None
    if diff is None:
        error = line.get("error")
        if not isinstance(error, str):
            raise ValueError("a void deal ('diff' null) has no 'error' text")
    elif not _is_number(diff):
        raise ValueError("'diff' is not a number or null")
    stats = line.get("stats")
    if not isinstance(stats, dict) or set(stats) != {"a", "b"}:
        raise ValueError("'stats' is not an object with 'a' and 'b'")
    parsed = {key: _parse_stats(stats[key]) for key in ("a", "b")}
    return DealOutcome(index, None if diff is None else float(diff), parsed, [], error)


@dataclass
class LoadedResults:
    """What an existing (or missing) results file holds."""

    path: Path
    #: Finished deals by index (all of them, including any at or past ``--deals``).
    done: dict[int, DealOutcome] = field(default_factory=dict)
    #: Bytes of the file to keep (a last line cut short is after them); None: no file yet.
    keep: int | None = None
    #: Warnings for standard error (a dropped last line).
    warnings: list[str] = field(default_factory=list)


def load_results(path: Path, cfg: ArenaConfig) -> LoadedResults:
    """Read ``path`` for a run of ``cfg`` without changing it (``ResultsError`` when it
    cannot be used)."""
    loaded = LoadedResults(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return loaded
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    keep = len(data)
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: empty, or a line cut short
    if tail:
        keep -= len(tail)
        loaded.warnings.append(
            f"{path} line {len(lines) + 1}: cut short (the run was stopped while writing "
            "it); dropped, that deal will be played again")
    loaded.keep = keep
    if not lines:
        return loaded  # empty (or only a cut header): written afresh
    try:
        header = json.loads(lines[0])
    except (ValueError, UnicodeDecodeError):
        raise ResultsError(f"{path} line 1: not JSON (expected the header of an arena "
                           "results file)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ResultsError(f"{path} line 1: not the header of an arena results file "
                           f"(no \"format\": \"{FORMAT}\")")
    want = header_for(cfg)
    differ = [name for name in HEADER_FIELDS if header.get(name) != want[name]]
    if differ:
        what = "; ".join(f"{name} is {json.dumps(header.get(name))} in the file, "
                         f"{json.dumps(want[name])} in this run" for name in differ)
        raise ResultsError(f"{path}: made by a different run ({what}); use another file or "
                           "the same settings")
    for number, raw in enumerate(lines[1:], start=2):
        try:
            outcome = parse_outcome(json.loads(raw))
        except (ValueError, UnicodeDecodeError) as exc:
            why = str(exc) if not isinstance(exc, json.JSONDecodeError) else "not JSON"
            raise ResultsError(f"{path} line {number}: {why}") from None
        if outcome.index in loaded.done:
            raise ResultsError(f"{path} line {number}: deal {outcome.index} is already in "
                               "the file (each deal is written once)")
        loaded.done[outcome.index] = outcome
    return loaded


class ResultsWriter:
    """Appends deal lines to a results file, each flushed and synced to disk."""

    def __init__(self, loaded: LoadedResults, cfg: ArenaConfig) -> None:
        path = loaded.path
        if loaded.keep is not None:
            with path.open("r+b") as f:
                f.truncate(loaded.keep)
        fresh = loaded.keep is None or loaded.keep == 0
        self._file = path.open("a", encoding="utf-8")
        if fresh:
            self._write(header_for(cfg))

    def _write(self, line: dict[str, Any]) -> None:
        self._file.write(json.dumps(line) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def append(self, outcome: DealOutcome) -> None:
        self._write(outcome_json(outcome))

    def close(self) -> None:
        self._file.close()
