"""The owner closes the tab of a finished match before offering the rematch: the one who owns the table
now hears so and finds the Rematch button in the end-of-match box (before: the server kept
the table the gone owner's, and the page offered nobody a rematch)."""

from __future__ import annotations

import time
from typing import Any

from tests.web.helpers import Speech, create_private_table, join_by_invite, take_hinted_turn

TURN = """(() => { const t = spadesApp.table; if (!t || !t.view) return null;
  if (t.status === 'finished' || t.view.phase === 'over') return 'over';
  return t.turnKey !== null ? t.view.phase : null; })()"""


def play_all_to_end(pages: list[Any], seconds: float = 120) -> None:
    """Each page takes its turns with the hint (by keyboard) until every page's match is
    over (polling the pages, as Speech.wait_for does: bounded)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        states = [p.evaluate(TURN) for p in pages]
        if all(s == "over" for s in states):
            return
        for p, s in zip(pages, states, strict=True):
            if s in ("bid", "play"):
                take_hinted_turn(p, s)
        time.sleep(0.05)
    raise AssertionError("the match did not end")


def test_the_owner_closing_a_finished_match_leaves_the_rematch_to_the_other(
        new_page: Any, server: str) -> None:
    ann, bob = new_page(), new_page()
    # (no grace for a dropped player: a closed connection at a finished table counts as
    # leaving it once the grace is over, and a reload within it keeps the table Ann's)
    code = create_private_table(ann, server, "Ann Gone", "Gone owner", "game93",
                                one_hand=True, grace=0)
    join_by_invite(ann, bob, server, code, "Bob Stays")
    ann.click("text=Start the match")
    bob.wait_for_function("spadesApp.table && spadesApp.table.view")
    play_all_to_end([ann, bob])
    bob.wait_for_selector("#match-over[open]")
    assert bob.locator("#over-rematch").count() == 0  # Ann owns it still
    heard = Speech(bob)
    heard.seen = len(heard.all())
    ann.context.close()  # Ann closes her tab (her page is the only one at the table)
    heard.wait_for("You own the table now")
    rematch = bob.locator("#match-over[open] #over-rematch")
    rematch.wait_for()
    # reached with Tab inside the box, before Close
    labels = bob.evaluate("[...document.querySelectorAll('#match-over .button-row > *')]"
                          ".map(e => e.textContent)")
    assert labels[-2:] == ["Rematch", "Close"], labels
    rematch.focus()
    bob.keyboard.press("Enter")
    bob.wait_for_selector(".invite")  # his rematch's waiting room
