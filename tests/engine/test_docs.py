"""The engine docs stay true to the code: their Python examples run, their JSON parses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spades.engine import PROFILE_OPTIONS, PROFILES, replay, summary

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


def test_profiles_doc_lists_every_profile_and_its_options() -> None:
    text = (DOCS / "profiles.md").read_text(encoding="utf-8")
    for name in PROFILES:
        assert f"## `{name}`" in text
        section = text.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
        for knob in PROFILE_OPTIONS[name]:
            assert f"`{knob}`" in section and "**option**" in section, (name, knob)
