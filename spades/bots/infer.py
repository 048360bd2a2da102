"""Guessing the hidden hands: deals consistent with everything a seat has seen.

:func:`sample_deals` gives every other seat (and the observer too, before a blind-nil
decision) the right number of unseen cards, never a card of a suit that seat has shown it
lacks, and the exact spade count that Mirror and Whiz bids reveal. With ``evidence`` the
candidates are then weighted by how well each seat's bid fits the hand it would have held
(a Nil bid makes high cards unlikely, a bid of 5 makes a weak hand unlikely) and, with
``play_weight`` below 1, by the plays of this hand: ``play_weight`` to the power of the
number of plays by other seats that the intermediate level would not have made with the
deal's cards (:func:`play_mismatches`); then resampled.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spades.bots.policy import estimate_tricks, nil_risk, play_card
from spades.engine import IllegalAction, Observation, SpadesError, unseen_cards
from spades.engine.actions import whole_number
from spades.engine.cards import SPADE_MASK, SPADES, SUIT_MASKS, SUIT_OF
from spades.engine.errors import check_flag
from spades.engine.handstate import BID, PLAY, HandState, public_voids

if TYPE_CHECKING:
    from spades.bots.adapt import SeatModel


class _Infeasible(Exception):
    pass


def spade_requirements(obs: Observation) -> list[int | None]:
    """Trumps each seat must still hold, when its bid revealed its count (Mirror, Whiz)."""
    rules = obs.rules
    out: list[int | None] = [None] * rules.players
    if rules.bidding not in ("mirror", "whiz"):
        return out
    played = [0] * rules.players
    for seat, c in obs.plays:
        if c >= 39:
            played[seat] += 1
    for seat, bid in enumerate(obs.bids):
        if seat == obs.seat or bid is None or obs.blind[seat]:
            continue
        if rules.bidding == "mirror" or bid > 0:
            out[seat] = bid - played[seat]
    return out


def _deal_once(rng: random.Random, obs: Observation, sizes: list[int], voids: list[int],
               spades_needed: list[int | None], unseen: int) -> list[int]:
    n = len(sizes)
    hands = [0] * n
    room = sizes[:]
    spades = [c for c in range(64) if unseen >> c & 1 and c >= 39]
    rng.shuffle(spades)
    no_more_spades = 0
    for seat, need in enumerate(spades_needed):
        if need is None:
            continue
        if need < 0 or need > room[seat] or need > len(spades):
            raise _Infeasible
        for _ in range(need):
            c = spades.pop()
            hands[seat] |= 1 << c
        room[seat] -= need
        no_more_spades |= 1 << seat
    rest = [c for c in range(64) if unseen >> c & 1 and c < 39] + spades
    rng.shuffle(rest)
    allowed_by_suit = []
    for suit in range(4):
        allowed = [p for p in range(n) if room[p] > 0 and not voids[p] >> suit & 1
                   and not (suit == SPADES and no_more_spades >> p & 1)]
        allowed_by_suit.append(allowed)
    rest.sort(key=lambda c: len(allowed_by_suit[SUIT_OF[c]]))
    for c in rest:
        seats = [p for p in allowed_by_suit[SUIT_OF[c]] if room[p] > 0]
        if not seats:
            raise _Infeasible
        if len(seats) == 1:
            p = seats[0]
        else:
            total = sum(room[q] for q in seats)
            x = rng.random() * total
            for p in seats:
                x -= room[p]
                if x < 0:
                    break
        hands[p] |= 1 << c
        room[p] -= 1
    if any(room):
        raise _Infeasible
    return hands


def play_mismatches(obs: Observation, hands: list[int]) -> int:
    """How many of this hand's plays by the other seats differ from the intermediate
    level's card (:func:`~spades.bots.policy.play_card`) had ``hands`` been the deal: the
    hand is replayed from its first lead with each seat holding its sampled cards plus the
    cards it has played."""
    me = obs.seat
    full = hands[:]
    for seat, c in obs.plays:
        full[seat] |= 1 << c
    s = HandState.from_obs(obs, full)
    n = s.n
    s.played = 0
    s.trick = []
    s.tricks = [0] * n
    s.left = s.hand_size
    s.broken = False
    s.voids = [0] * n
    s.leader = s.turn = obs.plays[0][0]
    s.led = s.best = s.best_seat = s.win_mask = -1
    s.phase = PLAY
    misses = 0
    for k, (seat, c) in enumerate(obs.plays):
        if seat != me and play_card(s) != c:
            misses += 1
        try:
            s.play_int(c)
        except IllegalAction:  # a deal sampled without the voids (see sample_deals)
            return misses + len(obs.plays) - k
    return misses


def sample_deals(obs: Observation, rng: random.Random, count: object,
                 evidence: object = True,
                 models: Sequence[SeatModel] | None = None,
                 play_weight: float = 1.0) -> list[list[int]]:
    """``count`` guesses of every seat's cards (the observer's own hand as it is). With
    ``models`` (:mod:`spades.bots.adapt`) each seat's bid is read with its habits: a seat
    that overbids by a trick is taken to hold a trick less than its bid says.

    ``obs`` must be of a hand under way (bidding or play: else :class:`SpadesError`, as
    there is nothing to sample), ``rng`` a ``random.Random``, ``count`` a whole number 0 or
    more (numpy's integers too; a bool is refused) and ``evidence`` ``True`` or ``False``.
    (``count`` and ``evidence`` are typed ``object`` so that the compiled build checks them
    here too, in these words, rather than take ``True`` as 1.)"""
    if not isinstance(obs, Observation):
        raise TypeError(f"sample_deals takes an Observation (match.observation(seat)), "
                        f"not a {type(obs).__name__}")
    if obs.phase != BID and obs.phase != PLAY:
        raise SpadesError(f"sample_deals needs a hand under way (bidding or play), "
                          f"not phase {str(obs.phase)!r}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, like random.Random(7), not {rng!r}")
    wanted = whole_number(count)
    if wanted is None or wanted < 0:
        raise ValueError(f"count must be a whole number 0 or more, not {count!r}"[:200])
    weigh = check_flag("evidence", evidence)
    if wanted == 0:  # (with bids to weigh by, it asked max() of no weights)
        return []
    rules = obs.rules
    n = rules.players
    me = obs.seat
    unseen = unseen_cards(obs)
    sizes = list(obs.hand_sizes)
    known = obs.hand is not None
    if known:
        sizes[me] = 0
    voids = public_voids(obs)
    need = spade_requirements(obs)
    bid_evidence = weigh and rules.bidding in ("standard", "suicide") and any(
        b is not None and not bl and s != me
        for s, (b, bl) in enumerate(zip(obs.bids, obs.blind, strict=True)))
    play_evidence = weigh and play_weight < 1.0 and bool(obs.plays)
    use_evidence = bid_evidence or play_evidence
    log_play = math.log(play_weight) if play_evidence else 0.0
    pool = wanted * 3 if use_evidence else wanted
    out: list[list[int]] = []
    failures = 0
    while len(out) < pool:
        try:
            hands = _deal_once(rng, obs, sizes, voids, need, unseen)
        except _Infeasible:
            failures += 1
            if failures > 20 + 5 * pool:
                # Inconsistent evidence (it should not happen): drop the void constraints.
                voids = [0] * n
                need = [None] * n
            continue
        if known:
            hands[me] = obs.hand or 0
        out.append(hands)
    if not use_evidence:
        return out
    played_by = [0] * n
    for seat, c in obs.plays:
        played_by[seat] |= 1 << c
    weights = []
    for hands in out:
        log_w = play_mismatches(obs, hands) * log_play if play_evidence else 0.0
        for seat in range(n):
            if not bid_evidence:
                break
            bid = obs.bids[seat]
            if seat == me or bid is None or obs.blind[seat]:
                continue
            if models is None:
                log_w += bid_log_likelihood(hands[seat] | played_by[seat], bid, obs)
            else:
                m = models[seat]
                log_w += bid_log_likelihood(hands[seat] | played_by[seat], bid, obs,
                                            m.bid_offset, m.nil_risk, m.bid_sd)
        weights.append(log_w)
    top = max(weights)
    w = [math.exp(x - top) for x in weights]
    # Systematic resampling: low variance and deterministic given the rng.
    total = sum(w)
    step = total / wanted
    x = rng.random() * step
    chosen: list[list[int]] = []
    acc = 0.0
    for hands, weight in zip(out, w, strict=True):
        acc += weight
        while x < acc and len(chosen) < wanted:
            chosen.append(hands)
            x += step
    while len(chosen) < wanted:
        chosen.append(out[-1])
    return chosen


def bid_log_likelihood(hand: int, bid: int, obs: Observation, offset: float = 0.0,
                       nil_limit: float = 1.2, sd: float = 1.6) -> float:
    """Log of how likely a seat holding ``hand`` was to make ``bid`` (0 = Nil), for a
    seat whose number bids are ``offset`` tricks above its hands' worth on average, give
    or take ``sd``, and that bids Nil with a risk up to about ``nil_limit``."""
    if bid == 0:
        if obs.rules.bidding == "suicide":
            return 0.0
        risk = nil_risk(hand, obs.rules)
        excess = max(0.0, risk - nil_limit)
        return -excess * excess / 2.0
    est = estimate_tricks(hand, obs.rules)
    d = bid - offset - est
    return -d * d / (2 * sd * sd)


def spade_count(hand: int) -> int:
    return (hand & SPADE_MASK).bit_count()


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()
