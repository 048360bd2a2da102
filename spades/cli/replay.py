"""``spades replay FILE [--json]``: check match records and print their scores."""

from __future__ import annotations

import argparse
import codecs
import json
import sys
from typing import Any

from spades.cli.sheet import score_sheet
from spades.engine import RecordError, replay, summary
from spades.engine.records import record_names


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


def read_records(data: str | bytes) -> list[Any]:
    """One JSON document, or JSON Lines (one record per line). Whatever the input holds,
    each unreadable line (not UTF-8, not JSON, nested too deeply) becomes one
    ``RecordError`` item saying where, and the other lines are still read."""
    if isinstance(data, bytes):
        raw = data.removeprefix(codecs.BOM_UTF8)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # JSON Lines with a broken line: read the others
            return [_load_bytes(line, n) for n, line in enumerate(raw.split(b"\n"), start=1)
                    if line.strip()]
    else:
        text = data.removeprefix("\ufeff")
    if not text.strip():
        return [RecordError("record: the input is empty")]
    whole = _load(text.strip(), "record")
    if not isinstance(whole, RecordError):
        return [whole]
    return [_load(line, f"line {n}") for n, line in enumerate(text.split("\n"), start=1)
            if line.strip()]


def _load_bytes(line: bytes, n: int) -> Any:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return RecordError(f"line {n}: not UTF-8 text: byte 0x{line[exc.start]:02x} "
                           f"at column {exc.start + 1}")
    return _load(text, f"line {n}")


def _load(text: str, where: str) -> Any:
    """The JSON value of ``text``, or a ``RecordError`` saying why it is not one."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        return RecordError(f"{where}: not JSON: {exc.msg} at column {exc.colno}")
    except RecursionError:
        return RecordError(f"{where}: not JSON that can be read: nested too deeply")
    except ValueError:  # a number of more digits than Python converts
        return RecordError(f"{where}: not JSON that can be read: a number has too many digits")


def run(args: argparse.Namespace) -> int:
    data: str | bytes
    try:
        if args.file == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            data = stdin.read() if stdin is not None else sys.stdin.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except OSError as exc:
        print(f"spades replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    status = 0
    records = read_records(data)
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
            print(score_sheet(match, record_names(record, match.rules.players)))
    return status
