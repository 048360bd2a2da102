"""The page in the dark colour scheme, as a sighted player sees it (axe's contrast check runs
in the light scheme elsewhere: tests/web/test_axe_and_screenshots.py).

The hand's summary is a light box on the felt in either scheme; its "or press Escape" took
the dark scheme's grey for notes (#c2baa6 on #faf6ea: 1.8:1, hardly readable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.helpers import settle, start_quick_match, take_hinted_turn
from tests.web.test_axe_and_screenshots import audit

KEEP = json.dumps({"pace": 0, "volume": 0, "summarySeconds": 0})  # the summary stays up


def test_the_hand_summary_is_readable_in_the_dark_scheme(
        new_page: Any, axe_source: str, artifacts: Path) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, settings=KEEP)
    page.emulate_media(color_scheme="dark")
    start_quick_match(page, "Dora Dark", profile="game93", one_hand=False)
    for _ in range(30):  # our turns, until the first hand is scored
        state = page.wait_for_function(
            "() => { const t = spadesApp.table; return t && t.view && (t.summaryShown()"
            " ? 'summary' : t.turnKey !== null ? t.view.phase : false); }",
            timeout=30000).json_value()
        if state == "summary":
            break
        take_hinted_turn(page, state)
    settle(page)
    page.screenshot(path=str(artifacts / "summary-dark-390x844.png"))
    note = page.locator(".hand-summary .button-row .note")
    assert note.inner_text() == "or press Escape"
    audit(page, axe_source, "the hand's summary, dark scheme")  # before: 1.78:1
    assert not page.errors, page.errors
