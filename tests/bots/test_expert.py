"""The expert's racing over sampled deals and its preference for the rule-based card."""

from __future__ import annotations

import random

from spades.bots import make_bot
from spades.bots.expert import ExpertBot, _race, distinct_cards
from spades.engine import BID_BASE, BLIND_NIL, NIL, Match, Observation, action_str, profile
from spades.engine.cards import parse_card


def test_race_drops_only_clearly_worse_candidates() -> None:
    n = 40
    lead = [float(10 + (i % 5)) for i in range(n)]
    close = [x - (1 if i % 2 else -1) for i, x in enumerate(lead)]   # same mean as lead
    worse = [x - 30 for x in lead]
    dropped: dict[int, float] = {}
    active = _race([lead, close, worse], [0, 1, 2], n, 2.5, dropped)
    assert active == [0, 1]
    assert set(dropped) == {2}
    # Too few deals to judge: nobody drops.
    assert _race([lead[:4], worse[:4]], [0, 1], 4, 2.5, {}) == [0, 1]


def test_prefer_keeps_the_default_unless_clearly_beaten() -> None:
    bot = ExpertBot(seed=1, worlds=10)
    noisy_better = [0.0, 20.0, -18.0, 19.0, -20.0, 21.0]   # mean +3.7, large spread
    default = [0.0] * 6
    bot._values = [noisy_better, default]
    assert bot._prefer([5, 7], [3.7, 0.0], 0, 1) == 1
    clearly_better = [5.0, 6.0, 5.5, 6.5, 5.0, 6.0]
    bot._values = [clearly_better, default]
    assert bot._prefer([5, 7], [5.7, 0.0], 0, 1) == 0


def _first_bid_with(hand_text: str) -> Observation:
    """The first bidder's observation when it holds ``hand_text``; the rest dealt at random."""
    rules = profile("cardems")
    mine = 0
    for word in hand_text.split():
        mine |= 1 << parse_card(word)
    rest = [c for c in range(52) if not mine >> c & 1]
    random.Random(3).shuffle(rest)
    match = Match(rules, dealer=3)
    hands = [0] * 4
    first = 0  # the seat after the dealer bids first
    hands[first] = mine
    others = [s for s in range(4) if s != first]
    for k, s in enumerate(others):
        for c in rest[13 * k:13 * (k + 1)]:
            hands[s] |= 1 << c
    match.deal(hands)
    assert match.current_player == first
    return match.observation(first)


def test_rescored_bids_follow_the_hand() -> None:
    strong = _first_bid_with("AS KS QS JS 10S 9S AH KH AD KD AC 2C 3C")
    weak = _first_bid_with("2S 3H 4H 5H 2D 3D 4D 6D 2C 3C 4C 5C 7C")
    for seed in (1, 2):
        bid = ExpertBot(seed=seed, worlds=30).act(strong)
        assert BID_BASE + 9 <= bid <= BID_BASE + 13, action_str(bid)
        assert ExpertBot(seed=seed, worlds=30).act(weak) == NIL


def test_rescoring_plays_each_deal_once_for_all_numbers() -> None:
    obs = _first_bid_with("AS KS 5S 4S AH 10H 7H 6D 5D 4D QC 8C 3C")
    bot = ExpertBot(seed=4, worlds=20)
    values = bot._rescore_bids(obs, [BID_BASE + 3, BID_BASE + 4, BID_BASE + 5, NIL], BID_BASE + 4)
    assert len(values) == 4 and all(v > -1e8 for v in values)
    # A blind nil is no number to rescore: it is left out, not given a made-up value.
    assert bot._rescore_bids(obs, [BID_BASE + 4, BLIND_NIL], BID_BASE + 4)[1] < -1e8


def test_distinct_cards_keeps_a_card_of_each_different_effect() -> None:
    """Two legal cards play alike only if nothing between them can still be played by
    another seat or lies on the table in this trick: holding the ace and the 5 of clubs with
    the jack and 7 on the table, the ace wins the trick and the 5 does not."""
    rules = profile("cardems")
    checked = 0
    for seed in range(40):
        match = Match.new(rules, seed)
        bots = [make_bot("intermediate", s) for s in range(rules.players)]
        while not match.results:
            seat = match.current_player
            obs = match.observation(seat)
            if obs.phase == "play" and len(obs.legal_actions) > 1:
                kept = distinct_cards(obs)
                assert set(kept) <= set(obs.legal_actions) and kept
                finished = obs.plays[:len(obs.plays) - len(obs.trick)]
                live = rules.deck & ~(obs.hand or 0) & ~sum(1 << c for _, c in finished)
                for c in obs.legal_actions:
                    assert any(
                        not live & ((1 << max(c, k)) - 1) & ~((2 << min(c, k)) - 1)
                        and (c // 13 == k // 13 or min(c, k) >= 39)
                        for k in kept), (seed, obs.plays, c, kept)
                checked += 1
            match.apply(bots[seat].act(obs))
    assert checked > 500
