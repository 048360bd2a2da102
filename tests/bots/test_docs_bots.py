"""docs/bots.md stays true to the code: its Python examples run."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from spades.engine import Match, profile

DOC = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_the_examples_run(index: int) -> None:
    # The first example leaves the match and the seat to the reader: supply them.
    match = Match.new(profile("cardems"), 1)
    scope = {"match": match, "seat": match.current_player}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"bots.md#{index}", "exec"), scope)


def test_the_arena_example_prints_the_json_summary() -> None:
    [block] = [b for b in BLOCKS if "run_arena" in b]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "bots.md#arena", "exec"), {})
    deals, *_ = out.getvalue().split()
    assert deals == "10"
