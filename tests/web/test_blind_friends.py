"""Defects found by a user trial of friends at a private table (one of them blind, by keyboard
and screen reader only): a turn timer, Cards4net with Blind Nil, the invite link, a
spectator, chat, a player who drops and comes back mid-hand, a full hand and a rematch."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_private_table, join_by_invite


def test_the_invite_link_offers_to_watch_a_started_match(new_page: Any, server: str) -> None:
    """Wes opened the friends' invite link once their match had started: "Could not join: the
    match has started: join as a spectator", and nothing to do it with (a private table cannot
    be watched from the lobby, and #/watch needs the code the page had not kept). Now the
    page offers "Watch the table" there, which opens the table to watch, by keyboard."""
    olga = new_page()
    code = create_private_table(olga, server, "Olgawatch", "Watch night", "cards4net")
    carl = new_page()
    join_by_invite(olga, carl, server, code, "Carlwatch")
    olga.click("text=Start the match")
    olga.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'",
                           timeout=15000)
    wes = new_page()
    wes.goto(server + f"#/join/{code}")
    wes.fill("#invite-name", "Weswatch")
    wes.click("form.panel button[type=submit]")
    wes.wait_for_selector("text=the match has started")
    watch = wes.get_by_role("button", name="Watch the table")
    watch.focus()
    heard = Speech(wes)
    wes.keyboard.press("Enter")
    heard.wait_for("You are watching Watch night")
    wes.wait_for_function("spadesApp.table && spadesApp.table.view && !spadesApp.table.isPlayer")
    assert wes.evaluate("location.hash").startswith("#/watch/")
    Speech(olga).wait_for("Weswatch")  # the players hear who watches
    assert not olga.errors and not wes.errors, (olga.errors, wes.errors)
