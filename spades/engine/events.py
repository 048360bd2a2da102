"""What happened in a match, as small immutable values: the engine's events.

A :class:`~spades.engine.match.Match` records them only when asked (``Match(...,
events=True)``, or ``match.record_events()`` at any time): each ``deal``, ``apply`` and
``apply_timeout`` then appends, in order, the events it caused to ``match.events``, and
:meth:`~spades.engine.match.Match.take_events` hands them over. A match that does not
record (the default, and every ``clone()``) builds none, so bots and search pay nothing.

Every event is public: it carries nothing a seat may not see (no dealt cards), so a server
may send all of them to everyone. They hold no text; :mod:`spades.present.narrate` turns
them into sentences. ``event.to_json()`` is the plain-JSON form (``{"type": ..., ...}``),
with seats and sides as numbers and cards and bids spelled as in records.

When things are decided (all by counting tricks, never by looking at hidden cards):

* a nil is broken at the trick its bidder first wins, and made at the hand's last trick;
* a side's contract (the sum of its members' bids above nil; a side whose members all bid
  nil has none) is made at the trick where its tricks reach the contract, and set at the
  trick after which the tricks still to play can no longer bring it there (``trick`` 0:
  already when bidding closed, a contract larger than the hand). A side's tricks are its
  contract bidders' tricks, plus its nil bidders' when the rules count failed-nil tricks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from spades.engine.actions import BLIND_NIL, NIL, action_str
from spades.engine.cards import card_str


def _bid_json(bid: int, blind: bool) -> int | str:
    """A bid as records spell it: a number, ``"nil"`` or ``"blind-nil"``."""
    if blind:
        return "blind-nil"
    return "nil" if bid == 0 else bid


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A hand was dealt; the seat left of the dealer bids first."""

    kind: ClassVar[str] = "deal"
    hand: int  # 1-based
    dealer: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "deal", "hand": 1, "dealer": 3}``: the hand's number (1-based) and the
        dealer's seat; no cards."""
        return {"type": self.kind, "hand": self.hand, "dealer": self.dealer}


@dataclass(frozen=True, slots=True)
class LookedAtCards:
    """A seat who could still bid blind nil looked at the cards instead (``timer``: the turn
    timer looked for it, its time being up)."""

    kind: ClassVar[str] = "look"
    seat: int
    timer: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"type": "look", "seat": 0, "timer": false}``."""
        return {"type": self.kind, "seat": self.seat, "timer": self.timer}


@dataclass(frozen=True, slots=True)
class BidMade:
    """A bid: ``bid`` tricks (0 = nil), ``blind`` for blind nil."""

    kind: ClassVar[str] = "bid"
    seat: int
    bid: int
    blind: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"type": "bid", "seat": 1, "bid": 4}``: ``bid`` spelled as in records, a number,
        ``"nil"`` or ``"blind-nil"``."""
        return {"type": self.kind, "seat": self.seat, "bid": _bid_json(self.bid, self.blind)}


@dataclass(frozen=True, slots=True)
class BiddingClosed:
    """Every seat has bid: each side's contract, the seat that leads the first trick, and the
    seats that bid Nil and Blind Nil (a contract counts no Nil, so these say who is playing
    to take nothing)."""

    kind: ClassVar[str] = "bidding_closed"
    contracts: tuple[int, ...]  # per side
    leader: int
    nils: tuple[int, ...] = ()  # seats that bid Nil, in seat order
    blind_nils: tuple[int, ...] = ()  # seats that bid Blind Nil, in seat order

    def to_json(self) -> dict[str, Any]:
        """``{"type": "bidding_closed", "contracts": [7, 5], "leader": 1, "nils": [2],
        "blind_nils": []}``: ``contracts`` per side, ``leader`` the seat that leads the first
        trick, ``nils`` and ``blind_nils`` the seats that bid them."""
        return {"type": self.kind, "contracts": list(self.contracts), "leader": self.leader,
                "nils": list(self.nils), "blind_nils": list(self.blind_nils)}


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card played to trick number ``trick`` (1-based) of the hand."""

    kind: ClassVar[str] = "play"
    seat: int
    card: int
    trick: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "play", "seat": 0, "card": "QH", "trick": 3}``: ``trick`` 1-based."""
        return {"type": self.kind, "seat": self.seat, "card": card_str(self.card),
                "trick": self.trick}


