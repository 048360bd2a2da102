"""The table fits (issue 11, item 3): 3 to 6 seats at 1366x768, 1280x720, 1920x1080,
390x844, 360x640, a phone held sideways (844x390) and 200 % zoom of 1366x768 (683x384 CSS px),
while bidding and in the middle of a trick, photographed into artifacts/web/.

What "fits" means (``FITS`` and ``LEGIBLE``): with the page scrolled to the table, every seat,
every trick card and every card of your hand is wholly on the screen; no seat overlaps another
seat or a trick card; two trick cards overlap by at most a corner-index strip (a quarter of a
card's width or height); in your hand each card shows at least its corner index (the next card
starts at least 28 % of a card's width further on, or it is in another row); nothing scrolls
sideways; while you bid, the Bid and Nil cards' words are wholly inside their cards and nothing
covers them; the dealer chip covers no seat's name."""

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

LAYOUTS = [  # (players, teams option, name, first dealer: you sit in seat 0, at the bottom)
    (4, "", "4p", 0),
    # partners (North's PARTNER tag) and a turn timer (the seconds in the turn tag)
    (4, "2", "4p-partners-timer", 3),
    (3, "0", "3p", 1),
    (5, "0", "5p", 0),
    (6, "2", "6p-3+3", 2),
    (6, "3", "6p-2+2+2", 0),
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
  // what a seat shows stays in its box: its name, bid/tricks chip and tags
  for (const s of seats) {
    const b = r(s);
    for (const e of s.querySelectorAll('.seat-name > *, .seat-meta > *')) {
      const x = r(e);
      if (!x.width || getComputedStyle(e).display === 'none') continue;
      if (x.left < b.left - 1 || x.right > b.right + 1 || x.top < b.top - 1 || x.bottom > b.bottom + 1)
        out.push(`seat ${s.dataset.seat}: "${e.textContent}" (${box(x)}) out of its box (${box(b)})`);
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth + 1) out.push(`page scrolls sideways (${wide} > ${innerWidth})`);
  return out;
})()"""

# The Bid and Nil cards (while you bid): each line of their text wholly inside its card and the
# hand's visible box, and on top at its corners and centre (no other card or element covers it);
# the dealer chip overlaps no seat's name.
LEGIBLE = """(() => {
  const r = (e) => e.getBoundingClientRect();
  const px = (v) => Math.round(v);
  const box = (b) => `${px(b.left)},${px(b.top)},${px(b.right)},${px(b.bottom)}`;
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.top >= b.top - 1
    && a.right <= b.right + 1 && a.bottom <= b.bottom + 1;
  const out = [];
  const hand = document.getElementById('hand');
  for (const card of document.querySelectorAll('#hand .card.special')) {
    const name = card.dataset.card;
    for (const span of card.querySelectorAll('.special-face > span')) {
      const range = document.createRange();
      range.selectNodeContents(span);
      const t = range.getBoundingClientRect();  // the text itself, even where it overflows
      const what = `${name} card text "${span.textContent}" (${box(t)})`;
      if (!t.width || !t.height) { out.push(`${what} not drawn`); continue; }
      if (!inside(t, r(card))) out.push(`${what} runs out of its card (${box(r(card))})`);
      if (!inside(t, r(hand))) out.push(`${what} cut by the hand's edge`);
      const pts = [[t.left + 2, t.top + 2], [t.right - 2, t.top + 2], [t.left + 2, t.bottom - 2],
                   [t.right - 2, t.bottom - 2], [(t.left + t.right) / 2, (t.top + t.bottom) / 2]];
      for (const [x, y] of pts) {
        const top = document.elementFromPoint(x, y);
        if (!top || top.closest('.card') !== card) {
          out.push(`${what} covered at ${px(x)},${px(y)} by ` + (top ? (top.closest('.card')
            ? `card ${top.closest('.card').dataset.card}` : top.tagName + '.' + top.className) : 'nothing'));
          break;
        }
      }
    }
  }
  const names = [...document.querySelectorAll('.felt .seat .who')];
  for (const chip of document.querySelectorAll('.felt .dealer-chip')) {
    const c = r(chip);
    const seat = chip.closest('.seat').dataset.seat;
    for (const n of names) if (hit(c, r(n))) out.push(
      `dealer chip of seat ${seat} (${box(c)}) over the name of seat `
      + `${n.closest('.seat').dataset.seat} (${box(r(n))})`);
  }
  return out;
})()"""

# wide screens: every seat's name whole (no ellipsis)
NAMES_WHOLE = """[...document.querySelectorAll('.felt .seat .who')]
  .filter((n) => n.scrollWidth > n.clientWidth + 1)
  .map((n) => `name of seat ${n.closest('.seat').dataset.seat} cut: "${n.textContent}"`
    + ` (${n.clientWidth} of ${n.scrollWidth} px)`)"""

# as the table opens (no scrolling asked for): the felt's top, the hand and the action row in
# the window
OPENED_IN_VIEW = """(() => {
  const out = [];
  const felt = document.querySelector('.felt').getBoundingClientRect();
  if (felt.top < -1) out.push(`felt top ${Math.round(felt.top)} above the window`);
  for (const sel of ['#hand .card', '.action-row #sheet-btn']) {
    for (const e of document.querySelectorAll(sel)) {
      const b = e.getBoundingClientRect();
      if (b.bottom > innerHeight + 1) {
        out.push(`${sel} below the fold (${Math.round(b.bottom)} > ${innerHeight}, scrollY ${scrollY})`);
        break;
      }
    }
  }
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
        problems = page.evaluate(FITS) + page.evaluate(LEGIBLE)
        if viewport["width"] >= 1280:
            problems += page.evaluate(NAMES_WHOLE)
        page.screenshot(path=str(artifacts / f"table-{label}-{state}-{size}.png"))
        bad += [f"{label} {state} {size}: {p}" for p in problems]
    return bad


@pytest.mark.parametrize(("players", "teams", "label", "dealer"), LAYOUTS,
                         ids=[x[2] for x in LAYOUTS])
def test_the_table_fits_every_size(new_page: Any, server: str, artifacts: Path, axe_source: str,
                                   players: int, teams: str, label: str, dealer: int) -> None:
    page = new_page(viewport=SIZES["1366x768"])
    create_cpu_table(page, server, f"Lay {players} {teams}", players=players, teams=teams,
                     first_dealer=dealer, timer=600 if "timer" in label else None)
    assert page.evaluate("spadesApp.table.players") == players
    sides = page.evaluate("spadesApp.table.sides")
    if teams == "2":
        assert sorted(len(s) for s in sides) == [players // 2] * 2
    elif teams == "3":
        assert sorted(len(s) for s in sides) == [2, 2, 2]
    elif teams == "0":
        assert len(sides) == players
    bad: list[str] = []
    assert page.evaluate("spadesApp.table.view.dealer") == dealer
    if wait_my_turn_or_over(page) == "bid":
        # the table opened in view by itself (nothing scrolled it for the test)
        page.wait_for_function(SETTLED)
        bad += [f"{label} opening 1366x768: {p}" for p in page.evaluate(OPENED_IN_VIEW)]
        # the Bid and Nil cards are in the hand (LEGIBLE reads their text)
        assert page.evaluate("[...document.querySelectorAll('#hand .card.special')]"
                             ".map(c => c.dataset.card)") == ["BID", "NIL"]
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
