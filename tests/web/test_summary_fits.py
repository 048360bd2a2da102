"""A four-player race400 hand's summary on the felt at 1280x800: each player's lines (a bonus,
overtricks) made it taller than the room the felt gives it, and it scrolled inside (its
"Next deal" half out of sight). Compacted (the title and the last trick on one line, a side's
lines in two columns where the box is wide), it fits without scrolling, every word of it
kept. Photographed into artifacts/web/ (summary-race400-1280x800.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.test_summary_words import bonus_before_last_card
from tests.web.helpers import settle
from tests.web.test_summary_words import items, summary_of

BOXES = """(() => {
  const box = document.querySelector('.hand-summary');
  const felt = document.querySelector('.felt').getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const small = [...box.querySelectorAll('*')].filter((e) =>
    [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
    && e.getClientRects().length && parseFloat(getComputedStyle(e).fontSize) < 11)
    .map((e) => e.textContent);
  return {scroll: [box.scrollHeight, box.clientHeight, box.scrollWidth, box.clientWidth],
          box: [b.top, b.bottom], felt: [felt.top, felt.bottom], small,
          text: box.innerText};
})()"""


def test_a_race400_summary_fits_the_felt_at_1280x800(new_page: Any, server: str,
                                                     tmp_path: Path, artifacts: Path) -> None:
    match, _ = bonus_before_last_card()
    assert len(match.hands) == 4
    page, _ = summary_of(new_page, server, tmp_path, "Fitting Summary", match)
    settle(page)
    page.screenshot(path=str(artifacts / "summary-race400-1280x800.png"))
    got = page.evaluate(BOXES)
    sh, ch, sw, cw = got["scroll"]
    assert sh <= ch + 1 and sw <= cw + 1, f"the summary scrolls inside: {got}"  # before: 445 > 413
    assert got["felt"][0] <= got["box"][0] and got["box"][1] <= got["felt"][1], got
    assert not got["small"], f"type under 11 px: {got['small']}"
    # every word kept: the four players' figures and lines, the bag warning and the button
    lines = [line for side in items(page) for line in side]
    assert len(items(page)) == 4 and len(lines) >= 5, lines
    assert lines.count("Bonus: +20 for a contract of 1 or 2 made exactly.") >= 1, lines
    for words in ("Hand 1 scored", "Last trick: ", "This hand", "Bags", "Next deal",
                  "or press Escape", *lines):
        assert words in got["text"], (words, got["text"])
    # and said as before: a list of each side's lines, the table's headers
    summary = page.get_by_role("region", name="Hand 1 scored")
    assert summary.get_by_role("listitem").count() == len(lines)
    assert summary.get_by_role("columnheader", name="This hand").count() == 1
    assert not page.errors, page.errors


HEADER_LINES = """(() => [...document.querySelectorAll('.score-table thead th')].map((th) => {
  const r = document.createRange();
  r.selectNodeContents(th);
  return [th.textContent, new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size];
}))()"""


def test_the_scores_headers_stay_whole_beside_a_bag_warning(new_page: Any, server: str,
                                                           tmp_path: Path) -> None:
    # West's "1 bag from a penalty" widened the Bags column, and the headers broke
    # mid-word to make room ("Playe" / "r", "Scor" / "e") at 1280x800.
    match, _ = bonus_before_last_card()
    page, _ = summary_of(new_page, server, tmp_path, "Whole Headers", match)
    settle(page)
    assert page.locator(".score-table .bag-warning").count() == 1
    lines = page.evaluate(HEADER_LINES)
    assert [name for name, _ in lines] == ["Player", "Score", "Bags"], lines
    assert all(n == 1 for _, n in lines), f"a header broken over lines: {lines}"


def test_the_summary_at_200_percent_zoom_has_every_column_without_sideways_scroll(
        new_page: Any, server: str, tmp_path: Path, artifacts: Path) -> None:
    """At 200 % zoom of a 1280x800 window (640x400 CSS pixels: short and wide, the felt in
    the window's left half) the summary sat in the felt, 240 px wide for 333 px of table: it
    scrolled sideways, "Score" and "Bags" cut to "Sc", its lines cut mid-word. It goes over
    the whole window there."""
    match, _ = bonus_before_last_card()
    page, _ = summary_of(new_page, server, tmp_path, "Zoomed Summary", match)
    page.set_viewport_size({"width": 640, "height": 400})
    page.wait_for_function("document.documentElement.clientWidth <= 640")
    settle(page)
    page.screenshot(path=str(artifacts / "summary-race400-640x400.png"))
    got = page.evaluate("""(() => {
      const box = document.querySelector('.hand-summary');
      const b = box.getBoundingClientRect();
      const heads = [...box.querySelectorAll('.summary-table thead th')].map((th) => {
        const r = th.getBoundingClientRect();
        return [th.textContent, r.left >= b.left - 1 && r.right <= b.right + 1];
      });
      return {scroll: [box.scrollWidth, box.clientWidth], box: [b.left, b.right],
              page: document.documentElement.scrollWidth, heads};
    })()""")
    sw, cw = got["scroll"]
    assert sw <= cw + 1, f"the summary scrolls sideways: {got}"  # before: 333 > 239
    assert got["box"][0] >= 0 and got["box"][1] <= 640 and got["page"] <= 640, got
    assert all(inside for _, inside in got["heads"]), got
    assert {"Score", "Bags"} <= {text for text, _ in got["heads"]}, got
    page.locator("#summary-next").scroll_into_view_if_needed()
    assert page.locator("#summary-next").is_visible()
    assert not page.errors, page.errors
