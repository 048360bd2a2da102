"""``spades bench engine``: a figure is rounded once, where it is shown, so a run and the
median of that one run read the same (was 8,113 then 8,112: rounded to 0.1, then again)."""

from __future__ import annotations

import json

import pytest

from spades.cli import bench, main


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> None:
    # 8112.54 shows as 8,113; rounded to 0.1 first (8112.5) it showed as 8,112.
    monkeypatch.setattr(bench, "spades_hands", lambda *args: 20_000.46)
    monkeypatch.setattr(bench, "pyspiel_hands", lambda *args: 8112.54)


def test_a_run_and_its_median_read_the_same(rates: None,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "1", "--runs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "run 1: spades 20,000 hands/s, pyspiel 8,113 hands/s"
    assert lines[2].startswith("median: spades (")
    assert lines[2].endswith(") 20,000 hands/s, pyspiel 8,113 hands/s, ratio 2.47x")


def test_the_json_figures_are_rounded_once(rates: None,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "1", "--runs", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["hands_per_second"] == 20_000.5 and result["runs"] == [20_000.5]
    assert result["pyspiel_hands_per_second"] == 8112.5 and result["pyspiel_runs"] == [8112.5]
    assert result["ratio"] == round(20_000.46 / 8112.54, 2)


@pytest.mark.parametrize("rules", ["race400", "cardems"])
def test_no_ratio_against_a_different_game(rates: None, rules: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """OpenSpiel's spades is four players in two partnerships: against a profile that is not
    (race400 plays alone by default) the ratio compared two different games."""
    from spades.engine import profile

    r = profile(rules)
    partnership = r.players == 4 and len(r.sides) == 2
    assert main(["bench", "engine", "--seconds", "1", "--runs", "1", "--json",
                 "--rules", rules]) == 0
    result = json.loads(capsys.readouterr().out)
    assert ("ratio" in result) == partnership, result
    if not partnership:
        assert "pyspiel_hands_per_second" not in result
        assert "four players in two partnerships" in result["pyspiel_note"]
