"""Property tests: random play under every profile, player count, side layout and option.

Each example plays a seeded random match (a few hands at most: random matches rarely end)
and checks at every step what must always hold: legal actions exist until the end, an
illegal action raises and changes nothing, observations hold only what a seat may see,
undo and clone are exact; and at the end of each hand that every card was dealt once and
played once, one card per seat in each trick, with the tricks won as the seeds rank cards;
and at the end that export then replay gives the same match.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from engine_support import (
    SEEDS,
    VARIANTS,
    Variant,
    expect_illegal,
    few_examples,
    illegal_actions,
    pick_action,
    random_match,
    snapshot,
    step,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine import (
    BLIND_NIL,
    LOOK,
    IllegalAction,
    Match,
    RecordError,
    card_str,
    cards_of,
    replay,
    summary,
)
from spades.engine.cards import SUIT_OF

FAST = few_examples(6)
VARIANT_IDS = [v.label for v in VARIANTS]


def trick_winner(plays: list[tuple[int, int]]) -> int:
    """Seat winning a full trick, computed independently: the highest trump (spades and
    jokers, jokers highest), else the highest card of the suit led."""
    led = SUIT_OF[plays[0][1]]

    def strength(play: tuple[int, int]) -> tuple[int, int]:
        card = play[1]
        suit = SUIT_OF[card]
        return (2 if suit == 3 else 1 if suit == led else 0, card)

    return max(plays, key=strength)[0]


def check_finished_hand(match: Match, index: int) -> None:
    """Hand ``index`` (0-based) is over: check its deal, its plays and its tricks."""
    log = match.log[index]
    result = match.results[index]
    rules = match.rules
    n = match.n
    seen = 0
    for m in log.deal:
        assert m.bit_count() == rules.hand_size
        assert not seen & m
        seen |= m
    assert seen == rules.deck
    plays = log.plays
    assert len(plays) == len(set(plays)) == n * rules.hand_size
    assert set(plays) == set(cards_of(rules.deck))
    held = list(log.deal)
    leader = (log.dealer + 1) % n
    tricks = [0] * n
    for t in range(rules.hand_size):
        trick = [((leader + i) % n, plays[t * n + i]) for i in range(n)]
        assert sorted(seat for seat, _ in trick) == list(range(n))  # one card per seat
        for seat, card in trick:
            assert held[seat] >> card & 1, "played a card it did not hold"
            held[seat] &= ~(1 << card)
        leader = trick_winner(trick)
        tricks[leader] += 1
    assert tuple(tricks) == result.tricks
    assert sum(result.tricks) == rules.hand_size


def check_secrecy(match: Match) -> None:
    """No seat's observation holds another seat's unplayed cards."""
    for seat in range(match.n):
        obs = match.observation(seat)
        assert obs.hand is None or obs.hand == match.hands[seat]
        if not match.looked[seat]:
            assert obs.hand is None
        if match.current_player != seat:
            assert obs.legal_actions == ()
        text = json.dumps(obs.to_json())
        for other in range(match.n):
            if other == seat:
                continue
            for card in cards_of(match.hands[other]):
                assert f'"{card_str(card)}"' not in text, (seat, other, card_str(card))


def check_undo(match: Match, action: int, timeout: bool) -> None:
    before = snapshot(match)
    if timeout:
        done = match.apply_timeout()
    else:
        match.apply(action)
        done = action
    after = snapshot(match)
    assert match.undo() == done
    assert snapshot(match) == before
    if timeout:
        match.apply_timeout()
    else:
        match.apply(action)
    assert snapshot(match) == after


def check_clone(match: Match, rng: random.Random, timeouts: bool) -> None:
    before = snapshot(match)
    copy = match.clone()
    assert snapshot(copy) == before
    for _ in range(rng.randrange(1, 30)):
        if copy.is_over():
            break
        step(copy, rng, timeouts)
    assert snapshot(match) == before
    # The same actions on two clones give the same match.
    a, b = match.clone(), match.clone()
    for _ in range(rng.randrange(1, 70)):
        if a.is_over():
            break
        action = pick_action(a, rng)
        a.apply(action)
        b.apply(action)
    assert snapshot(a) == snapshot(b)
    assert snapshot(match) == before


def replayed(match: Match, record: dict[str, Any]) -> Match:
    again = replay(record)
    if match.log and match.log[-1].actions[-1:] == [LOOK]:
        # A first bidder who looked at the cards but has not bid yet comes back looked
        # (the hand's "looked": true; before, it came back unlooked, offered blind nil).
        assert record["hands"][-1]["looked"] is True
        assert BLIND_NIL not in again.legal_actions()
    return again


def check_round_trip(match: Match) -> None:
    record = json.loads(json.dumps(match.to_record(names=[f"P{s}" for s in range(match.n)])))
    again = replayed(match, record)
    assert summary(again) == summary(match)
    assert again.to_record(names=record["names"]) == record
    assert [again.observation(s).to_json() for s in range(again.n)] == [
        match.observation(s).to_json() for s in range(match.n)
    ]


def play_checked(variant: Variant, seed: int, max_hands: int) -> Match:
    rng = random.Random(seed)
    match = Match(variant.rules(), rng=random.Random(seed ^ 0x5EED))
    checked = 0
    while not match.is_over() and len(match.results) < max_hands:
        assert match.phase in ("bid", "play")
        legal = match.legal_actions()
        assert legal, "no legal action before the end"
        assert legal == tuple(sorted(set(legal)))
        assert all(match.is_legal(a) for a in legal)
        r = rng.random()
        if r < 0.25:
            check_secrecy(match)
        if r < 0.08:
            bad = illegal_actions(match)
            action = bad[rng.randrange(len(bad))]
            assert not match.is_legal(action)
            with pytest.raises(IllegalAction):
                match.check(action)
            assert expect_illegal(match, action)
        if 0.08 <= r < 0.12:
            timeout = variant.timeouts and rng.random() < 0.5
            check_undo(match, pick_action(match, rng), timeout)
            continue
        if 0.12 <= r < 0.13:
            check_clone(match, random.Random(rng.random()), variant.timeouts)
        step(match, rng, variant.timeouts)
        while checked < len(match.results):
            check_finished_hand(match, checked)
            checked += 1
    if match.is_over():
        assert match.legal_actions() == ()
        assert match.current_player == -2
        for action in (0, 64, 65, 96, 97):
            expect_illegal(match, action)
    check_secrecy(match)
    check_round_trip(match)
    return match


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
@FAST
@given(seed=SEEDS)
def test_random_play_keeps_every_invariant(variant: Variant, seed: int) -> None:
    play_checked(variant, seed, max_hands=3)


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=8, deadline=None, database=None)
@given(seed=SEEDS)
def test_export_then_replay_mid_hand_gives_the_same_match(variant: Variant, seed: int) -> None:
    match = random_match(variant, seed, max_hands=2, partial=True)
    check_round_trip(match)
    again = replayed(match, match.to_record())
    assert again.current_player == match.current_player
    assert again.legal_actions() == match.legal_actions()
    assert again.hands == match.hands


@settings(max_examples=40, deadline=None, database=None)
@given(seed=SEEDS, index=st.integers(min_value=0, max_value=len(VARIANTS) - 1))
def test_undo_back_to_the_start_retraces_every_state(seed: int, index: int) -> None:
    variant = VARIANTS[index]
    rng = random.Random(seed)
    match = Match(variant.rules(), rng=random.Random(seed))
    states = [snapshot(match)]
    for _ in range(rng.randrange(1, 2 * match.n * match.hand_size)):
        if match.is_over():
            break
        step(match, rng, variant.timeouts)
        states.append(snapshot(match))
    states.pop()
    while states:
        match.undo()
        assert snapshot(match) == states.pop()
    with pytest.raises(IllegalAction):
        match.undo()


@settings(max_examples=60, deadline=None, database=None)
@given(seed=SEEDS, index=st.integers(min_value=0, max_value=len(VARIANTS) - 1))
def test_a_replayed_record_cut_anywhere_replays_its_prefix(seed: int, index: int) -> None:
    """Cutting a record's last hand short anywhere still replays, as the matching prefix."""
    variant = VARIANTS[index]
    match = random_match(variant, seed, max_hands=1)
    record = match.to_record()
    hand = record["hands"][0]
    rng = random.Random(seed)
    cut = rng.randrange(len(hand["plays"]) + 1)
    hand["plays"] = hand["plays"][:cut]
    hand["timeouts"] = [t for t in hand.get("timeouts", []) if t.get("play", 0) <= cut]
    if not hand["timeouts"]:
        del hand["timeouts"]
    del record["hands"][1:]
    try:
        short = replay(record)
    except RecordError as exc:  # pragma: no cover - would be a bug
        raise AssertionError(exc) from None
    assert len(short.log[0].plays) == cut
    assert short.results == (match.results[:1] if cut == match.n * match.hand_size else [])


