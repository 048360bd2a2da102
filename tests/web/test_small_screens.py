"""Long names on small screens: a phone (360x640), a phone held sideways (844x390) and a laptop
at 200 % zoom (1280x800 at 200 % lays the page out in 640x400 CSS pixels, the viewport used
here), with 3 to 6 seats whose players have names of up to the 24 characters a name may have,
and CPUs marked "(CPU)" as a continued record's are. Before, seats overlapped each other or the
trick, ran off the screen, or the page scrolled sideways; with 5 and 6 seats a seat covered a
trick card. Photographed into artifacts/web/ (small-*.png).

What is checked (``FITS`` of test_layouts, the whole trick on the felt, and ``NAMES``): no seat
overlaps another seat or a trick card, every seat, trick card and card of the hand is on the
screen, nothing scrolls sideways, and every name is either whole or visibly shortened (an
ellipsis) with the whole name in the seat's accessible name and its title (shown on hover)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import create_cpu_table, play_to_mid_trick, settle
from tests.web.test_layouts import FITS

SMALL: dict[str, dict[str, int]] = {
    "360x640": {"width": 360, "height": 640},
    "390x844": {"width": 390, "height": 844},
    "landscape-844x390": {"width": 844, "height": 390},
    # 1280x800 at 200 % browser zoom: the page lays out in 640x400 CSS pixels
    "zoom200-1280x800": {"width": 640, "height": 400},
}

# the others' names as long as names may be (24 characters), one word of 24 letters, and CPUs
# as a continued record marks them ("… (CPU)")
OTHERS = [
    ("Wolfeschlegelsteinhausen (CPU)", "cpu"),
    ("Papadopoulou-Konstantina", "human"),
    ("Anastasia Vanderbilthof (CPU)", "cpu"),
    ("Bartholomew Featherstone", "human"),
    ("Konstantinos Mavromatis (CPU)", "cpu"),
]

# every seat but yours named from OTHERS; the trick full (a card from every seat, yours too:
# the last card of a trick, as the page shows it before it is taken) when ``full`` is true
SET_UP = """([others, full]) => {
  const t = spadesApp.table;
  let i = 0;
  t.msg.table.seats.forEach((s, k) => {
    if (k === t.mySeat) return;
    const [name, kind] = others[i++ % others.length];
    s.name = name; s.kind = kind;
  });
  if (full) {
    const cards = t.view.hand.slice();
    t.view.trick = Array.from({length: t.players}, (_, s) => [s, cards[s % cards.length]]);
    t.renderTrick();
  }
  t.renderSeats(); t.fitHand(); t.showTable();
}"""

# every seat's name: whole, or visibly shortened (an ellipsis: cut by its line clamp) with the
# whole name in the seat's accessible name and in a title; never too small or too narrow to read
NAMES = """(() => {
  const out = [];
  for (const n of document.querySelectorAll('.felt .seat .who')) {
    const seat = n.closest('.seat');
    const whole = n.textContent;
    const what = `seat ${seat.dataset.seat} "${whole}"`;
    const cut = n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1;
    const label = seat.getAttribute('aria-label') || '';
    if (!label.includes(whole)) out.push(`${what}: not in the seat's label "${label}"`);
    if (cut) {
      const s = getComputedStyle(n);
      const title = n.getAttribute('title') || seat.getAttribute('title') || '';
      if (title !== whole && !title.startsWith(whole + ','))
        out.push(`${what}: cut, no title with the whole name`);
      if (s.webkitLineClamp === 'none' && s.textOverflow !== 'ellipsis')
        out.push(`${what}: cut without an ellipsis`);
    }
    const b = n.getBoundingClientRect();
    if (b.width < 40) out.push(`${what}: ${Math.round(b.width)} px wide`);
    if (parseFloat(getComputedStyle(n).fontSize) < 11) out.push(`${what}: type too small`);
  }
  return out;
})()"""


def _check(page: Any, artifacts: Path, players: int, state: str, full: bool) -> list[str]:
    bad: list[str] = []
    for size, viewport in SMALL.items():
        page.set_viewport_size(viewport)
        page.evaluate(SET_UP, [OTHERS, full])
        settle(page)
        page.screenshot(path=str(artifacts / f"small-{players}p-{state}-{size}.png"))
        shown = page.evaluate("[...document.querySelectorAll('.felt .trick .played')].length")
        if full and shown != players:
            bad.append(f"{state} {size}: {shown} trick cards shown")
        bad += [f"{players}p {state} {size}: {p}" for p in page.evaluate(FITS)]
        bad += [f"{players}p {state} {size}: {p}" for p in page.evaluate(NAMES)]
    return bad


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_long_names_fit_small_screens(new_page: Any, server: str, artifacts: Path,
                                      players: int) -> None:
    """Every seat with a long name at 360x640, 390x844, 844x390 and 640x400 (200 % zoom of
    1280x800), while bidding and with a whole trick on the felt: nothing overlaps, nothing is
    off the screen or scrolls sideways, and every name is whole or visibly shortened with the
    whole name in the seat's label and title."""
    name = f"Maximiliana Konstantin {players}"  # 24 characters, yours
    assert len(name) == 24
    page = new_page(viewport={"width": 1280, "height": 800})
    create_cpu_table(page, server, name, players=players, teams="" if players == 4 else "0")
    bad: list[str] = []
    page.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
    bad += _check(page, artifacts, players, "bidding", full=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    play_to_mid_trick(page, min_cards=1)
    assert page.evaluate("spadesApp.table.view.phase") == "play"
    bad += _check(page, artifacts, players, "trick", full=True)
    assert not page.errors, page.errors
    assert not bad, "\n".join(bad)


def test_whole_name_in_title(new_page: Any, server: str) -> None:
    """A name the seat may shorten has its whole text in a title (shown on hover)."""
    page = new_page(viewport=SMALL["360x640"])
    create_cpu_table(page, server, "Titled Konstantinou", players=4)
    page.evaluate(SET_UP, [OTHERS, False])
    titles = page.evaluate("[...document.querySelectorAll('.felt .seat .who')]"
                           ".map((n) => [n.textContent, n.getAttribute('title')])")
    assert all(text == title for text, title in titles), json.dumps(titles)


@pytest.mark.parametrize("players", [4, 6])
def test_usual_names_keep_their_places(new_page: Any, server: str, players: int) -> None:
    """With the places' names (CPUs) nothing is moved, shortened or made smaller at 1280x800
    and 390x844: the seats keep their places on the ellipse, the names their two lines and
    the trick its cards' size."""
    page = new_page(viewport={"width": 1280, "height": 800})
    create_cpu_table(page, server, f"Usual {players}", players=players,
                     teams="" if players == 4 else "0")
    play_to_mid_trick(page, min_cards=1)
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(viewport)
        page.evaluate("spadesApp.table.renderSeats(); spadesApp.table.fitHand()")
        settle(page)
        got = page.evaluate("""(() => {
          const f = document.querySelector('.felt');
          return {cls: f.className, cap: f.style.getPropertyValue('--trick-cap'),
                  moved: [...f.querySelectorAll('.seat')].filter((e) =>
                    e.style.getPropertyValue('--dx') || e.style.getPropertyValue('--dy'))
                    .map((e) => e.dataset.seat)};
        })()""")
        assert got == {"cls": f"felt players-{players}", "cap": "", "moved": []}, (viewport, got)
