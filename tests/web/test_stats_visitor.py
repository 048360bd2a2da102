"""A fresh visitor's statistics page (no session) asked ``GET /api/me`` all the same, which
the server refused with a 401 that the browser's console logged as a failed request."""

from __future__ import annotations

from typing import Any


def test_a_visitor_without_a_session_asks_nothing_of_api_me(new_page: Any, server: str) -> None:
    page = new_page()
    asked: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/me" in r.url else None)
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    page.goto(server + "#/stats")
    page.wait_for_selector("#stats-none")
    page.wait_for_selector("#rec-file")
    assert page.evaluate("localStorage.getItem('spades.token')") in (None, "")
    assert asked == [], asked
    assert failed == [], failed
    assert page.errors == []
