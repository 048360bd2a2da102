"""``spades replay FILE [--json | --events]``: check match records and print their scores,
or every event of them."""

from __future__ import annotations

import argparse
import codecs
import json
import sys
from typing import Any

from spades.engine import Event, HandDealt, RecordError, replay, summary
from spades.engine.records import record_names, record_rules
from spades.present.narrate import Narrator, seat_names
from spades.present.sheet import score_sheet
from spades.tui.console import print_error


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


def read_input(path: str, command: str) -> bytes | str:
    """The bytes of file ``path``, or of standard input for ``-`` (OSError if it cannot be
    read). Reading a terminal, it first says so on standard error, with how to end the input:
    otherwise ``spades import -`` typed at a prompt seems to hang."""
    if path != "-":
        with open(path, "rb") as f:  # the reader says where a file is not UTF-8
            return f.read()
    if sys.stdin.isatty():
        print_error(f"spades {command}: reading a record from standard input: paste it, then press "
                    "Enter and Ctrl-D (Ctrl-C stops)")
    stdin = getattr(sys.stdin, "buffer", None)
    return stdin.read() if stdin is not None else sys.stdin.read()


def read_records(data: str | bytes) -> list[Any]:
    """One JSON document (which may span lines), or JSON Lines (one record per line).

    Whatever the input holds, it gives values and ``RecordError`` items saying where
    (``line N: ...``): each line of JSON Lines that cannot be read (not UTF-8, not JSON,
    nested too deeply) is one error and the other lines are still read; a document that
    spans lines and cannot be read (no line of it is a JSON object alone) is one error."""
    whole: Any
    if isinstance(data, bytes):
        raw = data.removeprefix(codecs.BOM_UTF8)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line_start = raw.rfind(b"\n", 0, exc.start) + 1
            whole = _not_utf8(raw.count(b"\n", 0, exc.start) + 1, raw[exc.start],
                              exc.start - line_start + 1)
            lines = [_load_bytes(line, n) for n, line in enumerate(raw.split(b"\n"), start=1)
                     if line.strip()]
            return _records_of(whole, lines)
    else:
        text = data.removeprefix("\ufeff")
    if not text.strip():
        return [RecordError("record: the input is empty")]
    whole = _load(text, 1)
    if not isinstance(whole, RecordError):
        return [whole]
    return _records_of(whole, [_load(line, n) for n, line in enumerate(text.split("\n"), start=1)
                               if line.strip()])


def _records_of(whole: RecordError, lines: list[Any]) -> list[Any]:
    """JSON Lines, unless no line is a record alone: then one broken document."""
    if len(lines) > 1 and not any(isinstance(item, dict) for item in lines):
        return [whole]
    return lines


def _not_utf8(line: int, byte: int, column: int) -> RecordError:
    return RecordError(f"line {line}: not UTF-8 text: byte 0x{byte:02x} at column {column}")


def _load_bytes(line: bytes, n: int) -> Any:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _not_utf8(n, line[exc.start], exc.start + 1)
    return _load(text, n)


def _load(text: str, line: int) -> Any:
    """The JSON value of ``text`` (whose first line is line ``line`` of the file), or a
    ``RecordError`` saying why it is not one and on which line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        comma = _trailing_comma(text, exc.pos)
        if comma is not None:  # (was "Expecting value" at the bracket: what, not why)
            at_line = text.count("\n", 0, comma) + 1
            column = comma - text.rfind("\n", 0, comma)
            close = text[exc.pos]
            after = ("" if at_line == exc.lineno else f" on line {line + exc.lineno - 1}")
            return RecordError(f"line {line + at_line - 1}: not JSON: a comma with no item "
                               f"after it at column {column}, before the {close!r}{after}: "
                               "JSON allows no comma after the last item; remove it")
        why = exc.msg.removesuffix(" at")  # ("Unterminated string starting at")
        return RecordError(f"line {line + exc.lineno - 1}: not JSON: {why} "
                           f"at column {exc.colno}")
    except (RecursionError, ValueError) as exc:
        first = line + text[:len(text) - len(text.lstrip())].count("\n")
        why = ("nested too deeply" if isinstance(exc, RecursionError)
               else "a number has too many digits")  # more than Python converts
        return RecordError(f"line {first}: not JSON that can be read: {why}")


def _trailing_comma(text: str, pos: int) -> int | None:
    """Where the comma is when JSON stops at ``pos`` on a closing bracket or brace that
    follows a comma (``["a", "b",]``, a hand-edited record's most common slip), else None."""
    if pos >= len(text) or text[pos] not in "]}":
        return None
    before = text[:pos].rstrip()
    return len(before) - 1 if before.endswith(",") else None


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
    # A seat the record does not name gets its default name (North... or Seat N).
    narrator = Narrator(rules, names=seat_names(rules, record_names(record, rules.players)))
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
    data: str | bytes
    try:
        data = read_input(args.file, "replay")
    except OSError as exc:
        print_error(f"spades replay: cannot read {args.file}: {exc.strerror}")
        return 2
    status = 0
    records = read_records(data)
    if args.events:
        if args.json:
            print_error("spades replay: choose --json or --events, not both")
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
            print(score_sheet(match, record_names(record, match.rules.players)))
    return status
