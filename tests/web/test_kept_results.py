"""The page keeps the scored hands itself (its hello asks for ``results: "new"``): its event
frames bring only the newly scored hand, and stay the size of a first hand's however long
the match, while the page still has every scored hand, as the score sheet has them, hand
after hand, after a resync and after a reload.

Before: every event frame carried every scored hand: at hand 61 each card's frame was about
6 KB (80 bytes a scored hand), at hand 300 about 29 KB."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests.web.helpers import continue_upload, wait_turn_passed

HANDS = 60

ROWS = """(() => { const d = spadesApp.table.sheetData; return d ? d.hands.map(
  (r) => ({tricks: r.tricks, points: r.points, scores: r.scores, bags: r.bags})) : null; })()"""


def _record(hands: int, seed: int = 11) -> dict[str, Any]:
    """A cardems match to a target nobody reaches, cut after ``hands`` scored hands."""
    from spades.engine import Match, profile, to_record
    from spades.server.cpu import bot_act

    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(seed))
    while len(m.results) < hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player)))
    return to_record(m)


def _play_hand(page: Any) -> dict[str, Any]:
    """Take our turns (the first legal action) until the hand in play is scored: its
    summary's row (put away then)."""
    for _ in range(40):
        state = page.wait_for_function(
            "() => { const t = spadesApp.table; return t && t.view && (t.summaryShown()"
            " ? 'summary' : t.turnKey !== null ? 'turn' : false); }", timeout=30000).json_value()
        if state == "summary":
            row: dict[str, Any] = page.evaluate("spadesApp.table.summaryRow")
            page.evaluate("spadesApp.table.dismissSummary()")
            return row
        key = page.evaluate("spadesApp.table.turnKey")
        page.evaluate("spadesApp.table.act(spadesApp.table.view.legal_actions[0])")
        wait_turn_passed(page, key)
    raise AssertionError("the hand did not end")


def _sheet(page: Any) -> list[dict[str, Any]]:
    """The score sheet's rows as the server sends them (the sheet button asks for it)."""
    page.evaluate("spadesApp.table.sheetData = null")
    page.click("#sheet-btn")
    page.wait_for_function(f"{ROWS} !== null")
    rows: list[dict[str, Any]] = page.evaluate(ROWS)
    # the dialog shows every row
    page.wait_for_function(f"document.querySelectorAll('#sheet-dialog .sheet-table tbody tr')"
                           f".length === {len(rows)}")
    page.keyboard.press("Escape")
    return rows


def _kept(page: Any) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = page.evaluate("spadesApp.table.view.results")
    return kept


def test_the_page_keeps_every_scored_hand_from_small_frames(
        new_page: Any, server: str, tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(_record(HANDS)), encoding="utf-8")
    # (the hand's summary stays until put away: the test reads it first)
    page = new_page(viewport={"width": 1280, "height": 800},
                    settings=json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0}))
    sizes: list[int] = []

    def watch(ws: Any) -> None:
        def got(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            frame = json.loads(text)
            if frame["type"] == "event" and frame["event"]["kind"] == "play":  # a card's
                sizes.append(len(text.encode()))
        ws.on("framereceived", got)

    page.on("websocket", watch)
    continue_upload(page, server, "Kip Keeps", path, 0)
    page.wait_for_function("spadesApp.table && spadesApp.table.view")
    kept = _kept(page)
    assert len(kept) == HANDS
    for played, how in enumerate(("frames", "resync", "reload"), 1):
        if how == "resync":  # a resync's snapshot: every hand again
            page.evaluate("window.__snapshot = spadesApp.table.msg;"
                          " spadesApp.conn.send({type: 'resync'})")
            page.wait_for_function("spadesApp.table.msg !== window.__snapshot")
            assert _kept(page) == kept
        elif how == "reload":  # a page opened anew: the snapshot's hands
            page.reload()
            page.wait_for_function("spadesApp.table && spadesApp.table.view")
            assert _kept(page) == kept
        summary = _play_hand(page)
        kept = _kept(page)
        assert len(kept) == HANDS + played, how
        assert kept == _sheet(page), how
        # the hand's summary: the hand kept last
        assert summary["number"] == HANDS + played, (how, summary)
        assert {k: summary[k] for k in kept[-1]} == kept[-1], (how, summary, kept[-1])
        assert sizes and max(sizes) < 3000, (how, max(sizes))  # before: over 6,000 every one
    assert not page.errors, page.errors
