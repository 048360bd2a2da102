"""docs/learn.md stays true to the code: its examples run and its layout table is the
encoder's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")


from spades.learn.encoding import layout

DOC = (Path(__file__).resolve().parents[2] / "docs" / "learn.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_the_examples_run_as_written(index: int) -> None:
    # They used a policy and an action they left to the reader: copied as written, they
    # stopped at NameError: name 'policy' is not defined.
    exec(compile(BLOCKS[index], f"learn.md#{index}", "exec"), {})


def test_the_layout_table_is_the_encoders() -> None:
    table = DOC.split("| block | length | contents |", 1)[1].split("\n\n", 1)[0]
    names = re.findall(r"^\| `(\w+)` \|", table, flags=re.M)
    assert names == [name for name, _, _ in layout(4)]
    for n, size in ((3, 472), (4, 608), (5, 744), (6, 880)):
        assert sum(length for _, _, length in layout(n)) == size == 64 + 136 * n
