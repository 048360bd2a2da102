"""A refusal without a reason of the server's (an ``error`` whose ``message`` is empty) told
the player to reload the page should it come again: the page and the server might not agree
on where the game stands. Now the page asks the server for the table again by itself (a
``resync``: its snapshot replaces what the page shows), says so ("The table was fetched
again."), and advises a reload only when that fails, or when it comes again right after the
table was fetched. It is bounded: refusals that keep coming do not make a ``resync`` each,
only one until a move of the player's is taken (or some seconds have passed).

As in test_unexplained_refusal.py, the test stands between the page and the server
(Playwright's ``route_web_socket``) and answers the page's messages itself."""

from __future__ import annotations

import json
from typing import Any

from tests.web.helpers import (
    a_first_bid_refused_bare,
    bid_with_keyboard,
    my_turn_key,
    play_with_keyboard,
    wait_my_turn_or_over,
    wait_turn_passed,
)

RELOAD = "reload the page (you keep your seat)."


def test_a_refusal_without_a_reason_fetches_the_table_again(new_page: Any) -> None:
    page = new_page()
    refuse = {"act": False, "resync": False}  # answer the next one with a bare error
    resyncs: list[Any] = []  # the refs of the page's resyncs
    answered: list[Any] = []  # the refs of the snapshots the server sent to the page

    def heard(data: dict[str, Any]) -> None:
        if data.get("type") == "resync":
            resyncs.append(data.get("ref"))

    def told(data: dict[str, Any]) -> None:
        if data.get("type") == "table" and data.get("ref") is not None:
            answered.append(data["ref"])

    # a bid refused without a reason: the table is fetched again, no reload is advised
    # (before: "... It is still your turn to bid: bid again; if it is refused again, reload
    # the page (you keep your seat)." and no resync)
    speech, sockets, _ = a_first_bid_refused_bare(page, "Rhea Refetch", refuse, heard, told)
    assert len(resyncs) == 1 and answered == resyncs, (resyncs, answered)

    # refused again at once: no second resync (bounded); now a reload is the way on
    refuse["act"] = True
    bid = bid_with_keyboard(page)
    shown = "Nil" if bid == "nil" else bid
    said = speech.wait_for("Refused:")["text"]
    assert said == (f"Refused: your bid of {shown} was not taken, and the server gave no "
                    "reason. The table was fetched again a moment ago. It is still your turn "
                    f"to bid: bid again. If this keeps happening, {RELOAD}"), said
    assert len(resyncs) == 1, resyncs

    key = my_turn_key(page)
    bid_with_keyboard(page)  # (taken: a refusal after it may fetch the table again)
    wait_turn_passed(page, key)

    # a card refused without a reason, and the table cannot be fetched again: reload
    assert wait_my_turn_or_over(page) == "play"
    refuse["act"] = refuse["resync"] = True
    play_with_keyboard(page)
    said = speech.wait_for("Refused:")["text"]
    assert said.endswith("was not played, and the server gave no reason. The table could "
                         f"not be fetched again: {RELOAD}"), said
    assert len(resyncs) == 2, resyncs

    key = my_turn_key(page)
    play_with_keyboard(page)  # (taken)
    wait_turn_passed(page, key)

    # an error that answers nothing and gives no reason: the table is fetched again
    sockets[-1].send(json.dumps({"type": "error", "code": "state", "message": ""}))
    said = speech.wait_for("Refused:")["text"]
    # before: "... If the table seems out of date, reload the page (you keep your seat)."
    assert said == ("Refused: the server gave no reason, nor said what it refused. The table "
                    "was fetched again."), said
    assert len(resyncs) == 3 and answered == [resyncs[0], resyncs[2]], (resyncs, answered)
    assert not page.errors, page.errors
