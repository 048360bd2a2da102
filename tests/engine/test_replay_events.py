"""``spades replay FILE --events`` agrees with the records: every trick winner, every nil and
contract outcome (at the trick that decides it) worked out here from the record alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from engine_support import VARIANTS, random_match
from test_properties import trick_winner

from spades.cli import main
from spades.engine import bid_value, parse_bid, parse_card, rules_from_json

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def expected_outcomes(record: dict[str, Any]) -> dict[str, Any]:
    """From the record only: per hand, the trick winners, and each nil's and each side's
    ``(made, trick)`` where the tricks played so far decide it."""
    players = len(record["hands"][0]["deal"])
    rules = rules_from_json(record["rules"], record.get("teams"), players)
    n, size = players, rules.hand_size
    out: dict[str, Any] = {"winners": {}, "nils": {}, "contracts": {}}
    for h, hand in enumerate(record["hands"], start=1):
        first = (hand["dealer"] + 1) % n
        bids = [0] * n
        for i, value in enumerate(hand["bids"]):
            bids[(first + i) % n] = bid_value(parse_bid(value))
        plays = [parse_card(c) for c in hand["plays"]]
        leader, winners = first, []
        for t in range(len(plays) // n):
            cards = [((leader + i) % n, c) for i, c in enumerate(plays[t * n:(t + 1) * n])]
            leader = trick_winner(cards)
            winners.append(leader)
        out["winners"][h] = winners
        if len(hand["bids"]) < n:
            continue
        for s in range(n):
            if bids[s] == 0:
                if s in winners:
                    out["nils"][(h, s)] = (False, winners.index(s) + 1)
                elif len(winners) == size:
                    out["nils"][(h, s)] = (True, size)
        for k, seats in enumerate(rules.sides):
            contract = sum(bids[s] for s in seats if bids[s] > 0)
            if contract == 0:
                continue
            counted = 0
            for t in range(len(winners) + 1):
                if t:
                    w = winners[t - 1]
                    if w in seats and (bids[w] > 0 or rules.failed_nil_tricks_count):
                        counted += 1
                if counted >= contract:
                    out["contracts"][(h, k)] = (True, t)
                    break
                if counted + size - t < contract:
                    out["contracts"][(h, k)] = (False, t)
                    break
    return out


def check(record: dict[str, Any], lines: list[dict[str, Any]]) -> None:
    want = expected_outcomes(record)
    winners: dict[int, list[int]] = {}
    nils: dict[tuple[int, int], tuple[bool, int]] = {}
    contracts: dict[tuple[int, int], tuple[bool, int]] = {}
    for line in lines:
        assert isinstance(line["text"], str) and line["text"]
        h = line["hand"]
        if line["type"] == "trick":
            assert line["trick"] == len(winners.get(h, [])) + 1
            winners.setdefault(h, []).append(line["winner"])
        elif line["type"] == "nil":
            assert (h, line["seat"]) not in nils
            nils[(h, line["seat"])] = (line["made"], line["trick"])
        elif line["type"] == "contract":
            assert (h, line["side"]) not in contracts
            contracts[(h, line["side"])] = (line["made"], line["trick"])
    assert winners == {h: w for h, w in want["winners"].items() if w}
    assert nils == want["nils"]
    assert contracts == want["contracts"]


def run_events(path: Path) -> tuple[int, list[dict[str, Any]]]:
    done = subprocess.run([sys.executable, "-m", "spades", "replay", str(path), "--events"],
                          capture_output=True, text=True, timeout=300)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def test_the_example_record() -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    status, lines = run_events(EXAMPLE)
    assert status == 0
    assert {line["record"] for line in lines} == {1}
    assert lines[0]["type"] == "deal" and lines[0]["hand"] == 1 and lines[0]["dealer"] == 0
    assert lines[-1]["type"] == "match_over" and lines[-1]["winner"] == 0
    assert list(lines[0])[:3] == ["record", "hand", "type"] and list(lines[0])[-1] == "text"
    types = {line["type"] for line in lines}
    assert {"deal", "bid", "play", "trick", "contract", "hand_scored", "match_over"} <= types
    assert lines[0]["text"].startswith("Hand 1: Nora deals")  # the record's names
    check(record, lines)


def test_generated_matches_of_every_profile(tmp_path: Path) -> None:
    records = [random_match(v, 40 + i, max_hands=2, partial=True).to_record()
               for i, v in enumerate(VARIANTS)]
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    status, lines = run_events(path)
    assert status == 0
    for i, record in enumerate(records, start=1):
        mine = [line for line in lines if line["record"] == i]
        assert mine, f"record {i} printed nothing"
        check(record, mine)
    seen = {line["type"] for line in lines}
    assert {"deal", "bid", "play", "spades_broken", "trick", "nil", "contract",
            "hand_scored", "look", "timeout", "bidding_closed"} <= seen


def test_broken_records_and_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad = dict(good, hands=[dict(good["hands"][0], plays=["2C", "2C"])])
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--events"]) == 1
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    first = [line for line in out if line["record"] == 1]
    # The events before the broken step are kept: the deal, the bids, the first card.
    assert first[0]["type"] == "deal" and first[0]["hand"] == 1
    assert first[-2]["type"] == "play" and first[-2]["card"] == "2C"
    assert first[-1] == {"record": 1, "error": "hand 1, play 2: the two of clubs has already "
                         "been played"}
    assert {line["record"] for line in out[len(first):]} == {2}
    path.write_text('{"rules": "nope", "hands": []}\n', encoding="utf-8")
    assert main(["replay", str(path), "--events"]) == 1
    assert json.loads(capsys.readouterr().out) == {
        "record": 1, "error": "rules: unknown rules profile 'nope'; choose one of cardems, "
        "cardgames-club, race400, game93, cards4net"}
    assert main(["replay", str(path), "--events", "--json"]) == 2
    assert "choose --json or --events" in capsys.readouterr().err


def test_records_doc_lists_every_event_type() -> None:
    from spades.engine import EVENT_TYPES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    section = doc.split("## `spades replay FILE --events`", 1)[1].split("\n## ", 1)[0]
    for kind in EVENT_TYPES:
        assert f"| `{kind.kind}` |" in section, kind.kind
    line = json.loads(section.split("```jsonl\n", 1)[1].split("\n```", 1)[0])
    assert list(line)[:3] == ["record", "hand", "type"] and "text" in line
