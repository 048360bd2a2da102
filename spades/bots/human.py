"""Models of people: the intermediate player with one fixed, known distortion.

They are arena players (``human:over`` and so on), made so that a partner who adapts can be
measured beside someone who plays unlike a bot. Each is the ``intermediate`` level except
for its one habit:

* ``over``: bids one trick more than the intermediate level would (a number bid only, where
  that bid is legal); Nil stays Nil.
* ``under``: bids one trick less (never below 1: it does not turn a bid into Nil).
* ``nilhappy``: bids Nil on every hand worth less than 3.5 tricks whose Nil risk is below
  4.5 (the intermediate level needs under 2.5 tricks and a risk of at most 1.6), unless its
  partner already bid Nil.
* ``nocover``: never protects a Nil partner, and plays its highest card of the suit led
  whenever it can follow suit.
* ``random-bids``: bids uniformly at random among the legal bids; plays as the intermediate
  level.
"""

from __future__ import annotations

from spades.bots.heuristic import IntermediateBot
from spades.bots.policy import choose_bid, estimate_tricks, nil_risk, play_card
from spades.engine import BID_BASE, BLIND_NIL, NIL, Observation
from spades.engine.cards import SUIT_MASKS, highest
from spades.engine.handstate import HandState

#: The models, by the name after ``human:``.
HUMAN_MODELS = ("over", "under", "nilhappy", "nocover", "random-bids")

#: ``nilhappy`` bids Nil on hands below this many estimated tricks ...
NILHAPPY_TRICKS = 3.5
#: ... whose Nil risk (:func:`spades.bots.policy.nil_risk`) is below this.
NILHAPPY_RISK = 4.5


class HumanBot(IntermediateBot):
    """The intermediate level with one habit of a person (see the module text)."""

    def __init__(self, model: str, seed: int | None = None) -> None:
        if model not in HUMAN_MODELS:
            raise ValueError(f"unknown human model {model!r}; choose one of "
                             f"{', '.join(HUMAN_MODELS)}")
        super().__init__(seed)
        self.model = model
        self.name = f"human:{model}"

    def _play(self, s: HandState) -> int:
        if self.model == "nocover":
            return nocover_card(s)
        return play_card(s)

    def _bid(self, s: HandState, obs: Observation, legal: tuple[int, ...]) -> int:
        model = self.model
        if model == "random-bids":
            return self.rng.choice(legal)
        base = choose_bid(s, obs.scores, legal)
        if model == "over":
            return shift_bid(base, +1, legal)
        if model == "under":
            return shift_bid(base, -1, legal)
        if model == "nilhappy":
            mates = [m for m in obs.sides[obs.my_side] if m != obs.seat]
            hand = obs.hand or 0
            if (NIL in legal and not any(obs.bids[m] == 0 for m in mates)
                    and estimate_tricks(hand, obs.rules) < NILHAPPY_TRICKS
                    and nil_risk(hand, obs.rules) < NILHAPPY_RISK):
                return NIL
        return base


def shift_bid(bid: int, step: int, legal: tuple[int, ...]) -> int:
    """A number bid moved by ``step`` tricks when that is legal and still a number bid;
    anything else (Nil, blind Nil, a shift out of range) unchanged."""
    if not BID_BASE < bid < BLIND_NIL:
        return bid
    moved = bid + step
    return moved if BID_BASE < moved < BLIND_NIL and moved in legal else bid


def nocover_card(s: HandState) -> int:
    """The highest card of the suit led when the seat can follow; otherwise the
    intermediate card, played as if its partner had not bid Nil."""
    hand = s.hands[s.turn]
    if s.trick and hand & SUIT_MASKS[s.led]:
        return highest(hand & SUIT_MASKS[s.led])
    side = s.side_of[s.turn]
    for m in s.sides[side]:
        if m != s.turn and s.bids[m] == 0:
            s.bids[m] = -1  # not seen as a Nil to protect (side_need ignores it)
    return play_card(s)
