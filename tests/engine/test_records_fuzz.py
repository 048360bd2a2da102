"""Mangled records never crash the reader (issue 15, item 6).

Valid records (the bundled example and generated ones of many rules variants) are mangled
by hypothesis: values replaced by any JSON value, keys deleted or added, types changed,
values nested thousands of levels deep, the text cut or given bytes that are not UTF-8.
Through :func:`spades.engine.replay` and through ``spades replay``, the only outcome other
than a replayed match is a :class:`RecordError` whose one-line message says where; and a
file mixing good and mangled records still scores the good ones.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from engine_support import VARIANT_BY_LABEL, random_match, step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.cli import main
from spades.engine import Match, RecordError, Rules, replay, summary
from spades.engine.records import MAX_MESSAGE
from spades.engine.rules import JSON_KNOBS

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"

#: Where an error may say it is: the record, its rules, a hand, a bid or play of a hand,
#: or (reading a file) a line of it.
LOCATED = re.compile(r"(record|rules|hand \d+|hand \d+, (bid|play) \d+|line \d+): \S")


def base_records() -> list[dict[str, Any]]:
    records = [json.loads(EXAMPLE.read_text(encoding="utf-8"))]
    for label, seed in (("cards4net-timer", 3), ("cards4net-jokers-timer", 5),
                        ("race400-6-3x2", 7), ("race400-3-timer", 11), ("cards4net-mirror", 13),
                        ("cards4net-suicide", 17), ("game93-one-hand", 19)):
        match = random_match(VARIANT_BY_LABEL[label], seed, max_hands=2, partial=True)
        records.append(match.to_record(names=["Nora", "Emil", "Sofia", "Walt", "Ines", "Omar"]))
    rng = random.Random(23)  # a custom solo game with jokers and the timer, 1.5 hands
    custom = Match(Rules(teams=None, jokers=True, turn_timer=30), rng=random.Random(29))
    for _ in range(80):
        step(custom, rng, timeouts=True)
        if custom.phase == "deal":
            custom.deal()
    records.append(custom.to_record())
    records.append({"rules": {"preset": "custom", "players": 5, "teams": None,
                              "turn_timer": 30}, "hands": []})
    return records


BASES = base_records()
SUMMARIES = [summary(replay(r)) for r in BASES]

NASTY = st.sampled_from([
    "2C", "2D", "AS", "BJ", "LJ", "10H", "th", "queen of hearts", "nil", "blind-nil", "look",
    "13", "²", "٣", "9" * 5000, "", " ", "\n", "\ud800", "\u202e", "cardems", "race400",
    "custom", "mirror", "one-hand", "spades-record/1", "x" * 10_000, -1, 0, 1, 3, 4, 6, 13, 14,
    52, 53, 2**63, -(2**63), 10**4000, 0.5, 4.0, float("nan"), float("inf"), -float("inf"),
    True, False, None, [], {}, [[0, 2], [1, 3]], [[0], [1]], {"bid": 1}, {"play": 1},
])
KEYS = st.sampled_from(sorted(JSON_KNOBS) + [
    "preset", "name", "format", "rules", "teams", "names", "players", "hands", "dealer",
    "deal", "bids", "plays", "timeouts", "bid", "play", "id", "", "\x00", "\ud800"])
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
           | NASTY)
JSON = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(KEYS | st.text(max_size=6), kids, max_size=4),
                    max_leaves=10)

OPS = ("replace", "nasty", "delete", "add", "retype", "nest", "swap", "truncate")


def mutate(data: st.DataObject, value: Any) -> Any:
    """``value`` with one thing changed somewhere inside it (the original is not touched)."""
    if isinstance(value, (dict, list)) and value and data.draw(st.integers(0, 4)) > 0:
        if isinstance(value, dict):
            key = data.draw(st.sampled_from(list(value)))
            return {**value, key: mutate(data, value[key])}
        i = data.draw(st.integers(0, len(value) - 1))
        return [*value[:i], mutate(data, value[i]), *value[i + 1:]]
    op = data.draw(st.sampled_from(OPS))
    if op == "replace":
        return data.draw(JSON)
    if op == "nasty":
        return data.draw(NASTY)
    if op == "delete" and value:
        if isinstance(value, dict):
            key = data.draw(st.sampled_from(list(value)))
            return {k: v for k, v in value.items() if k != key}
        if isinstance(value, list):
            i = data.draw(st.integers(0, len(value) - 1))
            return value[:i] + value[i + 1:]
    if op == "add" and isinstance(value, dict):
        return {**value, data.draw(KEYS | st.text(max_size=6)): data.draw(JSON)}
    if op == "add" and isinstance(value, list):
        return [*value, data.draw(JSON)]
    if op == "retype":
        kind = data.draw(st.sampled_from(("str", "list", "object", "number", "bool")))
        if kind == "str":
            return value if isinstance(value, str) else json.dumps(value)[:50]
        if kind == "list":
            return [value]
        if kind == "object":
            return {"value": value}
        if kind == "number":
            return len(value) if isinstance(value, (str, list, dict)) else 7
        return bool(value)
    if op == "nest":
        depth = data.draw(st.sampled_from([2, 50, 999, 1000, 1001, 3000]))
        object_nest = data.draw(st.booleans())
        for _ in range(depth):
            value = {"x": value} if object_nest else [value]
        return value
    if op == "swap" and isinstance(value, list) and len(value) > 1:
        i, j = data.draw(st.integers(0, len(value) - 1)), data.draw(st.integers(0, len(value) - 1))
        out = list(value)
        out[i], out[j] = out[j], out[i]
        return out
    if op == "truncate" and isinstance(value, (list, str)) and value:
        return value[:data.draw(st.integers(0, len(value) - 1))]
    return data.draw(JSON)


def dumps(value: Any, pretty: bool = False) -> str:
    """JSON text of any value, however deep (``json.dumps`` recurses): on one line, or
    ``pretty`` with a line break after every ``{``, ``[`` and ``,``."""
    br = "\n" if pretty else ""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            out.append(item.text)
        elif isinstance(item, dict):
            parts: list[Any] = [_Text("{" + br)]
            for n, (k, v) in enumerate(item.items()):
                parts += [_Text(("," + br if n else "") + json.dumps(k) + ":"), v]
            stack.extend(reversed([*parts, _Text("}")]))
        elif isinstance(item, list):
            parts = [_Text("[" + br)]
            for n, v in enumerate(item):
                parts += [_Text("," + br), v] if n else [v]
            stack.extend(reversed([*parts, _Text("]")]))
        else:
            out.append(json.dumps(item))
    return "".join(out)


class _Text:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def check_error(message: str) -> None:
    assert LOCATED.match(message), message
    assert "\n" not in message and len(message) <= MAX_MESSAGE, message


def mangled(data: st.DataObject) -> tuple[int, Any]:
    k = data.draw(st.integers(0, len(BASES) - 1))
    record: Any = BASES[k]
    for _ in range(data.draw(st.integers(1, 3))):
        record = mutate(data, record)
    return k, record


FUZZ = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.data())
def test_a_mangled_record_replays_or_says_where_it_is_broken(data: st.DataObject) -> None:
    _, record = mangled(data)
    try:
        match = replay(record)
    except RecordError as exc:
        check_error(str(exc))
    else:
        json.dumps(summary(match))  # what spades replay prints can be printed


def run_replay(path: Path, *flags: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["replay", str(path), *flags])
    return status, out.getvalue().splitlines()


def garble(data: st.DataObject, text: bytes) -> bytes:
    """The line cut somewhere, or with bytes that are not UTF-8 put in (never a newline)."""
    kind = data.draw(st.sampled_from(("cut", "bytes", "none")))
    at = data.draw(st.integers(0, len(text)))
    if kind == "cut":
        return text[:at] or b"{"
    if kind == "bytes":
        junk = data.draw(st.binary(min_size=1, max_size=4).filter(lambda b: b"\n" not in b))
        return text[:at] + b"\xff" + junk + text[at:]
    return text


@settings(FUZZ, max_examples=150)
@given(st.data())
def test_a_file_mixing_good_and_mangled_records_still_scores_the_good_ones(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    path = tmp_path_factory.getbasetemp() / "mixed.jsonl"
    before, after = data.draw(st.integers(0, len(BASES) - 1)), data.draw(
        st.integers(0, len(BASES) - 1))
    _, record = mangled(data)
    line = garble(data, dumps(record).encode("utf-8", "surrogatepass"))
    path.write_bytes(b"\n".join([json.dumps(BASES[before]).encode(), line,
                                 json.dumps(BASES[after]).encode()]) + b"\n")
    status, lines = run_replay(path, "--json")
    assert len(lines) == 3, lines
    assert json.loads(lines[0]) == SUMMARIES[before]
    assert json.loads(lines[2]) == SUMMARIES[after]
    middle = json.loads(lines[1])
    assert set(middle) == {"error"} or set(middle) == set(SUMMARIES[0]), middle
    if "error" in middle:
        check_error(middle["error"])
        assert status == 1
    else:
        assert status == 0
    status_text, text = run_replay(path)
    assert status_text == status
    errors = [t for t in text if t.startswith("record 2: error: ")]
    assert len(errors) == ("error" in middle)
    assert not any(t.startswith(("record 1: error", "record 3: error")) for t in text)
    if "error" in middle:
        assert errors[0] == f"record 2: error: {middle['error']}"


@settings(FUZZ, max_examples=100)
@given(st.data())
def test_a_mangled_record_spanning_lines_is_one_result(
        tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    path = tmp_path_factory.getbasetemp() / "one.json"
    _, record = mangled(data)
    path.write_bytes(garble(data, dumps(record, pretty=True).encode("utf-8", "surrogatepass")))
    status, lines = run_replay(path, "--json")
    assert len(lines) == 1, lines
    result = json.loads(lines[0])
    if "error" in result:
        check_error(result["error"])
        assert status == 1
    else:
        assert set(result) == set(SUMMARIES[0]) and status == 0
