"""Cards, masks and actions given values that are not cards or actions: a clear SpadesError."""

from __future__ import annotations

import pytest

from spades.engine import BID_BASE, SpadesError, parse_action, parse_bid


@pytest.mark.parametrize("text", ["\u00b2", "\u2460", "9" * 5000, "3\u00b2"],
                         ids=["superscript", "circled", "5000-digits", "3-superscript"])
def test_digits_that_are_no_number_are_not_a_bid(text: str) -> None:
    # str.isdigit() is true of them, int() refuses them: a bare ValueError before.
    with pytest.raises(SpadesError, match="is not a bid"):
        parse_bid(text)
    with pytest.raises(SpadesError, match="is not a bid"):
        parse_action(text)


def test_digits_that_are_a_number_are_a_bid() -> None:
    assert parse_bid("4") == parse_action(" 4 ") == BID_BASE + 4
    assert parse_bid("0") == BID_BASE
