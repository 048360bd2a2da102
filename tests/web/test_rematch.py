"""A rematch at a shared table (a club evening's user trial): after the end the owner presses
Rematch in the match-over box and the new table's waiting room opens; the friend hears
"… started a rematch" and presses Join the rematch with the keyboard, and sits down at the
new table, private like the old one, without typing its code; until then the owner's waiting
room shows his place kept for him."""

from __future__ import annotations

import time
from typing import Any

from tests.web.helpers import (
    Speech,
    friends_at_table,
    play_hinted_to_end,
    start_quick_match,
    tab_to,
    take_hinted_turn,
)

MY_TURN = """(() => { const t = spadesApp.table;
  return !!(t && t.view && t.status === 'active' && t.turnKey !== null); })()"""
OVER = "spadesApp.table && spadesApp.table.status === 'finished'"


def play_both_to_end(pages: list[Any], seconds: float = 180) -> None:
    """Each page takes its turns (the hint, by keyboard) until both show the end."""
    deadline = time.monotonic() + seconds
    while not all(p.evaluate(OVER) for p in pages):
        if time.monotonic() > deadline:
            raise AssertionError("the match did not end")
        for p in pages:
            if p.evaluate(MY_TURN):
                take_hinted_turn(p, p.evaluate("spadesApp.table.view.phase"))


def friends_played_to_end(new_page: Any, server: str, owner: str, friend: str,
                          table_name: str) -> tuple[Any, Any, str]:
    """A private one-hand game93 table of ``owner`` and ``friend`` (CPUs in the other
    places), started and played to its end by both pages: the end-of-match box open on
    both, the owner's with its Rematch button. Their pages and the table's invite code."""
    olga, bea, code = friends_at_table(new_page, server, owner, friend, table_name,
                                       one_hand=True)
    for page in (olga, bea):
        page.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'",
                               timeout=15000)
    play_both_to_end([olga, bea])
    olga.wait_for_selector("#match-over[open] #over-rematch", timeout=30000)
    bea.wait_for_selector("#match-over[open]", timeout=30000)
    return olga, bea, code


def rematch_room(new_page: Any, server: str, olga_name: str, fred_name: str
                 ) -> tuple[Any, Any, int]:
    """Olga's private one-hand table with Fred, played to the end by both pages; Olga
    presses Rematch by keyboard and the new waiting room opens (checked): Olga's and
    Fred's pages and Fred's place."""
    olga, fred, code = friends_played_to_end(new_page, server, olga_name, fred_name,
                                             "Club evening")
    old = olga.evaluate("spadesApp.table.id")
    fred_seat = fred.evaluate("spadesApp.table.mySeat")
    # the owner's match-over box has Rematch beside New match (the friend's has not)
    assert fred.query_selector("#over-rematch") is None
    olga.focus("#over-rematch")
    olga.keyboard.press("Enter")
    # the new table's waiting room opens for the owner: the same options, a new invite code
    olga.wait_for_function("o => spadesApp.table && spadesApp.table.id !== o"
                           " && spadesApp.table.msg && spadesApp.table.status === 'waiting'",
                           arg=old, timeout=15000)
    new = olga.evaluate("spadesApp.table.id")
    assert olga.evaluate("location.hash") == f"#/table/{new}"
    options = olga.evaluate("spadesApp.table.msg.table.options")
    assert options["name"] == "Club evening" and options["one_hand"] is True
    assert options["private"] is True and options["profile"] == "game93"
    olga.wait_for_selector(".invite")
    assert str(olga.text_content(".invite")).strip() != code
    return olga, fred, fred_seat


def test_rematch_by_the_owner_and_joined_by_keyboard(new_page: Any, server: str) -> None:
    olga, fred, fred_seat = rematch_room(new_page, server, "Olgarem", "Fredrem")
    said = Speech(fred)  # (from the page's first words on)
    new = olga.evaluate("spadesApp.table.id")
    # Fred's place is kept for him until he is back: said so in its row, with no button to
    # sit there or give it to a CPU; R (the seats) says it too
    row = f'#seat-list li[data-seat="{fred_seat}"]'
    olga.wait_for_selector(f"{row}.kept")
    assert str(olga.text_content(f"{row} .seat-who")) == "Kept for Fredrem"
    # (the owner's one button there frees it: test_the_owner_frees_a_kept_place)
    assert [b.get_attribute("data-act") for b in olga.query_selector_all(f"{row} button")
            ] == ["free"]
    assert "kept for Fredrem" in olga.evaluate("spadesApp.table.seatsText()")
    # the friend hears it in the live region, and reaches Join the rematch with Tab
    said.wait_for("Olgarem started a rematch")
    fred.wait_for_selector("#match-over[open] #rematch-join")
    assert "Olgarem started a rematch" in str(fred.text_content("#rematch-box"))
    tab_to(fred, "rematch-join", 12)
    fred.keyboard.press("Enter")
    fred.wait_for_function("n => spadesApp.table && spadesApp.table.id === n"
                           " && spadesApp.table.msg && spadesApp.table.isPlayer", arg=new,
                           timeout=15000)
    assert fred.evaluate("spadesApp.table.status") == "waiting"
    assert fred.evaluate("spadesApp.table.mySeat") == fred_seat  # back at his place
    fred.wait_for_selector("#seat-list")
    olga.wait_for_function(
        "[...document.querySelectorAll('.seat-who')].some(e => e.textContent === 'Fredrem')")
    assert olga.query_selector("#seat-list li.kept") is None  # back: no longer kept
    assert not olga.errors and not fred.errors, (olga.errors, fred.errors)


