"""The expert reads the other seats' plays: a sampled deal is weighted down for each play of
this hand that the intermediate level would not have made with that deal's cards."""

from __future__ import annotations

import random

from spades.bots import make_bot
from spades.bots.expert import PLAY_WEIGHT, ExpertBot
from spades.bots.infer import play_mismatches, sample_deals
from spades.engine import PLAY, Match, profile


def _play_until(match: Match, plays: int) -> None:
    bots = [make_bot("intermediate", seed=s) for s in range(match.rules.players)]
    while not (match.phase == PLAY and len(match.observation(0).plays) >= plays):
        seat = match.current_player
        match.apply(bots[seat].act(match.observation(seat)))


def test_the_real_deal_explains_every_play_of_intermediate_players() -> None:
    for name, players in (("cardems", 4), ("race400", 3), ("cards4net", 4), ("game93", 4)):
        kwargs = {"jokers": True} if name == "cards4net" else {}
        for seed in range(6):
            match = Match.new(profile(name, players=players, **kwargs), seed)
            _play_until(match, 2 + 5 * seed % 30)
            obs = match.observation(match.current_player)
            assert play_mismatches(obs, list(match.hands)) == 0, (name, seed)


def test_a_deal_that_gives_a_seat_other_cards_explains_fewer_plays() -> None:
    """Over many sampled deals some are told apart by the plays; the real one never is."""
    match = Match.new(profile("cardems"), 3)
    _play_until(match, 24)
    obs = match.observation(match.current_player)
    misses = [play_mismatches(obs, deal) for deal in sample_deals(obs, random.Random(1), 60,
                                                                  play_weight=1.0)]
    assert max(misses) > 0
    assert play_mismatches(obs, list(match.hands)) == 0


def test_the_expert_reads_plays_by_default() -> None:
    assert 0 < PLAY_WEIGHT < 1
    bot = make_bot("expert", seed=1)
    assert isinstance(bot, ExpertBot) and bot.play_weight == PLAY_WEIGHT
    assert ExpertBot(1, play_weight=1.0).play_weight == 1.0
