"""What a CPU learns about the other seats during a match, from public information only.

Once a hand is scored every card of it has been played, so each seat's whole hand and every
play it made are public (:attr:`Observation.past_deals`, :attr:`Observation.past_actions`).
From the hands scored so far, :func:`seat_models` estimates for each other seat:

* how it bids: the mean of (its number bid − the tricks its hand was worth, by
  :func:`~spades.bots.policy.estimate_tricks`), shrunk towards zero over few hands;
* how boldly it bids Nil: the mean Nil risk (:func:`~spades.bots.policy.nil_risk`) of the
  hands it bid Nil on, and how many of those Nils it made;
* whether it covers a Nil partner: when its Nil partner was winning a trick of a suit it
  lacked, and it could trump or discard, did it trump?
* how it follows suit: with a choice of cards in the suit led, how often it played its
  highest.

A :class:`SeatModel` then changes three things in the search of the ``expert`` level: the
weight of a sampled deal (a seat that overbids by a trick is read as holding a trick less
than its bid says; a reckless Nil bidder's Nil says less about its hand), the bids of seats
still to bid in a play-out (shifted by the seat's habit, Nil as boldly as it bids them), and
its card play in the play-outs (no cover for a Nil partner, the highest card when
following). The search's own choices follow from those: bidding around a partner who
overbids, bidding more when a partner underbids, covering or giving up a partner's Nil, and
the bags it expects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from spades.bots.human import shift_bid
from spades.bots.policy import choose_bid, estimate_tricks, nil_risk, play_card
from spades.engine import Observation
from spades.engine.actions import BID_BASE, NIL
from spades.engine.cards import SPADE_MASK, SUIT_MASKS, SUIT_OF, highest, iter_cards
from spades.engine.handstate import BID, PLAY, HandState

#: Pseudo-hands of "bids as estimated" mixed into a seat's bid offset (shrinkage).
OFFSET_PRIOR: Final = 2.0
#: The mean (bid − estimate) of the intermediate level's number bids, what play-outs assume.
BASE_OFFSET: Final = -0.2
#: A seat's bids in play-outs move by its rounded offset once it is at least this far off.
SHIFT_AT: Final = 0.5
#: The Nil risk the bid evidence assumes a Nil bidder accepts (see infer.bid_log_likelihood).
BASE_NIL_RISK: Final = 1.2
#: How far from its hand's worth the bid evidence assumes a number bid may be (standard
#: deviation, in tricks), and the pseudo-hands of it mixed into a seat's own spread.
BASE_BID_SD: Final = 1.6
SD_PRIOR: Final = 2.0
#: With ``read_spread``: how far seats' habits differ (tricks; sets how much a seat's mean
#: offset is shrunk towards the usual one).
HABIT_SD: Final = 1.0
#: Follow-suit choices needed before a seat is modelled as playing its highest card, and the
#: share of highest cards that makes it so.
FOLLOW_MIN: Final = 6
FOLLOW_HIGH: Final = 0.85
#: Chances to overtake a winning Nil partner needed before a seat is modelled as not
#: covering, and the share of covers below which it is.
COVER_MIN: Final = 2
COVER_LOW: Final = 0.5


@dataclass
class SeatStats:
    """Counts over the scored hands of a match, for one seat."""

    number_bids: int = 0
    offset_sum: float = 0.0
    offset_sq_sum: float = 0.0
    nils: int = 0
    nils_made: int = 0
    nil_risk_sum: float = 0.0
    follow_choices: int = 0
    follow_highest: int = 0
    cover_chances: int = 0
    covers: int = 0

    def add(self, o: SeatStats) -> None:
        self.number_bids += o.number_bids
        self.offset_sum += o.offset_sum
        self.offset_sq_sum += o.offset_sq_sum
        self.nils += o.nils
        self.nils_made += o.nils_made
        self.nil_risk_sum += o.nil_risk_sum
        self.follow_choices += o.follow_choices
        self.follow_highest += o.follow_highest
        self.cover_chances += o.cover_chances
        self.covers += o.covers


@dataclass(frozen=True)
class SeatModel:
    """How the search models one seat (the defaults: as the intermediate level plays)."""

    bid_offset: float = 0.0  # its number bids minus what its hands were worth, on average
    bid_shift: int = 0  # tricks added to the intermediate bid in play-outs
    nil_risk: float = BASE_NIL_RISK  # the Nil risk it accepts
    nil_boldness: float = 0.0  # added to the intermediate level's Nil limit in play-outs
    high_follower: bool = False  # plays its highest card when it can follow suit
    no_cover: bool = False  # does not overtake a winning Nil partner
    bid_sd: float = BASE_BID_SD  # how far its number bids stray from its offset
    #: Tricks added to the intermediate bid in play-outs on average, when not 0 (in place of
    #: ``bid_shift``): its whole part always, one more in that fraction of the play-outs.
    bid_drift: float = 0.0

    @property
    def plain_play(self) -> bool:
        return not (self.high_follower or self.no_cover)


PLAIN: Final = SeatModel()


def model_of(st: SeatStats, read_spread: bool = False) -> SeatModel:
    """The model of a seat from its counts; with ``read_spread`` its bids are read as
    closely as it has been seen to keep to its habit (a seat whose bids stray by a third of a
    trick is believed more than one that strays by two tricks)."""
    n = st.number_bids
    if read_spread:
        sd = BASE_BID_SD
        if n:
            mean = st.offset_sum / n
            spread = max(0.0, st.offset_sq_sum - n * mean * mean)
            sd = math.sqrt((SD_PRIOR * BASE_BID_SD ** 2 + spread) / (SD_PRIOR + n))
        # Shrunk towards the usual offset by as many pseudo-hands as the seat's own spread
        # makes its mean uncertain; in play-outs its bids move by that much on average.
        prior = (sd / HABIT_SD) ** 2
        offset = (st.offset_sum + prior * BASE_OFFSET) / (n + prior)
        rel = offset - BASE_OFFSET
        return _model(st, offset, 0, sd, rel)
    offset = st.offset_sum / (n + OFFSET_PRIOR)
    rel = offset - BASE_OFFSET * n / (n + OFFSET_PRIOR)
    return _model(st, offset, round(rel) if abs(rel) >= SHIFT_AT else 0, BASE_BID_SD)


def _model(st: SeatStats, offset: float, shift: int, sd: float, rel: float = 0.0
           ) -> SeatModel:
    risk = BASE_NIL_RISK
    if st.nils:
        risk = max(BASE_NIL_RISK, (st.nil_risk_sum + BASE_NIL_RISK) / (st.nils + 1))
    boldness = max(0.0, risk - 1.6)
    high = (st.follow_choices >= FOLLOW_MIN
            and st.follow_highest >= FOLLOW_HIGH * st.follow_choices)
    no_cover = st.cover_chances >= COVER_MIN and st.covers < COVER_LOW * st.cover_chances
    return SeatModel(offset, shift, risk, boldness, high, no_cover, sd, rel)


def hand_stats(obs: Observation, index: int) -> list[SeatStats]:
    """Each seat's counts from scored hand ``index`` of the match."""
    rules = obs.rules
    n = rules.players
    deal = obs.past_deals[index]
    result = obs.results[index]
    out = [SeatStats() for _ in range(n)]
    for seat in range(n):
        bid = result.bids[seat]
        if result.blind[seat]:
            continue
        st = out[seat]
        if bid > 0:
            st.number_bids += 1
            d = bid - estimate_tricks(deal[seat], rules)
            st.offset_sum += d
            st.offset_sq_sum += d * d
        elif rules.bidding not in ("mirror", "whiz", "suicide"):
            st.nils += 1
            st.nils_made += result.tricks[seat] == 0
            st.nil_risk_sum += nil_risk(deal[seat], rules)
    if rules.bidding in ("mirror", "whiz"):  # bids fixed by the spades held: no habit
        for st in out:
            st.number_bids = 0
            st.offset_sum = 0.0
            st.offset_sq_sum = 0.0
    owner: dict[int, int] = {}
    for seat, mask in enumerate(deal):
        for card in iter_cards(mask):
            owner[card] = seat
    held = list(deal)
    tricks = [0] * n
    trick: list[int] = []
    led = best = best_seat = -1
    for a in obs.past_actions[index]:
        if a >= BID_BASE:
            continue
        who = owner.get(a)
        if who is None:
            return out  # not this deal's card: leave the play alone
        if trick:
            suit_cards = held[who] & SUIT_MASKS[led]
            st = out[who]
            if suit_cards & (suit_cards - 1):
                st.follow_choices += 1
                st.follow_highest += a == highest(suit_cards)
            for m in rules.sides[rules.side_of[who]]:
                if (m != who and m == best_seat and result.bids[m] == 0 and tricks[m] == 0
                        and not suit_cards):  # following suit is counted above
                    overtake = held[who] & SPADE_MASK & ~((2 << best) - 1)
                    if overtake and held[who] & ~SPADE_MASK:
                        st.cover_chances += 1
                        st.covers += bool(overtake >> a & 1)
        else:
            led = SUIT_OF[a]
        if not trick or (a > best and (SUIT_OF[a] == led or a >= 39)):
            best, best_seat = a, who
        held[who] &= ~(1 << a)
        trick.append(a)
        if len(trick) == n:
            tricks[best_seat] += 1
            trick = []
    return out