@dataclass(frozen=True, slots=True)
class SpadesBroken:
    """The card just played broke spades."""

    kind: ClassVar[str] = "spades_broken"
    seat: int
    card: int
    trick: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "spades_broken", "seat": 3, "card": "2S", "trick": 4}``: the card that
        broke them."""
        return {"type": self.kind, "seat": self.seat, "card": card_str(self.card),
                "trick": self.trick}


@dataclass(frozen=True, slots=True)
class TrickWon:
    """Trick ``trick`` is complete: ``cards`` are its ``(seat, card)`` plays in order, won by
    ``winner`` with ``card``; ``taken`` is the winner's tricks this hand, this one included."""

    kind: ClassVar[str] = "trick"
    winner: int
    trick: int
    cards: tuple[tuple[int, int], ...]
    card: int
    taken: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "trick", "winner": 2, "trick": 5, "cards": [[1, "4H"], [2, "AH"], ...],
        "card": "AH", "taken": 3}``: ``cards`` are ``[seat, card]`` in play order, ``card`` the
        winning one, ``taken`` the winner's tricks this hand."""
        return {"type": self.kind, "winner": self.winner, "trick": self.trick,
                "cards": [[s, card_str(c)] for s, c in self.cards], "card": card_str(self.card),
                "taken": self.taken}


@dataclass(frozen=True, slots=True)
class NilDecided:
    """A nil (or blind nil) bid is made or broken, at trick ``trick``."""

    kind: ClassVar[str] = "nil"
    seat: int
    made: bool
    blind: bool
    trick: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "nil", "seat": 1, "made": false, "blind": false, "trick": 4}``."""
        return {"type": self.kind, "seat": self.seat, "made": self.made, "blind": self.blind,
                "trick": self.trick}


@dataclass(frozen=True, slots=True)
class ContractDecided:
    """A side's contract is made or set, at trick ``trick`` (0: when bidding closed);
    ``tricks`` is what the side had counted toward it then."""

    kind: ClassVar[str] = "contract"
    side: int
    made: bool
    contract: int
    tricks: int
    trick: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "contract", "side": 0, "made": true, "contract": 7, "tricks": 7,
        "trick": 11}``: ``tricks`` counted toward the contract then, ``trick`` 0 when decided as
        bidding closed."""
        return {"type": self.kind, "side": self.side, "made": self.made,
                "contract": self.contract, "tricks": self.tricks, "trick": self.trick}


@dataclass(frozen=True, slots=True)
class SideHand:
    """How one side scored a hand, part by part. The parts add up to ``points``
    (``blind_nil_points`` is not one of them: it is the blind nil share of ``nil_points``)."""

    side: int
    contract: int  # 0 when every member bid nil
    tricks: int  # tricks counted toward the contract
    made: bool  # the contract was made (True when there is none)
    contract_points: int  # +10 per bid trick when made, -10 when set (±200 under 10-for-200)
    overtrick_points: int  # +1 per trick above a made contract
    nil_points: int  # nil and blind nil bids, made or failed (blind nil's share below)
    bonus_points: int  # small-contract and hard-contract bonuses
    loose_trick_points: int  # +1 per failed-nil trick that does not count toward the contract
    bag_penalty_points: int  # 0 or negative: bag penalties paid at the end of the hand
    timer_penalty_points: int  # 0 or negative: bag penalties the turn timer's bags caused
    points: int  # this hand in all
    score: int  # after the hand
    new_bags: int  # overtricks and loose tricks this hand
    timer_bags: int  # penalty bags from the turn timer this hand
    bags: int  # after the hand, penalties settled
    #: Of ``nil_points``, what blind nil bids scored (a part of it, not one more part), so
    #: that a Blind Nil's points are told as Blind Nil.
    blind_nil_points: int = 0
    #: What each of the side's Nil bids scored, and each Blind Nil, in seat order (they add
    #: up to ``nil_points`` and ``blind_nil_points``): two Nils on a side, one made and one
    #: broken, are told as two, not as nothing.
    nil_bids: tuple[int, ...] = ()
    blind_nil_bids: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Every field, by name: ``{"side": 0, "contract": 7, "tricks": 8, "made": true,
        "contract_points": 70, "overtrick_points": 1, "nil_points": 0, "blind_nil_points": 0,
        "bonus_points": 0, "loose_trick_points": 0, "bag_penalty_points": 0,
        "timer_penalty_points": 0, "points": 71, "score": 152, "new_bags": 1, "timer_bags": 0,
        "bags": 3, "nil_bids": [], "blind_nil_bids": []}``; the parts add up to ``points``,
        ``blind_nil_points`` is a share of ``nil_points``, ``score`` and ``bags`` are after
        the hand, ``nil_bids`` and ``blind_nil_bids`` what each Nil and Blind Nil scored."""
        return {
            "side": self.side,
            "contract": self.contract,
            "tricks": self.tricks,
            "made": self.made,
            "contract_points": self.contract_points,
            "overtrick_points": self.overtrick_points,
            "nil_points": self.nil_points,
            "blind_nil_points": self.blind_nil_points,
            "bonus_points": self.bonus_points,
            "loose_trick_points": self.loose_trick_points,
            "bag_penalty_points": self.bag_penalty_points,
            "timer_penalty_points": self.timer_penalty_points,
            "points": self.points,
            "score": self.score,
            "new_bags": self.new_bags,
            "timer_bags": self.timer_bags,
            "bags": self.bags,
            "nil_bids": list(self.nil_bids),
            "blind_nil_bids": list(self.blind_nil_bids),
        }


@dataclass(frozen=True, slots=True)
class HandScored:
    """Hand ``hand`` is over and scored, side by side."""

    kind: ClassVar[str] = "hand_scored"
    hand: int
    sides: tuple[SideHand, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"type": "hand_scored", "hand": 1, "sides": [...]}``: ``sides`` holds one
        :meth:`SideHand.to_json` per side."""
        return {"type": self.kind, "hand": self.hand, "sides": [s.to_json() for s in self.sides]}


