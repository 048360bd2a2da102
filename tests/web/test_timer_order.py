"""The turn timer's warning, said in order: at a table with a turn timer, when the next hand's
first bid is yours, its deal waits behind the hand's summary while your clock runs. The
server's warning for that turn came then, and was said at once, before "Your turn to bid"
(a warning of a turn not yet told); it waits for the turn to be said, then comes after it."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_cpu_table
from tests.web.test_summary_timer import KEEP, play_to_summary

CHIP = ("(() => { const c = document.getElementById('timer-chip');"
        " return c && c.offsetParent ? c.textContent : null; })()")
WARNING_QUEUED = """() => spadesApp.table.queue.some(
  m => m.event && m.event.kind === 'timer_warning' && m.event.seat === spadesApp.table.mySeat)"""


def test_the_warning_of_a_turn_held_behind_the_summary_comes_after_your_turn(
        new_page: Any, server: str) -> None:
    page = new_page(settings=KEEP)
    speech = Speech(page)
    # cards4net, first dealer seat 2: the second hand's first bid is yours
    create_cpu_table(page, server, "Tor", profile="cards4net", timer=5, first_dealer=2)
    play_to_summary(page, at_once=True)
    # the summary stays until put away (its own 3 s at a timed table, stopped here), so the
    # server's warning for your first bid of hand 2 comes while the deal waits behind it
    page.evaluate("clearTimeout(spadesApp.table.summaryTimer)")
    speech.new()
    page.wait_for_function(WARNING_QUEUED, timeout=10000)
    said = [s["text"] for s in speech.new()]
    assert not any("seconds left" in t for t in said), said  # not yet: no turn was told
    page.keyboard.press("Escape")  # the summary goes: the deal, then your turn
    turn = speech.wait_for("Your turn to bid", timeout=5)
    warn = speech.wait_for("seconds left to bid", timeout=5)
    assert warn["kind"] == "polite", warn  # in order, after the turn
    assert turn
    speech.wait_for("Time is up for you", timeout=10)
    assert not page.errors, page.errors


def test_the_clock_behind_the_summary_is_shown_and_told(new_page: Any, server: str) -> None:
    """The same clock, running behind the hand's summary: the countdown was gone from the
    status line ("the seconds left show all the time"), and Y said "There is no turn timer
    running." while your time ran out. Both follow the turn waiting behind the summary."""
    page = new_page(settings=KEEP)
    speech = Speech(page)
    create_cpu_table(page, server, "Tos", profile="cards4net", timer=10, first_dealer=2)
    play_to_summary(page, at_once=True)
    page.evaluate("clearTimeout(spadesApp.table.summaryTimer)")
    page.wait_for_function("""() => spadesApp.table.queue.some(
      m => m.event && m.event.kind === 'deal')""", timeout=10000)
    page.wait_for_function(f"({CHIP} || '').endsWith(' s left')", timeout=3000)
    assert page.evaluate("spadesApp.table.summaryShown()")
    speech.new()
    page.keyboard.press("y")
    told = speech.wait_for("left", timeout=3)
    assert told["text"].startswith("You have ") and told["text"].endswith("seconds left."), told
    page.keyboard.press("Escape")
    speech.wait_for("Time is up for you", timeout=20)
    assert not page.errors, page.errors


def test_one_second_left_is_said_in_the_singular(new_page: Any, server: str) -> None:
    """Y in the last second of your turn said "You have 1 seconds left."."""
    page = new_page()
    speech = Speech(page)
    create_cpu_table(page, server, "Tsg", profile="race400", timer=30)
    page.wait_for_function("spadesApp.table.myTurn() && spadesApp.table.timeLeft() > 2",
                           timeout=20000)
    # the page's clock set on to the last second of the turn, and held there while Y is
    # pressed and answered (on a busy machine the real last second may pass before Y is
    # handled; the server's clock, 30 s, is not touched)
    page.evaluate("""() => { const at = spadesApp.table.clockTurn().deadline * 1000 - 1000;
      window.__realNow = Date.now; Date.now = () => at; }""")
    page.wait_for_function(f"{CHIP} === '1 s left'", timeout=8000)
    speech.new()  # ("Your turn to bid: … 30 seconds left." before it)
    page.keyboard.press("y")
    told = speech.wait_for("left.", timeout=3)
    page.evaluate("Date.now = window.__realNow")
    assert told["text"] == "You have 1 second left.", told
    assert not page.errors, page.errors
