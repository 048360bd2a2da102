"""Friends at a shared table, in the waiting room: the page says who will partner whom (the
places people picked are kept at the start), and the owner changes the options and removes
a person from the page, by keyboard and screen reader too."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_private_table, join_by_invite
from tests.web.test_axe_and_screenshots import audit

SEATS = "spadesApp.table && spadesApp.table.msg && spadesApp.table.msg.table.seats"


def friends(new_page: Any, server: str) -> tuple[Any, Any, Any]:
    """Ann's private cardems table (she sits at place 0); Bob moves to place 3, on her right
    (East on her page), Cara sits at place 2, across from her; place 1 is empty."""
    ann, bob, cara = new_page(), new_page(), new_page()
    code = create_private_table(ann, server, "Ann", "Friends", "cardems")
    join_by_invite(ann, bob, server, code, "Bob")  # place 2 (a joiner partners the owner)
    join_by_invite(ann, cara, server, code, "Cara")  # place 1
    bob.click("button[data-act=sit][data-seat='3']")
    ann.wait_for_function(f"{SEATS}[3].name === 'Bob' && {SEATS}[2].kind === 'empty'")
    cara.click("button[data-act=sit][data-seat='2']")
    ann.wait_for_function(f"{SEATS}[2].name === 'Cara' && {SEATS}[1].kind === 'empty'")
    return ann, bob, cara


def test_the_waiting_room_says_who_partners_whom_and_start_keeps_it(
        new_page: Any, server: str) -> None:
    # before the fix: no word of partners; Start put Bob next to Ann (people first)
    ann, bob, _ = friends(new_page, server)
    ann.wait_for_function("(document.querySelector('#partners') || {}).textContent"
                          " === 'Partners: Ann and Cara; Bob and a CPU at West.'")
    # (Bob's page hears of the last seat change a moment after Ann's: wait for it there too)
    try:
        bob.wait_for_function("spadesApp.table.seatsText().includes("
                              "'Partners: Ann and Cara; Bob and a CPU at North.')")
    except Exception:
        said = bob.evaluate("spadesApp.table.seatsText()")
        raise AssertionError(said) from None
    ann.click("text=Start the match")
    ann.wait_for_function("spadesApp.table && spadesApp.table.view")
    names = ann.evaluate(f"{SEATS}.map(s => s.name)")
    assert names[0] == "Ann" and names[2] == "Cara" and names[3] == "Bob", names


def test_the_owner_changes_options_and_removes_a_person_from_the_page(
        new_page: Any, server: str) -> None:
    # before the fix: no options and no "Remove Bob" in the waiting room at all
    ann, bob, cara = friends(new_page, server)
    assert not bob.is_visible("#table-options")  # the owner's only
    heard = Speech(cara)
    form = ann.locator("#table-options")
    form.get_by_label("Use a turn timer").check()
    form.get_by_label("Seconds per turn").fill("12")
    form.get_by_label("Target score").fill("300")
    form.get_by_label("Private (invite code only)").uncheck()
    save = form.get_by_role("button", name="Save the options")
    save.focus()
    ann.keyboard.press("Enter")
    heard.wait_for("Ann changed the target score to 300 and the turn timer to 12 seconds, "
                   "and made the table public")
    cara.wait_for_function("document.querySelector('#waiting-rules').textContent"
                           ".includes('12-second turn timer')")
    assert ann.evaluate("document.activeElement.textContent") == "Save the options"
    assert form.get_by_label("Seconds per turn").input_value() == "12"

    gone = Speech(bob)
    remove = ann.get_by_role("button", name="Remove Bob")
    remove.focus()
    ann.keyboard.press("Enter")
    gone.wait_for("Ann removed you from your seat; you are watching the table")
    heard.wait_for("Ann removed Bob")
    ann.wait_for_function(f"{SEATS}[3].kind === 'empty'")
    # the focus stays at that place: on its "Add a CPU" button
    ann.wait_for_function("document.activeElement && document.activeElement.dataset.act"
                          " === 'add' && document.activeElement.dataset.seat === '3'")
    assert ann.get_by_role("button", name="Remove Cara").count() == 1
    assert ann.get_by_role("button", name="Remove Ann").count() == 0
    # Bob watches; opening the table to play again, he is refused in words (before the fix
    # he sat down again), and offered to watch (a reload of his page watches it again: its
    # address is the table's to watch now)
    bob.wait_for_function("location.hash.startsWith('#/watch/')")
    bob.goto(server + "#/table/" + ann.evaluate("spadesApp.table.id"))
    bob.wait_for_selector("text=Could not join the table")
    assert "The owner removed you" in (bob.text_content("main") or "")
    assert bob.get_by_role("link", name="Watch the table instead").count() == 1
    assert ann.evaluate(f"{SEATS}[3].kind") == "empty"


def test_a_visitor_joining_from_the_lobby_hears_where_they_sit_not_their_own_name(
        new_page: Any, server: str) -> None:
    # before the fix: Bob's page said "Bob sits down." about himself (the server's note for
    # the others), then "You sit North at …"
    ann, bob = new_page(), new_page()
    ann.goto(server + "#/create")
    ann.fill("#c-your-name", "Ann")
    ann.fill("#c-name", "Open door")
    ann.select_option("#c-profile", "cardems")
    ann.click("text=Create the table")
    ann.wait_for_selector(".invite")
    bob.goto(server + "#/lobby")
    bob.locator("#lobby-list tr", has_text="Open door").get_by_role("link", name="Join").click()
    bob.fill("#table-name", "Bob")
    bob.get_by_role("button", name="Join").click()
    bob.wait_for_selector("#seat-list li")
    ann.wait_for_function(f"{SEATS}[2].name === 'Bob'")
    heard = Speech(bob)
    heard.wait_for("You sit")
    said = [e["text"] for e in heard.all()]
    assert not any("Bob sits down" in t for t in said), said
    Speech(ann).wait_for("Bob sits down at North")


def test_removed_from_a_table_without_spectators_the_page_says_so_and_offers_the_way_on(
        new_page: Any, server: str) -> None:
    """Removed by the owner at a table that allows no spectators, the page stayed in
    watching mode (the table drawn, "Stop watching") though the words said the player was
    off the table."""
    owner, quill = new_page(), new_page()
    owner.goto(server + "#/create")
    owner.fill("#c-your-name", "Ottoline")
    owner.fill("#c-name", "Closed room")
    owner.select_option("#c-profile", "cardems")
    owner.check("#c-private")
    owner.uncheck("#c-spectators")
    owner.click("text=Create the table")
    owner.wait_for_selector(".invite")
    code = str(owner.text_content(".invite")).strip()
    join_by_invite(owner, quill, server, code, "Quill")
    said = Speech(quill)
    said.seen = len(said.all())
    owner.get_by_role("button", name="Remove Quill").click()
    said.wait_for("Ottoline removed you from the table")
    quill.wait_for_selector("#off-table")
    title = quill.text_content("#off-table h1") or ""
    assert "no longer at" in title and "Closed room" in title, title
    # no watching-mode table: no seats, felt or "Stop watching"; the focus on the heading
    assert not quill.query_selector("#seat-list") and not quill.query_selector(".felt")
    assert quill.get_by_role("button", name="Stop watching").count() == 0
    quill.wait_for_function("document.activeElement && document.activeElement.closest('#off-table')")
    assert quill.get_by_role("link", name="Back to the lobby").count() == 1
    # said once, and nothing about watching
    texts = [e["text"] for e in said.all()]
    assert sum("removed you" in t for t in texts) == 1, texts
    assert not [t for t in texts if "watching" in t.lower()], texts
    # no "Join again" (before the fix it was offered and seated Quill again at once: the
    # removal meant nothing); the page says the removal holds
    assert quill.get_by_role("button", name="Join again").count() == 0
    assert "cannot sit at this table again" in (quill.text_content("#off-table") or "")
    # the invitation again: refused, and the page says why
    quill.goto(server + f"#/join/{code}")
    quill.wait_for_selector("text=the owner removed you from this table")
    assert quill.url.endswith(f"#/join/{code}") and not quill.query_selector("#seat-list")
    assert owner.evaluate(f"{SEATS}.every(s => s.name !== 'Quill')")
    assert not quill.errors, quill.errors


def test_removed_to_watching_the_page_rejoins_as_a_spectator_after_a_reconnect(
        new_page: Any, server: str) -> None:
    """Removed from his seat, Bob watches. Before: his page, reconnecting, asked for a seat
    again (and got it: the removal meant nothing); a removal now holds, so the page asks to
    watch, and Bob is among the spectators again."""
    ann, bob, _ = friends(new_page, server)
    ann.get_by_role("button", name="Remove Bob").click()
    Speech(bob).wait_for("Ann removed you from your seat; you are watching the table")
    spectating = "spadesApp.table.msg.table.spectating"
    ann.wait_for_function(f"{spectating} === 1")
    heard = Speech(bob)
    heard.seen = len(heard.all())
    bob.context.set_offline(True)
    bob.evaluate("spadesApp.conn.ws && spadesApp.conn.ws.close()")
    ann.wait_for_function(f"{spectating} === 0")  # his connection went, and his place with it
    bob.context.set_offline(False)
    heard.wait_for("Reconnected")
    ann.wait_for_function(f"{spectating} === 1 && spadesApp.table.spectatorNames[0] === 'Bob'")
    bob.wait_for_function("spadesApp.table.msg.you.role === 'spectator'")
    assert ann.evaluate(f"{SEATS}[3].kind") == "empty"
    assert not bob.query_selector("text=Could not join the table")
    assert not bob.errors, bob.errors


def test_removed_and_opening_the_invitation_again_the_page_offers_to_watch(
        new_page: Any, server: str) -> None:
    """Removed from his seat, Rolfe opens the invitation link again (a bookmark, a reload of
    it): the server refuses him a seat and says he may watch. Before: the page said so with
    only "Back", no way to watch; now "Watch the table" (its heading focused) opens it to
    watch, and his page stays a spectator's after a reconnect (it keeps the invitation a
    private table needs)."""
    tamsin, rolfe = new_page(), new_page()
    code = create_private_table(tamsin, server, "Tamsin", "Tamsin's club", "cardems")
    join_by_invite(tamsin, rolfe, server, code, "Rolfe")
    tamsin.get_by_role("button", name="Remove Rolfe").click()
    Speech(rolfe).wait_for("Tamsin removed you from your seat; you are watching the table")
    rolfe.goto(server + f"#/join/{code}")
    rolfe.wait_for_selector("text=you may watch it as a spectator")
    rolfe.wait_for_function("document.activeElement && document.activeElement.tagName === 'H1'")
    assert rolfe.evaluate("document.activeElement.textContent") == "Could not join"
    watch = rolfe.get_by_role("button", name="Watch the table")
    assert watch.count() == 1
    rolfe.keyboard.press("Tab")
    assert rolfe.evaluate("document.activeElement.id") == "invite-watch"
    rolfe.keyboard.press("Enter")
    spectating = "spadesApp.table.msg.table.spectating"
    tamsin.wait_for_function(f"{spectating} === 1 && (spadesApp.table.spectatorNames || [])[0] === 'Rolfe'")
    rolfe.wait_for_function("spadesApp.table && spadesApp.table.msg"
                            " && spadesApp.table.msg.you.role === 'spectator'")
    assert rolfe.url.endswith("#/watch/" + tamsin.evaluate("spadesApp.table.id"))
    # a reconnect: he watches again (the private table's invitation kept)
    rolfe.context.set_offline(True)
    rolfe.evaluate("spadesApp.conn.ws && spadesApp.conn.ws.close()")
    tamsin.wait_for_function(f"{spectating} === 0")
    rolfe.context.set_offline(False)
    tamsin.wait_for_function(f"{spectating} === 1 && (spadesApp.table.spectatorNames || [])[0] === 'Rolfe'")
    assert not rolfe.query_selector("text=Could not watch the table")
    assert not rolfe.errors, rolfe.errors


def test_removed_to_watching_a_private_table_a_reload_watches_it_again(
        new_page: Any, server: str) -> None:
    """Removed from his seat at a private table, Piers watches; he reloads the page. Before:
    the page, opened at the table's address, asked for a seat without the invitation and
    said "Could not join the table: this table is private: join with its invite code"
    (he had only been watching, and the removal was not even named). Now the page's address
    is the table's to watch, and the reload watches it again."""
    ula, piers = new_page(), new_page()
    code = create_private_table(ula, server, "Ula", "Ula's club", "cardems")
    join_by_invite(ula, piers, server, code, "Piers")
    ula.get_by_role("button", name="Remove Piers").click()
    Speech(piers).wait_for("Ula removed you from your seat; you are watching the table")
    tid = ula.evaluate("spadesApp.table.id")
    piers.wait_for_function("spadesApp.table.rejoinWatching")
    piers.reload()
    piers.wait_for_function("spadesApp.table && spadesApp.table.msg"
                            " && spadesApp.table.msg.you.role === 'spectator'")
    ula.wait_for_function("spadesApp.table.msg.table.spectating === 1"
                          " && (spadesApp.table.spectatorNames || [])[0] === 'Piers'")
    assert not piers.query_selector("text=Could not join the table")
    assert piers.evaluate("location.hash") == f"#/watch/{tid}"
    assert ula.evaluate(f"{SEATS}.every(s => s.name !== 'Piers')")
    assert not piers.errors, piers.errors


