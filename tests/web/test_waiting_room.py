"""The waiting room says what the owner chose: the table's name heads it, and its rules
line names a one-hand match (or the target) and the CPU strength besides the profile,
players, timer and privacy."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_private_table, wait_table_opened


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
