"""Someone watching a table that has not started may sit down at a free place. Before, the
waiting room offered "Sit down at the table" only to a person the owner had let back in after
a removal: someone who opened a public table to watch (the lobby's Watch, #/watch/<id>), or a
private one by its invitation while it was full, or who chose "Watch the rematch", could only
stop watching and find the table again. Now the watcher's waiting room has "Sit down at the
table" while a place is free (J goes there, and arriving says so), which joins as a player
(with the private table's code the page holds), says "You sit …" and makes the page a
player's; while no place is free it says why instead (shown, and said by J)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_private_table

SEATS = "spadesApp.table.msg.table.seats"


def sat_down_by_keyboard(page: Any, tid: str, table_name: str) -> str:
    """``page``, watching the waiting room of ``tid``: J goes to Sit down at the table,
    Enter seats them; they hear where they sit. Returns what they heard."""
    said = Speech(page)
    said.seen = len(said.all())
    page.focus("#seats-title")
    page.keyboard.press("j")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'sit-again'")
    assert page.text_content("#sit-again") == "Sit down at the table"
    page.keyboard.press("Enter")
    heard = said.wait_for("You sit")
    assert f"at {table_name}." in heard["text"], heard
    page.wait_for_function("spadesApp.table.isPlayer && spadesApp.table.msg.you.role === 'player'")
    seat = page.evaluate("spadesApp.table.mySeat")
    where = page.evaluate(f"spadesApp.table.compass({seat})")
    assert heard["text"].startswith(f"You sit {where} at {table_name}."), heard
    # a player's page: the focus on their place, the table's address to play, no button
    page.wait_for_function("s => document.activeElement && document.activeElement.dataset.seat"
                           " === String(s)", arg=seat)
    assert page.evaluate("location.hash") == f"#/table/{tid}"
    assert page.locator("#sit-again").count() == 0
    assert page.locator("#sit-why").count() == 0
    return str(heard["text"])


def told_why_then_seated(page: Any, owner: Any, why: str, free: str, tid: str,
                         table_name: str) -> None:
    """``page``, watching the waiting room of ``tid`` where it may not sit: shown and told
    (J) ``why``, no button; once ``owner`` presses the first ``free`` button (frees a
    place), the button comes and the reason goes, and ``page`` sits down by keyboard."""
    page.wait_for_selector("#sit-why")
    assert page.text_content("#sit-why") == why
    assert page.locator("#sit-again").count() == 0
    said = Speech(page)
    said.seen = len(said.all())
    page.focus("#seats-title")
    page.keyboard.press("j")
    said.wait_for(why)
    owner.locator(free).first.click()
    page.wait_for_selector("#sit-again")
    assert page.locator("#sit-why").count() == 0
    sat_down_by_keyboard(page, tid, table_name)


def test_a_watcher_of_a_public_waiting_table_sits_down(new_page: Any, server: str) -> None:
    """Opened to watch (the lobby's Watch: #/watch/<id>), the waiting room says J goes to
    Sit down at the table; J and Enter seat the watcher, and the owner sees them."""
    olga = new_page()
    olga.goto(server + "#/create")
    olga.fill("#c-your-name", "Olgasits")
    olga.fill("#c-name", "Open sitting")
    olga.click("text=Create the table")
    olga.wait_for_selector("#seat-list")
    tid = olga.evaluate("spadesApp.table.id")
    walt = new_page()
    walt.goto(server + f"#/watch/{tid}")
    walt.fill("#table-name", "Waltsits")
    walt.click("form.panel button[type=submit]")
    walt.wait_for_function("spadesApp.table && spadesApp.table.msg"
                           " && spadesApp.table.msg.you.role === 'spectator'", timeout=15000)
    Speech(walt).wait_for("You are watching Open sitting. The match has not started yet."
                          " J goes to the Sit down at the table button.")
    assert walt.get_by_role("button", name="Sit down at the table").count() == 1
    sat_down_by_keyboard(walt, tid, "Open sitting")
    olga.wait_for_function(f"{SEATS}.some(s => s.name === 'Waltsits')")
    for page in (olga, walt):
        assert not page.errors, page.errors


def test_a_watcher_of_a_full_private_table_sits_once_a_place_is_free(new_page: Any,
                                                                     server: str) -> None:
    """Come by the invitation while the table is full (Watch the table): no button, and
    the reason shown and said by J; the owner removes a CPU, and the watcher sits down
    there with the code the page kept."""
    olga = new_page()
    code = create_private_table(olga, server, "Olgafull", "Full den", "game93")
    tid = olga.evaluate("spadesApp.table.id")
    while olga.locator("button[data-act=add]").count():
        n = olga.locator("button[data-act=add]").count()
        olga.locator("button[data-act=add]").first.click()
        olga.wait_for_function(f"document.querySelectorAll('button[data-act=add]').length < {n}")
    vera = new_page()
    vera.goto(server + f"#/join/{code}")
    vera.fill("#invite-name", "Verafull")
    vera.click("form.panel button[type=submit]")
    vera.wait_for_selector("#invite-watch")
    assert "The table is full" in str(vera.text_content("[role=alert]"))
    vera.click("#invite-watch")
    vera.wait_for_function("spadesApp.table && spadesApp.table.msg"
                           " && spadesApp.table.msg.you.role === 'spectator'", timeout=15000)
    # the owner frees a place: the button comes, the reason goes
    told_why_then_seated(vera, olga, "No place is free: you may sit down when one is.",
                         "button[data-act=remove]", tid, "Full den")
    olga.wait_for_function(f"{SEATS}.some(s => s.name === 'Verafull')")
    for page in (olga, vera):
        assert not page.errors, page.errors


def test_a_removed_watcher_is_told_why_after_a_reload(new_page: Any, server: str) -> None:
    """Removed from the table and watching it after a reload, the page cannot know of the
    removal: Sit down at the table is refused in the server's words, said, and the button
    gives way to them."""
    olga = new_page()
    code = create_private_table(olga, server, "Olgagone", "Gone den", "game93")
    bram = new_page()
    bram.goto(server + f"#/join/{code}")
    bram.fill("#invite-name", "Bramgone")
    bram.click("form.panel button[type=submit]")
    bram.wait_for_selector("#seat-list")
    olga.get_by_role("button", name="Remove Bramgone").click()
    Speech(bram).wait_for("removed you from your seat; you are watching the table")
    # watching, removed: no button, the reason instead
    bram.wait_for_selector("#sit-why")
    assert "once they let you back in" in str(bram.text_content("#sit-why"))
    bram.reload()
    bram.wait_for_function("spadesApp.table && spadesApp.table.msg"
                           " && spadesApp.table.msg.you.role === 'spectator'", timeout=15000)
    said = Speech(bram)
    bram.wait_for_selector("#sit-again")
    bram.focus("#seats-title")
    bram.keyboard.press("j")
    bram.wait_for_function("document.activeElement && document.activeElement.id === 'sit-again'")
    bram.keyboard.press("Enter")
    said.wait_for("Refused: the owner removed you from this table: you cannot sit at it again")
    bram.wait_for_selector("#sit-why")
    assert bram.locator("#sit-again").count() == 0
    assert str(bram.text_content("#sit-why")).startswith(
        "You cannot sit down: the owner removed you from this table")
    # the focus did not fall to the page's body: it is on the reason
    assert bram.evaluate("document.activeElement.id") == "sit-why"
    assert bram.evaluate("spadesApp.table.msg.you.role") == "spectator"
    for page in (olga, bram):
        assert not page.errors, page.errors
