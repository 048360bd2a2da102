"""The waiting room says what the owner chose: the table's name heads it, and its rules
line names a one-hand match (or the target) and the CPU strength besides the profile,
players, timer and privacy."""

from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import Speech, create_private_table, join_by_invite, wait_table_opened


def test_the_waiting_room_names_the_table_and_every_option_chosen(new_page: Any,
                                                                   server: str) -> None:
    # before the fix: "Rules: game93, 4 players, 20-second turn timer, private." under
    # "Waiting for the start", with no name, no one hand and no CPU strength
    page = new_page()
    create_private_table(page, server, "Olga", "Olga's <b>quick</b> one", "game93", timer=20,
                         one_hand=True, cpu="easy")
    heading = page.text_content("main h1")
    assert heading == "Olga's <b>quick</b> one", heading  # as text, not markup
    assert page.locator("main h1 b").count() == 0
    assert "Waiting for the start" in page.text_content("main"), page.text_content("main")
    rules = page.text_content("#waiting-rules")
    assert rules == ("Rules: game93, 4 players, one-hand match, 20-second turn timer, "
                     "Easy CPU players, private."), rules
    # a target instead of one hand is said as the target
    other = new_page()
    create_private_table(other, server, "Tom", "Tom's", "race400", target=250, cpu="hard")
    rules = other.text_content("#waiting-rules")
    assert rules == "Rules: race400, 4 players, to 250 points, Hard CPU players, private.", rules


def test_the_waiting_room_says_which_cards_leave_the_deck(new_page: Any, server: str) -> None:
    """race400 with three players plays without the two of clubs: the waiting room says so,
    in the words the terminal's rules text uses (spades.present.rules, from the engine's
    deck; before: not said anywhere at the table)."""
    from spades.engine import profile
    from spades.present.rules import deck_sentence

    page = new_page()
    page.goto(server + "#/create")
    page.fill("#c-your-name", "Zephyrine")  # a name no other test takes
    page.fill("#c-name", "Three of us")
    page.select_option("#c-profile", "race400")
    page.select_option("#c-players", "3")
    page.check("#c-private")
    page.click("text=Create the table")
    wait_table_opened(page, lambda: page.wait_for_selector(".invite"))
    said = page.text_content("#waiting-deck")
    assert said == deck_sentence(profile("race400", players=3)), said
    assert said == "The two of clubs is removed so that the deck divides evenly: 51 cards, 17 each."


def test_the_invite_link_is_named_for_what_it_is(new_page: Any, server: str,
                                                axe_source: str) -> None:
    """The waiting room's invite link was a link named by its address, which a screen reader
    spelled out character by character: now the address is in a field named "Invite link
    (copy it for a friend)" (its visible label), with a "Copy the invite link" button."""
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    speech = Speech(page)
    code = create_private_table(page, server, "Ivy Invitelink", "Invite link table", "cardems")
    field = page.get_by_role("textbox", name="Invite link (copy it for a friend)")
    assert field.input_value() == f"{server.rstrip('/')}/#/join/{code}"
    assert page.get_by_role("link", name=re.compile("http")).count() == 0
    copy = page.get_by_role("button", name="Copy the invite link")
    copy.click()
    speech.wait_for("Invite link copied")
    assert page.evaluate("navigator.clipboard.readText()") == field.input_value()
    page.add_script_tag(content=axe_source)
    found = page.evaluate("""async () => {
      const r = await axe.run(document.getElementById('waiting-info'), { runOnly: { type: 'rule',
        values: ['label-content-name-mismatch', 'label', 'link-name', 'button-name'] } });
      return r.violations.map(v => v.id); }""")
    assert found == [], found
    # the room redrawn (a friend sits down): the focus stays on the button
    copy.focus()
    join_by_invite(page, new_page(), server, code, "Ike Invitee")
    assert page.evaluate("document.activeElement.id") == "invite-copy"
    assert not page.errors, page.errors
