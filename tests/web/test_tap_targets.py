"""Controls a phone player taps, at least 24 px each way (WCAG 2.5.8): on a 360x640 phone
the top bar's ♠ (the home link, its name hidden there) was 22x22, and the statistics page's
"Choose File" (the record to upload) Chromium's own small button, 21 px high, unlike every
other button of the page."""

from __future__ import annotations

from typing import Any

BOX = "e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }"


def test_the_home_link_and_the_file_button_are_big_enough_to_tap(new_page: Any,
                                                                 server: str) -> None:
    page = new_page(viewport={"width": 360, "height": 640}, has_touch=True)
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    w, h = page.locator(".topbar .brand").evaluate(BOX)
    assert w >= 24 and h >= 24, (w, h)  # before: 22 x 22
    w, h = page.locator("#rec-file").evaluate(BOX)
    assert h >= 24, h  # before: 21
    # its button as tall as the page's other buttons
    button = page.locator("#rec-file").evaluate(
        "e => parseFloat(getComputedStyle(e, '::file-selector-button').minHeight)")
    upload = page.locator("form[aria-labelledby=rec-title] button[type=submit]").evaluate(BOX)
    assert button >= upload[1] - 1, (button, upload)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not page.errors, page.errors
