"""The hand's summary never eats the next player's turn time (issue 11, item 1): at a table
with a turn timer it goes by itself after at most 3 seconds, even when the setting says to
keep it until it is put away (``summarySeconds`` 0)."""

from __future__ import annotations

import json
from typing import Any

from tests.web.helpers import create_cpu_table, take_hinted_turn, wait_turn_passed

KEEP = json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0})  # "until I put it away"

WATCH = """() => { window.__summary = [];
  const seen = () => !!document.querySelector('.hand-summary');
  let was = seen();
  new MutationObserver(() => { const now = seen();
    if (now !== was) { window.__summary.push([now ? 'shown' : 'gone', performance.now()]); was = now; }
  }).observe(document.body, { childList: true, subtree: true }); }"""

MY_TURN_OR_SUMMARY = """() => { const t = spadesApp.table;
  return !!t && !!t.view && (t.summaryShown() || t.turnKey !== null); }"""


def play_to_summary(page: Any, at_once: bool = False) -> None:
    """Take our hinted turns (our bid and 13 cards at most) until the hand's summary shows.
    ``at_once``: each turn's first legal action, sent at once (at a table with a short turn
    timer: a hinted turn takes a few keys and may wait seconds for the server's hint, so the
    timer could act in its midst)."""
    for _ in range(20):
        page.wait_for_function(MY_TURN_OR_SUMMARY, timeout=30000)
        if page.evaluate("spadesApp.table.summaryShown()"):
            return
        if not at_once:
            take_hinted_turn(page, page.evaluate("spadesApp.table.view.phase"))
            continue
        key = page.evaluate("""() => { const t = spadesApp.table, k = t.turnKey;
          if (k !== null) t.act(t.view.legal_actions[0]); return k; }""")
        if key is not None:  # (else the timer took the turn meanwhile)
            wait_turn_passed(page, key)
    raise AssertionError("the hand did not end")


def test_the_summary_goes_by_itself_at_a_timed_table(new_page: Any, server: str) -> None:
    page = new_page(settings=KEEP)
    create_cpu_table(page, server, "Tia", profile="race400", timer=60)
    assert page.evaluate("spadesApp.table.msg.table.options.turn_timer") == 60
    page.evaluate(WATCH)
    play_to_summary(page)
    page.wait_for_selector(".hand-summary")
    # kept until put away without a timer; here it goes by itself (3 s) and the next deal shows
    page.wait_for_function("() => !spadesApp.table.summaryShown()", timeout=20000)
    page.wait_for_function("() => !document.querySelector('.hand-summary')"
                           " && spadesApp.table.view.hand_number === 2", timeout=10000)
    marks = page.evaluate("window.__summary")
    kinds = [k for k, _ in marks]
    assert kinds[:2] == ["shown", "gone"], marks
    # well under a 60-second turn (3 s, and room for a slow machine)
    assert marks[1][1] - marks[0][1] < 15000, marks
    assert not page.errors, page.errors
