"""The lean hand state the bots search on is the engine's own rules: built from a seat's
observation (plus the hands) at any point of any hand, under every profile and player count,
it offers the match's legal actions, and playing on it gives the match's turns, trick
winners, spades breaking, voids and scores."""

from __future__ import annotations

import random

import pytest
from engine_support import SEEDS, VARIANTS, Variant, pick_action
from hypothesis import given, settings

from spades.engine import BLIND_NIL, DEAL, LOOK, PROFILES, IllegalAction, Match, profile
from spades.engine.cards import SUIT_MASKS
from spades.engine.handstate import HandState, public_voids

VARIANT_IDS = [v.label for v in VARIANTS]


def test_the_variants_cover_every_profile_and_player_count() -> None:
    presets = {v.preset for v in VARIANTS}
    assert presets == set(PROFILES)
    assert {v.rules().players for v in VARIANTS} == {3, 4, 5, 6}


def same_hand(state: HandState, match: Match) -> None:
    """``state`` stands where the match's hand under way stands."""
    assert state.phase is match.phase
    assert state.legal_actions() == match.legal_actions()
    assert state.turn == match.turn
    assert state.hands == match.hands
    assert state.bids == match.bids
    assert state.blind == match.blind
    assert state.num_bids == match.num_bids
    assert state.tricks == match.tricks
    assert state.trick == match.trick
    assert state.leader == match.leader
    assert state.led == match.led
    if state.trick:  # the card and seat winning it so far, and what can beat it
        assert (state.best, state.best_seat) == (match.best, match.best_seat)
        assert state.win_mask == match.win_mask
    assert state.broken == match.broken
    assert state.played == match.played
    assert state.left == match.left == match.hand_size - len(match.trick_winners)
    assert state.voids == match.voids
    if match.current_player >= 0:
        assert state.looked[match.turn] == match.looked[match.turn]
    obs = match.observation(0)
    assert state.voids == public_voids(obs)
    for seat, void in enumerate(state.voids):  # what is known to be missing is missing
        for suit in range(4):
            if void >> suit & 1:
                assert not match.hands[seat] & SUIT_MASKS[suit]


def take(state: HandState, action: int) -> None:
    """Play ``action`` (as the match took it) on ``state``: a timer's bid for a seat that had
    not looked includes the look."""
    if action < BLIND_NIL and not state.looked[state.turn]:
        state.apply(LOOK)
    state.apply(action)


def scored_alike(state: HandState, match: Match) -> None:
    """``state`` finished the hand the match just scored, and scores it alike."""
    result = match.results[-1]
    assert state.phase is DEAL
    assert tuple(state.tricks) == result.tricks
    assert tuple(state.bids) == result.bids
    assert tuple(state.blind) == result.blind
    scored = state.side_scores()
    assert tuple(side for side, _ in scored) == result.sides
    if not any(result.timeout_bags):  # the timer's bags are the match's, not the hand's
        assert tuple(bags for _, bags in scored) == result.bags


def play_alongside(variant: Variant, seed: int, hands: int = 2) -> int:
    """A random match of ``variant``, with a hand state carried through each hand from its
    deal and another built afresh from the acting seat's observation at every step; both
    checked against the match before and after every action. Returns the steps."""
    rng = random.Random(seed)
    match = Match(variant.rules(), rng=random.Random(seed * 7919 + 1))
    carried: HandState | None = None
    steps = 0
    while not match.is_over() and len(match.results) < hands:
        seat = match.current_player
        obs = match.observation(seat)
        fresh = HandState.from_obs(obs, match.hands)
        if carried is None:
            carried = HandState.from_obs(obs, match.hands)
        carried.bags = list(match.bags)  # the turn timer's bags land at once
        same_hand(fresh, match)
        same_hand(carried, match)
        copy = carried.clone()
        number = len(match.results)
        if variant.timeouts and rng.random() < 0.04:
            action = match.apply_timeout()
        else:
            action = pick_action(match, rng)
            match.apply(action)
        steps += 1
        for state in (fresh, carried, copy):
            take(state, action)
        if len(match.results) > number:
            for state in (fresh, carried, copy):
                scored_alike(state, match)
            carried = None
        else:
            same_hand(fresh, match)
            same_hand(carried, match)
    return steps


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=3, deadline=None, database=None)
@given(seed=SEEDS)
def test_hand_state_agrees_with_the_match(variant: Variant, seed: int) -> None:
    assert play_alongside(variant, seed) > 0


def test_an_illegal_card_changes_nothing() -> None:
    match = Match(profile("cards4net"), rng=random.Random(5))
    while match.phase != "play":
        match.apply(match.legal_actions()[0])
    state = HandState.from_obs(match.observation(match.turn), match.hands)
    held = match.hands[match.turn]
    spade = max(c for c in range(54) if held >> c & 1)
    if state.legal_mask() >> spade & 1:  # only spades held: take a card not held
        spade = next(c for c in range(52) if not held >> c & 1)
    before = state.clone()
    with pytest.raises(IllegalAction, match=r"spades are not broken|does not hold"):
        state.play(spade)
    # the mypyc-compiled class lists its fields in __mypyc_attrs__ instead of __slots__
    fields: tuple[str, ...] = vars(HandState).get("__slots__") or vars(HandState)["__mypyc_attrs__"]
    assert [getattr(state, a) for a in fields] == [getattr(before, a) for a in fields]


def test_new_hand_starts_like_a_deal() -> None:
    rules = profile("cards4net")
    match = Match(rules, rng=random.Random(8))
    state = HandState.new_hand(rules, match.hands, match.turn, match.bags)
    same_hand(state, match)
    assert state.legal_actions() == (BLIND_NIL, LOOK)
