"""The engine's events: what each action caused, in order, agreeing with the match's state.

Hand-made deals pin the exact trick at which nils and contracts are decided under each rule
of counting; a property test plays random matches of every profile, player count, side
layout and option (timer included) and checks every event against the state and the score.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import SEEDS, VARIANTS, Variant, bid, few_examples, hand, pick_action, suit_deal
from hypothesis import given
from test_properties import trick_winner

from spades.engine import (
    BLIND_NIL,
    LOOK,
    BagWarning,
    BiddingClosed,
    BidMade,
    CardPlayed,
    ContractDecided,
    Event,
    HandDealt,
    HandScored,
    LookedAtCards,
    Match,
    MatchOver,
    NilDecided,
    Phase,
    SpadesBroken,
    SpadesError,
    TimedOut,
    TrickWon,
    profile,
    replay,
)
from spades.engine.cards import SUIT_OF

FAST = few_examples(5)


def play_out(match: Match) -> None:
    """The lowest legal card until the hand is over."""
    while match.phase == "play":
        match.apply(match.legal_actions()[0])


def of_type(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# Hand-made deals --------------------------------------------------------------------------


def test_events_of_a_whole_hand_in_order() -> None:
    # North (0) holds every spade, leads them and wins all 13 tricks.
    match = Match(profile("cardems"), dealer=3, events=True)
    match.deal(suit_deal())
    assert match.take_events() == [HandDealt(hand=1, dealer=3)]
    for b in (6, 1, 4, 1):
        match.apply(bid(b))
    assert match.take_events() == [
        BidMade(0, 6), BidMade(1, 1), BidMade(2, 4), BidMade(3, 1),
        BiddingClosed(contracts=(10, 2), leader=0),
    ]
    match.apply(match.legal_actions()[0])  # 2S: spades led from an all-spade hand
    assert match.take_events() == [CardPlayed(0, 39, 1), SpadesBroken(0, 39, 1)]
    for _ in range(3):
        match.apply(match.legal_actions()[0])
    events = match.take_events()
    assert [type(e) for e in events] == [CardPlayed, CardPlayed, CardPlayed, TrickWon]
    won = events[-1]
    assert won == TrickWon(winner=0, trick=1, cards=((0, 39), (1, 26), (2, 13), (3, 0)),
                           card=39, taken=1)
    play_out(match)
    events = match.take_events()
    decided = [e for e in events if isinstance(e, (ContractDecided, NilDecided))]
    # North-South reach 10 at trick 10; East-West (2) cannot reach 2 after trick 12.
    assert decided == [ContractDecided(0, True, 10, 10, 10), ContractDecided(1, False, 2, 0, 12)]
    scored = of_type(events, HandScored)
    assert len(scored) == 1 and scored[0].hand == 1
    ns, ew = scored[0].sides
    assert (ns.contract_points, ns.overtrick_points, ns.points, ns.score, ns.bags) == (
        100, 3, 103, 103, 3)
    assert (ew.made, ew.contract_points, ew.points) == (False, -20, -20)
    assert isinstance(events[-1], HandScored)  # no warning, not over, no rng: no deal yet
    assert match.phase is Phase.DEAL and match.phase == "deal"


def test_nil_made_at_the_last_trick_and_broken_at_the_first_trick_won() -> None:
    match = Match(profile("cardgames-club"), dealer=3, events=True)
    match.deal(suit_deal())
    for b in (6, 0, 4, 1):  # East (1) bids nil holding hearts: never wins a trick
        match.apply(bid(b))
    play_out(match)
    nils = of_type(match.take_events(), NilDecided)
    assert nils == [NilDecided(1, True, False, 13)]

    match = Match(profile("cardgames-club"), dealer=3, events=True)
    match.deal(suit_deal())
    for b in (0, 1, 4, 1):  # North bids nil holding every spade: broken at trick 1
        match.apply(bid(b))
    play_out(match)
    events = match.take_events()
    assert of_type(events, NilDecided) == [NilDecided(0, False, False, 1)]
    # Failed-nil tricks do not count here: South's 4 (South never wins) is set once 4
    # tricks can no longer be taken, after trick 10.
    assert of_type(events, ContractDecided)[0] == ContractDecided(0, False, 4, 0, 10)


def test_failed_nil_tricks_count_toward_the_contract_under_cardems() -> None:
    match = Match(profile("cardems"), dealer=3, events=True)
    match.deal(suit_deal())
    for b in (0, 1, 4, 1):  # North nil, South 4: North's tricks count (cardems)
        match.apply(bid(b))
    play_out(match)
    events = match.take_events()
    # the close of the bidding names the Nil, which North and South's contract of 4 hides
    closed = of_type(events, BiddingClosed)[0]
    assert closed == BiddingClosed((4, 2), 0, nils=(0,))
    assert closed.to_json() == {"type": "bidding_closed", "contracts": [4, 2], "leader": 0,
                                "nils": [0], "blind_nils": []}
    assert of_type(events, NilDecided) == [NilDecided(0, False, False, 1)]
    assert of_type(events, ContractDecided)[0] == ContractDecided(0, True, 4, 4, 4)


def test_a_contract_larger_than_the_hand_is_set_when_bidding_closes() -> None:
    match = Match(profile("cardgames-club"), dealer=3, events=True)
    match.deal(suit_deal())
    for b in (7, 1, 7, 1):
        match.apply(bid(b))
    events = match.take_events()
    assert events[-2:] == [BiddingClosed((14, 2), 0), ContractDecided(0, False, 14, 0, 0)]
    play_out(match)
    assert [e.side for e in of_type(match.take_events(), ContractDecided)] == [1]


def test_a_side_of_nil_bidders_has_no_contract_event() -> None:
    match = Match(profile("cardems"), dealer=3, events=True)
    match.deal(suit_deal())
    for b in (6, 0, 4, 0):
        match.apply(bid(b))
    play_out(match)
    events = match.take_events()
    assert [e.side for e in of_type(events, ContractDecided)] == [0]
    assert of_type(events, HandScored)[0].sides[1].contract == 0


def test_blind_nil_look_and_timeout_events() -> None:
    rules = profile("cards4net", turn_timer=20)
    match = Match(rules, dealer=3, events=True)
    match.deal(suit_deal())
    match.take_events()
    match.apply(BLIND_NIL)
    match.apply_timeout()  # East has not bid: the timer bids for them
    events = match.take_events()
    assert events[0] == BidMade(0, 0, True)
    timed = events[1]
    assert isinstance(timed, TimedOut) and timed.seat == 1 and timed.side == 1
    assert (timed.penalty_bags, timed.bags, timed.penalty_points) == (1, 1, 0)
    assert isinstance(events[2], BidMade) and events[2].seat == 1
    assert events[2].bid == timed.action - bid(0) > 0
    assert timed.to_json()["action"] == events[2].bid
    match.apply(bid(0))  # South a Nil as well, West 3: North and South bid no trick
    match.apply(bid(3))
    closed = of_type(match.take_events(), BiddingClosed)
    assert closed == [BiddingClosed((0, events[2].bid + 3), 0, nils=(2,), blind_nils=(0,))]


def test_a_timer_that_looks_for_the_player_says_so() -> None:
    rules = profile("cards4net", turn_timer=20)
    match = Match(rules, dealer=3, events=True)
    match.deal(suit_deal())
    match.take_events()
    match.apply_timeout()
    events = match.take_events()
    assert [type(e) for e in events] == [TimedOut, LookedAtCards, BidMade]


def test_a_timer_bag_counts_and_the_hand_end_warns() -> None:
    rules = profile("cards4net", turn_timer=20, bag_limit=3)
    match = Match(rules, dealer=3, events=True)
    match.deal(suit_deal())
    match.take_events()
    match.apply(LOOK)
    match.apply_timeout()
    events = match.take_events()
    assert of_type(events, TimedOut)[0].bags == 1 and of_type(events, BagWarning) == []
    while match.phase == "bid":
        match.apply(match.legal_actions()[-1])
    play_out(match)
    # Both contracts are set (everyone else bid 13): no new bag; North-South keep the
    # timer's bag, 2 from the penalty at a limit of 3. East-West, with no bags, are not
    # warned: at a limit of 3 a side with no bags would be warned every hand.
    events = match.take_events()
    assert of_type(events, HandScored)[0].sides[0].timer_bags == 1
    assert of_type(events, BagWarning) == [BagWarning(0, 1, 2)]
    assert isinstance(events[-1], BagWarning)


def test_match_over_ends_the_events_and_recording_does_not_change_the_game() -> None:
    rules = profile("game93", one_hand=True)
    quiet = Match(rules, rng=random.Random(5))
    loud = Match(rules, rng=random.Random(5), events=True)
    rng = random.Random(9)
    while not quiet.is_over():
        action = rng.choice(quiet.legal_actions())
        quiet.apply(action)
        loud.apply(action)
    assert loud.to_record() == quiet.to_record() and quiet.events is None
    events = loud.take_events()
    assert isinstance(events[-1], MatchOver) and events[-1].winner == loud.winner
    assert events[-1].scores == tuple(loud.scores)
    assert loud.take_events() == []


def test_recording_is_asked_for() -> None:
    match = Match(profile("cardems"), rng=random.Random(3))
    with pytest.raises(SpadesError, match="does not record events"):
        match.take_events()
    match.apply(match.legal_actions()[0])
    match.record_events()
    match.apply(match.legal_actions()[0])
    assert [type(e) for e in match.take_events()] == [BidMade]
    match.record_events(False)
    assert match.events is None


def test_clones_record_nothing_and_undo_tells_nothing() -> None:
    match = Match(profile("cardems"), rng=random.Random(3), events=True)
    match.take_events()
    for _ in range(10):
        match.apply(match.legal_actions()[0])
    copy = match.clone()
    assert copy.events is None
    copy.apply(copy.legal_actions()[0])
    assert copy.events is None
    match.take_events()
    match.undo()
    assert match.take_events() == []
    match.apply(match.legal_actions()[0])
    assert [type(e) for e in match.take_events()] == [CardPlayed]


def test_events_to_json_spell_cards_and_bids_as_records() -> None:
    assert TrickWon(2, 3, ((1, 0), (2, 51)), 51, 2).to_json() == {
        "type": "trick", "winner": 2, "trick": 3, "cards": [[1, "2C"], [2, "AS"]],
        "card": "AS", "taken": 2}
    assert BidMade(1, 0, True).to_json() == {"type": "bid", "seat": 1, "bid": "blind-nil"}
    assert BidMade(1, 0).to_json()["bid"] == "nil"
    assert BidMade(1, 4).to_json()["bid"] == 4
    assert TimedOut(1, bid(3), 1, 1, 4, 0).to_json()["action"] == 3
    assert TimedOut(1, 51, 1, 1, 4, 0).to_json()["action"] == "AS"
    assert MatchOver(None, (10, 10)).to_json() == {"type": "match_over", "winner": None,
                                                   "scores": [10, 10]}
    with pytest.raises(AttributeError):
        BidMade(1, 4).bid = 5  # type: ignore[misc]


def test_a_given_deal_of_spades_broken_by_trumping() -> None:
    rules = profile("game93")  # broken only by trumping
    masks = [hand("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"), *suit_deal()[1:]]
    match = Match(rules, dealer=3, events=True)
    match.deal(masks)
    for b in (6, 1, 4, 1):
        match.apply(bid(b))
    play_out(match)
    assert of_type(match.take_events(), SpadesBroken) == []  # led, never trumped


# The property -----------------------------------------------------------------------------


def contract_decision(rules_sides: tuple[tuple[int, ...], ...], side: int, bids: tuple[int, ...],
                      winners: list[int], count_nil: bool, size: int) -> tuple[bool, int] | None:
    """``(made, trick)`` of a side's contract, worked out from the trick winners alone."""
    seats = rules_sides[side]
    contract = sum(bids[s] for s in seats if bids[s] > 0)
    if contract == 0:
        return None
    counted = 0
    for t in range(size + 1):
        if t:
            w = winners[t - 1]
            if w in seats and (bids[w] > 0 or count_nil):
                counted += 1
        if counted >= contract:
            return True, t
        if counted + size - t < contract:
            return False, t
    raise AssertionError("a contract is always decided by the last trick")


