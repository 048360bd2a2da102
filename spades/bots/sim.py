"""A light hand simulator on raw card masks, for heuristics and search.

:class:`Sim` holds one hand (bidding and play) of a match: every seat's cards (real or
sampled), the bids, the open trick and what is public (cards played, known voids). It is
built from an :class:`~spades.engine.Observation` plus guessed hidden hands, so a bot never
needs the real hidden hands. It skips the legality checks and logs of :class:`Match`; the
policies only ever pick legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades.engine import BID_BASE, BLIND_NIL, NIL, Observation, Rules
from spades.engine.cards import NON_SPADE_MASK, SPADE_MASK, SPADES, SUIT_MASKS, SUIT_OF, count_spades
from spades.engine.scoring import score_side

_SPADE_LOW = 39
ALL_OTHER_SUITS = 0b0111  # clubs, diamonds, hearts


class Sim:
    """One hand in progress. ``phase`` is 0 (bidding), 1 (play) or 2 (scored)."""

    __slots__ = (
        "bags_before",
        "best",
        "best_seat",
        "bids",
        "blind",
        "break_any",
        "broken",
        "deck",
        "hand_size",
        "hands",
        "leader",
        "led",
        "left",
        "n",
        "nbids",
        "phase",
        "played",
        "rules",
        "side_of",
        "sides",
        "trick",
        "tricks",
        "turn",
        "voids",
    )

    rules: Rules
    n: int
    side_of: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    hand_size: int
    break_any: bool
    hands: list[int]
    bids: list[int]
    blind: list[bool]
    tricks: list[int]
    trick: list[int]
    leader: int
    turn: int
    led: int
    best: int
    best_seat: int
    broken: bool
    played: int
    voids: list[int]
    nbids: int
    left: int
    phase: int
    bags_before: tuple[int, ...]
    deck: int

    @classmethod
    def from_obs(cls, obs: Observation, hands: Sequence[int]) -> Sim:
        """The observed hand with ``hands`` as every seat's cards (the observer's own hand
        must be among them; the others are guesses)."""
        s = cls.__new__(cls)
        rules = obs.rules
        s.rules = rules
        s.n = n = rules.players
        s.side_of = rules.side_of
        s.sides = rules.sides
        s.hand_size = rules.hand_size
        s.break_any = rules.spades_break == "any"
        s.deck = rules.deck
        s.hands = list(hands)
        s.bids = [-1 if b is None else b for b in obs.bids]
        s.blind = list(obs.blind)
        s.tricks = list(obs.tricks)
        s.nbids = sum(1 for b in obs.bids if b is not None)
        s.bags_before = tuple(obs.bags)
        s.played = 0
        for _, c in obs.plays:
            s.played |= 1 << c
        s.voids = public_voids(obs)
        s.trick = [c for _, c in obs.trick]
        done = (len(obs.plays) - len(obs.trick)) // n
        s.left = s.hand_size - done
        s.broken = obs.spades_broken
        s.turn = obs.current_player if obs.current_player >= 0 else obs.seat
        s.leader = obs.leader
        s.led = -1
        s.best = s.best_seat = -1
        if obs.trick:
            s.leader = obs.trick[0][0]
            s.led = SUIT_OF[obs.trick[0][1]]
            win = SUIT_MASKS[s.led] | SPADE_MASK
            for seat, c in obs.trick:
                if s.best < 0 or (c > s.best and win >> c & 1):
                    s.best, s.best_seat = c, seat
        if obs.phase == "bid":
            s.phase = 0
        elif obs.phase == "play":
            s.phase = 1
        else:
            s.phase = 2
        return s

    def clone(self) -> Sim:
        o = Sim.__new__(Sim)
        o.rules = self.rules
        o.n = self.n
        o.side_of = self.side_of
        o.sides = self.sides
        o.hand_size = self.hand_size
        o.break_any = self.break_any
        o.deck = self.deck
        o.hands = self.hands[:]
        o.bids = self.bids[:]
        o.blind = self.blind[:]
        o.tricks = self.tricks[:]
        o.trick = self.trick[:]
        o.leader = self.leader
        o.turn = self.turn
        o.led = self.led
        o.best = self.best
        o.best_seat = self.best_seat
        o.broken = self.broken
        o.played = self.played
        o.voids = self.voids[:]
        o.nbids = self.nbids
        o.left = self.left
        o.phase = self.phase
        o.bags_before = self.bags_before
        return o

    # Rules --------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """Cards the seat to act may play."""
        hand = self.hands[self.turn]
        if self.trick:
            return hand & SUIT_MASKS[self.led] or hand
        if self.broken:
            return hand
        return hand & NON_SPADE_MASK or hand

    def legal_bids(self) -> tuple[int, ...]:
        """Bids the seat to act may make (blind nil offered to the first bidder when allowed;
        the simulator has no separate LOOK step)."""
        seat = self.turn
        rules = self.rules
        held = count_spades(self.hands[seat])
        if rules.bidding == "mirror":
            return (BID_BASE + held,)
        if rules.bidding == "whiz":
            return (NIL,) if held == 0 else (NIL, BID_BASE + held)
        first_blind = (BLIND_NIL,) if rules.blind_nil and self.nbids == 0 else ()
        if rules.bidding == "suicide":
            mates = [s for s in self.sides[self.side_of[seat]] if s != seat]
            if any(self.bids[s] == 0 for s in mates):
                return tuple(range(BID_BASE + 1, BID_BASE + self.hand_size + 1))
            if all(self.bids[s] > 0 for s in mates):
                return (NIL, *first_blind)
        low = 0 if rules.nil else 1
        return (*range(BID_BASE + low, BID_BASE + self.hand_size + 1), *first_blind)

    # Acting -------------------------------------------------------------------------

    def bid(self, action: int) -> None:
        seat = self.turn
        if action == BLIND_NIL:
            self.bids[seat] = 0
            self.blind[seat] = True
        else:
            self.bids[seat] = action - BID_BASE
        self.nbids += 1
        self.turn = (seat + 1) % self.n
        if self.nbids == self.n:
            self.phase = 1
            self.leader = self.turn

    def play(self, card: int) -> None:
        seat = self.turn
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        if trick:
            suit = SUIT_OF[card]
            if suit != self.led:
                self.voids[seat] |= 1 << self.led
            if card > self.best and (suit == self.led or card >= _SPADE_LOW):
                self.best = card
                self.best_seat = seat
        else:
            self.led = SUIT_OF[card]
            if card >= _SPADE_LOW and not self.broken and not (
                    self.hands[seat] | bit) & NON_SPADE_MASK:
                self.voids[seat] |= ALL_OTHER_SUITS
            self.best = card
            self.best_seat = seat
            self.leader = seat
        trick.append(card)
        if card >= _SPADE_LOW and not self.broken and (self.break_any or self.led != SPADES):
            self.broken = True
        if len(trick) < self.n:
            self.turn = seat + 1 if seat + 1 < self.n else 0
            return
        won = self.best_seat
        self.tricks[won] += 1
        self.leader = self.turn = won
        self.trick = []
        self.led = -1
        self.best = -1
        self.left -= 1
        if self.left == 0:
            self.phase = 2

    def apply(self, action: int) -> None:
        if action >= BID_BASE:
            self.bid(action)
        else:
            self.play(action)

    # Scoring ------------------------------------------------------------------------

    def side_values(self, bag_weight: float = 0.5) -> list[float]:
        """Each side's points for the finished hand, with a bag's future cost spread evenly
        (``bag_weight`` × penalty / limit per new bag) instead of the lumpy penalty."""
        rules = self.rules
        cost = bag_weight * rules.bag_penalty / rules.bag_limit
        out = []
        for k, seats in enumerate(self.sides):
            sc, _ = score_side(rules, seats, self.bids, self.blind, self.tricks,
                               self.bags_before[k])
            out.append(sc.points + sc.penalties * rules.bag_penalty - cost * sc.new_bags)
        return out

    def utility(self, side: int, bag_weight: float = 0.5, rel: float = 1.0) -> float:
        """``side``'s value minus ``rel`` times the mean of the other sides' values."""
        vals = self.side_values(bag_weight)
        mine = vals[side]
        others = (sum(vals) - mine) / (len(vals) - 1)
        return mine - rel * others


def public_voids(obs: Observation) -> list[int]:
    """Suits (bit per suit) each seat is known to lack, from the plays of this hand: a
    seat that did not follow suit, or led a spade before spades were broken (so holds only
    spades)."""
    n = obs.rules.players
    break_any = obs.rules.spades_break == "any"
    voids = [0] * n
    broken = False
    led = -1
    count = 0
    for seat, c in obs.plays:
        suit = SUIT_OF[c]
        if count == 0:
            led = suit
            if suit == SPADES and not broken:
                voids[seat] |= ALL_OTHER_SUITS
        elif suit != led:
            voids[seat] |= 1 << led
        if suit == SPADES and not broken and (break_any or led != SPADES):
            broken = True
        count = (count + 1) % n
    return voids


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def above(card: int) -> int:
    """Cards of the same suit stronger than ``card``."""
    return SUIT_MASKS[SUIT_OF[card]] & ~((2 << card) - 1)


def below(card: int) -> int:
    """Cards of the same suit weaker than ``card``."""
    return SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1)
