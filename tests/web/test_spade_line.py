"""The spade line in the middle of the felt ("♠ Spades not broken yet") at 390×844: it ran
over the bid of a side seat (a guest's, with the turn timer's chip) while the table bid. Now
it says "♠ not broken" on a phone's felt, and lies under the seats (on a shorter felt,
360×640 or a phone held sideways, it may still meet a seat's edge: the seat is on top)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_private_table, join_by_invite, settle, take_hinted_turn

COVERED = """(() => {
  const a = document.querySelector('.trick-info .broken').getBoundingClientRect();
  const texts = [...document.querySelectorAll('.seat *')].filter(e =>
    [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
  return texts.filter(e => {
    const b = e.getBoundingClientRect();
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }).map(e => e.closest('.seat').getAttribute('aria-label') + ': ' + e.textContent);
})()"""

# where the side seats leave less room still (a short felt), the line lies under the seats
UNDER = """Number(getComputedStyle(document.querySelector('.trick-info')).zIndex)
  < Number(getComputedStyle(document.querySelector('.seat')).zIndex)"""


def test_the_spade_line_covers_no_seat_on_a_phone(new_page: Any, server: str,
                                                  artifacts: Any) -> None:
    ann, bob = new_page(), new_page(viewport={"width": 390, "height": 844})
    # Ann deals (the first place is hers): her seat at its widest, the D chip beside her name
    code = create_private_table(ann, server, "Ann Chip", "Spade line", "race400", timer=60,
                                dealer=0)
    join_by_invite(ann, bob, server, code, "Bob Chip")  # Ann sits at his East or West
    ann.click("text=Start the match")
    bob.wait_for_function("spadesApp.table && spadesApp.table.view"
                          " && spadesApp.table.view.phase === 'bid'"
                          " && document.querySelector('.trick-info .broken')")
    ann_seat = bob.evaluate("spadesApp.table.msg.table.seats.findIndex(s => s.name === 'Ann Chip')")
    assert ann_seat != (bob.evaluate("spadesApp.table.mySeat") + 2) % 4  # beside him
    # Ann's turn to bid: her seat is at its widest (guest tag, the timer's chip); Bob bids
    # (the hint) if his turn comes first
    turn = f"spadesApp.table.view.current_player === {ann_seat}"
    bob.wait_for_function(f"{turn} || spadesApp.table.turnKey !== null", timeout=20000)
    if not bob.evaluate(turn):
        take_hinted_turn(bob, "bid")
        bob.wait_for_function(turn, timeout=20000)
    settle(bob)
    covered = bob.evaluate(COVERED)  # (before: "Ann Chip, East, …: –/0", under "yet")
    if covered:
        bob.screenshot(path=str(artifacts / "spade-line-390x844.png"))
    assert covered == [], covered
    assert bob.evaluate(UNDER)
    assert bob.text_content(".trick-info .broken") == " Spades not broken yet"  # for the DOM


def test_the_spade_line_is_one_line_on_a_small_phone(new_page: Any, server: str) -> None:
    """At 360x640 "♠ not broken yet" took three lines ("yet" alone on the last) on a felt
    whose middle is about two lines high between North's seat and yours: the seats covered
    its first or last line, and it read "♠ broken" (under North's seat with its turn tag)
    or "not broken". Now "♠ not broken" on one line, clear of the seats."""
    page = new_page(viewport={"width": 360, "height": 640})
    page.fill("#quick-name", "Maximilianakonstantinope")  # 24 letters: two lines of seat
    page.check("input[name=length][value=one]")
    page.click("text=Deal me in")
    page.wait_for_selector(".trick-info .broken.no")
    settle(page)
    lines = page.evaluate("""(() => { const e = document.querySelector('.trick-info .broken');
      const s = getComputedStyle(e);
      return Math.round((e.getBoundingClientRect().height - parseFloat(s.paddingTop)
        - parseFloat(s.paddingBottom)) / parseFloat(s.lineHeight)); })()""")
    assert lines == 1, lines  # before: 3
    assert not page.evaluate(COVERED), page.evaluate(COVERED)
    assert page.inner_text(".trick-info .broken").split() == ["not", "broken"]
    assert page.text_content(".trick-info .broken") == " Spades not broken yet"  # for the DOM
    assert not page.errors, page.errors
