"""Defects found in play (issue 11), each checked the way it was met: Blind Nil two keys
away, the table name lost, "X is back" said twice, a hint read after its turn, a refusal
after the "only legal card" autoplay."""

from __future__ import annotations

import json
import types
from typing import Any

from tests.server.netclient import NetPlayer
from tests.web.helpers import (
    ACTIVE_LABEL,
    Speech,
    create_cpu_table,
    my_turn_key,
    press_hint,
    start_quick_match,
    take_hinted_turn,
    wait_my_turn_or_over,
    wait_turn_passed,
)

MY_BID = "spadesApp.table.view.bids[spadesApp.table.mySeat]"


def test_blind_nil_needs_its_own_key_and_a_confirmation(new_page: Any, server: str) -> None:
    page = new_page()
    speech = Speech(page)
    # cards4net: the first bidder (left of the dealer) may bid Blind Nil before looking
    create_cpu_table(page, server, "Ann", profile="cards4net", first_dealer=3)
    assert wait_my_turn_or_over(page) == "bid"
    assert page.evaluate("spadesApp.table.legalBids()").count("blind-nil") == 1
    # Shift+B asks; the default answer (Enter) is Cancel: nothing is bid
    page.keyboard.press("j")
    page.keyboard.press("Shift+B")
    page.wait_for_selector("#blind-nil-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "blind-nil-cancel"
    page.keyboard.press("Enter")
    speech.wait_for("Blind Nil not bid")
    assert page.evaluate(MY_BID) is None
    # with the pointer, the button asks too; Escape cancels
    page.click("#blind-nil-btn")
    page.wait_for_selector("#blind-nil-dialog[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#blind-nil-dialog:not([open])", state="attached")
    # the dialog's close event comes after its open attribute goes: wait for what it does
    # (says so and gives the focus back to the button), or it takes the focus from the keys
    # pressed next
    speech.wait_for("Blind Nil not bid")
    assert page.evaluate("document.activeElement.id") == "blind-nil-btn"
    assert page.evaluate(MY_BID) is None
    # B then Enter (the keys of an ordinary bid) never bid Blind Nil: B lands on "Look"
    page.keyboard.press("j")
    page.keyboard.press("b")
    assert page.evaluate("document.activeElement.id") == "look-btn"
    page.keyboard.press("Enter")
    page.wait_for_function("spadesApp.table.view.hand && spadesApp.table.view.hand.length === 13")
    assert page.evaluate(MY_BID) is None
    assert not page.errors, page.errors


def test_blind_nil_confirmed_with_the_pointer(new_page: Any, server: str) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    speech = Speech(page)
    create_cpu_table(page, server, "Bea", profile="cards4net", first_dealer=3)
    assert wait_my_turn_or_over(page) == "bid"
    page.click("#blind-nil-btn")
    page.click("#blind-nil-yes")
    speech.wait_for("You bid Blind Nil")
    assert page.evaluate(MY_BID) == "blind-nil"
    assert not page.errors, page.errors


def test_the_table_name_is_the_table_name(new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Cat", table_name="Friday night spades")
    names = page.evaluate("[spadesApp.table.msg.table.name,"
                          " spadesApp.table.msg.table.seats[spadesApp.table.mySeat].name]")
    assert names == ["Friday night spades", "Cat"]


def test_back_is_said_once_after_a_reload(new_page: Any) -> None:
    page = new_page()
    start_quick_match(page, "Dan", one_hand=False)
    page.wait_for_function("spadesApp.table && spadesApp.table.view")
    page.reload()
    page.wait_for_function("spadesApp.table && spadesApp.table.view")
    speech = Speech(page)
    speech.wait_for("You are back")  # Dan's own page: "you" (others hear "Dan is back")
    # a chat line sent now comes after every event of the two joins: wait for it, then count
    page.evaluate("spadesApp.conn.request({type: 'chat', text: 'ping'})")
    speech.wait_for("say: ping")  # (your own line: "You say: ping")
    backs = [e["text"] for e in speech.all() if "are back" in e["text"] or "is back" in e["text"]]
    assert len(backs) == 1, backs
    assert not page.errors, page.errors


def test_a_hint_for_a_turn_that_has_passed_is_not_read(new_page: Any) -> None:
    page = new_page()
    start_quick_match(page, "Eve", one_hand=True)
    for _ in range(20):  # to our first play
        state = wait_my_turn_or_over(page)
        assert state != "over"
        if state == "play":
            break
        take_hinted_turn(page, state)
    key = my_turn_key(page)
    before = len(Speech(page).all())
    # the polite region is held (as if much came at once): the hint waits in the queue ...
    page.evaluate("() => { const a = spadesApp.announcer; a.pace = 1;"
                  " a.nextAt = Date.now() + 600000; }")
    press_hint(page)
    # ... and the hinted card is played at once
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    wait_turn_passed(page, key)
    page.evaluate("() => { const a = spadesApp.announcer; a.pace = 0; a.nextAt = 0;"
                  " clearTimeout(a.timer); a.timer = null; a.flush(); }")
    page.wait_for_function("() => !spadesApp.announcer.queue.length")
    said = Speech(page).all()[before:]
    assert not [e["text"] for e in said if e["text"].startswith("Hint") or " Hint:" in e["text"]], said[-5:]
    assert not page.errors, page.errors


def test_enter_with_autoplay_on_is_not_refused(new_page: Any) -> None:
    page = new_page(settings=json.dumps({"pace": 0, "volume": 0, "autoplay": True,
                                         "summarySeconds": 1}))
    speech = Speech(page)
    start_quick_match(page, "Fay", one_hand=True)
    checked = 0
    for _ in range(30):
        state = wait_my_turn_or_over(page)
        if state == "over":
            break
        # read in one step: with one legal card the autoplay plays it 400 ms into the turn,
        # and a busy machine may read the turn's parts on either side of that play
        state, legal, key = page.evaluate("""() => { const t = spadesApp.table;
          return [t.view.phase, t.legalCards().length, t.turnKey]; }""")
        if key is None:
            continue  # (the autoplay was first)
        if state == "play" and legal == 1:
            # one legal card: Enter at once, before the autoplay; one play, no refusal
            page.keyboard.press("j")
            page.keyboard.press("Enter")
            wait_turn_passed(page, key)
            checked += 1
            continue
        take_hinted_turn(page, state)
    assert checked, "never had a single legal card"
    # whatever came after: no refusal was said
    page.wait_for_function("spadesApp.table.status === 'finished'")
    refused = [e["text"] for e in speech.all() if "Refused" in e["text"]]
    assert not refused, refused
    assert not page.errors, page.errors


def test_the_bid_and_nil_cards_in_the_hand(new_page: Any, artifacts: Any) -> None:
    """Seed 002: while you bid, the hand holds a Bid card (a number to type) and a Nil card."""
    page = new_page(viewport={"width": 390, "height": 844})
    speech = Speech(page)
    start_quick_match(page, "Gus", one_hand=True)
    assert wait_my_turn_or_over(page) == "bid"
    page.keyboard.press("j")
    page.keyboard.press("Home")
    assert page.evaluate(ACTIVE_LABEL).endswith("Bid: type your number")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(ACTIVE_LABEL).endswith("Nil: bid no trick")
    page.keyboard.press("ArrowLeft")
    page.screenshot(path=str(artifacts / "hand-bid-cards-phone.png"))
    page.keyboard.press("Enter")
    page.wait_for_selector("#bid-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "bid-number"
    for wrong in ("0", "14", "x"):  # refused in the box, with the reason; nothing is bid
        page.fill("#bid-number", "")
        page.keyboard.type(wrong)
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('bid-number-error').textContent !== ''")
        assert "1 to 13" in page.text_content("#bid-number-error")
        assert page.evaluate(MY_BID) is None
        page.evaluate("document.getElementById('bid-number-error').textContent = ''")
    page.fill("#bid-number", "3")
    page.keyboard.press("Enter")
    speech.wait_for("You bid 3.")
    assert page.evaluate(MY_BID) == "3" or page.evaluate(MY_BID) == 3
    # the cards are gone once you have bid; focus is back on the hand
    page.wait_for_function("!document.getElementById('card-BID')")
    assert page.evaluate("document.activeElement.id") == "hand"
    assert not page.errors, page.errors


GESTURE = """([kind, fingers]) => {
  const el = document.querySelector('.play-area');
  const box = el.getBoundingClientRect();
  const x0 = box.left + box.width / 2, y0 = box.top + box.height / 3;
  const d = { tap: [0, 0], up: [0, -90], down: [0, 90], left: [-90, 0], right: [90, 0] }[kind];
  const touches = (dx, dy) => Array.from({ length: fingers }, (_, i) => new Touch({
    identifier: i + 1, target: el, clientX: x0 + i * 30 + dx, clientY: y0 + dy }));
  const at = touches(0, 0);
  el.dispatchEvent(new TouchEvent('touchstart', { touches: at, changedTouches: at, bubbles: true }));
  el.dispatchEvent(new TouchEvent('touchend',
    { touches: [], changedTouches: touches(d[0], d[1]), bubbles: true }));
}"""


def test_the_shortcuts_by_touch_and_on_screen_buttons(new_page: Any) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    speech = Speech(page)
    start_quick_match(page, "Hal", one_hand=True)
    assert wait_my_turn_or_over(page) == "bid"
    page.evaluate(GESTURE, ["up", 2])  # two fingers up: the trick
    speech.wait_for("No card played to this trick yet")
    page.evaluate(GESTURE, ["left", 3])  # three fingers (iPhone) left: the scores
    speech.wait_for("Scores, one-hand match")
    page.evaluate(GESTURE, ["down", 2])  # the round
    speech.wait_for("Hand 1, bidding")
    page.evaluate(GESTURE, ["tap", 2])  # whose turn
    speech.wait_for("Your turn to bid")
    page.evaluate(GESTURE, ["right", 2])  # repeat
    speech.wait_for("Again:")
    before = len(speech.all())
    page.evaluate(GESTURE, ["up", 1])  # one finger is left alone (scrolling, cards)
    page.click(".ask-buttons [data-shortcut=p]")  # the buttons do the same
    said = speech.wait_for("Scores, one-hand match")
    assert len(speech.all()[before:]) == 1, said
    assert not page.errors, page.errors


def test_your_own_seat_says_your_turn_not_their_turn(new_page: Any) -> None:
    """The felt seat's screen-reader label on your turn (before: "Namer (you), South, guest,
    ..., their turn")."""
    page = new_page()
    start_quick_match(page, "Namer", one_hand=True)
    assert wait_my_turn_or_over(page) != "over"
    mine = '.seat[data-place="me"]'
    page.wait_for_function(
        "(sel) => { const el = document.querySelector(sel);"
        " return el && el.classList.contains('turn'); }", arg=mine)
    label = page.get_attribute(mine, "aria-label") or ""
    assert label.startswith("Namer (you)"), label
    assert label.endswith(", your turn") and "their turn" not in label, label
    assert not page.errors, page.errors


def test_back_is_said_after_a_reload_the_server_took_for_another_tab(
        new_page: Any, server: str) -> None:
    """A reload whose old page's connection the server has not seen close when the new page
    joins (a busy machine: the project's CI once) is taken for another tab: the join brings
    no ``back`` and no ``returned`` event, and the page said nothing of being back. Here
    another connection of the same player holds the seat when the page reloads, as the old
    page's did then; the page says "You are back" once all the same."""
    page = new_page()
    start_quick_match(page, "Fay", one_hand=False)
    page.wait_for_function("spadesApp.table && spadesApp.table.view")
    table_id = page.evaluate("spadesApp.table.id")
    token = json.loads(page.evaluate("localStorage.getItem('spades.token')"))
    at = types.SimpleNamespace(url=server.rstrip("/"),
                               ws_url=server.replace("http", "ws", 1) + "ws")
    other = NetPlayer(at, "Fay", token)
    try:
        assert other.request({"type": "join", "table_id": table_id})["type"] == "ack"
        other.until(lambda m: m["type"] == "table")
        page.reload()
        page.wait_for_function("spadesApp.table && spadesApp.table.view")
        speech = Speech(page)
        speech.wait_for("You are back")
        assert other.until(lambda m: m["type"] == "error")["code"] == "replaced"
        page.evaluate("spadesApp.conn.request({type: 'chat', text: 'ping'})")
        speech.wait_for("say: ping")
        backs = [e["text"] for e in speech.all() if "are back" in e["text"]]
        assert len(backs) == 1, backs
        assert not page.errors, page.errors
    finally:
        other.close()
