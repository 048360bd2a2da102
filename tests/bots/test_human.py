"""The models of people: each is the intermediate level with exactly its one habit."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from spades.bots import HUMAN_MODELS, make_bot
from spades.bots.heuristic import own_state
from spades.bots.human import NILHAPPY_RISK, NILHAPPY_TRICKS, HumanBot, shift_bid
from spades.bots.policy import choose_bid, estimate_tricks, nil_risk, play_card
from spades.engine import BID_BASE, BLIND_NIL, NIL, Match, Observation, profile
from spades.engine.cards import SUIT_MASKS, parse_card


def bid_observations(count: int, rules_name: str = "cardems") -> Iterator[Observation]:
    """Observations of seats about to bid, in many deals, earlier seats bidding as the
    intermediate level does."""
    rules = profile(rules_name)
    for seed in range(count):
        match = Match.new(rules, seed=seed)
        for _ in range(seed % 4):
            seat = match.current_player
            obs = match.observation(seat)
            match.apply(choose_bid(own_state(obs), obs.scores, obs.legal_actions))
        yield match.observation(match.current_player)


def play_observations(count: int, spec: str = "intermediate") -> Iterator[Observation]:
    """Observations of seats about to play a card, in many deals."""
    rules = profile("cardems")
    for seed in range(count):
        match = Match.new(rules, seed=seed)
        bots = [make_bot(spec, s) for s in range(4)]
        for _ in range(4 + seed % 40):
            seat = match.current_player
            match.apply(bots[seat].act(match.observation(seat)))
        yield match.observation(match.current_player)


def test_over_and_under_move_the_intermediate_bid_by_one_where_legal() -> None:
    over, under = HumanBot("over"), HumanBot("under")
    moved_up = moved_down = 0
    for obs in bid_observations(200):
        base = choose_bid(own_state(obs), obs.scores, obs.legal_actions)
        up, down = over.act(obs), under.act(obs)
        if BID_BASE < base < BLIND_NIL:
            assert up == (base + 1 if base + 1 in obs.legal_actions else base)
            assert down == (base - 1 if base - 1 > BID_BASE else base)
            moved_up += up == base + 1
            moved_down += down == base - 1
        else:  # Nil stays Nil
            assert up == down == base
    assert moved_up > 100 and moved_down > 50


def test_shift_bid_keeps_nil_and_legal_range() -> None:
    legal = tuple(range(BID_BASE, BID_BASE + 14))
    assert shift_bid(NIL, 1, legal) == NIL
    assert shift_bid(BID_BASE + 1, -1, legal) == BID_BASE + 1  # never turned into Nil
    assert shift_bid(BID_BASE + 13, 1, legal) == BID_BASE + 13
    assert shift_bid(BID_BASE + 4, 1, legal) == BID_BASE + 5
    assert shift_bid(BLIND_NIL, 1, (*legal, BLIND_NIL)) == BLIND_NIL


def test_nilhappy_bids_nil_on_every_hand_below_its_limits() -> None:
    bot = HumanBot("nilhappy")
    nils = extra = 0
    for obs in bid_observations(300):
        hand = obs.hand or 0
        mates = [m for m in obs.sides[obs.my_side] if m != obs.seat]
        base = choose_bid(own_state(obs), obs.scores, obs.legal_actions)
        wants = (NIL in obs.legal_actions and not any(obs.bids[m] == 0 for m in mates)
                 and estimate_tricks(hand, obs.rules) < NILHAPPY_TRICKS
                 and nil_risk(hand, obs.rules) < NILHAPPY_RISK)
        got = bot.act(obs)
        assert got == (NIL if wants else base)
        nils += got == NIL
        extra += got == NIL and base != NIL
    assert extra > 0 and nils > extra  # more nils than the intermediate level bids


def test_nocover_plays_its_highest_card_when_following() -> None:
    bot = HumanBot("nocover")
    followed = 0
    for obs in play_observations(150):
        hand = obs.hand or 0
        if obs.trick:
            led = obs.trick[0][1]
            suit = SUIT_MASKS[led // 13 if led < 39 else 3]
            if hand & suit:
                assert bot.act(obs) == (hand & suit).bit_length() - 1
                followed += 1
    assert followed > 20


def test_nocover_does_not_overtake_a_winning_nil_partner() -> None:
    # North (0) bid Nil and had to lead the ace of hearts; South (2), void in hearts, trumps
    # to cover it (the intermediate level does); nocover discards a diamond instead.
    rules = profile("cardems")
    match = Match(rules, dealer=3)

    def mask(text: str) -> int:
        m = 0
        for t in text.split():
            m |= 1 << parse_card(t)
        return m

    north = mask("AH 6S 5S 4S 3S 2S 2C 3C 4C 5C 6C 7C 8C")
    east = mask("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H TC")
    south = mask("AS KS QS JS TS 9S 8S 7S AD KD QD JD TD")
    west = rules.deck & ~(north | east | south)
    match.deal([north, east, south, west])
    for bid in (NIL, BID_BASE + 3, BID_BASE + 6, BID_BASE + 3):
        match.apply(bid)
    match.apply(parse_card("AH"))
    match.apply(parse_card("2H"))  # East ducks under the nil
    obs = match.observation(2)
    intermediate = play_card(own_state(obs))
    assert intermediate >= 39  # trumps to cover
    card = HumanBot("nocover").act(obs)
    assert card in obs.legal_actions and 13 <= card < 26  # a diamond


def test_random_bids_are_uniform_over_the_legal_bids() -> None:
    bot = HumanBot("random-bids", seed=4)
    counts: Counter[int] = Counter()
    for obs in bid_observations(60):
        for _ in range(20):
            got = bot.act(obs)
            assert got in obs.legal_actions
            counts[got] += 1
    legal = set(next(bid_observations(1)).legal_actions)
    assert set(counts) == legal  # every bid, Nil to 13
    expected = sum(counts.values()) / len(legal)
    assert all(abs(c - expected) < 0.35 * expected for c in counts.values())


@pytest.mark.parametrize("model", ["over", "under", "nilhappy", "random-bids"])
def test_card_play_is_the_intermediate_levels(model: str) -> None:
    bot = HumanBot(model)
    for obs in play_observations(60):
        assert bot.act(obs) == play_card(own_state(obs))


def test_specs_and_names() -> None:
    for model in HUMAN_MODELS:
        bot = make_bot(f"human:{model}", 1)
        assert bot.name == f"human:{model}"
    for bad in ("human", "human:", "human:lazy", "human:over:3"):
        with pytest.raises(ValueError, match="model of a person"):
            make_bot(bad, 1)


def test_same_seed_same_random_bids() -> None:
    obs = next(bid_observations(1))
    a = [HumanBot("random-bids", seed=9).act(obs) for _ in range(3)]
    b = [HumanBot("random-bids", seed=9).act(obs) for _ in range(3)]
    assert a == b
    rng = random.Random(9)
    assert a[0] == rng.choice(obs.legal_actions)
