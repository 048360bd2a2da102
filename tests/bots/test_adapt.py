"""Adaptation: what the expert learns about the other seats, from public information only,
and where it uses it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from spades.bots import make_bot
from spades.bots.adapt import (
    BASE_NIL_RISK,
    PLAIN,
    SeatModel,
    Tendencies,
    adapted_rollout,
    hand_stats,
)
from spades.bots.expert import ExpertBot
from spades.bots.heuristic import own_state
from spades.bots.infer import sample_deals
from spades.bots.policy import choose_bid, estimate_tricks
from spades.engine import BID_BASE, DEAL, Match, Observation, profile
from spades.engine.handstate import HandState
from tests.bots.test_levels import _swap_hidden


def play_hands(specs: list[str], hands: int, seed: int = 5) -> Match:
    match = Match.new(profile("cardems"), seed=seed)
    bots = [make_bot(spec, i) for i, spec in enumerate(specs)]
    while not match.is_over() and len(match.results) < hands:
        seat = match.current_player
        match.apply(bots[seat].act(match.observation(seat)))
    return match


def test_observation_has_the_scored_hands_only() -> None:
    match = play_hands(["intermediate"] * 4, 2)
    obs = match.observation(0)
    assert len(obs.results) == 2 and obs.phase == "bid"
    assert obs.past_deals == tuple(h.deal for h in match.log[:2])
    assert obs.past_actions == tuple(tuple(h.actions) for h in match.log[:2])
    # The hand in progress is not in it (its hidden cards stay hidden).
    assert match.log[2].deal not in obs.past_deals
    for deal, actions in zip(obs.past_deals, obs.past_actions, strict=True):
        cards = [a for a in actions if a < BID_BASE]
        assert sorted(cards) == sorted(c for c in range(54) if any(h >> c & 1 for h in deal))


def test_it_learns_each_habit() -> None:
    match = play_hands(["intermediate", "human:over", "intermediate", "human:under"], 8)
    models = Tendencies().models(match.observation(0))
    assert models is not None
    assert models[0] is PLAIN  # itself
    assert models[1].bid_shift == 1 and models[1].bid_offset > 0.5
    assert models[3].bid_shift == -1 and models[3].bid_offset < -0.5
    assert models[2].bid_shift == 0 and not models[2].high_follower

    match = play_hands(["intermediate", "human:nilhappy", "intermediate", "human:nocover"], 8)
    models = Tendencies().models(match.observation(0))
    assert models is not None
    assert models[1].nil_risk > BASE_NIL_RISK + 0.3 and models[1].nil_boldness > 0
    assert models[3].high_follower and not models[1].high_follower
    assert Tendencies().models(play_hands(["intermediate"] * 4, 0).observation(0)) is None


def test_cover_is_counted_when_a_nil_partner_could_be_trumped_over() -> None:
    covers = {"intermediate": [0, 0], "human:nocover": [0, 0]}
    for partner in covers:
        for seed in range(12):
            match = play_hands(["human:nilhappy", "intermediate", partner, "intermediate"], 8,
                               seed=seed)
            obs = match.observation(1)
            for i in range(len(obs.results)):
                st = hand_stats(obs, i)[2]
                covers[partner][0] += st.cover_chances
                covers[partner][1] += st.covers
    chances, done = covers["intermediate"]
    assert chances >= 5 and done > 0.8 * chances
    chances, done = covers["human:nocover"]
    assert chances >= 3
    assert done / chances < covers["intermediate"][1] / covers["intermediate"][0]


def _first_bid_after(partner_bid: int) -> Observation:
    """South (seat 2) to bid after North bid ``partner_bid`` and East 3."""
    match = Match(profile("cardems"), dealer=3)
    match.deal(list(Match.new(profile("cardems"), seed=2).hands))
    match.apply(BID_BASE + partner_bid)
    match.apply(BID_BASE + 3)
    return match.observation(2)


def test_sampled_deals_read_an_overbidder_as_holding_less() -> None:
    obs = _first_bid_after(5)
    plain = [PLAIN] * 4
    over = [PLAIN, PLAIN, PLAIN, PLAIN]
    over[0] = SeatModel(bid_offset=1.0, bid_shift=1)
    rules = obs.rules

    def mean_north(models: list[SeatModel]) -> float:
        deals = sample_deals(obs, random.Random(3), 400, models=models)
        return sum(estimate_tricks(h[0], rules) for h in deals) / len(deals)

    assert mean_north(over) < mean_north(plain) - 0.4


def test_play_outs_bid_and_play_as_the_models_say() -> None:
    obs = _first_bid_after(5)
    hands = sample_deals(obs, random.Random(1), 1)[0]
    base = HandState.from_obs(obs, hands)
    base.bid(BID_BASE + 4)  # South
    west = base.clone()
    expected = choose_bid(west)
    shifted = base.clone()
    models = [PLAIN, PLAIN, PLAIN, SeatModel(bid_offset=1.0, bid_shift=1)]
    adapted_rollout(shifted, models)
    assert shifted.bids[3] == min(expected - BID_BASE + 1, 13)
    high = base.clone()
    adapted_rollout(high, [PLAIN, SeatModel(high_follower=True), PLAIN, PLAIN])
    assert high.phase is DEAL and sum(high.tricks) == 13


def test_noadapt_ignores_the_history_and_adapt_uses_it() -> None:
    match = play_hands(["human:over", "intermediate", "intermediate", "intermediate"], 5)
    while match.current_player != 2:
        seat = match.current_player
        match.apply(make_bot("intermediate", seat).act(match.observation(seat)))
    obs = match.observation(2)
    bare = dataclasses.replace(obs, past_deals=(), past_actions=())
    assert make_bot("expert:8:noadapt", 1).act(obs) == make_bot("expert:8:noadapt", 1).act(bare)
    bot = ExpertBot(1, worlds=8)
    bot.act(obs)
    assert bot._models is not None and bot._models[0].bid_drift > 0.5
    old = ExpertBot(1, worlds=8, read_spread=False)  # the models before read_spread
    old.act(obs)
    assert old._models is not None and old._models[0].bid_shift == 1
    nobot = ExpertBot(1, worlds=8, adapt=False)
    nobot.act(obs)
    assert nobot._models is None


def test_expert_bids_less_beside_a_partner_known_to_overbid() -> None:
    """South after North bid 3: scored with North modelled as bidding a trick too many,
    South's best bid is never higher, and lower on some hands."""
    lower = 0
    for seed in range(8):
        match = Match(profile("cardems"), dealer=3)
        match.deal(list(Match.new(profile("cardems"), seed=seed + 40).hands))
        match.apply(BID_BASE + 3)
        match.apply(BID_BASE + 3)
        obs = match.observation(2)
        picks = []
        for models in (None, [PLAIN, PLAIN, PLAIN, PLAIN]):
            bot = ExpertBot(seed, worlds=60, adapt=False)
            if models is not None:
                models[0] = SeatModel(bid_offset=1.0, bid_shift=1)
            bot._models = models
            legal = obs.legal_actions
            default = choose_bid(own_state(obs), obs.scores, legal)
            numbers = [a for a in legal if abs(a - default) <= 3 and a != BID_BASE]
            values = bot._rescore_bids(obs, numbers, default)
            picks.append(numbers[max(range(len(numbers)), key=values.__getitem__)])
        assert picks[1] <= picks[0]
        lower += picks[1] < picks[0]
    assert lower >= 1


