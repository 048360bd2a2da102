"""The Play button never offers a play that would be refused: with an unplayable card selected
on your turn it says why ("Follow diamonds: 5♥") and is disabled; with a playable one it plays
it. At phone size, with the pointer (taps). It shows the card's suit by its symbol and is named
with the suit in words ("Play 5♦" is "Play 5 of diamonds"), the shown words first and in their
order (the card last): screen readers read the symbols unevenly or not at all, and a voice user
says what they see. "5♥: follow diamonds", named "5 of hearts: follow diamonds", failed axe's
check that the shown words are in the name in their order (a CI run's audit caught it)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    my_turn_key,
    start_quick_match,
    wait_my_turn_or_over,
    wait_turn_passed,
)
from tests.web.test_axe_and_screenshots import audit

SUITS = {"H": "hearts", "S": "spades", "D": "diamonds", "C": "clubs"}


def test_play_button_says_why_an_unplayable_selection_cannot_be_played(
        new_page: Any, axe_source: str) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    speech = Speech(page)
    start_quick_match(page, "Pat", profile="cardgames-club", one_hand=False)
    checked_waiting = checked = False
    for _ in range(13):
        state = wait_my_turn_or_over(page)
        assert state != "over"
        key = my_turn_key(page)
        if state == "bid":
            bid_with_keyboard(page)
            wait_turn_passed(page, key)
            continue
        unplayable = page.locator("#hand .card.unplayable")
        if page.evaluate("spadesApp.table.view.trick.length") and unplayable.count():
            card_el = unplayable.first
            card = card_el.get_attribute("data-card")
            if card_el.get_attribute("aria-selected") != "true":
                card_el.click(position={"x": 8, "y": 24})
            page.wait_for_function("c => spadesApp.table.selected === c", arg=card, timeout=5000)
            expect(card_el).to_have_attribute("aria-selected", "true")
            btn = page.locator("#play-btn")
            led = page.evaluate("spadesApp.table.view.trick[0][1].slice(-1)")
            expect(btn).to_have_attribute("aria-disabled", "true")
            expect(btn).to_contain_text(f"Follow {SUITS[led]}: ")
            expect(btn).to_have_accessible_name(f"Follow {SUITS[led]}: {said(card)}")
            audit(page, axe_source, "the Play button saying why a card cannot be played")
            assert not btn.text_content().startswith("Play")
            before = page.evaluate("JSON.stringify([spadesApp.table.view.hand, spadesApp.table.seq])")
            btn.click(force=True)  # (aria-disabled, yet clickable) says why, out loud, and nothing changes
            refused = speech.wait_for("Refused:", kind="assertive")
            assert "cannot be played" in refused["text"]
            assert page.evaluate("JSON.stringify([spadesApp.table.view.hand, spadesApp.table.seq])") == before
            assert page.evaluate("spadesApp.table.selected") == card
            checked = True
        # a playable card: the button offers it and plays it (each step waits for the page to
        # have done the last one: a busy machine may be slow to draw, never wrong)
        card = page.locator("#hand .card.playable").last.get_attribute("data-card")
        tap_to_select(page, card)
        btn = page.locator("#play-btn")
        expect(btn).to_have_attribute("aria-disabled", "false")
        expect(btn).to_have_text(re.compile(r"^Play "))
        expect(btn).to_have_accessible_name(f"Play {said(card)}")
        btn.click()
        wait_turn_passed(page, key)
        if not checked_waiting:
            # between our turns the button does not offer a play either
            if not page.evaluate("spadesApp.table.myTurn()"):
                page.locator("#hand .card").first.click(position={"x": 8, "y": 24})
            # read in one step: the bots may hand the turn back to us at any moment, and the
            # button then rightly says something else (a CI run read the words before and the
            # name after such a turn)
            mine, text, disabled, name, selected = page.evaluate(
                "(() => { const b = document.getElementById('play-btn');"
                " return [spadesApp.table.myTurn(), b.textContent, b.getAttribute('aria-disabled'),"
                " b.getAttribute('aria-label') ?? b.textContent, spadesApp.table.selected]; })()")
            if not mine:
                assert text.startswith("Not your turn"), text
                assert disabled == "true"
                if selected:
                    assert re.fullmatch(r"Not your turn: .+", name), name
                    assert name.endswith(said(selected)), (name, selected)
                    audit(page, axe_source, "the Play button while it is not your turn")
                checked_waiting = True
        if checked and checked_waiting:
            break
    assert checked, "never had an unplayable card while following"
    check_hint_sources(page, speech)
    assert not page.errors, page.errors


RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def said(card: str) -> str:
    """How the Play button names ``card`` (as the engine writes it: "5D", "10H", "QS")."""
    if card in ("BJ", "LJ"):
        return "Big Joker" if card == "BJ" else "Little Joker"
    rank, suit = card[:-1], SUITS[card[-1]]
    if rank == "T":
        rank = "10"
    return f"{rank} of {suit}" if rank.isdigit() else f"{rank}, {RANKS[rank]} of {suit}"


def tap_to_select(page: Any, card: str) -> None:
    """Tap ``card`` once (a second tap would play it) and wait until the page has selected it."""
    if page.evaluate("spadesApp.table.selected") != card:
        page.locator(f"#hand .card[data-card='{card}']").click(position={"x": 8, "y": 24})
    page.wait_for_function("c => spadesApp.table.selected === c", arg=card, timeout=5000)


def check_hint_sources(page: Any, speech: Speech) -> None:
    """The hint comes from the server when it answers `{"type":"hint"}` (the bots' hint: an
    action and a reason), else from the page itself — also when the server's answer fails."""
    # the probe at `welcome` (its answer can be slow on a loaded machine): the server answers
    page.wait_for_function("spadesApp.serverHints === true", timeout=20000)
    probe = page.evaluate("spadesApp.serverHints")
    state = wait_my_turn_or_over(page)
    if state != "play":
        return
    # the real server's hint (the bots'): a legal card, selected, with its reason
    key = page.evaluate("spadesApp.table.turnKey")
    page.keyboard.press("i")
    said = speech.wait_for("Hint: play the", timeout=8)
    assert page.evaluate("spadesApp.table.lastHintSource") == "server", said
    assert not re.search(r"of \w+: (play|lead|trump with|discard) the", said["text"], re.I), said  # said once
    assert page.evaluate("spadesApp.table.legalCards().includes(spadesApp.table.selected)")
    assert page.evaluate("spadesApp.table.turnKey") == key
    card = page.evaluate("spadesApp.table.legalCards().at(-1)")
    # (a turn's hint is asked once and said again: asked anew here, of the stand-in)
    page.evaluate("""c => { const conn = spadesApp.conn; const real = conn.request.bind(conn);
      spadesApp.serverHints = true; spadesApp.table.hintAsked = null;
      conn.request = (m) => m.type === 'hint'
        ? Promise.resolve({ type: 'hint', action: c, reason: 'the bots say so.' }) : real(m);
      window.__realRequest = real; }""", card)
    page.keyboard.press("i")
    said = speech.wait_for("Hint: play the", timeout=5)
    assert "the bots say so" in said["text"]
    assert page.evaluate("spadesApp.table.selected") == card
    # the server's hint fails (offline, or refused): the page's own is given instead
    page.evaluate("""() => { spadesApp.table.hintAsked = null;
      spadesApp.conn.request = (m) => m.type === 'hint'
        ? Promise.reject(Object.assign(new Error('gone'), { code: 'offline' }))
        : window.__realRequest(m); }""")
    page.keyboard.press("i")
    said = speech.wait_for("Hint: play the", timeout=5)
    assert "the bots say so" not in said["text"] and "selected" in said["text"]
    page.evaluate("p => { spadesApp.conn.request = window.__realRequest; spadesApp.serverHints = p; }",
                  probe)
