"""The engine docs stay true to the code: their Python examples run, their JSON parses."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spades.engine import PROFILE_OPTIONS, PROFILES, RecordError, replay, summary

DOCS = Path(__file__).resolve().parents[2] / "docs"


def blocks(name: str, lang: str) -> list[str]:
    text = (DOCS / name).read_text(encoding="utf-8")
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("index", range(len(blocks("engine.md", "python"))))
def test_engine_guide_examples_run(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(blocks("engine.md", "python")[index], f"engine.md#{index}", "exec"), {})


def test_records_doc_example_replays_as_documented() -> None:
    example = blocks("records.md", "json")[-1]
    assert summary(replay(json.loads(example))) == {
        "hands": [], "scores": [0, 0], "bags": [0, 0], "finished": False, "winner": None}


def test_records_doc_rules_examples_are_rules() -> None:
    """The objects records.md shows for a record's ``rules`` field read as the rules it
    says: every one is accepted, with the knobs it names."""
    from spades.engine import rules_from_json

    examples = [json.loads(line) for line in blocks("records.md", "json")[0].splitlines()]
    assert len(examples) == 4
    for example in examples:
        rules = rules_from_json(example)
        knobs = {("one_hand" if k == "match" else k): (v == "one-hand" if k == "match" else v)
                 for k, v in example.items() if k != "preset"}
        assert {k: getattr(rules, k) for k in knobs} == knobs, example
    assert rules_from_json({"preset": "cardems", "teams": None}).sides == ((0,), (1,), (2,), (3,))
    assert rules_from_json({"preset": "cards4net", "bidding": "mirror"}).blind_nil is False


def test_profiles_doc_lists_every_profile_and_its_options() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    for name in PROFILES:
        assert f"## `{name}`" in text
        section = text.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
        for knob in PROFILE_OPTIONS[name]:
            assert f"`{knob}`" in section and "**option**" in section, (name, knob)


def _broken(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(blocks("records.md", "json")[-1])  # the doc's example
    change(record)
    return record


def _complete_two_hands() -> dict[str, Any]:
    example = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
    record: dict[str, Any] = json.loads(example.read_text(encoding="utf-8"))
    record["hands"][1]["dealer"] = 0
    return record


#: A record for each error that records.md shows ``replay`` giving, in the doc's order.
DOC_ERRORS: dict[str, Callable[[], dict[str, Any]]] = {
    "hand 1, play 2: the ace of hearts has already been played": lambda: _broken(
        lambda r: r["hands"][0].update(plays=["AH", "AH"], deal=[
            r["hands"][0]["deal"][2], r["hands"][0]["deal"][0], r["hands"][0]["deal"][1],
            r["hands"][0]["deal"][3]])),
    "hand 1, bid 1: a bid must be from 0 to 13, not 14": lambda: _broken(
        lambda r: r["hands"][0]["bids"].__setitem__(0, 14)),
    "hand 2: the dealer must be seat 1 (one seat clockwise of the last), not 0":
        _complete_two_hands,
    "hand 1: the hand is not complete, yet hand 2 follows": lambda: _broken(
        lambda r: r["hands"].append(r["hands"][0])),
    "rules: unknown rules profile 'nope'; choose one of cardems, ...": lambda: _broken(
        lambda r: r.update(rules="nope")),
    "rules: bogus: unknown rules knob; known: bag_limit, bag_penalty, ...": lambda: _broken(
        lambda r: r["rules"].update(bogus=1)),
    "rules: target: must be a whole number 1 or more, not nan": lambda: _broken(
        lambda r: r["rules"].update(target=float("nan"))),
    'record: "hands" must be a list, not an object of 2 keys': lambda: _broken(
        lambda r: r.update(hands={"a": [1, 2, 3, 4, 5, 6], "b": 2})),
    'record: "hands" is missing: a record gives its rules ...': lambda: _broken(
        lambda r: r.pop("hands")),
}


def test_records_doc_errors_are_what_replay_says() -> None:
    """records.md listed ``rules: name: unknown rules knob``, which no record gives since
    ``name`` became a key of custom rules: every error the doc shows for a record is real."""
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    shown = [json.loads(line)["error"] for line in re.findall(r'^\{"error": .*\}$', text, re.M)]
    about_records = [e for e in shown if not e.startswith(("line ", "record: the input"))]
    assert about_records == list(DOC_ERRORS)
    for error, make in DOC_ERRORS.items():
        with pytest.raises(RecordError) as caught:
            replay(make())
        assert str(caught.value).startswith(error.removesuffix("..."))


#: Every ```python block of the documentation, by file, and the test that runs it as written:
#: a new example (or a new document with one) must be added here and to a test that runs it.
RUN_BY_TESTS = {
    "README.md": (1, "tests/bots/test_docs_bots.py (the library example)"),
    "docs/bot-protocol.md": (1, "tests/bots/test_docs_bots.py (Using it from Python)"),
    "docs/bots.md": (3, "tests/bots/test_docs_bots.py"),
    "docs/engine.md": (7, "tests/engine/test_docs.py"),
    "docs/learn.md": (3, "tests/learn/test_docs_learn.py"),
}


def test_every_python_example_of_the_docs_is_run_by_a_test() -> None:
    root = DOCS.parent
    found = {}
    for path in [root / "README.md", *DOCS.glob("*.md"), *(root / "examples").rglob("*.md")]:
        count = len(re.findall(r"^```python\n", path.read_text(encoding="utf-8"), flags=re.M))
        if count:
            found[path.relative_to(root).as_posix()] = count
    assert found == {name: count for name, (count, _) in RUN_BY_TESTS.items()}
