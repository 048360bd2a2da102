"""Records from the page: download at the end of a match and from the history, upload a record
for review (and download it again), upload an unfinished one to continue it against CPUs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spades import replay
from tests.web.helpers import (
    Speech,
    play_hinted_to_end,
    settle,
    start_quick_match,
)


def download(page: Any, selector: str, where: Path) -> dict[str, Any]:
    with page.expect_download() as info:
        page.click(selector)
    path = where / info.value.suggested_filename
    info.value.save_as(path)
    assert path.name.startswith("spades-") and path.suffix == ".json"
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def upload(page: Any, server: str, path: Path, mode: str, seat: int | None = None) -> None:
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    page.set_input_files("#rec-file", str(path))
    page.check(f"input[name=mode][value={mode}]")
    if seat is not None:
        assert page.is_visible("#rec-seat")
        page.select_option("#rec-seat", str(seat))
    else:
        assert not page.is_visible("#rec-seat")
    page.click("#rec-file ~ button, form[aria-labelledby=rec-title] button[type=submit]")


def test_download_and_upload_records(new_page: Any, server: str, tmp_path: Path,
                                     artifacts: Path) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    start_quick_match(page, "Rita", profile="game93", one_hand=True)
    play_hinted_to_end(page)
    page.wait_for_selector("#match-over:not([hidden])")
    settle(page)
    page.screenshot(path=str(artifacts / "match-over-phone.png"))

    # download at the end of the match
    rec = download(page, "#match-over a:has-text('Download the record')", tmp_path)
    assert rec["format"] == "spades-record/1" and len(rec["hands"]) == 1
    assert len(rec["hands"][0]["plays"]) == 52 and "Rita" in rec["names"]

    # the same record from the history on the statistics page
    page.goto(server + "#/stats")
    page.wait_for_selector(".history-table a:has-text('Download')")
    again = download(page, ".history-table a:has-text('Download')", tmp_path / "h")
    assert again["hands"] == rec["hands"]

    # upload it for review, then download the stored copy
    full = tmp_path / "full.json"
    full.write_text(json.dumps(rec))
    upload(page, server, full, "review")
    page.wait_for_selector("#rec-status a:has-text('Download it again')")
    assert "Stored for review" in page.text_content("#rec-status")
    stored = download(page, "#rec-status a", tmp_path / "r")
    assert stored["hands"][0]["plays"] == rec["hands"][0]["plays"]

    # a finished match cannot be continued: the reason is shown
    upload(page, server, full, "continue", seat=0)
    page.wait_for_function("document.getElementById('rec-error').textContent.length > 0")
    assert "over" in page.text_content("#rec-error")

    # not JSON at all
    bad = tmp_path / "bad.json"
    bad.write_text("no record here")
    page.set_input_files("#rec-file", str(bad))
    page.wait_for_function("document.getElementById('rec-error').textContent.includes('not JSON')")

    # an unfinished record (the first 21 cards) continues at a new table, at the chosen seat
    part = dict(rec)
    part["hands"] = [dict(rec["hands"][0], plays=rec["hands"][0]["plays"][:21])]
    part["hands"][0].pop("timeouts", None)
    half = tmp_path / "half.json"
    half.write_text(json.dumps(part))
    # the seat whose turn it is as the match goes on: its "Your turn" comes after the sitting
    # down (before: the snapshot's turn was said first, then "You sit down…", 1 run in 4)
    seat = replay(part).current_player
    assert seat in (0, 1, 2, 3)
    upload(page, server, half, "continue", seat=seat)
    page.wait_for_function(
        "spadesApp.table && spadesApp.table.view && spadesApp.table.view.phase === 'play'",
        timeout=15000)
    you = page.evaluate("[spadesApp.table.mySeat, spadesApp.table.msg.you,"
                        " spadesApp.table.msg.table.seats.map(s => s.name)]")
    assert you[0] == seat, you
    hand = page.evaluate("spadesApp.table.view.hand")
    dealt = {c.upper().replace("10", "T") for c in rec["hands"][0]["deal"][seat]}
    played = {c.upper().replace("10", "T") for c in part["hands"][0]["plays"]}
    assert {c.replace("10", "T") for c in hand} == dealt - played
    # you sit down at it (you were never there to be "back")
    speech = Speech(page)
    # you sit down first, then where the game stands, then your turn
    speech.wait_for("You sit down at the continued match")
    speech.wait_for("playing. You hold 8 cards")
    speech.wait_for("Your turn", kind="polite", timeout=20)
    assert not [e for e in speech.all() if "You are back" in e["text"]]
    assert not page.errors, page.errors
