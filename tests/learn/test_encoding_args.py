"""docs/learn.md's encoding helpers (``encode``, ``encode_observation``, ``from_engine``,
``layout``) given what they do not take: an error naming what they take, not one from
inside (``AttributeError``, ``IndexError``, ``'<=' not supported``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from spades.engine import LOOK, Match, profile  # noqa: E402
from spades.learn.encoding import encode, encode_observation, from_engine, layout  # noqa: E402


def _match() -> Match:
    return Match(profile("cardems"), rng=random.Random(1))


def test_encode_observation_of_a_match_points_to_encode() -> None:
    # It was AttributeError: 'Match' object has no attribute 'seat'.
    with pytest.raises(TypeError, match=r"^encode_observation takes an Observation "
                                        r"\(match\.observation\(seat\); encode\(match, seat\) "
                                        r"takes a Match\), not a Match$"):
        encode_observation(_match())  # type: ignore[arg-type]


def test_encode_of_an_observation_points_to_encode_observation() -> None:
    match = _match()
    with pytest.raises(TypeError, match=r"^encode takes a Match \(encode_observation takes an "
                                        r"Observation\), not an Observation$"):
        encode(match.observation(0), 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [4, -1, "0", 1.0, True])
def test_encode_of_no_seat_says_which_seats_there_are(seat: Any) -> None:
    # encode(match, 9) was IndexError: list index out of range.
    with pytest.raises(ValueError, match=rf"^seat: a seat from 0 to 3, not {seat!r}$"):
        encode(_match(), seat)


def test_encode_takes_a_numpy_seat_as_that_seat() -> None:
    match = _match()
    assert (encode(match, np.int64(2)) == encode(match, 2)).all()
    assert (encode(match, 1) == encode_observation(match.observation(1))).all()


@pytest.mark.parametrize("action, kind", [("QH", "str"), (True, "bool"), (64.0, "float")])
def test_from_engine_of_no_whole_number_says_what_an_engine_action_is(action: Any,
                                                                      kind: str) -> None:
    # from_engine("QH") was TypeError: '<=' not supported between instances of 'int' and 'str'.
    with pytest.raises(TypeError, match=rf"^an engine action is a whole number \(a card 0 to "
                                        rf"53, a bid 64 to 81, 96 blind nil or 97 look\), "
                                        rf"not a {kind}$"):
        from_engine(action)
    assert from_engine(np.int64(LOOK)) == from_engine(LOOK) == 73


@pytest.mark.parametrize("players", [2, 7, "4", 4.0, True])
def test_layout_takes_the_engines_player_counts(players: Any) -> None:
    # layout(7) gave a layout for a table the engine cannot seat; layout("4") was TypeError:
    # unsupported operand type(s) for +=: 'int' and 'str'.
    with pytest.raises(ValueError, match=rf"^players: a whole number 3 to 6, not {players!r}$"):
        layout(players)
