"""One hand in progress, lean: the rules of bidding and play written once.

:class:`HandState` holds one hand of a match as card masks and small lists: every seat's
cards, the bids, who has looked at their cards, the open trick, the cards played, the
suits each seat is known to lack, whether spades are broken and the tricks taken. It knows
the legal bids and cards, who wins a trick, when spades break and how the hand scores.

:class:`~spades.engine.match.Match` is a hand state (it plays its hands on these very
rules, and adds the checks, the log, the events and the match around them). The bots
build one from an :class:`~spades.engine.observation.Observation` plus guessed hidden
hands (:meth:`HandState.from_obs`), clone it and play it out: :meth:`bid` does not check
legality (search only ever picks legal actions; ``Match.apply`` checks first). The search
calls :meth:`bid_int`, :meth:`play_int` and :meth:`apply_int`, which take a plain ``int``
without checking its type; :meth:`bid`, :meth:`play` and :meth:`apply` take any integer
type (numpy's) and refuse a bool, as ``Match.apply`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from numbers import Real
from typing import Final

from spades.engine.actions import BID_BASE, BLIND_NIL, LOOK, NIL, whole_number
from spades.engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    NON_SPADE_MASK,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    card_name,
    cards_of_int,
    count_spades,
)
from spades.engine.errors import IllegalAction
from spades.engine.observation import Observation
from spades.engine.phase import Phase
from spades.engine.rules import Rules
from spades.engine.scoring import SideScore, score_side_int

#: Every card numbered this or above is a trump (spades and jokers).
SPADE_LOW: Final = 39
#: The void bits of clubs, diamonds and hearts: a seat that led a spade before spades
#: were broken holds nothing else.
ALL_OTHER_SUITS: Final = 0b0111

# The phases again (the same objects as spades.engine.phase's), as finals: compiled, they are
# read from C statics rather than looked up in the module's dict at every use.
BID: Final[Phase] = Phase.BID
DEAL: Final[Phase] = Phase.DEAL
PLAY: Final[Phase] = Phase.PLAY


_AN_ACTION: Final = f"a card 0 to 53 or a bid {BID_BASE} to {LOOK}"
_A_BID: Final = f"a bid {BID_BASE} to {LOOK}"


def _whole_arg(value: object, name: str, what: str) -> int:
    """``value`` as an int if it is a whole number of any integer type (a numpy integer),
    else a :class:`TypeError` naming the argument: a bool (``True == 1`` is no card) or
    anything else."""
    number = whole_number(value)
    if number is None:
        raise TypeError(f"{name} must be a whole number ({what}), not {value!r}")
    return number


def _real_arg(value: object, name: str, like: str) -> float:
    """``value`` as a float if it is a number (an ``int``, a ``float``, numpy's), else a
    :class:`TypeError` naming the argument: a bool, text, ``None``, anything else. The slow
    path: the search passes floats, checked by ``type(value) is float`` before this."""
    if not isinstance(value, bool) and type(value).__name__ not in ("bool", "bool_"):
        if isinstance(value, (int, float)):
            return float(value)
        number = whole_number(value)  # a numpy integer
        if number is not None:
            return float(number)
        if isinstance(value, Real):  # a numpy float of another size
            return float(value)
    raise TypeError(f"{name} must be a number, like {like}, not {value!r}"[:200])


class HandState:
    """One hand: ``phase`` is BID, PLAY, or DEAL once the last trick is taken (the hand is
    over and the next one would be dealt)."""

    __slots__ = (
        "bags",
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
        "looked",
        "n",
        "num_bids",
        "phase",
        "played",
        "rules",
        "side_of",
        "sides",
        "trick",
        "tricks",
        "turn",
        "voids",
        "win_mask",
    )

    rules: Rules
    n: int
    side_of: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    hand_size: int
    break_any: bool
    deck: int  # the cards in play
    phase: Phase
    hands: list[int]  # card mask per seat
    bids: list[int]  # per seat, -1 until bid, 0 = Nil
    blind: list[bool]
    #: Per seat: has seen its cards. Never changed in place (replaced), so clones share it.
    looked: list[bool]
    num_bids: int
    tricks: list[int]  # per seat, this hand
    trick: list[int]  # the open trick's cards, from its leader on
    leader: int  # the seat that led the open trick, or leads next
    turn: int
    led: int  # the suit led, -1 between tricks
    best: int  # the card winning the open trick, -1 between tricks
    best_seat: int
    win_mask: int  # the cards that can win the open trick: the suit led and trumps
    broken: bool
    played: int  # mask of the cards played this hand
    voids: list[int]  # per seat: bit per suit the seat is known (publicly) to lack
    left: int  # tricks still to play
    #: Per side: the bag counters the hand is scored from. Never changed in place here.
    bags: list[int]

    def _start(self, rules: Rules) -> None:
        """Set the rules' constants and an empty hand (no cards, nobody to act)."""
        self.rules = rules
        self.n = rules.players
        self.side_of = rules.side_of
        self.sides = rules.sides
        self.hand_size = rules.hand_size
        self.break_any = rules.spades_break == "any"
        self.deck = rules.deck
        self.bags = [0] * len(rules.sides)
        self._new_hand([0] * rules.players, -1)

    def _new_hand(self, hands: list[int], first: int) -> None:
        """Every attribute of the hand afresh: ``hands`` dealt (the list is kept) and
        ``first`` to bid, not having looked at its cards when blind nil is allowed; or no
        hand at all (phase DEAL) when ``first`` is -1."""
        n = self.n
        self.hands = hands
        self.bids = [-1] * n
        self.blind = [False] * n
        self.looked = looked = [True] * n
        self.num_bids = 0
        self.tricks = [0] * n
        self.trick = []
        self.leader = -1
        self.turn = first
        self.led = -1
        self.best = self.best_seat = self.win_mask = -1
        self.broken = False
        self.played = 0
        self.voids = [0] * n
        self.left = self.hand_size
        if first < 0:
            self.phase = DEAL
            return
        self.phase = BID
        if self.rules.blind_nil:
            looked[first] = False

    @classmethod
    def new_hand(cls, rules: Rules, hands: Sequence[int], first: int,
                 bags: Sequence[int] | None = None) -> HandState:
        """A freshly dealt hand: ``hands`` per seat, ``first`` to bid (it has not looked at
        its cards yet when the rules allow blind nil), scored from ``bags`` (per side)."""
        s = cls.__new__(cls)
        s._start(rules)
        s._new_hand(list(hands), first)
        if bags is not None:
            s.bags = list(bags)
        return s

    @classmethod
    def from_obs(cls, obs: Observation, hands: Sequence[int]) -> HandState:
        """The observed hand with ``hands`` as every seat's cards (the observer's own hand
        among them; the others are guesses)."""
        if not isinstance(obs, Observation):
            raise TypeError(f"HandState.from_obs takes an Observation "
                            f"(match.observation(seat)), not a {type(obs).__name__}")
        s = cls.__new__(cls)
        rules = obs.rules
        s.rules = rules
        s.n = n = rules.players
        s.side_of = rules.side_of
        s.sides = rules.sides
        s.hand_size = rules.hand_size
        s.break_any = rules.spades_break == "any"
        s.deck = rules.deck
        given: object = hands  # (typed as given: compiled, a narrowed name is cast)
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise TypeError(f"hands: one card mask per seat ({n}), not {given!r}"[:200])
        raw: list[object] = list(given)  # (objects: compiled, a list[int] casts each)
        if len(raw) != n:
            raise ValueError(f"hands: one card mask per seat ({n}), not {len(raw)}")
        masks: list[int] = []
        for seat, m in enumerate(raw):  # (a check per seat, not per card)
            number = m if type(m) is int else whole_number(m)
            if number is None:
                raise TypeError(f"hands: seat {seat}: a hand must be a card mask (a whole "
                                f"number: mask_of(cards)), not {m!r}"[:200])
            if number < 0:
                raise ValueError(f"hands: seat {seat}: {number} is not a card mask: a mask is "
                                 f"0 or more")
            masks.append(number)
        s.hands = masks
        s.bids = [-1 if b is None else b for b in obs.bids]
        s.blind = list(obs.blind)
        s.looked = [True] * n
        if obs.hand is None:
            s.looked[obs.seat] = False
        s.tricks = list(obs.tricks)
        s.num_bids = sum(1 for b in obs.bids if b is not None)
        s.bags = list(obs.bags)
        played = 0
        for _, c in obs.plays:
            played |= 1 << c
        s.played = played
        s.voids = public_voids(obs)
        s.trick = [c for _, c in obs.trick]
        s.left = s.hand_size - (len(obs.plays) - len(obs.trick)) // n
        s.broken = obs.spades_broken
        s.turn = obs.current_player if obs.current_player >= 0 else obs.seat
        s.leader = obs.leader if obs.phase == PLAY else -1  # set when the bidding closes
        s.led = -1
        s.best = s.best_seat = s.win_mask = -1
        if obs.trick:
            s.leader = obs.trick[0][0]
            s.led = led = SUIT_OF[obs.trick[0][1]]
            s.win_mask = win = SUIT_MASKS[led] | SPADE_MASK
            for seat, c in obs.trick:
                if s.best < 0 or (c > s.best and win >> c & 1):
                    s.best, s.best_seat = c, seat
        phase = obs.phase
        s.phase = BID if phase == BID else PLAY if phase == PLAY else DEAL
        return s

    def clone(self) -> HandState:
        """An independent copy (the lists a play changes are copied, the rest shared)."""
        o = HandState.__new__(HandState)
        o._copy_hand(self)
        return o

    def _copy_hand(self, src: HandState) -> None:
        """Take ``src``'s hand (see :meth:`clone`; :class:`~spades.engine.match.Match`
        copies itself with it too): the lists a play changes are copied, the others shared
        (``looked`` is replaced, never changed in place; ``bags`` is not changed here)."""
        self.rules = src.rules
        self.n = src.n
        self.side_of = src.side_of
        self.sides = src.sides
        self.hand_size = src.hand_size
        self.break_any = src.break_any
        self.deck = src.deck
        self.phase = src.phase
        self.hands = src.hands[:]
        self.bids = src.bids[:]
        self.blind = src.blind[:]
        self.looked = src.looked
        self.num_bids = src.num_bids
        self.tricks = src.tricks[:]
        self.trick = src.trick[:]
        self.leader = src.leader
        self.turn = src.turn
        self.led = src.led
        self.best = src.best
        self.best_seat = src.best_seat
        self.win_mask = src.win_mask
        self.broken = src.broken
        self.played = src.played
        self.voids = src.voids[:]
        self.left = src.left
        self.bags = src.bags

    # Rules ------------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """The cards the seat to act may play (in the play phase): follow the suit led if
        possible; lead a spade only once spades are broken or nothing else is held."""
        hand = self.hands[self.turn]
        if self.trick:
            return hand & SUIT_MASKS[self.led] or hand
        if self.broken:
            return hand
        return hand & NON_SPADE_MASK or hand

    def legal_bids(self) -> tuple[int, ...]:
        """The bids the seat to act may make (in the bidding phase), ascending."""
        seat = self.turn
        rules = self.rules
        if not self.looked[seat]:
            return (BLIND_NIL, LOOK)
        if rules.bidding != "standard":
            held = count_spades(self.hands[seat])
            if rules.bidding == "mirror":
                return (BID_BASE + held,)
            if rules.bidding == "whiz":
                return (NIL,) if held == 0 else (NIL, BID_BASE + held)
            mates = [s for s in self.sides[self.side_of[seat]] if s != seat]  # suicide
            if any(self.bids[s] == 0 for s in mates):
                return tuple(range(BID_BASE + 1, BID_BASE + self.hand_size + 1))
            if all(self.bids[s] > 0 for s in mates):
                return (NIL,)
        low = 0 if rules.nil else 1
        return tuple(range(BID_BASE + low, BID_BASE + self.hand_size + 1))

    def legal_actions(self) -> tuple[int, ...]:
        """The actions allowed now, sorted ascending; empty when nobody is to act."""
        if self.phase is PLAY:
            hand = self.hands[self.turn]
            if self.trick:
                led = self.led
                follow = hand & SUIT_MASKS[led]
                if follow:
                    return _suit_cards(led, follow >> _SHIFT[led])
                legal = hand
            elif self.broken:
                legal = hand
            else:
                legal = hand & NON_SPADE_MASK or hand
            return (_suit_cards(CLUBS, legal & 0x1FFF) + _suit_cards(DIAMONDS, legal >> 13 & 0x1FFF)
                    + _suit_cards(HEARTS, legal >> 26 & 0x1FFF) + _suit_cards(SPADES, legal >> 39))
        if self.phase is BID:
            return self.legal_bids()
        return ()

    # Acting (unchecked) -----------------------------------------------------------------

    def bid(self, action: object) -> None:
        """The seat to act bids ``action`` (or LOOKs at its cards), not checked: give it a
        legal bid. An ``int``, or a whole number of another integer type (a numpy integer:
        anything ``operator.index`` takes) taken as that int; a bool or anything else is a
        :class:`TypeError` naming ``action``."""
        self.bid_int(action if type(action) is int else _whole_arg(action, "action", _A_BID))

    def bid_int(self, action: int) -> None:
        """:meth:`bid` for a plain ``int`` only, its type not checked: the search's hot path."""
        seat = self.turn
        if action >= BLIND_NIL:  # blind nil or LOOK: the seat has seen its cards
            looked = self.looked[:]
            looked[seat] = True
            self.looked = looked
            if action == LOOK:
                return
            self.bids[seat] = 0
            self.blind[seat] = True
        else:
            self.bids[seat] = action - BID_BASE
        self.num_bids += 1
        self.turn = seat + 1 if seat + 1 < self.n else 0
        if self.num_bids == self.n:
            self.phase = PLAY
            self.leader = self.turn

    def why_card_illegal(self, card: int) -> str:
        """Why the seat to act may not play ``card`` (0 to 53) now."""
        if not 0 <= card < 54:
            return f"{card} is not a card: cards are numbered 0 to 53"
        hand = self.hands[self.turn]
        if not hand >> card & 1:
            if self.played >> card & 1:
                return f"the {card_name(card)} has already been played"
            if not self.rules.deck >> card & 1:
                return f"the {card_name(card)} is not in this deck (no seat holds it)"
            return f"seat {self.turn} does not hold the {card_name(card)}"
        if self.trick:
            return (f"must follow suit: {SUIT_NAMES[self.led]} were led and seat {self.turn} "
                    f"holds {SUIT_NAMES[self.led]}")
        return "spades are not broken yet, and this hand holds cards of other suits"

    def play(self, card: object) -> bool:
        """The seat to act plays ``card`` (0 to 53); a full trick goes to its winner, who
        leads next, and after the last trick the phase is DEAL. True when the card completed
        a trick. A card the seat may not play raises :class:`IllegalAction`, changing
        nothing. ``card`` is an ``int``, or a whole number of another integer type (a numpy
        integer) played as that int; a bool or anything else is a :class:`TypeError`
        naming ``card``, changing nothing."""
        return self.play_int(card if type(card) is int
                             else _whole_arg(card, "card", "a card 0 to 53"))

    def play_int(self, card: int) -> bool:
        """:meth:`play` for a plain ``int`` only, its type not checked (a bool would be
        played as 0 or 1): the hot path of play and of search. A card the seat may not play
        (:meth:`legal_mask`, inlined here) raises :class:`IllegalAction`, changing nothing."""
        seat = self.turn
        hand = self.hands[seat]
        trick = self.trick
        if trick:
            legal = hand & SUIT_MASKS[self.led] or hand
        elif self.broken:
            legal = hand
        else:
            legal = hand & NON_SPADE_MASK or hand
        if card < 0 or not legal >> card & 1:
            raise IllegalAction(self.why_card_illegal(card))
        bit = 1 << card
        self.hands[seat] = hand ^ bit
        self.played |= bit
        if trick:
            if SUIT_OF[card] != self.led:
                self.voids[seat] |= 1 << self.led
            if card > self.best and self.win_mask >> card & 1:
                self.best = card
                self.best_seat = seat
        else:
            led = self.led = SUIT_OF[card]
            self.win_mask = SUIT_MASKS[led] | SPADE_MASK
            self.best = card
            self.best_seat = seat
        trick.append(card)
        if card >= SPADE_LOW and not self.broken:
            if len(trick) == 1:  # led a spade before spades were broken: holds nothing else
                self.voids[seat] |= ALL_OTHER_SUITS
                self.broken = self.break_any
            elif self.break_any or self.led != SPADES:  # trumped a side suit
                self.broken = True
        if len(trick) < self.n:
            self.turn = seat + 1 if seat + 1 < self.n else 0
            return False
        won = self.best_seat
        self.tricks[won] += 1
        self.leader = self.turn = won
        self.trick = []
        self.led = -1
        self.best = -1
        self.left -= 1
        if self.left == 0:
            self.phase = DEAL
        return True

    def apply(self, action: object) -> None:
        """Bid or play ``action`` (a bid unchecked, a card as :meth:`play` checks it): an
        ``int``, or a whole number of another integer type (a numpy integer) taken as that
        int; a bool or anything else is a :class:`TypeError` naming ``action``."""
        self.apply_int(action if type(action) is int
                       else _whole_arg(action, "action", _AN_ACTION))

    def apply_int(self, action: int) -> None:
        """:meth:`apply` for a plain ``int`` only, its type not checked: the search's hot
        path."""
        if action >= BID_BASE:
            self.bid_int(action)
        else:
            self.play_int(action)

    # Scoring ----------------------------------------------------------------------------

    def side_scores(self) -> list[tuple[SideScore, int]]:
        """Each side's score of the hand and its bag counter after it (from :attr:`bags`)."""
        rules = self.rules
        bids, blind, tricks, bags = self.bids, self.blind, self.tricks, self.bags
        return [score_side_int(rules, seats, bids, blind, tricks, bags[k])
                for k, seats in enumerate(self.sides)]

    def side_values(self, bag_weight: object = 0.5) -> list[float]:
        """Each side's points for the finished hand, with a bag's future cost spread evenly
        (``bag_weight`` × penalty / limit per new bag) instead of the lumpy penalty.
        ``bag_weight`` is a number (an ``int`` or a numpy number too); a bool, text or
        anything else is a :class:`TypeError` naming it. (Typed ``object`` so that the
        compiled build says so too; a ``float``, as the search passes, is taken at once.)"""
        weight = bag_weight if type(bag_weight) is float else _real_arg(
            bag_weight, "bag_weight", "0.5")
        rules = self.rules
        penalty = rules.bag_penalty
        cost = weight * penalty / rules.bag_limit
        return [sc.points + sc.penalties * penalty - cost * sc.new_bags
                for sc, _ in self.side_scores()]

    def utility(self, side: object, bag_weight: object = 0.5, rel: object = 1.0) -> float:
        """``side``'s value minus ``rel`` times the mean of the other sides' values.
        ``side`` is a side's number, 0 to ``len(rules.sides) - 1`` (of any integer type):
        another number is a :class:`ValueError`, a bool or anything else a
        :class:`TypeError`, naming it; ``bag_weight`` and ``rel`` are numbers, as for
        :meth:`side_values`."""
        sides = len(self.sides)
        k = side if type(side) is int else whole_number(side)
        if k is None:
            raise TypeError(f"side must be a whole number 0 to {sides - 1} (a side of "
                            f"rules.sides), not {side!r}"[:200])
        if not 0 <= k < sides:
            raise ValueError(f"side must be 0 to {sides - 1} (a side of rules.sides), "
                             f"not {k}")
        weight = rel if type(rel) is float else _real_arg(rel, "rel", "1.0")
        vals = self.side_values(bag_weight)
        mine = vals[k]
        others = (sum(vals) - mine) / (len(vals) - 1)
        return mine - weight * others


def public_voids(obs: Observation) -> list[int]:
    """Suits (bit per suit) each seat is known to lack, from the plays of this hand: a
    seat that did not follow suit, or led a spade before spades were broken (so holds only
    spades)."""
    if not isinstance(obs, Observation):
        raise TypeError(f"public_voids takes an Observation (match.observation(seat)), "
                        f"not a {type(obs).__name__}")
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


#: Per suit, indexed by the suit's bits of a mask shifted down (spades with the jokers, 15
#: bits): those cards in ascending order, filled on first use (``()`` until then). A list
#: read by index costs no hashing, which a dict of the same did on every legal_actions.
_SUIT_CARDS: Final[tuple[list[tuple[int, ...]], ...]] = tuple(
    [()] * (1 << width) for width in (13, 13, 13, 15))
_SHIFT: Final[tuple[int, ...]] = (0, 13, 26, 39)


def _suit_cards(suit: int, bits: int) -> tuple[int, ...]:
    """The cards of ``suit`` whose bits, shifted down to the suit, are ``bits``."""
    table = _SUIT_CARDS[suit]
    cards = table[bits]
    if not cards and bits:
        base = _SHIFT[suit]
        cards = table[bits] = tuple(base + c for c in cards_of_int(bits))
    return cards


__all__ = ["ALL_OTHER_SUITS", "SPADE_LOW", "HandState", "public_voids"]