@pytest.mark.parametrize("name", ["cardems", "cardgames-club", "game93", "cards4net"])
@settings(max_examples=5, deadline=None, database=None)
@given(seed=SEEDS)
def test_solo_play_under_a_partnership_profile_round_trips(name: str, seed: int) -> None:
    """A house rule (teams=None under a partnership profile) must not replay as partners."""
    variant = Variant(f"{name}-solo", name, {"teams": None})
    match = random_match(variant, seed, max_hands=2, partial=True)
    assert len(match.scores) == 4
    check_round_trip(match)


def test_an_observation_with_past_hands_survives_pickling() -> None:
    """The server sends observations to CPU worker processes: one with past hands' results
    (frozen dataclasses) must come back equal (the compiled build once failed here)."""
    import pickle
    import random

    from spades.engine import Match, profile

    m = Match(profile("cardgames-club"), rng=random.Random(5))
    while m.hand_number < 2:
        m.apply(m.legal_actions()[0])
    obs = m.observation(m.current_player)
    assert pickle.loads(pickle.dumps(obs)) == obs


def test_copies_of_a_match_share_nothing_a_timeout_changes() -> None:
    """A copy shares the hand's ``looked`` list with its match (never changed in place): the
    turn timer looking for a player, or taking that look back, leaves the other untouched."""
    from spades.engine import Match, profile

    rules = profile("cardems").replace(blind_nil=True, turn_timer=30)
    m = Match(rules, rng=random.Random(2))
    assert m.legal_actions() == (BLIND_NIL, LOOK)
    copy = m.clone()
    assert copy.looked is m.looked  # shared until one of them looks
    copy.apply_timeout()  # the timer looks, then bids
    assert m.legal_actions() == (BLIND_NIL, LOOK) and m.observation(m.turn).hand is None
    other = m.clone()
    with pytest.raises(IllegalAction):
        other.apply_timeout(BLIND_NIL)  # not what the timer does: it looks, and takes it back
    assert m.legal_actions() == other.legal_actions() == (BLIND_NIL, LOOK)
    assert m.observation(m.turn).hand is None
    assert m.bags is not copy.bags and m.scores is not copy.scores
