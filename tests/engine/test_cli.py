"""``spades replay`` and ``spades bench engine`` on real files, in-process and as commands."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import make_example
import pytest
from engine_support import VARIANT_BY_LABEL, random_match

from spades.cli import main
from spades.engine import replay, summary

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def records() -> list[dict[str, Any]]:
    return [
        random_match(VARIANT_BY_LABEL["cardems-100"], 1, max_hands=3).to_record(),
        random_match(VARIANT_BY_LABEL["race400-5"], 2, max_hands=2, partial=True).to_record(),
        random_match(VARIANT_BY_LABEL["cards4net-jokers"], 3, max_hands=2).to_record(),
    ]


def test_the_bundled_example_is_a_complete_match_and_up_to_date() -> None:
    assert make_example.main(["--check"]) == 0, "run python tests/engine/make_example.py"
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    match = replay(record)
    assert match.is_over() and match.winner is not None
    assert record["rules"] == "cardems" and len(record["names"]) == 4


def test_replay_json_single_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["replay", str(EXAMPLE), "--json"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result == summary(replay(json.loads(EXAMPLE.read_text(encoding="utf-8"))))
    assert set(result) == {"hands", "scores", "bags", "finished", "winner"}
    assert set(result["hands"][0]) == {"tricks", "points", "scores", "bags"}
    assert result["finished"] is True


def test_replay_json_lines_with_a_broken_record_in_the_middle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = records()
    broken = json.loads(json.dumps(good[1]))
    plays = broken["hands"][0]["plays"]
    plays[4] = plays[0]  # a card played twice: the fifth play of hand 1
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [good[0], broken, good[2]]) + "\n",
                    encoding="utf-8")
    status, out, _ = run(["replay", str(path), "--json"], capsys)
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0]) == summary(replay(good[0]))
    assert json.loads(lines[2]) == summary(replay(good[2]))
    error = json.loads(lines[1])
    assert list(error) == ["error"]
    assert error["error"].startswith("hand 1, play 5: ")
    assert lines[1] == json.dumps({"error": error["error"]})


def test_replay_bad_bid_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = records()[0]
    record["hands"][1]["bids"][2] = 14
    path = tmp_path / "bid.json"
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    status, out, _ = run(["replay", str(path), "--json"], capsys)
    assert status == 1
    assert json.loads(out)["error"].startswith("hand 2, bid 3: ")


def test_replay_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = records()
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(json.dumps(r) for r in good)))
    status, out, _ = run(["replay", "-", "--json"], capsys)
    assert status == 0
    assert [json.loads(line) for line in out.splitlines()] == [summary(replay(r)) for r in good]


def test_replay_prints_a_readable_score_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["replay", str(EXAMPLE)], capsys)
    assert status == 0
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    match = replay(record)
    assert "Hand 1 " in out and f"Hand {len(record['hands'])} " in out
    for name in record["names"]:
        assert name in out
    assert str(match.scores[0]) in out and str(match.scores[1]) in out
    assert "Winner:" in out
    assert not out.lstrip().startswith("{")


def test_replay_unreadable_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.json"
    status, out, err = run(["replay", str(missing), "--json"], capsys)
    assert status != 0 and out == ""
    assert "nope.json" in err and "cannot read" in err
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{this is not json\n", encoding="utf-8")
    status, out, _ = run(["replay", str(garbage), "--json"], capsys)
    assert status == 1
    assert json.loads(out)["error"].startswith("line 1: not JSON")


def test_replay_empty_input_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, out, _ = run(["replay", "-", "--json"], capsys)
    assert status == 1 and "error" in json.loads(out)


def test_spades_command_replay_and_bench() -> None:
    """The installed console command and ``python -m spades``, end to end."""
    done = subprocess.run([sys.executable, "-m", "spades", "replay", str(EXAMPLE), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"] is True
    done = subprocess.run(
        [sys.executable, "-m", "spades", "bench", "engine", "--seconds", "0.2", "--runs", "1",
         "--json"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["hands_per_second"] > 0
    command = shutil.which("spades")
    if command:
        done = subprocess.run([command, "replay", str(EXAMPLE)], capture_output=True, text=True,
                              timeout=60, check=False)
        assert done.returncode == 0 and "Winner:" in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "nope"], "argument --rules: invalid choice: 'nope'"),
    (["--runs", "0", "--seconds", "0.2"], "argument --runs: must be 1 or more, not 0"),
    (["--seconds", "nan", "--runs", "1"], "argument --seconds: must be a finite number, not nan"),
    (["--seconds", "inf", "--runs", "1"], "argument --seconds: must be a finite number, not inf"),
    (["--seconds", "0"], "argument --seconds: must be more than 0 seconds, not 0"),
    (["--seconds", "-1"], "argument --seconds: must be more than 0 seconds, not -1"),
])
def test_bench_refuses_bad_numbers_and_rules(args: list[str], message: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["bench", "engine", *args])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "replay", "hint", "arena", "bench", "export",
                                     "import", "history", "show", "stats"])
def test_every_command_help_has_a_description(command: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    usage, _, rest = capsys.readouterr().out.partition("\n\n")
    assert usage.startswith(f"usage: spades {command}")
    assert not rest.startswith(("positional arguments:", "options:")), rest[:80]
