"""Events in words: one short sentence per engine event, told to one listener.

>>> from spades.engine import BidMade, profile
>>> north = Narrator(profile("cardems"), me=0)
>>> north.say(BidMade(2, 4))
'Your partner South bids 4.'
>>> Narrator(profile("cardems")).say(BidMade(2, 0, blind=True))
'South bids Blind Nil.'

The listener is a seat (``me``: "You", "your partner South") or nobody (a spectator, a log:
every seat by name). Seat names are the app's own (``names``), so the words match where the
seats are drawn; by default North, East, South, West at four players and ``Seat N`` (the
record's seat number) otherwise. Each event gives exactly one sentence, starting with a
capital and ending with a full stop, and no sentence repeats what another event says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spades.engine import (
    BagWarning,
    BiddingClosed,
    BidMade,
    CardPlayed,
    ContractDecided,
    Event,
    HandDealt,
    HandScored,
    LookedAtCards,
    MatchOver,
    NilDecided,
    Rules,
    SideHand,
    SpadesBroken,
    TimedOut,
    TrickWon,
    card_name,
    is_bid,
)
from spades.engine.actions import whole_number
from spades.present.rules import bonus_note, forced_bid_sentence, ten_for_200_note
from spades.present.sheet import bid_words, seat_name
from spades.present.words import listing, plural


def seat_names(rules: Rules, names: Sequence[str | None] | None = None) -> tuple[str, ...]:
    """Every seat's name: ``names[s]`` where given, else the default (see the module)."""
    return tuple(seat_name(rules, s, [n or "" for n in names] if names else None)
                 for s in range(rules.players))


def _sentence(text: str, names: Sequence[str] = ()) -> str:
    """``text`` with a full stop, and a capital first letter unless it opens with one of
    ``names``: a player's name is told as written ("eBay bids 3.")."""
    if not any(n and text.startswith(n) and not text[len(n):len(n) + 1].isalnum()
               for n in names):
        text = text[:1].upper() + text[1:]
    return text + ("" if text.endswith((".", "!", "?")) else ".")


def _signed(n: int) -> str:
    return f"{n:+d}"


