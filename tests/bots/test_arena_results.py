"""``spades arena --results FILE``: resumable and extendable runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spades.bots.arena import DealOutcome, SideStats, config_from, run_arena
from spades.bots.arena_results import (
    header_for,
    load_results,
    outcome_json,
    parse_outcome,
)
from spades.cli import main

BASE = ["arena", "--a", "intermediate", "--b", "random", "--quiet", "--json"]
#: Fields that depend on the clock, not on the deals.
CLOCK = ("seconds", "resumed")
CLOCK_STATS = ("decision_ms_median", "decision_ms_p95")


def arena(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any] | None,
                                                                   str]:
    """Run ``spades arena`` in process: exit code, the JSON summary (or None), stderr."""
    code = main([*BASE, *args])
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    summary = json.loads(lines[-1]) if code == 0 else None
    return code, summary, err


def same_run(result: dict[str, Any]) -> dict[str, Any]:
    """The summary without what depends on the clock (or on the results file)."""
    out = {k: v for k, v in result.items() if k not in CLOCK}
    out["stats"] = {key: {k: v for k, v in stats.items() if k not in CLOCK_STATS}
                    for key, stats in result["stats"].items()}
    return out


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_resume_and_extend_give_the_one_go_summary(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    code, first, _ = arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results))
    assert code == 0 and first is not None and first["resumed"] == 0
    lines = lines_of(results)
    header = json.loads(lines[0])
    assert header["format"] == "spades-arena-results/1" and "deals" not in header
    assert (header["a"], header["b"], header["seed"], header["mode"]) == (
        "intermediate", "random", 1, "hands")
    assert sorted(json.loads(line)["deal"] for line in lines[1:]) == [0, 1, 2]

    code, extended, _ = arena(capsys, "--deals", "5", "--jobs", "1", "--results", str(results))
    assert code == 0 and extended is not None
    assert extended["resumed"] == 3 and extended["deals"] == 5
    assert sorted(json.loads(line)["deal"] for line in lines_of(results)[1:]) == list(range(5))

    code, fresh, _ = arena(capsys, "--deals", "5", "--jobs", "1")
    assert code == 0 and fresh is not None and fresh["resumed"] == 0
    assert same_run(extended) == same_run(fresh)
    for key in ("a", "b"):
        assert extended["stats"][key]["decisions"] == fresh["stats"][key]["decisions"]

    # Run again with everything in the file: nothing is played, the same report.
    code, again, _ = arena(capsys, "--deals", "5", "--jobs", "1", "--results", str(results))
    assert code == 0 and again is not None and again["resumed"] == 5
    assert same_run(again) == same_run(fresh)
    assert len(lines_of(results)) == 6


def test_interrupted_run_with_two_jobs(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    # The first two deals of a stopped run (in the order they finished).
    cfg = config_from("intermediate", "random", "cardems", None, 2, 1, False, False)
    stopped: list[str] = [json.dumps(header_for(cfg))]
    run_arena(cfg, on_outcome=lambda o: stopped.append(json.dumps(outcome_json(o))))
    results.write_text("\n".join([stopped[0], stopped[2], stopped[1]]) + "\n")

    code, resumed, _ = arena(capsys, "--deals", "4", "--jobs", "2", "--results", str(results))
    assert code == 0 and resumed is not None and resumed["resumed"] == 2
    code, fresh, _ = arena(capsys, "--deals", "4", "--jobs", "1")
    assert code == 0 and fresh is not None
    assert same_run(resumed) == same_run(fresh)
    assert sorted(json.loads(line)["deal"] for line in lines_of(results)[1:]) == list(range(4))


def test_deals_past_the_end_are_left_out(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    assert arena(capsys, "--deals", "4", "--jobs", "1", "--results", str(results))[0] == 0
    before = results.read_bytes()
    code, fewer, err = arena(capsys, "--deals", "2", "--jobs", "1", "--results", str(results))
    assert code == 0 and fewer is not None and fewer["resumed"] == 2
    assert "2 deals with index 2 or more left out" in err
    code, fresh, _ = arena(capsys, "--deals", "2", "--jobs", "1")
    assert code == 0 and fresh is not None
    assert same_run(fewer) == same_run(fresh)
    assert results.read_bytes() == before


def test_header_mismatch_names_the_fields(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    assert arena(capsys, "--deals", "1", "--jobs", "1", "--results", str(results))[0] == 0
    before = results.read_bytes()
    code, _, err = arena(capsys, "--deals", "2", "--jobs", "1", "--seed", "2", "--matches",
                         "--results", str(results))
    assert code == 2
    assert str(results) in err and "seed is 1 in the file, 2 in this run" in err
    assert 'mode is "hands" in the file, "matches" in this run' in err
    assert "players" not in err
    assert results.read_bytes() == before
    code, _, err = main_b(capsys, results)
    assert code == 2 and 'b is "random" in the file, "beginner" in this run' in err
    assert results.read_bytes() == before


def main_b(capsys: pytest.CaptureFixture[str], results: Path) -> tuple[int, str, str]:
    code = main(["arena", "--a", "intermediate", "--b", "beginner", "--deals", "2", "--quiet",
                 "--jobs", "1", "--results", str(results)])
    out, err = capsys.readouterr()
    return code, out, err


def test_last_line_cut_short_is_dropped(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    assert arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results))[0] == 0
    text = results.read_text(encoding="utf-8")
    results.write_text(text[: len(text) - 40], encoding="utf-8")  # line 4 cut short
    code, resumed, err = arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results))
    assert code == 0 and resumed is not None and resumed["resumed"] == 2
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and f"{results} line 4: cut short" in warnings[0]
    lines = lines_of(results)
    assert len(lines) == 4 and all(json.loads(line) for line in lines)
    assert results.read_text(encoding="utf-8").endswith("\n")
    code, fresh, _ = arena(capsys, "--deals", "3", "--jobs", "1")
    assert code == 0 and fresh is not None
    assert same_run(resumed) == same_run(fresh)


def test_malformed_middle_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    assert arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results))[0] == 0
    lines = lines_of(results)
    lines[2] = lines[2][:30]
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = results.read_bytes()
    code, _, err = arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results))
    assert code == 2 and f"{results} line 3: not JSON" in err
    assert results.read_bytes() == before

    record = json.loads(lines[1])
    del record["stats"]["a"]["bids"]
    lines[2] = json.dumps(record)
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results))
    assert code == 2 and f"{results} line 3: stats fields: missing 'bids'" in err


def test_duplicate_deal_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    assert arena(capsys, "--deals", "2", "--jobs", "1", "--results", str(results))[0] == 0
    lines = lines_of(results)
    results.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    before = results.read_bytes()
    deal = json.loads(lines[1])["deal"]
    code, _, err = arena(capsys, "--deals", "2", "--jobs", "1", "--results", str(results))
    assert code == 2
    assert f"{results} line 4: deal {deal} is already in the file" in err
    assert results.read_bytes() == before


def test_not_a_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "other.jsonl"
    results.write_text('{"hello": 1}\n', encoding="utf-8")
    code, _, err = arena(capsys, "--deals", "1", "--jobs", "1", "--results", str(results))
    assert code == 2 and f"{results} line 1: not the header" in err
    assert results.read_text(encoding="utf-8") == '{"hello": 1}\n'


def test_void_and_matches_lines_read_back(tmp_path: Path) -> None:
    void = DealOutcome(4, None, {"a": SideStats(), "b": SideStats()}, [], "deal seed 9: died")
    back = parse_outcome(json.loads(json.dumps(outcome_json(void))))
    assert (back.index, back.diff, back.error) == (4, None, "deal seed 9: died")

    cfg = config_from("beginner", "random", "cardems", None, 1, 5, True, False)
    outcomes: list[DealOutcome] = []
    once = run_arena(cfg, on_outcome=outcomes.append)
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(header_for(cfg)) + "\n"
                    + json.dumps(outcome_json(outcomes[0])) + "\n", encoding="utf-8")
    loaded = load_results(path, cfg)
    assert set(loaded.done) == {0} and not loaded.warnings
    again = run_arena(cfg, on_outcome=lambda o: pytest.fail("deal 0 played again"),
                      done=loaded.done)
    assert again["resumed"] == 1
    assert same_run(again) == same_run(once)
    assert again["a_win_share"] == once["a_win_share"]


def test_save_gets_the_deals_played_in_this_run(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    results, save = tmp_path / "run.jsonl", tmp_path / "records.jsonl"
    assert arena(capsys, "--deals", "2", "--jobs", "1", "--results", str(results),
                 "--save", str(save))[0] == 0
    assert len(lines_of(save)) == 4
    code, extended, _ = arena(capsys, "--deals", "3", "--jobs", "1", "--results", str(results),
                              "--save", str(save))
    assert code == 0 and extended is not None and extended["resumed"] == 2
    records = [json.loads(line) for line in lines_of(save)]
    assert [r["arena"]["deal"] for r in records] == [2, 2]



@pytest.mark.parametrize("deals, said", [(1, "1 duplicate deal"), (2, "2 duplicate deals")])
def test_the_report_counts_one_deal_in_the_singular(
        deals: int, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    # spades arena --deals 1 reported "1 duplicate deals" (and --matches "1 duplicate matches").
    assert main(["arena", "--a", "random", "--b", "random", "--deals", str(deals), "--jobs",
                 "1", "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(f", {said}")
    from spades.bots.arena import ArenaConfig
    from spades.cli.arena import print_report
    from spades.engine import profile

    print_report(run_arena(ArenaConfig(a="random", b="random", deals=deals, seed=1,
                                       rules=profile("game93", one_hand=True), matches=True)))
    plural = "" if deals == 1 else "es"
    assert capsys.readouterr().out.splitlines()[0].endswith(f", {deals} duplicate match{plural}")
