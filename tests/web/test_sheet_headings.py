"""A long score sheet (a continued record of 60 hands) keeps its column headings in sight while
its rows scroll in the dialog (a sighted player's trial at 360x640, 390x844, 768x1024 and
1366x768): they scrolled away with the first rows, and hand 40's numbers were under no
side's name. Now they stay at the top of the dialog's box, on its colour, over the rows
passing under them, in the light and the dark scheme, and the sheet is still a table (each
value read with its side's and its hand's header). Photographed into artifacts/web/
(sheet-scrolled-*.png)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.helpers import continue_upload, settle
from tests.web.test_axe_and_screenshots import audit
from tests.web.test_dark_scheme import CONTRAST
from tests.web.test_kept_results import _record

HANDS = 60
SIZES = [{"width": 768, "height": 1024}, {"width": 360, "height": 640},
         {"width": 390, "height": 844}, {"width": 1366, "height": 768}]

# the dialog scrolled to `to` (a share of the way down): where its column headings are, against
# the box it shows its content in, and what shows at each heading's middle
SCROLLED = """(to) => {
  const d = document.getElementById('sheet-dialog');
  d.scrollTop = (d.scrollHeight - d.clientHeight) * to;
  const r = d.getBoundingClientRect();
  const top = r.top + d.clientTop, bottom = top + d.clientHeight;
  return {scrolled: d.scrollTop, room: d.scrollHeight - d.clientHeight, top, bottom,
          heads: [...d.querySelectorAll('.sheet-table thead th')].map((th) => {
            const b = th.getBoundingClientRect();
            const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
            return {text: th.textContent, top: b.top, bottom: b.bottom,
                    shown: !!hit && th.contains(hit)};
          })};
}"""


def problems(seen: dict[str, Any], where: str) -> list[str]:
    bad = [f"{where}: {h['text']!r} at {h['top']:.0f}..{h['bottom']:.0f}, out of the dialog's "
           f"{seen['top']:.0f}..{seen['bottom']:.0f}" for h in seen["heads"]
           if h["top"] < seen["top"] - 1 or h["bottom"] > seen["bottom"] + 1]
    bad += [f"{where}: {h['text']!r} covered" for h in seen["heads"] if not h["shown"]]
    return bad


def test_the_sheet_keeps_its_headings_in_sight(new_page: Any, server: str, tmp_path: Path,
                                               axe_source: str, artifacts: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(_record(HANDS)), encoding="utf-8")
    page = new_page(viewport=SIZES[0])
    continue_upload(page, server, "Sheet Header", path, 0)
    page.wait_for_function("spadesApp.table && spadesApp.table.view", timeout=15000)
    dialog = page.get_by_role("dialog", name="Score sheet")
    bad: list[str] = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for size in SIZES:
            page.set_viewport_size(size)
            page.wait_for_function(f"document.documentElement.clientWidth <= {size['width']}")
            page.click("#sheet-btn")
            page.wait_for_function("document.querySelectorAll('#sheet-dialog .sheet-table tbody tr')"
                                   f".length === {HANDS}")
            settle(page)
            name = f"{size['width']}x{size['height']}-{scheme}"
            for to in (0.5, 1):
                seen = page.evaluate(SCROLLED, to)
                assert seen["room"] > 0 and seen["scrolled"] > 0, (name, seen)  # it scrolls
                bad += problems(seen, f"{name} scrolled {to:.0%}")
            page.evaluate(SCROLLED, 0.5)
            settle(page)
            page.screenshot(path=str(artifacts / f"sheet-scrolled-{name}.png"))
            if size["width"] == 768:
                audit(page, axe_source, f"the scrolled sheet, {name}")
                # the headings on the panel's colour, not the rows' words showing through
                for th in dialog.locator("thead th").all():
                    assert th.evaluate(CONTRAST) >= 4.5, (name, th.inner_text())
            # still a table: its sides' headers and each hand's, each cell read with them
            assert dialog.get_by_role("columnheader").count() == 3, name  # Hand and 2 sides
            assert dialog.get_by_role("rowheader", name=str(HANDS), exact=True).count() == 1
            shown = page.evaluate("[...document.querySelectorAll('#sheet-dialog .sheet-table,"
                                  " #sheet-dialog .sheet-table :is(thead, tr, th, td)')]"
                                  ".map((e) => getComputedStyle(e).display)")
            assert all(s.startswith("table") for s in shown), (name, set(shown))
            page.keyboard.press("Escape")
            dialog.wait_for(state="hidden")
    assert not bad, "\n".join(bad)
    assert not page.errors, page.errors