@dataclass(frozen=True, slots=True)
class Narrator:
    """Tells events to one listener. ``me`` is the listener's seat (None: nobody's)."""

    rules: Rules
    names: tuple[str, ...] = ()
    me: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a Rules, like profile('cardems'), "
                            f"not {self.rules!r}"[:200])
        n = self.rules.players
        if isinstance(self.names, str):  # ("ABCD" would name four seats by its letters)
            raise TypeError(f"names: {n} seat names, like ('Ann', 'Bob', 'Cy', 'Di'), "
                            f"not the text {self.names!r}"[:200])
        if self.names is not None and not isinstance(self.names, Sequence):
            raise TypeError(f"names: {n} seat names, like ('Ann', 'Bob', 'Cy', 'Di'), "
                            f"not {self.names!r}"[:200])
        if not self.names:
            object.__setattr__(self, "names", seat_names(self.rules))
        elif len(self.names) != n:
            raise ValueError(f"names: {n} seat names are needed, not {len(self.names)}")
        me = self.me
        if me is not None:
            seat = whole_number(me)  # (a numpy integer is that seat; never a bool)
            if seat is None or not 0 <= seat < n:
                raise ValueError(f"me: a seat from 0 to {n - 1} or None, not {me!r}"[:200])
            object.__setattr__(self, "me", seat)

    # Words for seats and sides ----------------------------------------------------------

    def _is_me(self, seat: int) -> bool:
        return seat == self.me

    def _partner(self, seat: int) -> bool:
        me = self.me
        if me is None or seat == me:
            return False
        side_of = self.rules.side_of
        return side_of[seat] == side_of[me]

    def seat(self, seat: int) -> str:
        """``you``, ``your partner South`` or ``South`` (capitalized by the sentence)."""
        if self._is_me(seat):
            return "you"
        if self._partner(seat):
            return f"your partner {self.names[seat]}"
        return self.names[seat]

    def seat_poss(self, seat: int) -> str:
        return "your" if self._is_me(seat) else f"{self.seat(seat)}'s"

    def _verb(self, seat: int, base: str, third: str) -> str:
        return base if self._is_me(seat) else third

    def _mine(self, side: int) -> bool:
        return self.me is not None and self.rules.side_of[self.me] == side

    def side(self, side: int) -> str:
        """``you``, ``you and your partner South``, ``North and South``."""
        seats = self.rules.sides[side]
        if self._mine(side):
            mates = [self.names[s] for s in seats if s != self.me]
            if not mates:
                return "you"
            word = "partner" if len(mates) == 1 else "partners"
            return f"you and your {word} {listing(mates)}"
        return listing([self.names[s] for s in seats])

    def side_poss(self, side: int) -> str:
        """``your``, ``your side's``, ``North and South's``, ``Seat 2's``."""
        if self._mine(side):
            return "your" if len(self.rules.sides[side]) == 1 else "your side's"
        return f"{self.side(side)}'s"

    def _side_subject(self, side: int) -> str:
        """A side as the subject of a sentence: ``your side`` rather than a long list."""
        if self._mine(side) and len(self.rules.sides[side]) > 1:
            return "your side"
        return self.side(side)

    def _side_plural(self, side: int) -> bool:
        """Whether the side's subject takes a plural verb (``your side`` does not)."""
        if self._mine(side):
            return len(self.rules.sides[side]) == 1  # "you bid", "your side bids"
        return len(self.rules.sides[side]) > 1

    # Sentences ----------------------------------------------------------------------------

    def story(self, events: Iterable[Event]) -> list[str]:
        """One sentence per event, in order."""
        return [self.say(e) for e in events]

    def say(self, event: Event) -> str:
        """The sentence for one event."""
        return _sentence(self._words(event), self.names)

    def say_by_cpu(self, event: Event) -> str:
        """The sentence for an event when a CPU covers the listener's seat while they are
        there (idle at a table of people): their own bid, look or card is the CPU's, said so
        ("a CPU plays the four of diamonds for you"), not "you play ..."."""
        match event:
            case BidMade() if self._is_me(event.seat):
                words = f"a CPU bids {bid_words(event.bid, event.blind)} for you"
            case CardPlayed() if self._is_me(event.seat):
                words = f"a CPU plays the {card_name(event.card)} for you"
            case LookedAtCards() if self._is_me(event.seat):
                words = "a CPU looks at your cards for you"
            case _:
                return self.say(event)
        return _sentence(words, self.names)

    def say_forced(self, event: Event) -> str:
        """The sentence for the listener's own bid that the rules left no choice in, made
        for them by the game (:func:`spades.session.forced_bid`): why, then the bid, as the
        terminal says them ("Mirror bidding: ... for you. You bid 4.")."""
        if isinstance(event, BidMade) and self._is_me(event.seat):
            return f"{forced_bid_sentence(self.rules.bidding, event.bid)} {self.say(event)}"
        return self.say(event)

    def _words(self, e: Event) -> str:
        match e:
            case HandDealt():
                first = (e.dealer + 1) % self.rules.players
                return (f"hand {e.hand}: {self.seat(e.dealer)} "
                        f"{self._verb(e.dealer, 'deal', 'deals')} and {self.seat(first)} "
                        f"{self._verb(first, 'bid', 'bids')} first")
            case LookedAtCards(timer=True):  # (not "you look at your cards": you did not)
                if self._is_me(e.seat):
                    return "the game looks at your cards for you"
                return f"the game looks at {self.seat_poss(e.seat)} cards for them"
            case LookedAtCards():
                if self._is_me(e.seat):
                    return "you look at your cards"
                return f"{self.seat(e.seat)} looks at their cards"
            case BidMade():
                return (f"{self.seat(e.seat)} {self._verb(e.seat, 'bid', 'bids')} "
                        f"{bid_words(e.bid, e.blind)}")
            case BiddingClosed():
                return self._bidding_closed(e)
            case CardPlayed():
                return (f"{self.seat(e.seat)} {self._verb(e.seat, 'play', 'plays')} "
                        f"the {card_name(e.card)}")
            case SpadesBroken():
                return "spades are broken"
            case TrickWon():
                # whose count it is, said: "3 tricks so far" after "East wins" was read as
                # the side's in a partnership game, where the contract said next is the
                # side's ("East and West's contract of 5 is made"); the player's own it is
                whose = "you" if self._is_me(e.winner) else self.names[e.winner]
                return (f"{self.seat(e.winner)} {self._verb(e.winner, 'win', 'wins')} "
                        f"trick {e.trick} with the {card_name(e.card)}, "
                        f"{plural(e.taken, 'trick')} so far for {whose}")
            case NilDecided():
                kind = bid_words(0, e.blind)
                return f"{self.seat_poss(e.seat)} {kind} is {'made' if e.made else 'broken'}"
            case ContractDecided():
                return self._contract(e)
            case HandScored():
                return f"hand {e.hand} scored: " + "; ".join(self._side_hand(s) for s in e.sides)
            case BagWarning():
                verb = "are" if self._side_plural(e.side) else "is"
                return (f"{self._side_subject(e.side)} {verb} {plural(e.left, 'bag')} "
                        "from a bag penalty")
            case TimedOut():
                return self._timed_out(e)
            case MatchOver():
                return self._match_over(e)
        raise TypeError(f"not an event: {e!r}")  # pragma: no cover - every type is above

    def _bidding_closed(self, e: BiddingClosed) -> str:
        rules = self.rules
        total = sum(e.contracts)
        lead = f"{self.seat(e.leader)} {self._verb(e.leader, 'lead', 'leads')}"
        head = f"bidding is over with {total} of {rules.hand_size} tricks bid"
        # the Nils again, by name: a contract counts none, so "East and West bid 2" alone
        # hides that East plays to take nothing (said once, lines before, at East's bid)
        nils = {s: f"{self.seat_poss(s)} {bid_words(0, s in e.blind_nils)}"
                for s in sorted(e.nils + e.blind_nils)}
        if rules.teams is None:
            if nils:
                head += " and " + listing(list(nils.values()))
            return f"{head}; {lead}"
        parts = []
        for k, c in enumerate(e.contracts):
            part = f"{self._side_subject(k)} {'bid' if self._side_plural(k) else 'bids'} {c}"
            side_nils = [nils[s] for s in rules.sides[k] if s in nils]
            if side_nils:
                part += " with " + listing(side_nils)
            parts.append(part)
        return f"{head}: {', '.join(parts)}; {lead}"

    def _contract(self, e: ContractDecided) -> str:
        whose = self.side_poss(e.side)
        if e.made:
            return f"{whose} contract of {e.contract} is made"
        if e.trick == 0:
            return (f"{whose} contract of {e.contract} is set already: the hand has only "
                    f"{self.rules.hand_size} tricks")
        return f"{whose} contract of {e.contract} is set"

    def _side_hand(self, s: SideHand) -> str:
        parts = []
        if s.contract:
            parts.append(f"contract {_signed(s.contract_points)}")
        # each Nil apart (a Blind Nil as one): two on a side, one made and one broken, are
        # not "nothing"; an event made without them (an older program's) has the sums only
        nils = ([(p, bid_words(0)) for p in s.nil_bids]
                + [(p, bid_words(0, blind=True)) for p in s.blind_nil_bids]
                if s.nil_bids or s.blind_nil_bids else
                [(s.nil_points - s.blind_nil_points, bid_words(0)),
                 (s.blind_nil_points, bid_words(0, blind=True))])
        for points, label in ((s.overtrick_points, "overtricks"), *nils,
                              (s.bonus_points, "bonus"),
                              (s.loose_trick_points, "failed-Nil tricks"),
                              (s.bag_penalty_points, "bag penalty"),
                              (s.timer_penalty_points, "timer penalty")):
            if points:
                # which bonus, as the score sheet and the hand's details name it
                why = bonus_note(self.rules, s.contract) if label == "bonus" else ""
                parts.append(f"{label} {_signed(points)}" + (f" {why}" if why else ""))
        detail = f" ({', '.join(parts)})" if len(parts) > 1 else ""
        # the 10-for-200 rule where it scored the contract: "-200 (10 for 200, set)"
        if ten := ten_for_200_note(self.rules, s.contract, s.made):
            detail = f" ({ten}: {', '.join(parts)})" if len(parts) > 1 else f" ({ten})"
        return (f"{self._side_subject(s.side)} {_signed(s.points)}{detail}, {s.score} in all, "
                f"{plural(s.bags, 'bag')}")

    def _timed_out(self, e: TimedOut) -> str:
        who = self.seat(e.seat)
        what = "bids" if is_bid(e.action) else "plays"
        head = f"time is up for {who}: the game {what} for {'you' if self._is_me(e.seat) else 'them'}"
        if not e.penalty_bags:
            return head
        subject = self._side_subject(e.side)
        verb = "take" if self._side_plural(e.side) else "takes"
        text = f"{head}, and {subject} {verb} {plural(e.penalty_bags, 'penalty bag')}"
        if e.penalty_points:
            return text + f": a bag penalty of {e.penalty_points} points, {plural(e.bags, 'bag')} left"
        return text + f", {plural(e.bags, 'bag')} now"

    def _match_over(self, e: MatchOver) -> str:
        top = max(e.scores)
        if e.winner is None:
            draw = f"the match is a draw at {top} points"
            tied = [k for k, sc in enumerate(e.scores) if sc == top]
            if len(e.scores) == 2:
                return draw
            # the listener's side first ("you tie with North", not "North ties with you")
            tied.sort(key=lambda k: not self._mine(k))
            first = tied[0]
            verb = "tie" if self._mine(first) or len(self.rules.sides[first]) > 1 else "ties"
            others = " and with ".join(self.side(k) for k in tied[1:])
            return f"{draw}: {self.side(first)} {verb} with {others}"
        plural_verb = self._mine(e.winner) or len(self.rules.sides[e.winner]) > 1
        return f"{self.side(e.winner)} {'win' if plural_verb else 'wins'} the match with {top} points"


__all__ = ["Narrator", "bid_words", "listing", "plural", "seat_names"]
