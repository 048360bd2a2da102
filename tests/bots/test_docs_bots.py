"""docs/bots.md stays true to the code: its Python examples run."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from spades.bots import make_bot

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_the_examples_run(index: int) -> None:
    # As they stand: every name an example uses it defines (the first one used a match and
    # a seat it never made, supplied here until they were written into it).
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"bots.md#{index}", "exec"), {})


def test_the_protocol_examples_python_use_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    [block] = re.findall(r"## Using it from Python\n\n```python\n(.*?)```", doc, flags=re.S)
    monkeypatch.chdir(ROOT)  # the example names examples/bots/simple_bot.py from the top
    scope: dict[str, Any] = {}
    exec(compile(block, "bot-protocol.md#python", "exec"), scope)
    assert scope["action"] in scope["match"].observation(scope["seat"]).legal_actions


def test_the_arena_example_prints_the_json_summary() -> None:
    [block] = [b for b in BLOCKS if "run_arena" in b]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "bots.md#arena", "exec"), {})
    deals, *_ = out.getvalue().split()
    assert deals == "10"


def test_the_readme_library_example_plays_a_hand_as_shown() -> None:
    # README.md's "The engine as a library" was run by no test.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [block] = re.findall(r"## The engine as a library\n\n```python\n(.*?)```", readme, re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md#library", "exec"), {})
    lines = out.getvalue().splitlines()
    assert len(lines) == 13 * 4 + 4 + 1  # the bids, the plays, then the scores and winner
    assert re.fullmatch(r"\d bids (nil|\d+)", lines[0])
    assert re.fullmatch(r"\d plays the \w+ of \w+", lines[-2])
    assert re.fullmatch(r"\[-?\d+, -?\d+\] (0|1|None)", lines[-1])


def test_the_protocol_docs_shell_bot_plays_a_hand(tmp_path: Path) -> None:
    # docs/bot-protocol.md's "A bot in a shell script", as written, plays a whole hand.
    from spades.bots.external import ExternalBot
    from spades.engine import Match, profile
    from tests.bots.conftest import play_hand

    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    [script] = re.findall(r"## A bot in a shell script\n.*?```sh\n(.*?)```", doc, flags=re.S)
    (tmp_path / "first_legal.sh").write_text(script, encoding="utf-8")
    for rules in (profile("cardems"), profile("cards4net", jokers=True)):  # (blind nil too)
        match = Match.new(rules, seed=4)
        with ExternalBot(f"sh {tmp_path / 'first_legal.sh'}") as bot:
            play_hand(match, [bot if s == 0 else make_bot("beginner", s) for s in range(4)])
        assert len(match.results) == 1 and bot.problems == []


def test_the_bot_of_your_own_plays_in_the_arena_saved_as_my_bots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # bots.md: "Saved as my_bots.py, the same class plays in the arena from that folder"
    # (PYTHONPATH=. spades arena --a py:my_bots:HighCard ...): run by no test.
    from spades.bots.arena import ArenaConfig, run_arena
    from spades.engine import profile

    [block] = [b for b in BLOCKS if "class HighCard" in b]
    assert "spades arena --a py:my_bots:HighCard --b beginner" in DOC
    (tmp_path / "my_bots.py").write_text(block, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "my_bots", raising=False)
    with contextlib.redirect_stdout(io.StringIO()):  # (the block's own match prints scores)
        summary = run_arena(ArenaConfig(a="py:my_bots:HighCard", b="beginner",
                                        rules=profile("cardems"), deals=1, seed=1))
    assert summary["deals"] == 1 and summary["void"] == 0
    assert summary["stats"]["a"]["spec"] == "py:my_bots:HighCard"
