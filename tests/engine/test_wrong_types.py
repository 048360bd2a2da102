"""The engine's entry points given values of the wrong type: an error saying which argument
and what it should be, not an AttributeError from deep inside."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spades.engine import Match, RulesError, profile


@pytest.mark.parametrize("rules", ["cardems", None, {"preset": "cardems"}])
def test_match_rules_must_be_a_rules(rules: Any) -> None:
    # Match("cardems") was AttributeError: 'str' object has no attribute 'players'.
    with pytest.raises(TypeError, match=r"rules must be a Rules, like profile\('cardems'\), not "):
        Match(rules, rng=random.Random(1))


@pytest.mark.parametrize("rng", [5, "seed", random])
def test_match_rng_must_be_a_random_generator(rng: Any) -> None:
    # Match(rules, rng=5) was AttributeError: 'int' object has no attribute 'randrange'.
    with pytest.raises(TypeError, match=r"rng must be a random.Random, like random.Random\(7\)"):
        Match(profile("cardems"), rng=rng)
    assert Match(profile("cardems"), rng=random.SystemRandom()).phase == "bid"


@pytest.mark.parametrize("seat", ["0", None, 1.0])
def test_an_observation_seat_must_be_a_whole_number(seat: Any) -> None:
    # observation("0") was TypeError: '<=' not supported between instances of 'int' and 'str'.
    # (Compiled with mypyc, the match checks an int's type itself, with its own words.)
    match = Match(profile("cardems"), rng=random.Random(1))
    with pytest.raises(TypeError, match=r"seat must be a whole number 0 to 3, not |int object expected"):
        match.observation(seat)
    with pytest.raises(ValueError, match="seat must be 0 to 3, not 4"):
        match.observation(4)
    assert match.observation(2).seat == 2


def test_rules_replace_refuses_an_unknown_knob_as_profile_does() -> None:
    # rules.replace(foo=1) was TypeError: Rules.__init__() got an unexpected keyword argument.
    rules = profile("cardems")
    with pytest.raises(RulesError, match=r"^foo: unknown rules knob; known: bag_limit, "):
        rules.replace(foo=1)
    with pytest.raises(RulesError, match=r"^foo: unknown rules knob"):
        profile("cardems", foo=1)
    assert rules.replace(target=300).target == 300