def play_recorded(variant: Variant, seed: int, max_hands: int) -> tuple[Match, list[tuple[int, Event]]]:
    """A random match that records events: ``(match, [(hand number, event)])``, checking
    that each action's events start with that action."""
    rng = random.Random(seed)
    match = Match(variant.rules(), rng=random.Random(seed * 7919 + 1), events=True)
    out: list[tuple[int, Event]] = [(match.hand_number, e) for e in match.take_events()]
    while not match.is_over() and len(match.results) < max_hands:
        hand_now = match.hand_number
        seat = match.current_player
        phase = match.phase
        if variant.timeouts and rng.random() < 0.04:
            action = match.apply_timeout()
            kind = "timeout"
        else:
            action = pick_action(match, rng)
            match.apply(action)
            kind = "act"
        events = match.take_events()
        # The first events are about this action, by this seat.
        first = events[0]
        if kind == "timeout":
            assert isinstance(first, TimedOut) and first.seat == seat and first.action == action
        elif action == LOOK:
            assert first == LookedAtCards(seat)
        elif phase == "bid":
            assert isinstance(first, BidMade) and first.seat == seat
        else:
            assert isinstance(first, CardPlayed) and (first.seat, first.card) == (seat, action)
        for e in events:
            if isinstance(e, HandDealt):
                hand_now = e.hand
            out.append((hand_now, e))
    return match, out


