"""The text helpers ENGINE_API.md lists (``score_sheet``, ``seat_name``, ``side_name``,
``bag_warning``) given what they do not take: an error naming the argument, not an
IndexError from inside, nor a sheet that names the seats by the letters of one text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spades.engine import Match, profile
from spades.present import bag_warning, score_sheet, seat_name, side_name


def _played() -> Match:
    match = Match(profile("cardems", one_hand=True), rng=random.Random(7))
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    return match


def test_names_given_as_one_text_are_refused() -> None:
    # score_sheet(match, "Ann Bob Cy Di") named North "A", East "n", South "n" and West " ".
    with pytest.raises(TypeError, match=r"^names: a list of names by seat, like \['Ann', "
                                        r"'Bob', 'Cy', 'Di'\], not the text 'Ann Bob Cy Di'$"):
        score_sheet(_played(), "Ann Bob Cy Di")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^names: a list of names by seat"):
        seat_name(profile("cardems"), 0, "Ann")  # type: ignore[arg-type]
    assert "Ann and Cy" in score_sheet(_played(), ["Ann", "Bob", "Cy", "Di"])


@pytest.mark.parametrize("seat", [4, -1, "0", None])
def test_a_seat_not_at_the_table_is_refused(seat: Any) -> None:
    # seat_name(rules, 7) was IndexError: tuple index out of range (and -1 was "West").
    with pytest.raises(ValueError, match=rf"^seat: a seat from 0 to 3, not {seat!r}$"):
        seat_name(profile("cardems"), seat)
    assert seat_name(profile("race400", players=5), 4) == "Seat 4"


@pytest.mark.parametrize("side", [2, -1, "0"])
def test_a_side_the_rules_do_not_have_is_refused(side: Any) -> None:
    with pytest.raises(ValueError, match=rf"^side: a side from 0 to 1, not {side!r}$"):
        side_name(profile("cardems"), side)
    assert side_name(profile("cardems"), 1) == "East and West"


@pytest.mark.parametrize("bags", ["8", None, 8.0, True])
def test_bag_warning_takes_a_count(bags: Any) -> None:
    # bag_warning(rules, "8") was TypeError: unsupported operand type(s) for -: 'int' and 'str'.
    with pytest.raises(TypeError, match=rf"^bags: a side's bag count \(a whole number\), "
                                        rf"not {bags!r}$"):
        bag_warning(profile("cardems"), bags)
    assert bag_warning(profile("cardems"), 8) == "2 bags from a penalty"


def test_a_narrator_refuses_names_as_one_text_and_a_seat_that_is_no_number() -> None:
    # Narrator(rules, names="ABCD") named the seats A, B, C and D; me="0" was TypeError:
    # '<=' not supported between instances of 'int' and 'str'.
    from spades.present import Narrator

    with pytest.raises(TypeError, match=r"^names: 4 seat names, like \('Ann', 'Bob', 'Cy', "
                                        r"'Di'\), not the text 'ABCD'$"):
        Narrator(profile("cardems"), names="ABCD")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^me: a seat from 0 to 3 or None, not '0'$"):
        Narrator(profile("cardems"), me="0")  # type: ignore[arg-type]
    assert Narrator(profile("cardems"), names=("Ann", "Bob", "Cy", "Di"), me=0).seat(2) == \
        "your partner Cy"


@pytest.mark.parametrize("names", [5, {0: "Ann"}, 2.5])
def test_names_that_are_no_list_are_refused_by_name(names: Any) -> None:
    # score_sheet(match, 5) and seat_name(rules, 0, 5) were "object of type 'int' has no
    # len()"; a dict by seat was read as a list.
    message = r"^names: a list of names by seat, like \['Ann', 'Bob', 'Cy', 'Di'\], not "
    with pytest.raises(TypeError, match=message):
        score_sheet(_played(), names)
    with pytest.raises(TypeError, match=message):
        seat_name(profile("cardems"), 0, names)
    assert "Ann and Cy" in score_sheet(_played(), ("Ann", "Bob", "Cy", "Di"))  # type: ignore[arg-type]


def test_bag_warning_refuses_rules_given_by_name() -> None:
    # bag_warning("cardems", 8) was AttributeError: 'str' object has no attribute 'bag_limit'.
    with pytest.raises(TypeError, match=r"^rules must be a Rules, like profile\('cardems'\), "
                                        r"not 'cardems'$"):
        bag_warning("cardems", 8)  # type: ignore[arg-type]
    assert bag_warning(profile("cardems"), 8) == "2 bags from a penalty"
