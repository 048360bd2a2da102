"""Issue 10: a screen reader's view of a whole match — every event told once, in order, as it
happens; "your turn" after everything before it; one addition per sentence."""

from __future__ import annotations

import json
from typing import Any

from spades.engine import profile
from tests.web.srview import RECORDER, check_order, heard, play_match, start_match

# the page's default settings, all of them (announcement pace, the hand's summary for 8 s
# unless put away, sound on): nothing stored but an empty object, so the page uses its own
DEFAULTS = json.dumps({})


def test_a_whole_match_is_heard_in_order(new_page: Any) -> None:
    page = new_page(settings=DEFAULTS)
    page.add_init_script(RECORDER)
    page.reload()
    page.wait_for_selector("#quick-name")
    # the quick game as it comes: the default rules (cardgames-club), CPUs and target score
    start_match(page, "Ida")
    assert page.evaluate("spadesApp.table.target()") == profile("cardgames-club").target
    turns = play_match(page)
    h = heard(page)
    hands = sum(f["kind"] == "deal" for f in h.frames)
    assert hands >= 2 and turns >= 14 * hands - 1, (hands, turns)
    assert any(n["type"] == "match_over" for f in h.frames for n in f["news"])
    # the page used the state the frames carry: no snapshot asked for (no frame was missed)
    seqs = [f["seq"] for f in h.frames]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "a frame was missed"
    assert "resync" not in h.sent, h.sent.count("resync")
    problems = check_order(h)
    assert not problems, (problems[:10], page.evaluate(
        "JSON.stringify([spadesApp.announcer.queue, spadesApp.table.queue.length])"))
    assert not page.errors, page.errors