def check_hand_events(match: Match, index: int, events: list[Event]) -> None:
    """Hand ``index`` (0-based) is scored: its events agree with its log and its result."""
    rules = match.rules
    n, size = rules.players, rules.hand_size
    log = match.log[index]
    result = match.results[index]
    assert events[0] == HandDealt(index + 1, log.dealer)
    bids = of_type(events, BidMade)
    assert [b.seat for b in bids] == [(log.dealer + 1 + i) % n for i in range(n)]
    assert tuple(b.bid for b in sorted(bids, key=lambda b: b.seat)) == result.bids
    assert tuple(b.blind for b in sorted(bids, key=lambda b: b.seat)) == result.blind
    closed = of_type(events, BiddingClosed)
    assert len(closed) == 1 and closed[0].leader == (log.dealer + 1) % n
    assert closed[0].nils == tuple(
        s for s in range(n) if result.bids[s] == 0 and not result.blind[s])
    assert closed[0].blind_nils == tuple(s for s in range(n) if result.blind[s])
    # Plays and tricks, against an independent count of the trick winners.
    plays = of_type(events, CardPlayed)
    assert [p.card for p in plays] == log.plays
    tricks = of_type(events, TrickWon)
    assert len(tricks) == size
    leader = (log.dealer + 1) % n
    winners = []
    taken = [0] * n
    for t, won in enumerate(tricks, start=1):
        cards = tuple(((leader + i) % n, c) for i, c in enumerate(log.plays[(t - 1) * n:t * n]))
        assert won.trick == t and won.cards == cards
        assert [(p.seat, p.card, p.trick) for p in plays[(t - 1) * n:t * n]] == [
            (s, c, t) for s, c in cards]
        leader = trick_winner(list(cards))
        taken[leader] += 1
        assert won.winner == leader and dict(cards)[leader] == won.card
        assert won.taken == taken[leader]
        winners.append(leader)
    assert tuple(taken) == result.tricks
    # Spades broken: once at most, by the first spade (or the first trump on another suit).
    broken = of_type(events, SpadesBroken)
    breakers = [(s, c) for won in tricks for i, (s, c) in enumerate(won.cards)
                if SUIT_OF[c] == 3 and (rules.spades_break == "any"
                                        or SUIT_OF[won.cards[0][1]] != 3)]
    assert [(b.seat, b.card) for b in broken] == breakers[:1]
    # Nils: one event each, at the first trick won (broken) or the last trick (made).
    nils = of_type(events, NilDecided)
    nil_seats = [s for s in range(n) if result.bids[s] == 0]
    assert sorted(e.seat for e in nils) == nil_seats
    for e in nils:
        assert e.made == (result.tricks[e.seat] == 0)
        assert e.blind == result.blind[e.seat]
        assert e.trick == (size if e.made else winners.index(e.seat) + 1)
    # Contracts: one event per side with a contract, decided where the count says.
    contracts = of_type(events, ContractDecided)
    expected = {}
    for k in range(len(rules.sides)):
        d = contract_decision(rules.sides, k, result.bids, winners,
                              rules.failed_nil_tricks_count, size)
        if d is not None:
            expected[k] = d
            assert result.sides[k].made == d[0]
    assert {e.side: (e.made, e.trick) for e in contracts} == expected
    assert len(contracts) == len(expected)
    for e in contracts:
        assert e.contract == result.sides[e.side].contract
        assert closed[0].contracts[e.side] == e.contract
    # Decisions come right after the trick that decides them.
    for i, e in enumerate(events):
        if isinstance(e, (NilDecided, ContractDecided)) and e.trick > 0:
            before = [x for x in events[:i] if isinstance(x, TrickWon)]
            assert before[-1].trick == e.trick
    # The score, part by part.
    scored = of_type(events, HandScored)
    assert len(scored) == 1 and scored[0].hand == index + 1
    for k, side in enumerate(scored[0].sides):
        assert side.side == k
        assert side.points == result.points[k] and side.score == result.scores[k]
        assert side.bags == result.bags[k] and side.timer_bags == result.timeout_bags[k]
        assert side.made == result.sides[k].made and side.contract == result.sides[k].contract
        assert side.tricks == result.sides[k].contract_tricks
        parts = (side.contract_points + side.overtrick_points + side.nil_points
                 + side.bonus_points + side.loose_trick_points + side.bag_penalty_points
                 + side.timer_penalty_points)
        assert parts == side.points
    # Timeouts: one event per timed-out action of the log.
    assert len(of_type(events, TimedOut)) == len(log.timeouts)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])