class Tendencies:
    """Per-match memory of the other seats, rebuilt from each observation (hands already
    analysed are cached, so a bot at a server table that serves several matches stays
    right)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[tuple[int, ...], tuple[int, ...]], list[SeatStats]] = {}

    def models(self, obs: Observation, read_spread: bool = False) -> list[SeatModel] | None:
        """One model per seat (``PLAIN`` for the observer), or None before any hand is
        scored (``read_spread``: see :func:`model_of`)."""
        count = min(len(obs.past_deals), len(obs.past_actions), len(obs.results))
        if not count:
            return None
        n = obs.rules.players
        totals = [SeatStats() for _ in range(n)]
        if len(self._cache) > 400:
            self._cache.clear()
        for i in range(count):
            key = (obs.past_deals[i], obs.results[i].bids)
            stats = self._cache.get(key)
            if stats is None:
                stats = self._cache[key] = hand_stats(obs, i)
            for seat in range(n):
                totals[seat].add(stats[seat])
        return [PLAIN if seat == obs.seat else model_of(totals[seat], read_spread)
                for seat in range(n)]


def bold_nil(s: HandState, m: SeatModel) -> bool:
    """Whether a seat that bids Nil with risk about ``m.nil_risk`` on average bids Nil on
    the hand it holds in a play-out: risk up to twice its mean excess over the usual, and
    up to one and a half tricks more per point of excess than the usual 2.5."""
    seat = s.turn
    if any(s.bids[p] == 0 for p in s.sides[s.side_of[seat]] if p != seat):
        return False
    hand = s.hands[seat]
    excess = m.nil_risk - BASE_NIL_RISK
    return (nil_risk(hand, s.rules) <= 1.6 + 2 * excess
            and estimate_tricks(hand, s.rules) < 2.5 + 1.5 * excess)


def _unit(hand: int) -> float:
    """A number in [0, 1) that looks random across hands and is the same for one hand (so
    that a play-out stays a function of its deal)."""
    return ((hand * 0x9E3779B97F4A7C15) >> 24 & 0xFFFF) / 65536.0


def adapted_rollout(s: HandState, models: Sequence[SeatModel], stop: int = 0) -> None:
    """Play the hand out as :func:`~spades.bots.policy.rollout` does (``stop`` as there),
    each seat bidding and playing as its model says."""
    while s.phase is BID:
        m = models[s.turn]
        bid = choose_bid(s, nil_boldness=m.nil_boldness)
        if m.nil_boldness and bid != NIL and NIL in s.legal_bids() and bold_nil(s, m):
            bid = NIL
        elif m.bid_drift:
            whole = math.floor(m.bid_drift)
            step = whole + (_unit(s.hands[s.turn]) < m.bid_drift - whole)
            if step:
                bid = shift_bid(bid, step, s.legal_bids())
        elif m.bid_shift:
            bid = shift_bid(bid, m.bid_shift, s.legal_bids())
        s.bid_int(bid)
    while s.phase is PLAY:
        if s.left <= stop:
            return
        m = models[s.turn]
        if m.plain_play:
            s.play_int(play_card(s))
            continue
        hand = s.hands[s.turn]
        if m.high_follower and s.trick and hand & SUIT_MASKS[s.led]:
            s.play_int(highest(hand & SUIT_MASKS[s.led]))
            continue
        if m.no_cover:
            saved = s.bids[:]
            for mate in s.sides[s.side_of[s.turn]]:
                if mate != s.turn and s.bids[mate] == 0:
                    s.bids[mate] = -1
            card = play_card(s)
            s.bids = saved
            s.play_int(card)
            continue
        s.play_int(play_card(s))
