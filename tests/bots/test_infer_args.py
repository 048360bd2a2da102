"""``sample_deals`` (engine.md, "Searching") given what it cannot sample from: an error that
says so, never a loop without end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spades.bots.infer import sample_deals
from spades.engine import Match, SpadesError, profile


class _Bounded(random.Random):
    """A generator that stops a sampler which would never end (it shuffles once a try)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def shuffle(self, x: Any) -> None:
        self.calls += 1
        if self.calls > 20_000:
            raise RuntimeError("sample_deals is still trying after 20,000 shuffles")
        super().shuffle(x)


def _over() -> Match:
    match = Match(profile("cardems", one_hand=True), rng=random.Random(1))
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    return match


@pytest.mark.parametrize(("make", "phase"), [
    (lambda: Match(profile("cardems"), dealer=0), "deal"), (_over, "over")])
def test_an_observation_with_no_hand_under_way_is_refused(make: Any, phase: str) -> None:
    # It looped for ever: no seat had room for any unseen card.
    with pytest.raises(SpadesError, match=rf"^sample_deals needs a hand under way \(bidding "
                                          rf"or play\), not phase '{phase}'$"):
        sample_deals(make().observation(0), _Bounded(1), 2)


def test_a_hand_under_way_is_sampled() -> None:
    match = Match.new(profile("cardems"), seed=3)
    obs = match.observation(match.current_player)
    deals = sample_deals(obs, _Bounded(1), 3)
    assert len(deals) == 3 and all(d[obs.seat] == obs.hand for d in deals)


@pytest.mark.parametrize(("args", "error", "message"), [
    ((random.Random(1), -1), ValueError, r"^count must be a whole number 0 or more, not -1$"),
    ((7, 2), TypeError, r"^rng must be a random\.Random, like random\.Random\(7\), not 7$|"
                        r"Random object expected"),
])
def test_bad_arguments_are_refused_by_name(args: tuple[Any, Any], error: type[Exception],
                                           message: str) -> None:
    # count=-1 gave [] as if asked for none; rng=7 was AttributeError: 'int' object has no
    # attribute 'shuffle'.
    match = Match.new(profile("cardems"), seed=3)
    with pytest.raises(error, match=message):
        sample_deals(match.observation(match.current_player), *args)


def test_a_match_given_for_its_observation_is_refused_with_the_way_to_get_one() -> None:
    # sample_deals(match, ...) and HandState.from_obs(match, hands) were AttributeError:
    # 'Match' object has no attribute 'seat' ('hand'). (Compiled, mypyc refuses it first.)
    from spades.engine import HandState
    match = Match.new(profile("cardems"), seed=3)
    words = r"takes an Observation \(match\.observation\(seat\)\), not a Match$|Observation object"
    with pytest.raises(TypeError, match=rf"^sample_deals {words}"):
        sample_deals(match, random.Random(1), 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=rf"^HandState\.from_obs {words}"):
        HandState.from_obs(match, list(match.hands))  # type: ignore[arg-type]
    # public_voids(match) and unseen_cards(match), the next names of that section, were
    # AttributeError: 'Match' object has no attribute 'plays'.
    from spades.engine import public_voids, unseen_cards
    with pytest.raises(TypeError, match=rf"^public_voids {words}"):
        public_voids(match)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=rf"^unseen_cards {words}"):
        unseen_cards(match)  # type: ignore[arg-type]


def test_a_count_of_none_is_no_deals_even_with_bids_to_weigh() -> None:
    # With bids made, sample_deals(obs, rng, 0) was ValueError: max() arg is an empty
    # sequence; engine.md says count is 0 or more.
    match = Match.new(profile("cardems"), seed=3)
    while match.phase == "bid":
        match.apply(match.legal_actions()[2])
    assert sample_deals(match.observation(match.current_player), _Bounded(1), 0) == []


@pytest.mark.parametrize("count", ["2", 2.0, None, True, False])
def test_a_count_that_is_no_whole_number_is_refused_by_name(count: Any) -> None:
    # Compiled, count=True was taken as 1 (and False as 0), where pure Python refused it,
    # and "2" or 2.0 were mypyc's "int object expected; got str".
    match = Match.new(profile("cardems"), seed=3)
    with pytest.raises(ValueError, match=rf"^count must be a whole number 0 or more, "
                                         rf"not {count!r}$"):
        sample_deals(match.observation(match.current_player), _Bounded(1), count)


def test_a_count_of_any_integer_type_is_that_count() -> None:
    # sample_deals(obs, rng, np.int64(2)) was "count must be a whole number 0 or more, not
    # np.int64(2)" (compiled: "int object expected; got numpy.int64").
    np = pytest.importorskip("numpy")
    match = Match.new(profile("cardems"), seed=3)
    obs = match.observation(match.current_player)
    assert sample_deals(obs, _Bounded(1), np.int64(2)) == sample_deals(obs, _Bounded(1), 2)


@pytest.mark.parametrize("evidence", [1, "no", None])
def test_evidence_must_be_true_or_false(evidence: Any) -> None:
    # evidence="no" weighed the deals by the bids (pure Python); compiled, it was mypyc's
    # "bool object expected; got str".
    match = Match.new(profile("cardems"), seed=3)
    with pytest.raises(TypeError, match=rf"^evidence must be True or False, not {evidence!r}$"):
        sample_deals(match.observation(match.current_player), _Bounded(1), 2, evidence=evidence)


def test_from_obs_of_no_hands_says_what_it_takes() -> None:
    # HandState.from_obs(obs, None) was TypeError: 'NoneType' object is not iterable.
    from spades.engine import HandState
    match = Match.new(profile("cardems"), seed=3)
    with pytest.raises(TypeError, match=r"^hands: one card mask per seat \(4\), not None$"):
        HandState.from_obs(match.observation(match.current_player), None)  # type: ignore[arg-type]
