"""``Observation.to_json(results_from=k)``: the view of a client that keeps the scored hands
itself (the server's ``results: "new"``) is the full view with ``results`` from hand ``k`` on
and ``results_from: k`` last, under every profile, at every step of a match; and
``match.observation(seat, past=False)`` is the observation without the past hands' deals and
actions, whose JSON is the same.

Before: ``to_json`` took no ``results_from`` (the server converted every scored hand for every
member and event, then cut the list) and ``observation`` no ``past``."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from engine_support import SEEDS, VARIANTS, Variant, few_examples, step
from hypothesis import given

from spades.engine import Match


def _tail(full: dict[str, Any], k: int) -> dict[str, Any]:
    """What the view from hand ``k`` on must be: the full one cut, ``results_from`` last."""
    return {**full, "results": full["results"][k:], "results_from": k}


def _check(match: Match, seat: int) -> None:
    obs = match.observation(seat)
    full = obs.to_json()
    assert "results_from" not in full
    assert full == obs.to_json(None)
    assert len(full["results"]) == len(match.results)
    for k in range(len(match.results) + 1):
        view = obs.to_json(results_from=k)
        assert view == _tail(full, k)
        assert list(view) == [*full, "results_from"]  # (the same order of keys)
    bare = match.observation(seat, past=False)
    assert bare == dataclasses.replace(obs, past_deals=(), past_actions=())
    assert bare.to_json() == full
    assert bare.to_json(len(match.results)) == _tail(full, len(match.results))
    # the last hands alone: the observation's tail, saying where it begins
    scored = len(match.results)
    for recent in (0, 1, 2, scored + 1):
        first = max(0, scored - recent)
        some = match.observation(seat, recent=recent)
        assert some == dataclasses.replace(
            obs, results=obs.results[first:], past_deals=obs.past_deals[first:],
            past_actions=obs.past_actions[first:], results_from=first)
        assert some.to_json() == (_tail(full, first) if first else full)
        for k in range(first, scored + 1):
            assert some.to_json(k) == _tail(full, k)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.label)
@given(seed=SEEDS)
@few_examples(3)
def test_the_view_from_a_hand_on_is_the_full_views_tail(variant: Variant, seed: int) -> None:
    rng = random.Random(seed)
    match = Match(variant.rules(), rng=random.Random(seed * 7919 + 1))
    while not match.is_over() and len(match.results) < 5:
        scored = len(match.results)
        step(match, rng, variant.timeouts)
        if len(match.results) != scored or rng.random() < 0.1:  # a hand ended, and now and then
            for seat in range(match.n):
                _check(match, seat)
    for seat in range(match.n):
        _check(match, seat)


def test_a_number_of_recent_hands_is_a_whole_number_not_below_zero() -> None:
    match = Match(VARIANTS[0].rules(), rng=random.Random(3))
    for bad in (1.5, True, "2"):
        with pytest.raises(TypeError, match=f"recent must be a whole number of hands or "
                           f"None, not {bad!r}"):
            match.observation(0, recent=bad)
    with pytest.raises(ValueError, match="recent must be 0 or more hands, not -1"):
        match.observation(0, recent=-1)


def test_a_start_before_the_hands_an_observation_has_is_refused() -> None:
    match = Match(VARIANTS[0].rules(), rng=random.Random(3))
    rng = random.Random(3)
    while len(match.results) < 3:
        step(match, rng, False)
    obs = match.observation(0, recent=1)
    for k in (0, 1, 4):
        with pytest.raises(ValueError, match=f"results_from must be 2 to 3 \\(the scored "
                           f"hands this observation has\\), not {k}"):
            obs.to_json(results_from=k)


def test_a_start_past_the_scored_hands_is_refused() -> None:
    match = Match(VARIANTS[0].rules(), rng=random.Random(3))
    rng = random.Random(3)
    while len(match.results) < 2:
        step(match, rng, False)
    obs = match.observation(0)
    for k in (-1, 3, 100):
        with pytest.raises(ValueError, match=f"results_from must be 0 to 2 .*not {k}"):
            obs.to_json(results_from=k)
