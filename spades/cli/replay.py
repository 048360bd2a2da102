"""``spades replay FILE [--json]``: check match records and print their scores."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spades.cli.sheet import score_sheet
from spades.engine import RecordError, replay, summary


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
