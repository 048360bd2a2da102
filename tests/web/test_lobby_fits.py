"""The lobby on a 360x640 phone: its table of open tables was wider than the screen (the
page scrolled sideways by 12 px with two usual tables, the Watch button partly off the edge;
212 px with a long one-word table name). Now it fits: smaller type, and a table's name
broken where it must (its column at least 8rem wide, usual names kept whole)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.helpers import settle


def _open_table(page: Any, server: str, owner: str, name: str, cpus: bool) -> None:
    page.goto(server + "#/create")
    page.wait_for_selector("#c-profile")
    page.fill("#c-your-name", owner)
    page.fill("#c-name", name)
    if cpus:  # started against CPUs: "active", its button Watch
        page.click("#c-cpus")
        page.wait_for_function("spadesApp.table && spadesApp.table.view", timeout=15000)
    else:
        page.click("text=Create the table")
        page.wait_for_selector("#seat-list")


def test_the_lobby_fits_a_small_phone(new_page: Any, server: str, artifacts: Path) -> None:
    names = ["Ottilie Wunderbaum-Kleinschmidt", "Friday night spades at the community",
             "Donaudampfschifffahrtsgesellschaft"]
    for i, name in enumerate(names):
        _open_table(new_page(), server, f"Lobbyfit Owner{i}", name, cpus=i == 1)
    page = new_page(viewport={"width": 360, "height": 640})
    page.goto(server + "#/lobby")
    for name in names:
        page.locator(".lobby-table th[scope=row]", has_text=name).wait_for()
    settle(page)
    page.screenshot(path=str(artifacts / "lobby-360x640.png"), full_page=True)
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width  # before: 572 > 360
    for button in page.locator(".lobby-table a.button").all():
        box = button.bounding_box()
        assert box["x"] + box["width"] <= 360, box
    assert not page.errors, page.errors
