"""Defects found by a user trial of the page: the felt scrolled away after bidding, leaving a
running match without leaving it, a tap on the page's own selection playing it, the score sheet
not read on the first O, pages scrolling sideways on a phone, seat tags out of a compact seat,
the first dealer offered seats the table does not have, the timer's warning before the context
on return, and the home and create forms."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import (
    bid_with_keyboard,
    create_cpu_table,
    wait_my_turn_or_over,
)

# two frames drawn: what a change of the page does to its layout and scrolling has happened
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
FELT_TOP = "document.querySelector('.felt').getBoundingClientRect().top"


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)], ids=["1366x768", "1280x720"])
def test_the_felt_stays_in_view_after_bidding(new_page: Any, server: str,
                                              size: tuple[int, int]) -> None:
    page = new_page(viewport={"width": size[0], "height": size[1]})
    create_cpu_table(page, server, "Tess", profile="race400", players=4)
    assert wait_my_turn_or_over(page) == "bid"
    page.evaluate(FRAMES)
    assert page.evaluate(FELT_TOP) >= 0
    grew = page.evaluate("document.querySelector('.felt').offsetHeight")
    bid_with_keyboard(page)
    # the bid panel goes and the felt takes its room: the top of the table stays in sight
    page.wait_for_function("document.getElementById('bid-panel').hidden")
    page.evaluate(FRAMES)
    assert page.evaluate("document.querySelector('.felt').offsetHeight") > grew
    top = page.evaluate(FELT_TOP)
    assert top >= 0, (top, page.evaluate("scrollY"))
    assert not page.errors, page.errors