@pytest.mark.parametrize("steps", [0, 9, 30])
def test_adapting_decisions_depend_on_the_observation_only(steps: int) -> None:
    match = play_hands(["human:over", "intermediate", "human:nilhappy", "intermediate"], 3)
    driver = [make_bot("intermediate", s) for s in range(4)]
    for _ in range(steps):
        seat = match.current_player
        match.apply(driver[seat].act(match.observation(seat)))
    seat = match.current_player
    obs = match.observation(seat)
    swapped = _swap_hidden(match, seat, random.Random(steps))  # this hand only
    other = match.clone()  # the same history, the swapped hidden cards
    other.hands = list(swapped.hands)
    other.log[-1].deal = swapped.log[-1].deal
    assert other.hands != match.hands or steps == 30
    assert other.observation(seat) == obs
    assert make_bot("expert:5", 3).act(obs) == make_bot("expert:5", 3).act(
        other.observation(seat))


def test_a_reckless_nil_bidders_nil_says_less_about_its_hand() -> None:
    from spades.bots.adapt import bold_nil
    from spades.bots.policy import nil_risk

    obs = _first_bid_after(0)  # North bid Nil
    rules = obs.rules

    def mean_risk(models: list[SeatModel]) -> float:
        deals = sample_deals(obs, random.Random(5), 300, models=models)
        return sum(nil_risk(h[0], rules) for h in deals) / len(deals)

    bold = [SeatModel(nil_risk=2.5, nil_boldness=0.9), PLAIN, PLAIN, PLAIN]
    assert mean_risk(bold) > mean_risk([PLAIN] * 4) + 0.3
    # In play-outs such a seat bids Nil on riskier hands than the intermediate level.
    hands = sample_deals(obs, random.Random(2), 200)
    plain_nils = bold_nils = 0
    for h in hands:
        s = HandState.from_obs(obs, h)
        s.bids[0] = -1  # North to bid again, as in a play-out from the start
        s.turn = 0
        s.num_bids = 0
        plain_nils += choose_bid(s) == BID_BASE
        bold_nils += bold_nil(s, bold[0])
    assert bold_nils > plain_nils
