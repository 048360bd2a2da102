"""The hand's summary on a phone (360x640): a four-player hand's figures and lines were taller
than the felt leaves it there, and it scrolled inside its box (its "Next deal" out of sight
under the lines). Now the felt is made as tall as the summary needs (the page scrolls, as it
does for long names), the type as it was: no smaller than the phone layout's smallest
(12 px, the summary's lines), every word kept. A standard four-player partnership hand
(two nils set, overtricks) and a race400 hand of four players (a bonus each). Photographed
into artifacts/web/ (summary-phone-360x640-*.png)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spades.engine import Match
from tests.server.test_summary_words import bonus_before_last_card, last_card_left
from tests.web.helpers import continue_upload, settle
from tests.web.test_summary_timer import play_to_summary
from tests.web.test_summary_words import items

KEEP = json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0})  # kept until put away
PHONE = {"width": 360, "height": 640}

BOXES = """(() => {
  const box = document.querySelector('.hand-summary');
  const felt = document.querySelector('.felt').getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const sizes = [...box.querySelectorAll('*')].filter((e) =>
    [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
    && e.getClientRects().length).map((e) => [parseFloat(getComputedStyle(e).fontSize),
                                               e.textContent.slice(0, 30)]);
  return {scroll: [box.scrollHeight, box.clientHeight, box.scrollWidth, box.clientWidth],
          box: [b.top, b.bottom, b.left, b.right],
          felt: [felt.top, felt.bottom, felt.left, felt.right],
          small: sizes.filter(([s]) => s < 12), page: document.documentElement.scrollWidth,
          text: box.innerText};
})()"""


def standard_nils() -> Match:
    """A standard four-player partnership hand (cardgames-club) before its last card: East
    and South bid nil and are set, the others bid 1 and take overtricks."""
    return last_card_left("cardgames-club", {1: 0, 2: 0}, seed=0)


def race400_bonuses() -> Match:
    return bonus_before_last_card()[0]


@pytest.mark.parametrize("name,match_of", [("standard", standard_nils),
                                           ("race400", race400_bonuses)])
def test_a_four_player_summary_fits_a_phone_without_scrolling(
        new_page: Any, server: str, tmp_path: Path, artifacts: Path, name: str,
        match_of: Any) -> None:
    match = match_of()
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    page = new_page(viewport=PHONE, settings=KEEP, has_touch=True)
    continue_upload(page, server, f"Phone {name} summary", path, match.current_player)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.phase === 'play'", timeout=15000)
    play_to_summary(page)
    page.wait_for_selector(".hand-summary")
    page.locator(".hand-summary").scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(artifacts / f"summary-phone-360x640-{name}.png"))
    got = page.evaluate(BOXES)
    sh, ch, sw, cw = got["scroll"]
    assert sh <= ch + 1 and sw <= cw + 1, f"the summary scrolls inside: {got}"
    top, bottom, left, right = got["box"]
    ftop, fbottom, fleft, fright = got["felt"]
    assert ftop <= top and bottom <= fbottom and fleft <= left and right <= fright, got
    assert right <= PHONE["width"] and got["page"] <= PHONE["width"], got  # no sideways
    assert bottom - top <= PHONE["height"], got  # the whole box in the window at once
    assert not got["small"], f"type under 12 px: {got['small']}"
    # every word kept: each side's lines and the button
    lines = [line for side in items(page) for line in side]
    assert len(items(page)) >= 2 and len(lines) >= 4, lines
    for words in ("Hand 1 scored", "Last trick: ", "Bags", "Next deal", "or press Escape",
                  *lines):
        assert words in got["text"], (words, got["text"])
    # Next deal in the window when the box is, and it puts the summary away
    page.locator("#summary-next").scroll_into_view_if_needed()
    assert page.evaluate("""(() => { const r = document.querySelector('#summary-next')
      .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()""")
    page.click("#summary-next")
    page.wait_for_selector(".hand-summary", state="detached")
    # the felt back to its size without the summary (not kept grown for it)
    page.wait_for_function("() => !document.querySelector('.felt').style.minHeight")
    assert not page.errors, page.errors
