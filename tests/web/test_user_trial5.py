"""Defects found by the fifth trial of the page, by a blind player with a screen reader and a
sighted player on a phone: "Your turn" said nothing of the turn timer (Y and the last warning
did); the Bid box's same error, made twice, was heard once; the table talk wrote a negative
score with the hyphen ("-128 in all") where the page writes the minus sign; and on a phone
the top bar took three rows above the game."""

from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import Speech, create_cpu_table, open_bid_box, start_quick_match
from tests.web.test_user_trial4 import HEARD, heard, wait_heard


def test_your_turn_says_how_long_you_have_at_a_timed_table(new_page: Any, server: str) -> None:
    page = new_page()
    speech = Speech(page)
    create_cpu_table(page, server, "Tima", profile="race400", timer=30)
    turn = speech.wait_for("Your turn to bid", timeout=20)["text"]
    m = re.search(r" (\d+) seconds left\.$", turn)
    assert m and 10 < int(m.group(1)) <= 30, turn
    # as W and Y say it
    page.keyboard.press("w")
    assert speech.wait_for("seconds left", timeout=3)["text"].startswith("Your turn to bid. ")
    assert not page.errors, page.errors


def test_your_turn_without_a_timer_says_no_time(new_page: Any, server: str) -> None:
    page = new_page()
    speech = Speech(page)
    start_quick_match(page, "Notima")
    turn = speech.wait_for("Your turn to bid", timeout=20)["text"]
    assert "second" not in turn, turn
    assert not page.errors, page.errors


def test_the_bid_box_says_the_same_error_again(new_page: Any, server: str) -> None:
    """The same refused bid typed twice: its error was set to the words it held already, and
    a screen reader heard it once. Now each one is said (and shown)."""
    page = new_page()
    speech = Speech(page)
    create_cpu_table(page, server, "Ivy", profile="cardgames-club")
    page.wait_for_function("spadesApp.table.view.hand && spadesApp.table.view.phase === 'bid'")
    open_bid_box(page)
    page.evaluate(HEARD)
    for n in (1, 2):
        page.keyboard.type("99")
        page.keyboard.press("Enter")
        wait_heard(page, "99 is not a bid you can make", n)  # before: once only
        assert page.text_content("#bid-number-error").startswith("99 is not a bid"), n
        page.keyboard.press("Control+A")
    for _ in (1, 2):  # at once (assertive), through the page's announcer
        said = speech.wait_for("99 is not a bid you can make", timeout=5)
        assert said["kind"] == "assertive", said
    for n in (1, 2):  # nothing typed, twice
        page.keyboard.press("Delete")
        page.keyboard.press("Enter")
        wait_heard(page, "Type your bid", n)
    # each said once, not twice (the box's text is no live region of its own)
    assert len([t for t in heard(page) if "99 is not" in t]) == 2, heard(page)
    assert not page.errors, page.errors
