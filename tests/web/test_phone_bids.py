"""On a phone (360x740) every bid is on the screen while you bid: the bid buttons wrap onto
rows instead of running off the right edge in a row that scrolls sideways with nothing to say
more bids are there (before: Nil to 5 showed, the rest were out of sight). Photographed into
artifacts/web/ (table-phone-bids-360x740*.png)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from tests.web.helpers import create_cpu_table, settle

PHONE = {"width": 360, "height": 740}

# Each bid button: its box (the label, which the radio covers), whether its middle shows it
# (nothing covers or clips it) and its value, in document (keyboard and screen reader) order.
BIDS = """(() => {
  document.getElementById('bid-panel').scrollIntoView({block: 'nearest'});
  return [...document.querySelectorAll('#bid-panel .bid-choice')].map((c) => {
    const b = c.querySelector('label').getBoundingClientRect();
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return {value: c.querySelector('input').value, left: b.left, right: b.right, top: b.top,
            bottom: b.bottom, shown: !!hit && hit.closest('.bid-choice') === c};
  });
})()"""

SIDEWAYS = """(() => {
  const page = document.scrollingElement;
  const row = document.querySelector('#bid-panel .bid-choices');
  return {page: [page.scrollWidth, page.clientWidth], row: [row.scrollWidth, row.clientWidth]};
})()"""


def test_every_bid_is_on_a_phone_screen(new_page: Any, server: str, artifacts: Path) -> None:
    page = new_page(viewport=PHONE)
    create_cpu_table(page, server, "Phone bidder")
    # the bid panel is open from the deal until you have bid (no timer: it waits for you)
    page.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
    page.evaluate("spadesApp.table.fitHand(); spadesApp.table.showTable()")
    settle(page)
    shot = artifacts / "table-phone-bids-360x740.png"
    page.screenshot(path=str(shot))
    bids = page.evaluate(BIDS)
    values = [b["value"] for b in bids]
    assert values == ["nil", *map(str, range(1, 14))], values
    off = [f"{b['value']} at {b['left']:.0f}..{b['right']:.0f}" for b in bids
           if b["left"] < 0 or b["right"] > PHONE["width"]]
    assert not off, f"bids off the {PHONE['width']} px screen: {off} (see {shot})"
    hidden = [b["value"] for b in bids if not b["shown"]]
    assert not hidden, f"bids covered or clipped: {hidden} (see {shot})"
    # as big as docs/keyboard.md says: 37 px high (2.3rem), and never under WCAG's 24 px
    small = [f"{b['value']}: {b['right'] - b['left']:.0f}x{b['bottom'] - b['top']:.0f}"
             for b in bids if min(b["right"] - b["left"], b["bottom"] - b["top"]) < 24
             or b["bottom"] - b["top"] < 36.5]
    assert not small, f"bid buttons smaller than docs/keyboard.md says: {small} (see {shot})"
    wide = page.evaluate(SIDEWAYS)
    assert wide["page"][0] <= wide["page"][1], f"the page scrolls sideways: {wide['page']}"
    assert wide["row"][0] <= wide["row"][1], f"the bids scroll sideways: {wide['row']}"
    # laid out in reading order: each bid right of the one before it, or on a lower row
    for a, b in pairwise(bids):
        assert (b["top"] >= a["bottom"] - 1) or (abs(b["top"] - a["top"]) < 1
                                                   and b["left"] >= a["right"] - 1), (a, b)
    # a chosen bid (its tick added) still shows whole in its button
    for value in ("nil", "13"):
        page.check(f"#bid-{value}")
        inside = page.evaluate(
            "v => { const l = document.querySelector(`label[for=bid-${v}]`);"
            " const c = l.parentElement; return [l.scrollWidth <= l.clientWidth,"
            " c.scrollWidth <= c.clientWidth, c.getBoundingClientRect().right]; }", value)
        assert inside[:2] == [True, True] and inside[2] <= PHONE["width"], (value, inside)
    page.screenshot(path=str(artifacts / "table-phone-bids-360x740-chosen.png"))
    assert not page.errors, page.errors