def test_add_a_cpu_pressed_at_a_place_kept_since_is_refused_in_the_pages_words(
        new_page: Any, server: str) -> None:
    """Olga's page drew Add a CPU at a place the server keeps for Fred since (he was back at
    the rematch and left again: his place is kept once more, and her page had not drawn it
    so yet when she pressed it). The refusal said the server's words, "place 2 is kept …
    (remove place 2 …)", a number and a message name the page shows nowhere. Now it says
    where the place is, for whom it is kept, and the button that frees it."""
    olga, _fred, fred_seat = rematch_room(new_page, server, "Olgastale", "Fredstale")
    said = Speech(olga)
    row = f'#seat-list li[data-seat="{fred_seat}"]'
    olga.wait_for_selector(f"{row}.kept")
    # the view before the keeping, drawn (its Add a CPU button), then the one after it
    # taken in without a redraw: the press crosses the new snapshot
    olga.evaluate("""seat => { const t = spadesApp.table, s = t.msg.table.seats[seat];
      const was = s.kept_for; s.kept_for = null; t.renderWaiting(); s.kept_for = was; }""",
                  fred_seat)
    add = f'{row} button[data-act="add"]'
    olga.focus(add)
    olga.keyboard.press("Enter")
    where = olga.evaluate(f"spadesApp.table.compass({fred_seat})")
    heard = said.wait_for("Refused: ")
    assert heard["text"] == (
        f"Refused: {where} is kept for Fredstale, who played the match before, until they "
        f"are back or the match starts. To give it to a CPU all the same, free it first (its "
        f"button Free {where}, kept for Fredstale), then add the CPU."), heard
    assert olga.evaluate(f"spadesApp.table.msg.table.seats[{fred_seat}].kind") == "empty"
    assert not olga.errors, olga.errors


def test_a_rematch_against_cpus_starts_at_once(new_page: Any, server: str) -> None:
    """Alone against CPUs, Rematch deals the new match at once, as "Play against CPUs now"
    does (before: a waiting room, with Start to press)."""
    page = new_page()
    start_quick_match(page, "Solrem", profile="game93", one_hand=True)
    first = page.evaluate("spadesApp.table.id")
    play_hinted_to_end(page)
    page.wait_for_selector("#match-over[open] #over-rematch")
    page.click("#over-rematch")
    page.wait_for_function(f"spadesApp.table && spadesApp.table.id !== '{first}'"
                           " && spadesApp.table.status === 'active' && spadesApp.table.view",
                           timeout=30000)
    assert not page.errors, page.errors


def test_the_owner_frees_a_kept_place(new_page: Any, server: str) -> None:
    """Fred is not coming back to the rematch: Olga frees his kept place by keyboard, and
    it is an empty place like the others (before: kept, and nobody could choose it, until
    the start)."""
    olga, _fred, fred_seat = rematch_room(new_page, server, "Olgafree", "Fredfree")
    said = Speech(olga)
    row = f'#seat-list li[data-seat="{fred_seat}"]'
    olga.wait_for_selector(f"{row}.kept")
    free = f'{row} button[data-act="free"]'
    where = olga.evaluate(f"spadesApp.table.compass({fred_seat})")
    assert olga.text_content(free) == f"Free {where}, kept for Fredfree"
    olga.focus(free)
    olga.keyboard.press("Enter")
    said.wait_for(f"You freed {where}, the place kept for Fredfree")
    olga.wait_for_selector(f"{row}:not(.kept)")
    assert str(olga.text_content(f"{row} .seat-who")) == "Empty"
    assert olga.evaluate("document.activeElement.dataset.act") == "add"  # Add a CPU at …
    assert "kept for" not in olga.evaluate("spadesApp.table.seatsText()")
    assert not olga.errors, olga.errors
