"""A move the server refuses without a reason of its own (an ``error`` whose ``message`` is
empty) was said, and listed under "Table talk", as "Refused: That was refused.": nothing
about what was refused, nor what to do. Now the page says what was refused (your bid of 3,
the queen of hearts) and what you can do: it is still your turn, move again (the table was
fetched again first: test_refusal_refetch.py); a refusal of the waiting room's or the chat's says what was
not done; an ``error`` without ``ref`` and without a reason says that much.

This server words every refusal (``TableError`` always has a message), so the test stands
between the page and the server (Playwright's ``route_web_socket``) and answers the page's
move itself with such an ``error``, as a server of another version, or something on the way
that rewrites frames, could."""

from __future__ import annotations

import json
from typing import Any

from tests.web.helpers import (
    a_first_bid_refused_bare,
    bid_with_keyboard,
    my_turn_key,
    play_with_keyboard,
    wait_my_turn_or_over,
    wait_turn_passed,
)

FETCHED = "The table was fetched again."  # (test_refusal_refetch.py: asked for anew by the page)
RANKS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
         "8": "eight", "9": "nine", "10": "ten", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
         "A": "ace"}
SUITS = {"H": "hearts", "S": "spades", "D": "diamonds", "C": "clubs"}


def card_name(card: str) -> str:
    """A card's name as the page says it ("QH": "queen of hearts")."""
    return f"{RANKS[card[:-1]]} of {SUITS[card[-1]]}"


def test_a_move_refused_without_a_reason_says_what_was_refused_and_what_to_do(
        new_page: Any) -> None:
    page = new_page()
    refuse: dict[str, bool] = {}  # the message types to answer with a bare error, once
    # the bid (before: "Refused: That was refused.")
    speech, sockets, shown = a_first_bid_refused_bare(page, "Una Bare", refuse)
    page.wait_for_function("document.getElementById('event-log').textContent"
                           ".includes('was not taken')")
    talk = page.locator("#event-log").inner_text()
    assert "That was refused" not in talk and f"your bid of {shown} was not taken" in talk, talk
    key = my_turn_key(page)
    bid_with_keyboard(page)  # (not answered by the test: taken)
    wait_turn_passed(page, key)

    # a card
    assert wait_my_turn_or_over(page) == "play"
    refuse["act"] = True
    card = play_with_keyboard(page)
    said = speech.wait_for("Refused:")["text"]
    assert said == (f"Refused: the {card_name(card)} was not played, and the server gave no "
                    f"reason. {FETCHED} It is still your turn: play a card again."), said
    page.wait_for_function("document.getElementById('event-log').textContent"
                           ".includes('was not played')")

    # a chat line
    refuse["chat"] = True
    page.fill("#chat-input", "hello")
    page.press("#chat-input", "Enter")
    said = speech.wait_for("Refused:")["text"]
    assert said == "Refused: your message was not sent, and the server gave no reason.", said

    # an error that answers nothing (no ref) and gives no reason
    sockets[-1].send(json.dumps({"type": "error", "code": "state", "message": ""}))
    said = speech.wait_for("Refused:")["text"]
    # (the table was fetched again for the card a moment ago, and no move was taken since)
    assert said == ("Refused: the server gave no reason, nor said what it refused. The table "
                    "was fetched again a moment ago. If this keeps happening, reload the page "
                    "(you keep your seat)."), said
    assert not page.errors, page.errors
