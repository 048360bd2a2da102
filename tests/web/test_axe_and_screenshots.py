"""axe-core on every screen (no serious or critical violations), and screenshots of the table at
phone and desktop sizes, kept under artifacts/web/ to be looked at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import (
    bid_with_keyboard,
    my_turn_key,
    play_hinted_to_end,
    press_hint,
    settle,
    start_quick_match,
    wait_my_turn_or_over,
    wait_turn_passed,
)

PAGES = ["#/", "#/lobby", "#/create", "#/stats", "#/rules/cardgames-club", "#/rules/cardems",
         "#/rules/race400", "#/rules/game93", "#/rules/cards4net", "#/glossary", "#/strategy",
         "#/help", "#/settings"]


def audit(page: Any, axe: str, where: str) -> None:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    result = page.evaluate("""async () => {
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                     nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + n.failureSummary) }));
    }""")
    assert not result, f"{where}: {result}"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_screen_passes_axe_and_the_table_is_photographed(
        new_page: Any, server: str, axe_source: str, artifacts: Path, size: str) -> None:
    viewport = {"width": 1366, "height": 900} if size == "desktop" else {"width": 390, "height": 844}
    page = new_page(viewport=viewport)
    for route in PAGES:
        page.goto(server + route)
        page.wait_for_selector("main h1")
        settle(page)
        audit(page, axe_source, route)
        if route == "#/strategy":  # what "the CPUs adapt" means, for players choosing one
            assert "CPUs adapt to the players at the table" in page.inner_text("main")
        name = route.strip("#/").replace("/", "-") or "home"
        (artifacts / "pages").mkdir(exist_ok=True)
        page.screenshot(path=str(artifacts / "pages" / f"{name}-{size}.png"), full_page=True)
    page.goto(server + "#/")
    page.screenshot(path=str(artifacts / f"home-{size}.png"), full_page=True)

    start_quick_match(page, f"Axe {size}", profile="race400" if size == "phone" else "cardems",
                      one_hand=False)
    assert wait_my_turn_or_over(page) == "bid"
    settle(page)
    audit(page, axe_source, "table, bidding")
    page.screenshot(path=str(artifacts / f"table-bidding-{size}.png"))
    key = my_turn_key(page)
    bid_with_keyboard(page)
    wait_turn_passed(page, key)
    # play until a trick has cards on it at our turn, then photograph the table mid-trick
    for _ in range(13):
        assert wait_my_turn_or_over(page) == "play"
        if page.evaluate("spadesApp.table.view.trick.length") >= 2:
            break
        key = my_turn_key(page)
        press_hint(page)  # the hint selects a card
        page.keyboard.press("j")
        page.keyboard.press("Enter")
        wait_turn_passed(page, key)
    page.keyboard.press("j")
    settle(page)
    audit(page, axe_source, "table, playing")
    page.screenshot(path=str(artifacts / f"table-playing-{size}.png"))
    page.screenshot(path=str(artifacts / f"table-playing-{size}-full.png"), full_page=True)
    page.click("#sheet-btn")
    page.wait_for_selector("#sheet-dialog[open] table, #sheet-dialog[open] p")
    audit(page, axe_source, "score sheet")
    page.screenshot(path=str(artifacts / f"sheet-{size}.png"))
    page.keyboard.press("Escape")
    page.click("#help-btn")
    page.wait_for_selector("#help-dialog[open]")
    audit(page, axe_source, "keys dialog")
    page.screenshot(path=str(artifacts / f"keys-{size}.png"))
    page.keyboard.press("Escape")
    assert not page.errors, page.errors


def test_end_of_match_screen_passes_axe(new_page: Any, axe_source: str, artifacts: Path) -> None:
    page = new_page(viewport={"width": 1366, "height": 900})
    start_quick_match(page, "Enid", profile="game93", one_hand=True)
    play_hinted_to_end(page)  # the hint plays for us: I, then Enter on the hand
    page.wait_for_selector("#match-over:not([hidden])")
    settle(page)
    audit(page, axe_source, "end of match")
    page.screenshot(path=str(artifacts / "match-over-desktop.png"))
    assert not page.errors, page.errors
