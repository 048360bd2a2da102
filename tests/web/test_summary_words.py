"""The hand's summary on the felt says what the terminal's hand details say of each side's
points, in the server's words (the ``hand_scored`` event's ``details``): it built its own
lines from numbers, "Bonus: plus 20" without which bonus, and nothing of 10 for 200. What is
said for the hand's score names them too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spades.engine import Match
from tests.server.test_summary_words import bonus_before_last_card, last_card_left
from tests.web.helpers import Speech, continue_upload, settle
from tests.web.test_summary_timer import play_to_summary

KEEP = json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0})  # kept until put away


def summary_of(new_page: Any, server: str, tmp_path: Path, name: str, match: Match
               ) -> tuple[Any, Speech]:
    """``name`` continues ``match`` at the seat that plays its hand's last card, plays it:
    the page with the hand's summary up, and what it said."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    page = new_page(viewport={"width": 1280, "height": 800}, settings=KEEP)
    continue_upload(page, server, name, path, match.current_player)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.phase === 'play'", timeout=15000)
    speech = Speech(page)
    speech.new()
    play_to_summary(page)
    page.wait_for_selector(".hand-summary")
    return page, speech


def items(page: Any) -> list[list[str]]:
    """The summary's lines, side by side (a side with none: no list)."""
    out: list[list[str]] = page.evaluate("""() => [...document.querySelectorAll(
        '.hand-summary .summary-items')].map(ul => [...ul.querySelectorAll('li')]
        .map(li => li.textContent))""")
    return out


def shots(page: Any, artifacts: Path, name: str) -> None:
    settle(page)
    page.screenshot(path=str(artifacts / f"{name}.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.documentElement.clientWidth <= 390")
    page.locator(".hand-summary").scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(artifacts / f"{name}-phone.png"))


def test_the_summary_names_10_for_200(new_page: Any, server: str, tmp_path: Path,
                                      artifacts: Path) -> None:
    """cards4net with 10 for 200: West and East (seats 0 and 2 as this player sees them) bid
    10 and are set: "Set on 10: minus 200" said nothing of the rule; the summary says the
    terminal's "bid 10 and took 6: contract set, −200 (10 for 200: a contract of exactly 10
    scores +200 made, −200 set).", and the hand's score is said with "(10 for 200, set)"."""
    match = last_card_left("cards4net", {0: 5, 2: 5}, seed=3, ten_for_200=True)
    page, speech = summary_of(new_page, server, tmp_path, "Tenzin", match)
    said = speech.wait_for("Hand 1 scored")["text"]
    assert "−200 (10 for 200, set)" in said or "-200 (10 for 200, set)" in said, said
    lines = [line for side in items(page) for line in side]
    assert any(line.endswith("bid 10 and took 6: contract set, −200 (10 for 200: a contract "
                             "of exactly 10 scores +200 made, −200 set).") for line in lines), lines
    assert not any("-" in line for line in lines), lines  # the page's minus sign
    # what a screen reader finds in the summary: the same lines, in a list for each side
    summary = page.get_by_role("region", name="Hand 1 scored")
    assert summary.get_by_role("listitem").filter(has_text="10 for 200: a contract").count() == 1
    shots(page, artifacts, "summary-ten-for-200")
    assert not page.errors, page.errors


def test_the_summary_says_which_bonus(new_page: Any, server: str, tmp_path: Path,
                                      artifacts: Path) -> None:
    """race400: a seat bids the 1 or 2 tricks it takes and earns +20, which the summary
    called "Bonus: plus 20"; it says "Bonus: +20 for a contract of 1 or 2 made exactly.", as
    the terminal does, and the hand's score is said with the bonus named."""
    match, seat = bonus_before_last_card()
    page, speech = summary_of(new_page, server, tmp_path, "Bonnie", match)
    said = speech.wait_for("Hand 1 scored")["text"]
    assert "bonus +20 for a contract of 1 or 2 made exactly" in said, said  # before: "bonus +20)"
    lines = [line for side in items(page) for line in side]
    bonus = "Bonus: +20 for a contract of 1 or 2 made exactly."
    assert bonus in lines, lines  # before: "Bonus: plus 20"
    assert not any(line.startswith("Bonus: plus") for line in lines), lines
    if seat == match.current_player:  # the player's own side, told as the terminal tells it
        mine = page.locator(".hand-summary tr.summary-detail.mine li")
        assert mine.first.inner_text().startswith("You bid "), mine.all_inner_texts()
    shots(page, artifacts, "summary-bonus")
    assert not page.errors, page.errors
