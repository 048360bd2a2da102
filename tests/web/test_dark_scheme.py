"""The page in the dark colour scheme, as a sighted player sees it (axe's contrast check runs
in the light scheme elsewhere: tests/web/test_axe_and_screenshots.py).

The hand's summary is a light box on the felt in either scheme; its "or press Escape" took
the dark scheme's grey for notes (#c2baa6 on #faf6ea: 1.8:1, hardly readable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.helpers import continue_upload, settle, start_quick_match, take_hinted_turn
from tests.web.test_axe_and_screenshots import audit
from tests.web.test_kept_results import _record

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


# the contrast of an element's text against the first background behind it that is not
# transparent (WCAG's formula)
CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = el;
  while (bg && (rgb(getComputedStyle(bg).backgroundColor)[3] ?? 1) === 0) bg = bg.parentElement;
  const a = lum(rgb(getComputedStyle(el).color));
  const b = lum(rgb(getComputedStyle(bg || document.body).backgroundColor));
  return Math.round((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) * 100) / 100;
}"""


def test_lost_points_and_errors_are_readable_in_the_dark_scheme(
        new_page: Any, server: str, tmp_path: Path, artifacts: Path) -> None:
    """The score sheet's lost points (−180) and a form's error were in the light scheme's
    dark red (#9d1c1c) on the dark panel: 2.1:1."""
    page = new_page(viewport={"width": 390, "height": 844})
    page.emulate_media(color_scheme="dark")
    path = tmp_path / "long.json"
    path.write_text(json.dumps(_record(8)), encoding="utf-8")
    continue_upload(page, server, "Dana Dark", path, 0)
    page.wait_for_function("spadesApp.table && spadesApp.table.view", timeout=15000)
    page.click("#sheet-btn")
    lost = page.locator("#sheet-dialog[open] .sheet-pts.neg").first
    lost.wait_for()
    assert lost.inner_text().startswith("−")
    settle(page)
    page.screenshot(path=str(artifacts / "sheet-dark-390x844.png"))
    assert lost.evaluate(CONTRAST) >= 4.5  # before: 2.1
    page.keyboard.press("Escape")

    page.goto(server + "#/account")
    form = page.locator("form", has=page.locator("button", has_text="Sign in"))
    form.locator("input[type=password]").fill("not her password")
    form.locator("input:not([type=password])").first.fill("Nobody Dark Here")
    form.locator("button", has_text="Sign in").click()
    error = form.locator(".form-error:not(:empty)").first
    error.wait_for()
    assert error.evaluate(CONTRAST) >= 4.5, error.inner_text()  # before: 2.1
    assert not page.errors, page.errors
