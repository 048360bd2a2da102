"""The turn timer as a player sees and hears it (WCAG 2.2.1): a countdown on the screen all
the time, a spoken warning (assertive) with the timer sound before the end, and when the time
is up the server plays for you — the page says so, the penalty bag and what was played, and the
bag shows in the scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import Speech, create_cpu_table
from tests.web.test_axe_and_screenshots import audit

CHIP = ("(() => { const c = document.getElementById('timer-chip');"
        " return c && c.offsetParent ? c.textContent : null; })()")


@pytest.mark.parametrize("size", ["phone"])
def test_turn_timer_countdown_warning_and_timeout(new_page: Any, server: str, artifacts: Path,
                                                  axe_source: str, size: str) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    speech = Speech(page)
    create_cpu_table(page, server, "Tim", profile="race400", players=4, timer=5)
    assert page.evaluate("spadesApp.table.msg.table.options.turn_timer") == 5

    # our first turn (the bid): a countdown is shown at once, in the status line and the seat
    page.wait_for_function("spadesApp.table.myTurn()", timeout=20000)
    speech.wait_for("Your turn to bid", kind="polite")
    page.wait_for_function(f"{CHIP} !== null")
    first = page.evaluate(CHIP)
    assert first and "s left" in first, first
    assert int(first.split()[0].lstrip("⚠")) >= 3, first
    assert page.get_attribute("#timer-chip", "role") == "timer"
    assert page.text_content(".seat.mine .turn-tag").strip().endswith(" s")
    page.keyboard.press("y")  # the time left, on demand
    assert "You have" in speech.wait_for("seconds left", timeout=3)["text"]
    side = page.evaluate("spadesApp.table.mySide")
    bags_before = page.evaluate("spadesApp.table.score.bags[spadesApp.table.mySide]")

    # before the end: the warning, said assertively, with its sound, and the chip turns urgent
    warn = speech.wait_for("seconds left to bid", kind="assertive", timeout=6)
    assert "timer" in page.evaluate("spadesApp.sounds.played")
    page.wait_for_selector("#timer-chip.urgent")
    page.screenshot(path=str(artifacts / f"table-timer-warning-{size}.png"))
    audit(page, axe_source, "table with the timer warning")
    assert warn

    # at the end: the server bids for us, and we take the penalty bag
    # (told in order with the rest, not assertive: it needs no interruption)
    out = speech.wait_for("Time is up for you", kind="polite", timeout=8)
    assert "bids for you" in out["text"] and "1 penalty bag" in out["text"], out
    page.wait_for_function(
        "([k, n]) => spadesApp.table.score.bags[k] > n", arg=[side, bags_before], timeout=5000)
    bags = page.evaluate(f"spadesApp.table.score.bags[{side}]")
    assert page.locator("#score-box tr.mine .bag-count").text_content() == f"{bags}/10"

    # and on a card turn the server plays a card for us (a legal one) with the same penalty
    page.wait_for_function("spadesApp.table.myTurn() && spadesApp.table.view.phase === 'play'",
                           timeout=20000)
    hand = page.evaluate("spadesApp.table.view.hand")
    out = speech.wait_for("Time is up for you", kind="polite", timeout=12)
    assert "plays for you" in out["text"] and "penalty bag" in out["text"], out
    speech.wait_for("You play the", timeout=3)
    page.wait_for_function("n => spadesApp.table.view.hand.length === n - 1", arg=len(hand))
    page.wait_for_function(
        "([k, n]) => spadesApp.table.score.bags[k] > n", arg=[side, bags], timeout=5000)
    assert not page.errors, page.errors
