"""Two people in two browsers at one table with two CPU players, to the end of a hand."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    create_private_table,
    join_by_invite,
    play_with_keyboard,
)


def test_two_players_and_two_cpus_play_a_hand(new_page: Any, server: str, artifacts: Path) -> None:
    ann = new_page()
    code = create_private_table(ann, server, "Ann", "Friends", "cardgames-club")
    assert code

    bob = new_page(viewport={"width": 390, "height": 844})
    join_by_invite(ann, bob, server, code, "Bob")
    ann.screenshot(path=str(artifacts / "waiting-room-desktop.png"), full_page=True)
    bob.screenshot(path=str(artifacts / "waiting-room-phone.png"), full_page=True)

    ann.click("text=Start the match")
    ann_speech, bob_speech = Speech(ann), Speech(bob)
    for page in (ann, bob):
        page.wait_for_function(
            "spadesApp.table && spadesApp.table.view && spadesApp.table.view.phase !== 'deal'",
            timeout=15000)
    seats = [p.evaluate("spadesApp.table.mySeat") for p in (ann, bob)]
    assert seats[0] != seats[1]
    # each sees their own hand only
    hands = [p.evaluate("spadesApp.table.view.hand") for p in (ann, bob)]
    assert hands[0] and hands[1] and not set(hands[0]) & set(hands[1])

    deadline = time.time() + 120
    scored = [False, False]
    while not all(scored) and time.time() < deadline:
        for i, (page, speech) in enumerate(((ann, ann_speech), (bob, bob_speech))):
            if any("Hand 1 scored" in e["text"] for e in speech.all()):
                scored[i] = True
                continue
            if not page.evaluate("spadesApp.table.myTurn()"):
                continue
            key = page.evaluate("spadesApp.table.turnKey")
            if page.evaluate("spadesApp.table.view.phase") == "bid":
                if i == 0:
                    bid_with_keyboard(page)
                else:  # Bob uses the pointer: tap a bid, tap Confirm
                    page.click("#bid-2")
                    page.click("#bid-confirm")
            elif i == 0:
                play_with_keyboard(page)
            else:  # tap a playable card to select it, tap it again to play it (a card the
                # page selected by itself is not selected by a tap: it takes the two as well)
                card = page.locator("#hand .card.playable").last
                if (card.get_attribute("aria-selected") != "true"
                        or page.evaluate("spadesApp.table.autoSelected")):
                    card.click(position={"x": 8, "y": 24})
                    assert card.get_attribute("aria-selected") == "true"
                    assert not page.evaluate("spadesApp.table.autoSelected")
                card.click(position={"x": 8, "y": 24})
            page.wait_for_function("k => spadesApp.table.turnKey !== k", arg=key, timeout=15000)
        time.sleep(0.05)
    assert all(scored), "the hand was not scored in both browsers"
    totals = [p.evaluate("spadesApp.table.score.scores") for p in (ann, bob)]
    assert totals[0] == totals[1]
    for page, other in ((ann, "Bob"), (bob, "Ann")):
        texts = " ".join(e["text"] for e in Speech(page).all())
        assert f"{other} plays the" in texts
        assert not page.errors, page.errors
