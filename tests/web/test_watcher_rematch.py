"""Spectators of a private table follow it to its rematch. Two people came by the invite
link after the match had started and chose "Watch the table"; at the end the owner made a
rematch, and they got only "The new table is private: ask its owner for the invite code"
(the new code is sent to nobody). Now the rematch takes the code they came with: their
Rematch box has "Join the rematch" (a free place at the new table) and "Watch the rematch",
J goes there and says so, and each opens the new table, the one sitting down at a place not
kept for the players of the match before, the other watching it; she then sits down after
all (Sit down at the table, by J)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, friends_at_table
from tests.web.test_rematch import play_both_to_end, rematch_room
from tests.web.test_watcher_sits import sat_down_by_keyboard, told_why_then_seated


def watch_by_invite(page: Any, server: str, code: str, name: str) -> None:
    """``page`` follows the invite link of a match that started: a name, Join (refused:
    the match has started), then Watch the table."""
    page.goto(server + f"#/join/{code}")
    page.fill("#invite-name", name)
    page.click("form.panel button[type=submit]")
    page.wait_for_selector("#invite-watch")
    page.click("#invite-watch")
    page.wait_for_function("spadesApp.table && spadesApp.table.msg"
                           " && spadesApp.table.msg.you.role === 'spectator'", timeout=15000)


def test_spectators_of_a_private_table_follow_it_to_its_rematch(new_page: Any,
                                                               server: str) -> None:
    olga, bea, code = friends_at_table(new_page, server, "Olgawatch", "Beawatch",
                                       "Watched club", one_hand=True)
    vera, walt = new_page(), new_page()
    watch_by_invite(vera, server, code, "Verawatch")
    watch_by_invite(walt, server, code, "Waltwatch")
    old = olga.evaluate("spadesApp.table.id")
    play_both_to_end([olga, bea])
    for page in (vera, walt):
        page.wait_for_selector("#match-over[open]", timeout=30000)
    heard = [Speech(p) for p in (vera, walt)]
    for s in heard:
        s.seen = len(s.all())
    olga.wait_for_selector("#match-over[open] #over-rematch")
    olga.click("#over-rematch")
    olga.wait_for_function("o => spadesApp.table && spadesApp.table.id !== o"
                           " && spadesApp.table.status === 'waiting'", arg=old, timeout=15000)
    new = olga.evaluate("spadesApp.table.id")
    for page, s in zip((vera, walt), heard, strict=True):
        s.wait_for("Olgawatch started a rematch")
        page.wait_for_selector("#match-over[open] #rematch-join")
        box = str(page.text_content("#rematch-box"))
        assert "Olgawatch started a rematch" in box, box
        assert "Join the rematch to sit at a free place at the new table, or watch it." in box
        assert "ask its owner" not in box, box
        assert page.text_content("#rematch-watch") == "Watch the rematch"
        # the match-over box closed, the focus is on Join the rematch, and J goes back there
        page.keyboard.press("Escape")
        page.wait_for_function("document.activeElement && document.activeElement.id"
                               " === 'rematch-join'")
        page.focus("#sheet-btn")
        page.keyboard.press("j")
        assert page.evaluate("document.activeElement.id") == "rematch-join"
    # Vera: Watch the rematch, by keyboard
    vera.keyboard.press("Tab")
    assert vera.evaluate("document.activeElement.id") == "rematch-watch"
    vera.keyboard.press("Enter")
    vera.wait_for_function("n => spadesApp.table && spadesApp.table.id === n"
                           " && spadesApp.table.msg && spadesApp.table.msg.you.role === 'spectator'",
                           arg=new, timeout=15000)
    assert vera.evaluate("location.hash") == f"#/watch/{new}"
    # Walt: Join the rematch, and he sits at a free place (Bea's is kept for her)
    walt.keyboard.press("Enter")
    walt.wait_for_function("n => spadesApp.table && spadesApp.table.id === n"
                           " && spadesApp.table.msg && spadesApp.table.isPlayer",
                           arg=new, timeout=15000)
    seat = walt.evaluate("spadesApp.table.mySeat")
    kept = olga.evaluate("spadesApp.table.msg.table.seats.map(s => s.kept_for || null)")
    assert kept[seat] is None, (seat, kept)
    olga.wait_for_function(
        "[...document.querySelectorAll('.seat-who')].some(e => e.textContent === 'Waltwatch')")
    # Vera, watching the rematch, wants to play after all: J goes to Sit down at the table,
    # and Enter seats her at the place still free (with the code her page kept)
    vera.wait_for_function("spadesApp.table.msg.table.seats.filter(s => s.kind === 'human')"
                           ".length === 2")
    sat_down_by_keyboard(vera, new, "Watched club")
    seat = vera.evaluate("spadesApp.table.mySeat")
    assert kept[seat] is None, (seat, kept)
    olga.wait_for_function(
        "[...document.querySelectorAll('.seat-who')].some(e => e.textContent === 'Verawatch')")
    for page in (olga, bea, vera, walt):
        assert not page.errors, page.errors


def test_a_spectator_hears_where_j_goes_when_the_rematch_comes(new_page: Any,
                                                              server: str) -> None:
    """The words said with the news to a spectator whose match-over box is closed."""
    olga, bea, code = friends_at_table(new_page, server, "Olgajkey", "Beajkey",
                                       "J key club", one_hand=True)
    vera = new_page()
    watch_by_invite(vera, server, code, "Verajkey")
    play_both_to_end([olga, bea])
    vera.wait_for_selector("#match-over[open]", timeout=30000)
    vera.keyboard.press("Escape")
    vera.wait_for_selector("#match-over", state="hidden")
    said = Speech(vera)
    said.seen = len(said.all())
    olga.wait_for_selector("#match-over[open] #over-rematch")
    olga.click("#over-rematch")
    said.wait_for("Olgajkey started a rematch")
    said.wait_for("J goes to the Join the rematch button; Watch the rematch is next to it.")
    vera.wait_for_selector("#rematch-box #rematch-watch")
    assert not vera.errors, vera.errors


def _fill_places_kept_for_nobody(olga: Any) -> None:
    """The owner puts CPUs at the rematch's free places kept for nobody (a kept place has
    no Add a CPU button)."""
    while olga.locator("button[data-act=add]").count():
        n = olga.locator("button[data-act=add]").count()
        olga.locator("button[data-act=add]").first.click()
        olga.wait_for_function(f"document.querySelectorAll('button[data-act=add]').length < {n}")


def test_an_old_player_watching_the_private_rematch_may_sit_without_its_code(
        new_page: Any, server: str) -> None:
    """Fred, who played the match before, opens its private rematch to watch (#/watch/<id>),
    its code unknown to his page: it said "This table is private: to sit down, open it with
    its invite code", though the server seats him without it. His role now says he may
    (``you.invited``): Sit down at the table, and he is at his kept place (the only free
    one, kept for him)."""
    olga, fred, fred_seat = rematch_room(new_page, server, "Olgaoldwatch", "Fredoldwatch")
    new = olga.evaluate("spadesApp.table.id")
    _fill_places_kept_for_nobody(olga)
    fred.goto(server + f"#/watch/{new}")
    fred.wait_for_function("n => spadesApp.table && spadesApp.table.id === n"
                           " && spadesApp.table.msg && spadesApp.table.msg.you.role"
                           " === 'spectator'", arg=new, timeout=15000)
    assert fred.evaluate("spadesApp.table.msg.you") == {
        "role": "spectator", "seat": None, "invited": True, "kept": fred_seat}
    fred.wait_for_selector("#sit-again")
    assert fred.locator("#sit-why").count() == 0
    sat_down_by_keyboard(fred, new, "Club evening")
    assert fred.evaluate("spadesApp.table.mySeat") == fred_seat
    for page in (olga, fred):
        assert not page.errors, page.errors


def test_a_watcher_is_told_the_free_places_are_kept(new_page: Any, server: str) -> None:
    """Only the place kept for Bea is free at the rematch: Vera, watching it, was offered
    Sit down at the table, and took Bea's place. Now she is told why she cannot sit (shown,
    and said by J) until the owner frees it."""
    olga, bea, code = friends_at_table(new_page, server, "Olgakeptw", "Beakeptw",
                                       "Kept club", one_hand=True)
    vera = new_page()
    watch_by_invite(vera, server, code, "Verakeptw")
    old = olga.evaluate("spadesApp.table.id")
    play_both_to_end([olga, bea])
    vera.wait_for_selector("#match-over[open]", timeout=30000)
    olga.wait_for_selector("#match-over[open] #over-rematch")
    olga.click("#over-rematch")
    olga.wait_for_function("o => spadesApp.table && spadesApp.table.id !== o"
                           " && spadesApp.table.status === 'waiting'", arg=old, timeout=15000)
    new = olga.evaluate("spadesApp.table.id")
    vera.wait_for_selector("#match-over[open] #rematch-watch")
    vera.click("#rematch-watch")
    vera.wait_for_function("n => spadesApp.table && spadesApp.table.id === n && spadesApp"
                           ".table.msg && spadesApp.table.msg.you.role === 'spectator'",
                           arg=new, timeout=15000)
    _fill_places_kept_for_nobody(olga)
    why = ("The free place is kept for Beakeptw, who played the match before, until they are"
           " back or the match starts: you may sit down when a place is free for you.")
    # the owner frees Bea's place: Vera may sit there now
    told_why_then_seated(vera, olga, why, "button[data-act=free]", new, "Kept club")
    for page in (olga, bea, vera):
        assert not page.errors, page.errors
