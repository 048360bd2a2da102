"""A visitor without a session sees the lobby change while it is open, and a keyboard user
on a row's link keeps it when the list is drawn again."""

from __future__ import annotations

from typing import Any


def _open_waiting_table(page: Any, server: str, name: str, table_name: str) -> None:
    page.goto(server + "#/create")
    page.wait_for_selector("#c-profile")
    page.fill("#c-your-name", name)
    page.fill("#c-name", table_name)
    page.click("text=Create the table")
    page.wait_for_selector("#seat-list")


def _row_link(name: str) -> str:
    return f"#lobby-list a[aria-label='Join {name}']"


def test_a_visitors_lobby_shows_new_tables_and_keeps_focus(new_page: Any, server: str) -> None:
    visitor = new_page()
    visitor.goto(server + "#/lobby")
    visitor.wait_for_function("!document.getElementById('lobby-list').textContent"
                              ".includes('Loading')")
    assert visitor.evaluate("localStorage.getItem('spades.token')") is None
    owner = new_page()
    _open_waiting_table(owner, server, "Lou", "Lou waits")
    # no reload: the visitor's list asks again by itself
    visitor.wait_for_selector(_row_link("Lou waits"), timeout=20000)
    visitor.focus(_row_link("Lou waits"))
    other = new_page()
    _open_waiting_table(other, server, "Mo", "Mo waits")
    visitor.wait_for_selector(_row_link("Mo waits"), timeout=20000)
    assert visitor.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "Join Lou waits"
    assert not visitor.errors, visitor.errors
