"""The table fits (issue 11, item 3): 3 to 6 seats at 1366x768, 1280x720, 1920x1080,
390x844, 360x640, a phone held sideways (844x390) and 200 % zoom of 1366x768 (683x384 CSS px),
while bidding and in the middle of a trick, photographed into artifacts/web/.

What "fits" means (``FITS``): with the page scrolled to the table, every seat, every trick card
and every card of your hand is wholly on the screen; no seat overlaps another seat or a trick
card; two trick cards overlap by at most a corner-index strip (a quarter of a card's width or
height); in your hand each card shows at least its corner index (the next card starts at least
28 % of a card's width further on, or it is in another row); nothing scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import create_cpu_table, play_to_mid_trick, wait_my_turn_or_over
from tests.web.test_axe_and_screenshots import audit

SIZES: dict[str, dict[str, int]] = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "1920x1080": {"width": 1920, "height": 1080},
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
    "landscape-844x390": {"width": 844, "height": 390},
    # 200 % zoom of a 1366x768 window: the page lays out in half the CSS pixels
    "zoom200": {"width": 683, "height": 384},
}

LAYOUTS = [  # (players, teams option, name)
    (4, "", "4p"),
    (3, "0", "3p"),
    (5, "0", "5p"),
    (6, "2", "6p-3+3"),
    (6, "3", "6p-2+2+2"),
]

FITS = """(() => {
  const r = (e) => e.getBoundingClientRect();
  const seats = [...document.querySelectorAll('.felt .seat')];
  const cards = [...document.querySelectorAll('.felt .trick .played')];
  const hand = [...document.querySelectorAll('#hand .card')];
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const onScreen = (b) => b.left >= -1 && b.top >= -1 && b.right <= innerWidth + 1
    && b.bottom <= innerHeight + 1;
  const px = (v) => Math.round(v);
  const box = (b) => `${px(b.left)},${px(b.top)},${px(b.right)},${px(b.bottom)}`;
  const out = [];
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b) => {
    if (hit(r(a), r(b))) out.push(`seat ${a.dataset.seat} / seat ${b.dataset.seat}`);
  }));
  for (const s of seats) for (const c of cards) {
    if (hit(r(s), r(c))) out.push(`seat ${s.dataset.seat} / card of seat ${c.dataset.seat}`);
  }
  cards.forEach((a, i) => cards.slice(i + 1).forEach((b) => {
    const x = r(a), y = r(b);
    const w = Math.min(x.right, y.right) - Math.max(x.left, y.left);
    const h = Math.min(x.bottom, y.bottom) - Math.max(x.top, y.top);
    if (w > x.width * 0.25 && h > x.height * 0.25) out.push(
      `card ${a.dataset.seat} / card ${b.dataset.seat} (${px(w)}x${px(h)})`);
  }));
  for (const s of seats) if (!onScreen(r(s))) out.push(`seat ${s.dataset.seat} off the screen`);
  for (const c of cards) if (!onScreen(r(c))) out.push(`trick card of seat ${c.dataset.seat} off the screen`);
  hand.forEach((c, i) => {
    const b = r(c);
    if (!onScreen(b)) out.push(`hand card ${c.dataset.card} off the screen (${box(b)})`);
    const next = hand[i + 1];
    if (next) {
      const n = r(next);
      const sameRow = n.left > b.left - 1;  // a second row starts again at the left
      if (sameRow && n.left - b.left < b.width * 0.28) out.push(
        `hand card ${c.dataset.card} covered (${px(n.left - b.left)} of ${px(b.width)} px shown)`);
    }
  });
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth + 1) out.push(`page scrolls sideways (${wide} > ${innerWidth})`);
  return out;
})()"""

SETTLED = "() => document.getAnimations().every(a => a.playState !== 'running')"


def check_fits(page: Any, artifacts: Path, label: str, state: str) -> list[str]:
    """Every size on the same table: resize, bring the table into view, check, photograph."""
    bad: list[str] = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("spadesApp.table.fitHand(); spadesApp.table.showTable()")
        page.wait_for_function(SETTLED)
        problems = page.evaluate(FITS)
        page.screenshot(path=str(artifacts / f"table-{label}-{state}-{size}.png"))
        bad += [f"{label} {state} {size}: {p}" for p in problems]
    return bad


@pytest.mark.parametrize(("players", "teams", "label"), LAYOUTS, ids=[x[2] for x in LAYOUTS])
def test_the_table_fits_every_size(new_page: Any, server: str, artifacts: Path, axe_source: str,
                                   players: int, teams: str, label: str) -> None:
    page = new_page(viewport=SIZES["1366x768"])
    create_cpu_table(page, server, f"Lay {players} {teams}", players=players, teams=teams)
    assert page.evaluate("spadesApp.table.players") == players
    sides = page.evaluate("spadesApp.table.sides")
    if teams == "2":
        assert sorted(len(s) for s in sides) == [3, 3]
    elif teams == "3":
        assert sorted(len(s) for s in sides) == [2, 2, 2]
    elif teams == "0":
        assert len(sides) == players
    bad: list[str] = []
    if wait_my_turn_or_over(page) == "bid":
        bad += check_fits(page, artifacts, label, "bidding")
    page.set_viewport_size(SIZES["1366x768"])
    play_to_mid_trick(page, min_cards=2)
    bad += check_fits(page, artifacts, label, "playing")
    assert not bad, "\n".join(bad)
    page.set_viewport_size(SIZES["1366x768"])
    audit(page, axe_source, f"table {label}")
    page.set_viewport_size(SIZES["390x844"])
    audit(page, axe_source, f"table {label} phone")
    assert not page.errors, page.errors


def test_the_home_page_at_200_percent_zoom(new_page: Any, artifacts: Path, axe_source: str) -> None:
    page = new_page(viewport={"width": 683, "height": 384}, device_scale_factor=2)
    page.screenshot(path=str(artifacts / "home-zoom200.png"))
    audit(page, axe_source, "home at 200%")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
