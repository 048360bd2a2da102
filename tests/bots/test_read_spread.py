"""Reading a seat's bids as closely as it keeps to its habit (``read_spread``, an adapting
expert's knob, off by default): the seat model learns how far the seat's number bids stray
from its usual offset, and the sampled deals believe a steady bidder's bid more."""

from __future__ import annotations

import random
import statistics

from spades.bots import make_bot
from spades.bots.adapt import BASE_BID_SD, SeatModel, SeatStats, Tendencies, model_of
from spades.bots.expert import ExpertBot
from spades.bots.infer import sample_deals
from spades.bots.policy import estimate_tricks
from spades.engine import Match, profile
from tests.bots.test_adapt import play_hands


def test_a_steady_bidder_is_read_closely_only_with_the_knob() -> None:
    steady = SeatStats(number_bids=10, offset_sum=-10.0, offset_sq_sum=10.5)  # -1 ± 0.22
    wild = SeatStats(number_bids=10, offset_sum=0.0, offset_sq_sum=40.0)  # 0 ± 2
    assert model_of(steady).bid_sd == BASE_BID_SD
    assert model_of(steady, read_spread=True).bid_sd < 0.8
    assert model_of(wild, read_spread=True).bid_sd > BASE_BID_SD
    assert model_of(SeatStats(), read_spread=True).bid_sd == BASE_BID_SD
    assert SeatModel().bid_sd == BASE_BID_SD


def test_the_spread_is_counted_from_the_scored_hands() -> None:
    match = play_hands(["human:under", "intermediate", "intermediate", "intermediate"], 8)
    obs = match.observation(2)
    plain = Tendencies().models(obs)
    read = Tendencies().models(obs, read_spread=True)
    assert plain is not None and read is not None
    assert all(m.bid_sd == BASE_BID_SD for m in plain)
    # Bids one under the intermediate level's, which keeps within a third of a trick of a
    # hand's worth: a steady bidder.
    assert read[0].bid_sd < 1.2
    assert read[2].bid_sd == BASE_BID_SD  # the observer itself


def test_a_closely_read_bid_narrows_the_sampled_hand() -> None:
    rules = profile("cardems")
    spreads = {}
    for sd in (BASE_BID_SD, 0.6):
        errors = []
        for seed in range(40):
            match = Match.new(rules, 300 + seed)
            first = match.observation(match.current_player)
            match.apply(make_bot("intermediate", seed).act(first))
            obs = match.observation(match.current_player)
            bidder = (obs.seat - 1) % rules.players
            bid = obs.bids[bidder]
            if not bid:
                continue
            models = [SeatModel(bid_sd=sd)] * rules.players
            deals = sample_deals(obs, random.Random(seed), 60, models=models)
            errors += [abs(estimate_tricks(d[bidder], rules) - bid) for d in deals]
        spreads[sd] = statistics.mean(errors)
    assert spreads[0.6] < spreads[BASE_BID_SD] - 0.1


def test_the_expert_passes_the_knob_to_its_models() -> None:
    match = play_hands(["intermediate"] * 4, 6)
    obs = match.observation(match.current_player)
    bot = ExpertBot(seed=1, worlds=4, read_spread=True)
    bot.act(obs)
    assert bot._models is not None
    assert any(m.bid_sd < BASE_BID_SD for m in bot._models)
    plain = ExpertBot(seed=1, worlds=4)
    plain.act(obs)
    assert plain._models is not None
    assert all(m.bid_sd == BASE_BID_SD for m in plain._models)
