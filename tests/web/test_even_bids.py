"""The bid buttons in even rows at every width (a sighted player's trial at 360x640, 390x844,
768x1024 and 1366x768): at 768 px they wrapped as a row does, Nil to 12 on the first row and
13 alone on the second. Now as few rows as the width holds, the bids shared out evenly among
them (7 and 7 at 768 px), each button still big enough to tap (24 px each way, WCAG 2.5.8,
as tests/web/test_tap_targets.py asks), with Blind Nil's buttons where it is offered.
Photographed into artifacts/web/ (bids-even-*.png)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from tests.web.helpers import create_cpu_table, settle

SIZES = [{"width": 768, "height": 1024}, {"width": 360, "height": 640},
         {"width": 390, "height": 844}, {"width": 1366, "height": 768}]

# each bid button (its label, which the radio covers): value and box, in document order; and
# whether the row of them is wider than its box
BIDS = """(() => {
  const group = document.querySelector('#bid-panel .bid-choices');
  return {wide: group.scrollWidth > group.clientWidth + 1,
          bids: [...group.querySelectorAll('.bid-choice')].map((c) => {
            const b = c.querySelector('label').getBoundingClientRect();
            return {value: c.querySelector('input').value, left: b.left, right: b.right,
                    top: b.top, bottom: b.bottom};
          })};
})()"""

# the boxes of the bid panel's buttons (Look at my cards, Bid Blind Nil…)
BUTTONS = """[...document.querySelectorAll('#bid-panel button')].map((e) => {
  const b = e.getBoundingClientRect();
  return {text: e.textContent, left: b.left, right: b.right, width: b.width, height: b.height};
})"""


def rows_of(bids: list[dict[str, Any]]) -> list[list[str]]:
    """The bids' values row by row (a row: the buttons whose tops are level)."""
    rows: list[list[str]] = []
    top: float | None = None
    for b in bids:
        if top is None or abs(b["top"] - top) >= 1:
            rows.append([])
            top = b["top"]
        rows[-1].append(b["value"])
    return rows


def check_bids(page: Any, size: dict[str, int], what: str) -> list[str]:
    """What is wrong with the bid buttons' rows in this window (nothing: [])."""
    seen = page.evaluate(BIDS)
    bids = seen["bids"]
    name = f"{size['width']}x{size['height']} {what}"
    bad: list[str] = []
    if [b["value"] for b in bids] != ["nil", *map(str, range(1, 14))]:
        bad.append(f"{name}: the bids {[b['value'] for b in bids]}")
    rows = rows_of(bids)
    counts = [len(r) for r in rows]
    # even: every row as long as the first, or the last one shorter by one
    if any(c != counts[0] for c in counts[:-1]) or not 0 <= counts[0] - counts[-1] <= 1:
        bad.append(f"{name}: uneven rows {rows}")
    for b in bids:
        w, h = b["right"] - b["left"], b["bottom"] - b["top"]
        if w < 24 or h < 24:
            bad.append(f"{name}: {b['value']} is {w:.0f}x{h:.0f}, under 24x24")
        if b["left"] < 0 or b["right"] > size["width"]:
            bad.append(f"{name}: {b['value']} off the screen at {b['left']:.0f}..{b['right']:.0f}")
    if seen["wide"]:
        bad.append(f"{name}: the bids are wider than their box")
    # in reading order (as the keyboard and a screen reader go): right of the one before, or
    # on a lower row
    for a, b in pairwise(bids):
        if not (b["top"] >= a["bottom"] - 1 or (abs(b["top"] - a["top"]) < 1
                                                  and b["left"] >= a["right"] - 1)):
            bad.append(f"{name}: {b['value']} is not after {a['value']}")
    return bad


def test_the_bids_are_in_even_rows_at_every_width(new_page: Any, server: str,
                                                   artifacts: Path) -> None:
    page = new_page(viewport=SIZES[0])
    # cards4net: Blind Nil offered to the first bidder (South, West dealing) before looking
    create_cpu_table(page, server, "Even Rows", profile="cards4net", first_dealer=3)
    page.wait_for_selector("#bid-panel:not([hidden]) #blind-nil-btn")
    bad: list[str] = []
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_function(f"document.documentElement.clientWidth <= {size['width']}")
        for b in page.evaluate(BUTTONS):
            if b["width"] < 24 or b["height"] < 24 or b["left"] < 0 or b["right"] > size["width"]:
                bad.append(f"{size}: {b}")
    assert not bad, "\n".join(bad)

    page.click("#look-btn")  # the cards looked at: Nil to 13
    page.wait_for_selector("#bid-panel .bid-choices")
    # the first size (768 px) as laid out when the panel came, the others resized to; then
    # again with 13 chosen (its ✓ makes the widest button)
    for chosen in (False, True):
        if chosen:
            page.check("#bid-13")
        for size in SIZES:
            page.set_viewport_size(size)
            page.wait_for_function(f"document.documentElement.clientWidth <= {size['width']}")
            page.locator("#bid-panel").scroll_into_view_if_needed()
            settle(page)
            name = f"{size['width']}x{size['height']}{'-13' if chosen else ''}"
            page.locator("#bid-panel").screenshot(path=str(artifacts / f"bids-even-{name}.png"))
            bad += check_bids(page, size, "(13 chosen)" if chosen else "")
            if size["width"] == 768:
                rows = rows_of(page.evaluate(BIDS)["bids"])
                assert [len(r) for r in rows] == [7, 7], rows  # before: 13 and 1
    assert not bad, "\n".join(bad)
    assert not page.errors, page.errors
