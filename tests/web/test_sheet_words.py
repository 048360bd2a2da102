"""The page's score sheet says what the terminal's says of a hand's points: 10 for 200 where
it scored a contract of 10, and which bonus a contract earned (the page rebuilt the parts
from numbers: a plain "bonus", and nothing of 10 for 200)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.server.test_sheet_words import small_bonus, ten_for_200_set
from tests.web.helpers import Speech, continue_upload, settle


def shoot_wide_and_phone(page: Any, artifacts: Path, name: str) -> None:
    """Screenshots ``NAME.png`` as the page is, then ``NAME-phone.png`` at 390×844."""
    settle(page)
    page.screenshot(path=str(artifacts / f"{name}.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.documentElement.clientWidth <= 390")
    settle(page)
    page.screenshot(path=str(artifacts / f"{name}-phone.png"))


def test_the_tables_sheet_names_10_for_200_on_the_screen_and_aloud(
        new_page: Any, server: str, tmp_path: Path, artifacts: Path) -> None:
    """North and South bid 5 and 5 under cards4net's 10 for 200 and are set: the sheet said
    "−200" alone; it says "−200 (10 for 200, set)", as `spades show` says "points -200 (10
    for 200, set)", in the dialog (its cell, as a screen reader reads it) and from O."""
    path = tmp_path / "ten.json"
    path.write_text(json.dumps(ten_for_200_set().to_record()), encoding="utf-8")
    page = new_page(viewport={"width": 1280, "height": 800})
    continue_upload(page, server, "Tenny", path, 1)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.hand_number === 2", timeout=15000)
    page.click("#sheet-btn")
    dialog = page.get_by_role("dialog", name="Score sheet")
    sheet = dialog.locator(".sheet-table")
    sheet.wait_for()
    cell = sheet.locator("tbody tr").first.locator("td").first
    assert cell.locator(".sheet-pts").inner_text() == "−200"
    assert cell.locator(".sheet-parts").count() == 1, cell.inner_text()  # before: none
    assert cell.locator(".sheet-parts").inner_text().strip() == "(10 for 200, set)"
    # what a screen reader reads of the cell
    assert dialog.get_by_role("cell", name=re.compile(r"took 1 : −200 \(10 for 200, set\) ,"
                                                      r" total −200 ")).count() == 1
    shoot_wide_and_phone(page, artifacts, "sheet-ten-for-200")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    speech = Speech(page)
    speech.new()
    page.keyboard.press("o")
    said = speech.wait_for("Score sheet.")["text"]
    assert "minus 200 (10 for 200, set), total minus 200" in said, said
    assert not page.errors, page.errors


def test_the_historys_sheet_says_which_bonus(new_page: Any, server: str, tmp_path: Path,
                                             artifacts: Path) -> None:
    """race400: a contract of 1 or 2 made exactly earns +20, which the sheet called "bonus
    +20"; it says "bonus +20 for a contract of 1 or 2 made exactly" (the history's sheet of
    a record kept for review, from ``GET /api/tables/{id}/sheet``)."""
    match, seat = small_bonus()
    path = tmp_path / "bonus.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    page = new_page(viewport={"width": 1280, "height": 800})
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-name")
    page.fill("#rec-name", "Bonita")
    page.set_input_files("#rec-file", str(path))
    page.check("input[name=mode][value=review]")
    page.click("form[aria-labelledby=rec-title] button[type=submit]")
    page.wait_for_selector("#rec-status a:has-text('Download it again')", timeout=30000)
    page.reload()
    page.locator(".history-table tbody tr.uploaded").first.get_by_role(
        "button", name=re.compile("^Score sheet")).click()
    dialog = page.get_by_role("dialog", name="Score sheet")
    dialog.locator(".sheet-table").wait_for()
    cell = dialog.locator(".sheet-table tbody tr").first.locator("td").nth(seat)
    assert cell.locator(".sheet-parts").count() == 1, cell.inner_text()
    parts = cell.locator(".sheet-parts").inner_text().strip()  # before: "(contract +20, bonus +20)"
    assert parts.endswith(", bonus +20 for a contract of 1 or 2 made exactly)"), parts
    assert dialog.get_by_role("cell", name=re.compile(
        r"bonus \+20 for a contract of 1 or 2 made exactly\) , total ")).count() >= 1
    shoot_wide_and_phone(page, artifacts, "sheet-bonus")
    assert not page.errors, page.errors