@FAST
@given(seed=SEEDS)
def test_events_agree_with_the_match(variant: Variant, seed: int) -> None:
    match, events = play_recorded(variant, seed, max_hands=3)
    by_hand: dict[int, list[Event]] = {}
    for h, e in events:
        by_hand.setdefault(h, []).append(e)
    for index in range(len(match.results)):
        check_hand_events(match, index, by_hand[index + 1])
        warnings = of_type(by_hand[index + 1], BagWarning)
        after_scored = by_hand[index + 1][
            by_hand[index + 1].index(of_type(by_hand[index + 1], HandScored)[0]):]
        ending = [w for w in after_scored if isinstance(w, BagWarning)]
        if index + 1 == len(match.results) and match.is_over():
            assert ending == []
        else:
            limit = match.rules.bag_limit
            assert [(w.side, w.bags) for w in ending] == [
                (k, b) for k, b in enumerate(match.results[index].bags)
                if b > 0 and 0 < limit - b <= 3 and match.rules.bag_penalty]
        assert all(0 < w.left <= 3 for w in warnings)
    over = [e for _, e in events if isinstance(e, MatchOver)]
    if match.is_over():
        assert len(over) == 1 and events[-1][1] == over[0] and over[0].winner == match.winner
    else:
        assert over == []
    # Replaying the record with events gives the same events, except that a record does
    # not say whether a player looked before the timer bid for them or the timer looked.
    again = replay(match.to_record(), events=True)
    assert timer_looks([e for _, e in events]) == again.take_events()


def timer_looks(events: list[Event]) -> list[Event]:
    """A look followed by the timer's bid for the same seat, as the timer looking for them
    (``timer``: the record does not tell them apart)."""
    out = list(events)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if isinstance(a, LookedAtCards) and isinstance(b, TimedOut) and a.seat == b.seat:
            out[i:i + 2] = [b, LookedAtCards(a.seat, timer=True)]
    return out
