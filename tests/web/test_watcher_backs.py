"""A spectator sees the card backs of every seat, the one drawn at the bottom too: that seat
showed none (a rule meant for your own seat, whose cards are your hand below the felt, hid
them there for a spectator as well)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_cpu_table, wait_my_turn_or_over

BACKS = """(() => [...document.querySelectorAll('.felt .seat')].map((s) => {
  const b = s.querySelector('.backs');
  return [s.dataset.place, b ? b.querySelectorAll('svg').length : 0,
          !!b && getComputedStyle(b).display !== 'none' && b.getBoundingClientRect().height > 0];
}))()"""


def test_a_spectator_sees_card_backs_at_every_seat(new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Backs Player", profile="cardems")  # (public: watched)
    assert wait_my_turn_or_over(page) == "bid"
    table = page.evaluate("spadesApp.table.id")
    mine = {place: (count, shown) for place, count, shown in page.evaluate(BACKS)}
    assert mine["me"] == (0, False), mine  # your own cards are your hand, not backs
    watcher = new_page()
    watcher.goto(f"{server}#/watch/{table}")
    watcher.fill("#table-name", "Backs Watcher")
    watcher.keyboard.press("Enter")
    watcher.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.view"
                              " && document.querySelectorAll('.felt .seat .backs').length === 4")
    seen = watcher.evaluate(BACKS)
    assert len(seen) == 4 and all(count == 8 and shown for _, count, shown in seen), seen
    assert not watcher.errors and not page.errors, (watcher.errors, page.errors)
