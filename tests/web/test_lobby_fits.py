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


WIDTH = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def test_a_long_one_word_table_name_fits_a_small_phone(new_page: Any, server: str,
                                                       artifacts: Path) -> None:
    """A table named with one long word (40 letters, the most a name may have): its
    waiting room's title made the page 481 px wide on a 360 px phone, and the home page's
    "Return to …" link 377 px."""
    page = new_page(viewport={"width": 360, "height": 640})
    name = "Donaudampfschifffahrtsgesellschaftskapit"
    assert len(name) == 40
    _open_table(page, server, "Longword Owner", name, cpus=False)
    page.wait_for_function("n => document.getElementById('waiting-title').textContent === n",
                           arg=name)
    settle(page)
    page.screenshot(path=str(artifacts / "waiting-long-name-360x640.png"), full_page=True)
    width = page.evaluate(WIDTH)
    assert width[0] <= width[1], width  # before: 481 > 360
    page.goto(server + "#/")
    page.get_by_role("link", name=f"Return to {name}").wait_for()
    width = page.evaluate(WIDTH)
    assert width[0] <= width[1], width  # before: 377 > 360
    assert not page.errors, page.errors
