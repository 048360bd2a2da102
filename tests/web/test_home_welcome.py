"""The home page as the server's welcome comes in late (a busy server): the page drew itself
again from scratch when the welcome came, so a keyboard user who had already reached "Return
to …" lost the focus to the page's body (Enter then did nothing: a CI run under load failed
on exactly that), and what she had typed in a field was wiped. Now only "Your tables" is drawn
again, and the focus stays on the same link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.web.helpers import route_socket, start_quick_match


def _welcome_held(page: Any) -> Callable[[], None]:
    """Route the page's socket so that the server's frames wait (in order) until the returned
    function is called; the page is reloaded on its home page (:func:`route_socket`)."""
    held: list[tuple[Any, str | bytes]] = []
    holding = [True]

    def between(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def from_server(message: str | bytes) -> None:
            if holding[0]:
                held.append((ws, message))
            else:
                ws.send(message)

        server.on_message(from_server)

    def release() -> None:
        holding[0] = False
        for ws, message in held:
            ws.send(message)
        held.clear()

    page.goto(page.url.split("#")[0] + "#/")
    route_socket(page, between)
    return release


def test_a_late_welcome_keeps_the_focus_and_what_was_typed(new_page: Any, server: str) -> None:
    page = new_page()
    page.goto(server)
    page.wait_for_selector("#quick-name")
    start_quick_match(page, "Hollis")
    table_id = page.evaluate("spadesApp.table.id")
    release = _welcome_held(page)
    back = page.get_by_role("link", name=re.compile("^Return to Hollis"))
    back.wait_for()
    page.fill("#invite", "ABC")
    back.focus()
    release()
    page.wait_for_function("spadesApp.user !== null && spadesApp.myTables.length > 0")
    assert page.evaluate("document.activeElement.textContent").startswith("Return to Hollis"), \
        page.evaluate("document.activeElement.outerHTML")
    assert page.input_value("#invite") == "ABC"
    page.keyboard.press("Enter")
    page.wait_for_function("id => spadesApp.table && spadesApp.table.id === id"
                           " && spadesApp.table.view", arg=table_id)
    assert not page.errors, page.errors
