"""A whole match against CPU players, played with the keyboard alone, listening to the page."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    my_turn_key,
    play_with_keyboard,
    start_quick_match,
    wait_my_turn_or_over,
    wait_turn_passed,
    walk_to_card,
)

CARD = r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (hearts|spades|diamonds|clubs)"


def test_whole_match_with_the_keyboard_alone(new_page: Any, artifacts: Any) -> None:
    # the hand's summary stays until it is put away
    page = new_page(settings=json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0}))
    speech = Speech(page)
    start_quick_match(page, "Kim", profile="game93", one_hand=True)
    first = speech.wait_for("You sit")
    assert "Kim's table" in first["text"]
    # seats named by where they sit: you at the bottom, your partner North at the top; the
    # CPUs' avatars differ
    page.wait_for_selector(".seat[data-place=top]")
    seats = page.evaluate("[...document.querySelectorAll('.felt .seat')].map(s =>"
                          " [s.dataset.place, s.querySelector('.who').textContent,"
                          " s.querySelector('.avatar').textContent])")
    named = {place: who for place, who, _ in seats}
    assert named["me"] == "Kim" and named["top"] == "North", seats
    assert {named["left"], named["right"]} == {"West", "East"}, seats
    assert len({avatar for _, _, avatar in seats}) == 4, seats
    # the hand is one focusable widget, focused on arrival
    assert page.evaluate("document.activeElement.id") == "hand"
    assert page.get_attribute("#hand", "role") == "listbox"

    refused_once = False
    shortcuts_checked = False
    bids = plays = 0
    for _ in range(60):
        state = wait_my_turn_or_over(page)
        if state == "over":
            break
        turn = speech.wait_for("Your turn", kind="polite")
        key = my_turn_key(page)
        if state == "bid":
            assert re.search(r"Your turn to bid: (Nil or )?\d+ to \d+", turn["text"]), turn
            bid = bid_with_keyboard(page)
            hint = speech.wait_for("Hint: bid")
            assert ("Nil" if bid == "nil" else bid) in hint["text"]
            speech.wait_for(f"You bid {'Nil' if bid == 'nil' else bid}.")
            bids += 1
        else:
            if not shortcuts_checked:
                # seed 002's keys: the open trick and spades broken, round status, scores
                page.keyboard.press("t")
                trick = speech.wait_for("Spades are")
                assert "broken" in trick["text"]
                # browse mode: the trick is a labelled list, who played what, who is winning
                items = page.evaluate("[...document.querySelectorAll('#trick-list li')]"
                                      ".map(li => li.textContent)")
                assert page.evaluate("document.getElementById('trick-list')"
                                     ".getAttribute('aria-labelledby')") == "trick-list-title"
                assert items[-1] in ("Spades not broken yet.", "Spades broken."), items
                if page.evaluate("spadesApp.table.view.trick.length"):
                    assert re.fullmatch(r"\w+: " + CARD, items[0]), items
                    assert items[-2].endswith("winning."), items
                page.keyboard.press("r")
                assert "bid" in speech.wait_for("Hand 1, trick")["text"]
                page.keyboard.press("p")
                assert "bags" in speech.wait_for("Scores")["text"]
                page.keyboard.press("w")
                speech.wait_for("Your turn to")
                page.keyboard.press("l")
                speech.wait_for("Again: Your turn to")
                shortcuts_checked = True
            if not refused_once:
                refused_once = try_a_refused_card(page, speech)
            cards_before = page.evaluate("spadesApp.table.view.hand.length")
            card = play_with_keyboard(page)
            said = speech.wait_for("You play the")
            assert re.search(CARD, said["text"]) and card_name_in(card, said["text"])
            plays += 1
            page.wait_for_function("n => !spadesApp.table.view.hand || spadesApp.table.view.hand.length < n",
                                   arg=cards_before)
        wait_turn_passed(page, key)
    else:
        raise AssertionError("the match did not end")

    # the last trick, then the hand's summary on the felt, read once; Escape puts it away
    page.wait_for_selector(".felt .hand-summary")
    scored = speech.wait_for("Hand 1 scored")
    assert re.search(r"Hand 1 scored: your side [+−-]\d+", scored["text"]), scored
    assert "in all" in scored["text"] and "bag" in scored["text"], scored
    # one row of figures a side (each followed by a row of how its points came)
    rows = page.locator(".hand-summary tbody tr:not(.summary-detail)").count()
    assert rows == 2
    assert not page.is_visible("#match-over")  # the summary first
    page.screenshot(path=str(artifacts / "hand-summary-desktop.png"))
    page.keyboard.press("Escape")
    over = speech.wait_for_match_over()
    # the end-of-match box is modal: the focus is in it, Tab stays in it, Close returns it
    page.wait_for_selector("#match-over[open]")
    inside = "document.getElementById('match-over').contains(document.activeElement)"
    assert page.evaluate(inside)
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate(inside), page.evaluate("document.activeElement.outerHTML")
    page.focus("#over-close")
    page.keyboard.press("Enter")
    page.wait_for_selector("#match-over", state="hidden")
    page.wait_for_function("document.activeElement.id === 'sheet-btn'")
    assert "points" in over["text"]
    assert bids == 1 and plays == 13, (bids, plays)
    assert not page.is_visible("#match-over")
    # the other players' cards were announced as they were played
    texts = [e["text"] for e in speech.all()]
    assert sum(len(re.findall(r"(West|North|East) plays the " + CARD, t)) for t in texts) == 39
    assert any(re.search(r"wins? trick \d+ with the", t) for t in texts)
    assert sum("Hand 1 scored" in t for t in texts) == 1
    # mid-sentence "you" in lower case ("West deals; you bid first")
    assert not [t for t in texts if re.search(r"[;,] You\b", t)]
    # nothing read twice: no announcement repeats the one before it
    assert all(a != b for a, b in itertools.pairwise(texts))
    assert not page.errors, page.errors


def card_name_in(card: str, text: str) -> bool:
    ranks = dict(zip("23456789TJQKA", ["two", "three", "four", "five", "six", "seven", "eight",
                                         "nine", "ten", "jack", "queen", "king", "ace"], strict=True))
    suits = {"H": "hearts", "S": "spades", "D": "diamonds", "C": "clubs"}
    rank = "T" if card.startswith("10") else card[0]
    return f"{ranks[rank]} of {suits[card[-1]]}" in text


def try_a_refused_card(page: Any, speech: Speech) -> bool:
    """Enter on a card that may not be played: a refusal, said assertively; nothing changes."""
    if not walk_to_card(page, "not playable"):
        return False
    before = page.evaluate("JSON.stringify([spadesApp.table.view.hand, spadesApp.table.seq])")
    page.keyboard.press("Enter")
    refused = speech.wait_for("Refused:", kind="assertive")
    assert "cannot be played" in refused["text"]
    # (the trick sound of the trick just won may come a moment later)
    assert "refused" in page.evaluate("spadesApp.sounds.played.slice(-2)")
    after = page.evaluate("JSON.stringify([spadesApp.table.view.hand, spadesApp.table.seq])")
    assert before == after
    return True
