"""The quick game's "One hand" is one hand under every rules profile: the table is made with
the one-hand option (not a target of 1 point, which a hand where both sides are set does not
reach), and the score box says "One-hand match"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import start_quick_match


@pytest.mark.parametrize("profile", ["cardems", "cardgames-club"])
def test_quick_one_hand_is_a_one_hand_match(new_page: Any, profile: str) -> None:
    page = new_page()
    start_quick_match(page, "Olga", profile=profile, one_hand=True)
    page.wait_for_function("() => spadesApp.table && spadesApp.table.msg"
                           " && spadesApp.table.msg.table")
    options = page.evaluate("spadesApp.table.msg.table.options")
    assert options["profile"] == profile
    assert options.get("one_hand") is True, options
    assert options.get("target") != 1
    page.wait_for_function("() => document.body.innerText.includes('One-hand match')")
