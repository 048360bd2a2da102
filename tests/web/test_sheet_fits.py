"""A race400 score sheet of four sides on a phone (360x640, 390x844): its table was wider than
its dialog, which scrolled sideways (the fourth side's column half out of sight). It fits
the width now (narrower margins and cells, long words broken, numbers kept whole), and is
still a table: each value read with its side's and its hand's header. Photographed into
artifacts/web/ (sheet-race400-*.png)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.server.test_sheet_words import small_bonus
from tests.web.helpers import continue_upload, settle

PHONES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]

FITS = """(() => {
  const d = document.getElementById('sheet-dialog');
  const t = d.querySelector('.sheet-table');
  const db = d.getBoundingClientRect();
  const out = [];
  if (d.scrollWidth > d.clientWidth + 1)
    out.push(`the dialog scrolls sideways: ${d.scrollWidth} > ${d.clientWidth}`);
  if (db.left < 0 || db.right > document.documentElement.clientWidth + 1)
    out.push(`the dialog is off the screen: ${db.left}..${db.right}`);
  for (const c of t.querySelectorAll('th, td')) {
    const b = c.getBoundingClientRect();
    const what = `"${c.textContent.slice(0, 30)}"`;
    if (b.left < db.left - 1 || b.right > db.right + 1)
      out.push(`${what} out of the dialog: ${Math.round(b.left)}..${Math.round(b.right)}`);
    if (c.scrollWidth > c.clientWidth + 1) out.push(`${what} cut: ${c.scrollWidth} > ${c.clientWidth}`);
  }
  for (const e of t.querySelectorAll('*')) {
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (!e.getClientRects().length || e.closest('.sr-only')) continue;
    if (parseFloat(getComputedStyle(e).fontSize) < 11) out.push(`"${e.textContent}": type too small`);
  }
  // the points, the total and the bags each on one line: a number never broken
  for (const e of t.querySelectorAll('.sheet-pts, .sheet-total, .sheet-bags')) {
    const line = parseFloat(getComputedStyle(e).lineHeight);
    if (e.getClientRects().length > 1 || e.getBoundingClientRect().height > 1.6 * line)
      out.push(`"${e.textContent}" broken over lines`);
  }
  // still a table (its roles, and each cell's headers, come from it)
  const shown = [t, ...t.querySelectorAll('tr, th, td')].map((e) => getComputedStyle(e).display);
  if (shown.some((s) => !s.startsWith('table'))) out.push(`laid out as ${[...new Set(shown)]}`);
  return out;
})()"""


def test_a_four_side_sheet_fits_a_phone(new_page: Any, server: str, tmp_path: Path,
                                        artifacts: Path) -> None:
    match, _ = small_bonus()
    path = tmp_path / "four.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    page = new_page(viewport={"width": 1280, "height": 800})
    continue_upload(page, server, "Sheet Fitter", path, 0)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.hand_number === 2", timeout=15000)
    bad: list[str] = []
    dialog = page.get_by_role("dialog", name="Score sheet")
    for size in PHONES:
        page.set_viewport_size(size)
        page.wait_for_function(f"document.documentElement.clientWidth <= {size['width']}")
        page.click("#sheet-btn")
        dialog.locator(".sheet-table").wait_for()
        settle(page)
        name = f"{size['width']}x{size['height']}"
        page.screenshot(path=str(artifacts / f"sheet-race400-{name}.png"))
        bad += [f"{name}: {p}" for p in page.evaluate(FITS)]
        # what a screen reader finds: the four sides' headers, the hand's, and each side's
        # cell with all it says
        assert dialog.get_by_role("columnheader").count() == 5
        assert dialog.get_by_role("rowheader", name="1", exact=True).count() == 1
        cells = dialog.get_by_role("cell", name=re.compile(r" bid \d+, took \d+ : [+−]\d+.*"
                                                           r", total −?\d+ , \d+ bags?"))
        assert cells.count() == 4, dialog.inner_text()
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
    assert not bad, "\n".join(bad)
    assert not page.errors, page.errors