@dataclass(frozen=True, slots=True)
class BagWarning:
    """After a hand is scored (and the match goes on), a side is ``left`` bags (1 to 3)
    from the next bag penalty: seed 004's warning. A timeout's bags are in :class:`TimedOut`."""

    kind: ClassVar[str] = "bag_warning"
    side: int
    bags: int
    left: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "bag_warning", "side": 1, "bags": 8, "left": 2}``."""
        return {"type": self.kind, "side": self.side, "bags": self.bags, "left": self.left}


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The turn timer ran out for ``seat``: the game takes ``action`` (a bid or a card; the
    events of that action follow) and the seat's side takes ``penalty_bags``, which leaves
    it ``bags`` and may cost ``penalty_points`` (a bag penalty) at once."""

    kind: ClassVar[str] = "timeout"
    seat: int
    action: int
    side: int
    penalty_bags: int
    bags: int
    penalty_points: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "timeout", "seat": 2, "action": "4C", "side": 0, "penalty_bags": 1,
        "bags": 4, "penalty_points": 0}``: ``action`` spelled as in records (a card, a number
        bid, ``"nil"``...), ``bags`` the side's after the penalty."""
        action: int | str = action_str(self.action)
        if NIL < self.action < BLIND_NIL:
            action = self.action - NIL  # a bid of n tricks, a number as in records
        return {"type": self.kind, "seat": self.seat, "action": action, "side": self.side,
                "penalty_bags": self.penalty_bags, "bags": self.bags,
                "penalty_points": self.penalty_points}


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match is over: ``winner`` is the winning side, or None for a draw."""

    kind: ClassVar[str] = "match_over"
    winner: int | None
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"type": "match_over", "winner": 0, "scores": [512, 377]}``: ``winner`` is a side,
        or ``null`` for a draw; ``scores`` per side."""
        return {"type": self.kind, "winner": self.winner, "scores": list(self.scores)}


#: Any event, for ``match`` statements and annotations.
Event = (HandDealt | LookedAtCards | BidMade | BiddingClosed | CardPlayed | SpadesBroken
         | TrickWon | NilDecided | ContractDecided | HandScored | BagWarning | TimedOut
         | MatchOver)

#: Every event class, in the order they can happen within a hand.
EVENT_TYPES: tuple[type[Event], ...] = (
    HandDealt, LookedAtCards, BidMade, BiddingClosed, TimedOut, CardPlayed, SpadesBroken,
    TrickWon, NilDecided, ContractDecided, HandScored, BagWarning, MatchOver,
)

__all__ = [
    "EVENT_TYPES",
    "BagWarning",
    "BidMade",
    "BiddingClosed",
    "CardPlayed",
    "ContractDecided",
    "Event",
    "HandDealt",
    "HandScored",
    "LookedAtCards",
    "MatchOver",
    "NilDecided",
    "SideHand",
    "SpadesBroken",
    "TimedOut",
    "TrickWon",
]
