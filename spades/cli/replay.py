"""``spades replay FILE [--json | --events]``: check match records and print their scores,
or every event of them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spades.cli.sheet import score_sheet
from spades.engine import Event, HandDealt, RecordError, replay, summary
from spades.engine.records import record_rules
from spades.present.narrate import Narrator, seat_names


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="check match records (spades-record/1) step by step and print their scores",
        description="Read one record (JSON) or many (JSON Lines, one per line), check every "
        "bid and play against the rules, and print each record's score sheet. "
        "Exit status 1 if any record breaks a rule.",
    )
    p.add_argument("file", metavar="FILE", help="record file, or - for standard input")
    p.add_argument("--json", action="store_true",
                   help="print exactly one JSON line per record (scores, or an error)")
    p.add_argument("--events", action="store_true",
                   help="print one JSON line per event of each record: deal, bid, play, "
                   "spades_broken, trick, nil, contract, hand_scored, match_over... "
                   "with its sentence (see docs/records.md)")
    p.set_defaults(func=run)


def read_records(text: str) -> list[Any]:
    """One JSON document, or JSON Lines. Unreadable lines become ``RecordError`` items."""
    stripped = text.strip()
    if not stripped:
        return [RecordError("record: the input is empty")]
    try:
        return [json.loads(stripped)]
    except json.JSONDecodeError:
        pass
    out: list[Any] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            out.append(RecordError(f"line {n}: not JSON: {exc.msg} at column {exc.colno}"))
    return out


def event_lines(record: Any, number: int) -> tuple[list[dict[str, Any]], RecordError | None]:
    """The ``--events`` lines of one record (``number`` counts records from 1): one per
    event, ``{"record", "hand", "type", ...fields, "text"}``; for a broken record, the lines
    of the events before the broken step, and the error."""
    sink: list[Event] = []
    error = None
    try:
        replay(record, into=sink)
    except RecordError as exc:
        error = exc
    if not sink:
        return [], error
    rules = record_rules(record)  # sound: a hand was dealt under them
    names = record.get("names")
    if not (isinstance(names, list) and len(names) == rules.players
            and all(isinstance(x, str) or x is None for x in names)):
        names = None  # the default seat names (North... or Seat N), as the score sheet does
    narrator = Narrator(rules, names=seat_names(rules, names))
    lines = []
    hand = 0
    for event in sink:
        if isinstance(event, HandDealt):
            hand = event.hand
        lines.append({"record": number, "hand": hand, **event.to_json(),
                      "text": narrator.say(event)})
    return lines, error


def run_events(records: list[Any]) -> int:
    """``spades replay FILE --events``: a broken record prints the events before the broken
    step, then ``{"record": R, "error": ...}``, and makes the exit status 1; the other records
    are still printed."""
    status = 0
    for i, record in enumerate(records, start=1):
        lines, error = event_lines(record, i) if not isinstance(record, RecordError) else (
            [], record)
        for line in lines:
            print(json.dumps(line))
        if error is not None:
            status = 1
            print(json.dumps({"record": i, "error": str(error)}))
    return status


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"spades replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    status = 0
    records = read_records(text)
    if args.events:
        if args.json:
            print("spades replay: choose --json or --events, not both", file=sys.stderr)
            return 2
        return run_events(records)
    for i, record in enumerate(records, start=1):
        try:
            if isinstance(record, RecordError):
                raise record
            match = replay(record)
        except RecordError as exc:
            status = 1
            if args.json:
                print(json.dumps({"error": str(exc)}))
            else:
                prefix = f"record {i}: " if len(records) > 1 else ""
                print(f"{prefix}error: {exc}")
            continue
        if args.json:
            print(json.dumps(summary(match)))
        else:
            if len(records) > 1:
                print(f"Record {i}")
            names = record.get("names") if isinstance(record.get("names"), list) else None
            print(score_sheet(match, names))
    return status