def test_a_refused_join_puts_the_focus_on_what_happened(new_page: Any, server: str) -> None:
    """Vance opens a private table's address without its invitation and gives his name: the
    join is refused. Before: the form he was on went and the focus fell to the page's body
    (a screen reader user heard the alert once, then was nowhere); now it is on the heading
    "Could not join the table", and Tab reaches "Back to the home page"."""
    wynne, vance = new_page(), new_page()
    create_private_table(wynne, server, "Wynne", "Wynne's club", "cardems")
    tid = wynne.evaluate("spadesApp.table.id")
    vance.evaluate("localStorage.removeItem('spades.token')")
    vance.goto(server + f"#/table/{tid}")
    vance.fill("#table-name", "Vance")
    vance.keyboard.press("Enter")
    vance.wait_for_selector("text=join with its invite code")
    vance.wait_for_function("document.activeElement && document.activeElement.tagName === 'H1'")
    assert vance.evaluate("document.activeElement.textContent") == "Could not join the table"
    vance.keyboard.press("Tab")
    assert vance.evaluate("document.activeElement.textContent") == "Back to the home page"
    assert not vance.errors, vance.errors


def test_the_owner_lets_removed_people_back_in_and_they_sit_again(
        new_page: Any, server: str, axe_source: str) -> None:
    """Before: a removal held for the table's whole life; the owner's page did not even
    say whom they had removed. Now the owner's waiting room lists them ("Removed from this
    table"), each with "Let Bram back in" (by keyboard; the focus goes to the next one's
    button, then to the Seats heading), everyone hears it, and the page of the person let
    back in, watching, offers "Sit down at the table", which seats them."""
    olga, bram, cleo = new_page(), new_page(), new_page()
    code = create_private_table(olga, server, "Olga", "Olga's den", "cardems")
    join_by_invite(olga, bram, server, code, "Bram")
    join_by_invite(olga, cleo, server, code, "Cleo")
    tid = olga.evaluate("spadesApp.table.id")
    for who, page in (("Cleo", cleo), ("Bram", bram)):
        olga.get_by_role("button", name=f"Remove {who}").click()
        Speech(page).wait_for("Olga removed you from your seat; you are watching the table")
    olga.wait_for_function(f"{SEATS}.filter(s => s.kind === 'human').length === 1")
    box = olga.locator("#removed-box")
    box.wait_for(state="visible")
    assert box.get_by_role("heading").text_content() == "Removed from this table"
    assert box.locator(".removed-who").all_inner_texts() == ["Bram", "Cleo"]
    assert box.locator(".guest-mark").count() == 2  # read as "Bram (guest)"
    assert box.get_by_role("button").all_inner_texts() == ["Let Bram back in",
                                                           "Let Cleo back in"]
    said = olga.evaluate("spadesApp.table.seatsText()")
    assert said.endswith("Removed by you: Bram and Cleo."), said
    audit(olga, axe_source, "the owner's waiting room with the people she removed")
    # only the owner sees whom she removed (the others' table state does not carry it)
    for page in (bram, cleo):
        assert not page.is_visible("#removed-box")
        assert page.evaluate("spadesApp.table.msg.table.removed") == []
        assert page.get_by_role("button", name="Sit down at the table").count() == 0

    heard = Speech(cleo)
    told = Speech(bram)
    first = olga.get_by_role("button", name="Let Bram back in")
    first.focus()
    olga.keyboard.press("Enter")
    told.wait_for("Olga let you back to the table: you may sit down again")
    heard.wait_for("Olga let Bram back to the table")
    Speech(olga).wait_for("you let Bram back to the table")
    # the focus goes to the next one's button, not to the page's body
    olga.wait_for_function("document.activeElement && document.activeElement.textContent"
                           " === 'Let Cleo back in'")
    assert olga.get_by_role("button", name="Let Bram back in").count() == 0
    # Cleo, still removed, is offered no seat; Bram is
    assert cleo.get_by_role("button", name="Sit down at the table").count() == 0
    sit = bram.get_by_role("button", name="Sit down at the table")
    sit.wait_for()
    sit.focus()
    bram.keyboard.press("Enter")
    told.wait_for("You sit")
    bram.wait_for_function("spadesApp.table.msg.you.role === 'player'")
    olga.wait_for_function(f"{SEATS}.some(s => s.name === 'Bram')")
    # his page is a player's again: his place has the focus, the address is the table's
    seat = bram.evaluate("spadesApp.table.mySeat")
    bram.wait_for_function("document.activeElement && document.activeElement.dataset.seat"
                           f" === '{seat}'")
    assert bram.evaluate("location.hash") == f"#/table/{tid}"
    assert bram.get_by_role("button", name="Sit down at the table").count() == 0
    # the last one let back in: the focus goes to the Seats heading, and the list goes
    olga.keyboard.press("Enter")
    Speech(cleo).wait_for("Olga let you back to the table: you may sit down again")
    olga.wait_for_function("document.activeElement && document.activeElement.id"
                           " === 'seats-title'")
    assert not olga.is_visible("#removed-box")
    for page in (olga, bram, cleo):
        assert not page.errors, page.errors
