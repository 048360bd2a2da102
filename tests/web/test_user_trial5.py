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
