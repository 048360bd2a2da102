"""A golden transcript: the bundled example match told to North, one sentence per event.

A change in the words shows up in review as a readable diff of ``example_story.txt``.
After a deliberate change, regenerate it with
``SPADES_UPDATE_GOLDEN=1 python3 -m pytest tests/present/test_story.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from spades.engine import replay
from spades.present import Narrator, seat_names

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "spades" / "data" / "example-match.json"
GOLDEN = Path(__file__).with_name("example_story.txt")


def story() -> str:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    match = replay(record, events=True)
    narrator = Narrator(match.rules, names=seat_names(match.rules, record.get("names")), me=0)
    return "\n".join(narrator.story(match.take_events())) + "\n"


def test_the_example_match_told_to_north_matches_the_golden_transcript() -> None:
    text = story()
    if os.environ.get("SPADES_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8"), (
        "the narration changed: review the diff, then regenerate (see the module docstring)")
