"""Reading a seat's bids as closely as it keeps to its habit (``read_spread``, on by default
in the adapting expert): the seat model learns how far the seat's number bids stray from its
usual offset, the sampled deals believe a steady bidder's bid more, and its bids in play-outs
move by its habit on average."""

from __future__ import annotations

import random
import statistics

from spades.bots import make_bot
from spades.bots.adapt import (
    BASE_BID_SD,
    SeatModel,
    SeatStats,
    Tendencies,
    adapted_rollout,
    model_of,
)
from spades.bots.expert import ExpertBot
from spades.bots.infer import sample_deals
from spades.bots.policy import choose_bid, estimate_tricks
from spades.engine import Match, profile
from spades.engine.handstate import HandState
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
    bot = ExpertBot(seed=1, worlds=4)  # on by default
    bot.act(obs)
    assert bot._models is not None
    assert any(m.bid_sd < BASE_BID_SD for m in bot._models)
    plain = ExpertBot(seed=1, worlds=4, read_spread=False)
    plain.act(obs)
    assert plain._models is not None
    assert all(m.bid_sd == BASE_BID_SD for m in plain._models)


def test_read_spread_moves_bids_in_play_outs_by_the_habit_on_average() -> None:
    steady = SeatStats(number_bids=6, offset_sum=-7.2, offset_sq_sum=6 * 1.44 + 0.6)
    m = model_of(steady, read_spread=True)
    assert m.bid_shift == 0 and -1.1 < m.bid_drift < -0.8
    assert -1.3 < m.bid_offset < -1.0  # shrunk towards the usual -0.2, a little
    # A seat whose bids stray widely is shrunk much more towards the usual.
    noisy = SeatStats(number_bids=6, offset_sum=-7.2, offset_sq_sum=6 * 1.44 + 6 * 4.0)
    assert model_of(noisy, read_spread=True).bid_drift > m.bid_drift + 0.1
    assert model_of(steady).bid_drift == 0.0 and model_of(steady).bid_shift == -1


def test_a_drift_shifts_that_share_of_the_play_outs() -> None:
    rules = profile("cardems")
    moved = total = 0
    for seed in range(200):
        match = Match.new(rules, 700 + seed)
        obs = match.observation(match.current_player)
        hands = sample_deals(obs, random.Random(seed), 1)[0]
        base = HandState.from_obs(obs, hands)
        seat = base.turn
        plain = base.clone()
        plain.bid(choose_bid(plain))
        expected = plain.bids[seat]
        if not 1 < expected < 13:
            continue
        for drift in (-1.0, -0.3):
            s = base.clone()
            models = [SeatModel(bid_drift=drift)] * rules.players
            adapted_rollout(s, models)
            again = base.clone()
            adapted_rollout(again, models)
            assert again.bids == s.bids and again.tricks == s.tricks  # a function of the deal
            if drift == -1.0:
                assert s.bids[seat] == expected - 1
            else:
                total += 1
                moved += s.bids[seat] == expected - 1
                assert s.bids[seat] in (expected, expected - 1)
    assert 0.15 < moved / total < 0.45
