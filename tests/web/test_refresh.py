"""Refreshing the page returns you to the same seat with the same hand, and keeps what you were
choosing: the bid draft and the selected card (seed 003)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    my_turn_key,
    play_with_keyboard,
    start_quick_match,
    wait_my_turn_or_over,
    wait_turn_passed,
)

STATE = """(() => { const t = spadesApp.table; return {
  table: t.id, seat: t.mySeat, hand: t.view.hand, trick: t.view.trick,
  selected: t.selected, phase: t.view.phase,
  active: document.getElementById('hand').getAttribute('aria-activedescendant') }; })()"""


def test_refresh_keeps_seat_hand_bid_draft_and_selection(new_page: Any) -> None:
    page = new_page()
    start_quick_match(page, "Rae", profile="cardgames-club", one_hand=False)
    assert wait_my_turn_or_over(page) == "bid"
    url = page.url

    # a bid being chosen survives a refresh
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    draft = page.evaluate("document.querySelector('input[name=bid]:checked').value")
    page.reload()
    page.wait_for_function("spadesApp.table && spadesApp.table.view && spadesApp.table.turnKey")
    assert page.url == url
    assert page.evaluate("document.querySelector('input[name=bid]:checked').value") == draft
    key = my_turn_key(page)
    bid_with_keyboard(page)
    wait_turn_passed(page, key)

    # play on until it is our turn with cards already on the trick (the middle of a trick)
    for _ in range(13):
        assert wait_my_turn_or_over(page) == "play"
        if page.evaluate("spadesApp.table.view.trick.length") > 0:
            break
        key = my_turn_key(page)
        play_with_keyboard(page)
        wait_turn_passed(page, key)
    else:
        raise AssertionError("never followed to a trick")

    # select the last card of the hand with the keyboard, without playing it
    page.keyboard.press("j")
    page.keyboard.press("End")
    before = page.evaluate(STATE)
    assert before["selected"] and before["trick"]

    page.reload()
    page.wait_for_function("spadesApp.table && spadesApp.table.view && spadesApp.table.turnKey")
    speech = Speech(page)
    speech.wait_for("You sit")
    after = page.evaluate(STATE)
    assert after["table"] == before["table"]
    assert after["seat"] == before["seat"]
    assert after["hand"] == before["hand"]
    assert after["trick"] == before["trick"]
    assert after["selected"] == before["selected"]
    assert after["active"] == f"card-{before['selected']}"
    assert page.get_attribute(f"#card-{before['selected']}", "aria-selected") == "true"
    assert not page.errors, page.errors
