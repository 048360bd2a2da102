"""Hints for a person: the action a strong CPU player would take, with a one-line reason.

:func:`hint` asks the expert (a modest budget, a fixed seed: the same position gives the
same hint) and explains its choice in plain words from the seat's point of view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.bots.base import check_turn
from spades.bots.expert import ExpertBot
from spades.bots.policy import estimate_tricks, nil_risk, side_need
from spades.engine import (
    BID_BASE,
    BLIND_NIL,
    LOOK,
    NIL,
    Observation,
    action_str,
    card_name,
    unseen_cards,
)
from spades.engine.actions import whole_number
from spades.engine.cards import (
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    above,
    below,
)
from spades.present.sheet import check_names

#: Sampled deals per hint (about a tenth of a second).
HINT_WORLDS = 40

#: Seat names by where seats sit, clockwise from North at seat 0 (as the terminal and the
#: hints name them when no other names are given).
COMPASS_NAMES: dict[int, tuple[str, ...]] = {
    3: ("North", "Southeast", "Southwest"),
    4: ("North", "East", "South", "West"),
    5: ("North", "Northeast", "Southeast", "Southwest", "Northwest"),
    6: ("North", "Northeast", "Southeast", "South", "Southwest", "Northwest"),
}


def compass_names(players: int) -> tuple[str, ...]:
    """The seats' names at a table of ``players``: compass points clockwise from North."""
    return COMPASS_NAMES.get(players, tuple(f"Seat {s}" for s in range(players)))


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why, in one line."""

    action: int
    reason: str

    @property
    def action_str(self) -> str:
        """The action spelled as in records (``"QH"``, ``"3"``, ``"nil"``)."""
        return action_str(self.action)

    def to_json(self) -> dict[str, str]:
        """``{"action": "QH", "reason": ...}``, the action spelled as in records."""
        return {"action": action_str(self.action), "reason": self.reason}


def hint(obs: Observation, worlds: int = HINT_WORLDS, seed: int = 0,
         names: Sequence[str] | None = None) -> Hint:
    """What the seat of ``obs`` should do now, its reason naming seats by ``names``
    (default: :func:`compass_names`). Raises ``ValueError`` when it is not that seat's
    turn (a ``SpadesError``), ``TypeError`` for what is not an observation, and
    ``ValueError`` for ``worlds`` (sampled deals) that is not a whole number 1 or more;
    ``names`` given as one text (not a list by seat), or as anything else that is no list,
    is a ``TypeError``, and so is a ``seed`` that is no whole number (of any integer type)."""
    check_turn(obs, "hint")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise ValueError(f"worlds: must be a whole number 1 or more, not {worlds!r}"[:200])
    check_names(names)
    number = whole_number(seed)
    if number is None:  # (a float or text seeded another search: another hint, silently)
        raise TypeError(f"seed: must be a whole number, not {seed!r}"[:200])
    bot = ExpertBot(number, worlds=worlds)
    action = nil_duck(obs, bot.act(obs))
    if action == NIL and _ace_king(obs) is not None and not _nil_needed(obs):
        # the search's play-outs make a Nil with an ace-king far too often (their
        # opponents hardly attack it); a person is not told to bid one but when the side
        # needs it: then the best number bid instead
        action = bot.bid_without_nil(obs)
    return Hint(action, explain(obs, action, names))


def _ace_king(obs: Observation) -> int | None:
    """The side suit (not spades) in which the seat holds both the ace and the king, under
    standard bidding (where Nil is a choice), else None: a Nil with these two cards is lost
    whenever the suit is led once the lower ones are gone, unless both can be discarded."""
    hand = obs.hand or 0
    if obs.rules.bidding != "standard":
        return None
    for suit in range(3):
        if hand >> (suit * 13 + 12) & 1 and hand >> (suit * 13 + 11) & 1:
            return suit
    return None


def _nil_needed(obs: Observation) -> int:
    """The points the seat's side is behind when only a Nil is likely to catch up: at least
    a Nil's worth behind the leading side, in a one-hand match or with that side a Nil's
    worth or less from the target (else 0)."""
    rules = obs.rules
    leader = max(obs.scores)
    behind = leader - obs.scores[obs.my_side]
    if behind < rules.nil_points:
        return 0
    if rules.one_hand or leader >= rules.target - rules.nil_points:
        return behind
    return 0


def nil_duck(obs: Observation, action: int) -> int:
    """``action``, unless the seat bid nil, has taken no trick yet and ``action`` would take
    the lead of the open trick while another legal card stays under it: then that card (the
    highest of them, keeping the low ones for later). A hint never tells a nil bidder to
    win a trick it can lose; the search may prefer shedding a high card a later player is
    likely to beat, but that is a risk a person asking for help should not be told to take."""
    trick = obs.trick
    if not trick or action >= BID_BASE or obs.bids[obs.seat] != 0 or obs.tricks[obs.seat]:
        return action
    _, best = _winning(trick)
    led = SUIT_OF[trick[0][1]]
    if not _beats(action, best, led):
        return action
    under = [c for c in obs.legal_actions if c < BID_BASE and not _beats(c, best, led)]
    if not under:
        return action
    return max(under, key=lambda c: (SUIT_OF[c] == led, c % 13 if c < 52 else 13, c))


def explain(obs: Observation, action: int, names: Sequence[str] | None = None) -> str:
    """A one-line reason for ``action`` in the position ``obs``, one that agrees with it:
    a bid is never said to be worth a different number of tricks, and a card is never
    said to take a trick it cannot take. Seats are named by ``names``."""
    who = list(names) if names else list(compass_names(obs.rules.players))
    if len(who) < obs.rules.players:
        who += list(compass_names(obs.rules.players))[len(who):]
    if len(obs.legal_actions) == 1:
        if action >= BID_BASE:
            if obs.rules.bidding == "standard":
                return "This is the only bid allowed here."
            return f"{obs.rules.bidding.capitalize()} bidding leaves only this bid."
        return f"Play the {card_name(action)}: it is the only card you may play."
    if action == LOOK:
        return "Look at your cards: at this score a Blind Nil is not worth the risk."
    if action == BLIND_NIL:
        behind = max(obs.scores) - obs.scores[obs.my_side]
        worth = obs.rules.blind_nil_points
        if behind > 0:
            return (f"Bid Blind Nil: your side is {behind} points behind and it is worth "
                    f"{worth}.")
        return f"Bid Blind Nil: it is worth {worth}, and here the risk is worth taking."
    if action >= BID_BASE:
        return _explain_bid(obs, action, who)
    return _explain_play(obs, action, who)


def _partner(obs: Observation, seat: int, who: list[str]) -> str:
    """``your partner North`` (or ``North``, for a seat not on your side)."""
    if seat in obs.sides[obs.my_side]:
        return f"your partner {who[seat]}"
    return who[seat]


def _explain_bid(obs: Observation, action: int, who: list[str]) -> str:
    hand = obs.hand or 0
    rules = obs.rules
    est = estimate_tricks(hand, rules)
    if action == NIL:
        if rules.bidding == "suicide":
            return ("Bid Nil: one partner of each side must bid Nil, and this hand is "
                    "the one to do it.")
        if rules.bidding == "whiz":
            spades = (hand & SPADE_MASK).bit_count()
            return (f"Bid Nil: Whiz allows only Nil or your {spades} spades, and Nil is "
                    "the better contract here.")
        top = _ace_king(obs)
        if top is not None:
            behind = _nil_needed(obs)
            held = f"your ace and king of {SUIT_NAMES[top]}"
            if behind:
                return (f"Bid Nil: {held} make it a long shot, but your side is {behind} "
                        f"points behind and needs the {rules.nil_points} a Nil is worth "
                        "to catch up.")
            return (f"Bid Nil: a risky bid, as {held} take a trick whenever "
                    f"{SUIT_NAMES[top]} are led after your lower ones are gone.")
        risk = nil_risk(hand, rules)
        return (f"Bid Nil: few high cards (about {est:.1f} likely tricks) and "
                f"{'no' if risk < 1 else 'few'} dangerous ones, so taking no trick is realistic.")
    n = action - BID_BASE
    aces = sum(hand >> (s * 13 + 12) & 1 for s in range(4))
    spades = (hand & SPADE_MASK).bit_count()
    parts = []
    if aces:
        parts.append(f"{aces} ace{'s' if aces > 1 else ''}")
    parts.append(f"{spades} spade{'s' if spades != 1 else ''}")
    held = ", ".join(parts)
    mates = [m for m in obs.sides[obs.my_side] if m != obs.seat]
    nil_mate = next((m for m in mates if obs.bids[m] == 0), None)
    # a Blind Nil is said as one, and Nil with its capital, as the bids say them
    mate_nil = "Blind Nil" if nil_mate is not None and obs.blind[nil_mate] else "Nil"
    if rules.bidding == "whiz":
        return f"Bid {n}: Whiz allows only Nil or your {spades} spades, and {n} is the safer."
    if abs(n - float(f"{est:.1f}")) < 0.5:  # the worth as said rounds to the bid
        extra = ""
        if nil_mate is not None:
            extra = f"; {_partner(obs, nil_mate, who)} bid {mate_nil}, so you will need to cover"
        return f"Bid {n}: your hand is worth about {est:.1f} tricks ({held}){extra}."
    numbers = [a - BID_BASE for a in obs.legal_actions if BID_BASE < a < BLIND_NIL]
    if n > est:
        if numbers and n == min(numbers):
            return f"Bid {n}: the lowest number bid allowed here."
        if nil_mate is not None:
            return (f"Bid {n}: more than your cards promise on their own ({held}), because "
                    f"{_partner(obs, nil_mate, who)} bid {mate_nil} and you will be covering, "
                    "winning tricks your partner must lose.")
        return (f"Bid {n}: a bold bid for {held}; played out over likely deals, this hand "
                "takes more tricks than its high cards suggest.")
    if numbers and n == max(numbers):
        return f"Bid {n}: the highest bid allowed here."
    bid_so_far = sum(b for b in obs.bids if b is not None and b > 0)
    if bid_so_far >= obs.rules.hand_size // 2:
        return (f"Bid {n}: a cautious bid for {held}; with {bid_so_far} tricks already bid "
                "at the table, not every high card will take its trick.")
    return (f"Bid {n}: a cautious bid for {held}; played out over likely deals, not every "
            "high card takes its trick, and a set costs more than a few bags.")


def _winning(trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The seat and card winning an open trick so far."""
    best_seat, best = trick[0]
    led = SUIT_OF[trick[0][1]]
    for st, c in trick[1:]:
        if _beats(c, best, led):
            best_seat, best = st, c
    return best_seat, best


def _beats(card: int, best: int, led: int) -> bool:
    def rank(c: int) -> tuple[int, int]:
        return (2 if SUIT_OF[c] == SPADES else 1 if SUIT_OF[c] == led else 0, c)

    return rank(card) > rank(best)


def _suit_word(suit: int) -> str:
    return SUIT_NAMES[suit][:-1]  # "heart", "spade"...


#: The highest rank a hint calls "low" (``card % 13``: 0 is a two, 6 an eight; a nine or a
#: ten is not low).
LOW_RANK = 6


def _higher_out(cards: int, suit: int) -> str:
    """``the ace of diamonds is still out``, ``higher diamonds are still out``: the cards of
    the suit above a lead that others may hold."""
    if cards.bit_count() == 1:
        return f"the {card_name(cards.bit_length() - 1)} is still out"
    return f"higher {SUIT_NAMES[suit]} are still out"


def _lower_kept(cards: int, suit: int) -> str:
    """``your lower six of diamonds is kept``, ``your lower two and six of diamonds are
    kept``: the lower cards of the suit a lead keeps back."""
    ranks = [card_name(c).split(" of ")[0] for c in range(52) if cards >> c & 1]
    said = ranks[0] if len(ranks) == 1 else ", ".join(ranks[:-1]) + " and " + ranks[-1]
    verb = "is" if len(ranks) == 1 else "are"
    return f"your lower {said} of {SUIT_NAMES[suit]} {verb} kept"


def _explain_play(obs: Observation, card: int, who: list[str]) -> str:
    name = card_name(card)
    seat = obs.seat
    side = obs.my_side
    mates = [m for m in obs.sides[side] if m != seat]
    out = unseen_cards(obs)
    n = obs.rules.players
    trick = obs.trick
    played = [s for s, _ in trick]
    best_seat, best = _winning(trick) if trick else (-1, -1)
    led = SUIT_OF[trick[0][1]] if trick else SUIT_OF[card]
    wins_now = not trick or _beats(card, best, led)
    last = len(trick) == n - 1
    legal = [a for a in obs.legal_actions if a < BID_BASE]
    if obs.bids[seat] == 0 and obs.tricks[seat] == 0:
        mine = "Blind Nil" if obs.blind[seat] else "Nil"  # (a Blind Nil is said as one)
        if not trick:
            if out & above(card):
                low = "a low card" if card % 13 <= LOW_RANK else "a card"  # (an eight or lower)
                return (f"Lead the {name}: {low} others are likely to beat keeps your "
                        f"{mine} safe.")
            return (f"Lead the {name}: every lead you have is risky for your {mine}, and "
                    "this one leaves you the safest cards for later.")
        if not wins_now:
            under = [c for c in legal if not _beats(c, best, led) and SUIT_OF[c] == led]
            if SUIT_OF[card] == led and card == max(under):
                return (f"Play the {name}: the highest card you can play without taking "
                        "the trick.")
            return (f"Play the {name}: it stays under the {card_name(best)}, keeping your "
                    f"{mine} safe on this trick.")
        if not all(_beats(c, best, led) for c in legal):
            return (f"Play the {name}: it takes the trick for now, though a lower card would "
                    f"keep your {mine} safe; a later player may still beat it.")
        if last:
            return (f"Play the {name}: every card you may play takes this trick, so your "
                    f"{mine} is lost; this one keeps your lower cards.")
        return (f"Play the {name}: every card you may play beats the {card_name(best)}; "
                "a later player may still take the trick from you.")
    if obs.bids[seat] == 0 and not any(obs.bids[m] == 0 and obs.tricks[m] == 0 for m in mates):
        # a Nil broken (with no partner's Nil to cover): it cannot be saved, what counts
        # is what the seat's tricks are worth now
        return _explain_broken_nil(obs, card, who)
    mate_nil = [m for m in mates if obs.bids[m] == 0 and obs.tricks[m] == 0]
    if mate_nil:
        nil = _partner(obs, mate_nil[0], who)
        nil_name = f"{nil}'s {'Blind Nil' if obs.blind[mate_nil[0]] else 'Nil'}"
        if not trick and not out & above(card):
            return (f"Lead the {name}: it should win the trick, so {nil_name} is not "
                    "exposed.")
        if not trick and card % 13 > 8:  # a jack or higher: the nil has room under it
            return (f"Lead the {name}: a high lead leaves {nil} room to play under it, "
                    f"which keeps {nil_name} safe.")
        if trick and wins_now and mate_nil[0] not in played:
            return (f"Play the {name}: take control of the trick so that {nil_name} "
                    "stays safe.")
        if trick and not wins_now and best_seat not in mates and mate_nil[0] not in played:
            return (f"Play the {name}: {who[best_seat]}'s {card_name(best)} already wins "
                    f"this trick, which keeps {nil_name} safe; there is no need to spend a "
                    "better card.")
        if trick and best_seat in mate_nil and not any(_beats(c, best, led) for c in legal):
            return (f"Play the {name}: nothing you may play beats {nil}'s "
                    f"{card_name(best)}.")
    opp_nil = [p for p in range(n) if obs.rules.side_of[p] != side and obs.bids[p] == 0
               and obs.tricks[p] == 0 and p not in played]
    if opp_nil and card % 13 <= 5 and SUIT_OF[card] != SPADES and not (trick and wins_now):
        blind = "Blind Nil" if obs.blind[opp_nil[0]] else "Nil"
        return f"Play the {name}: a low card keeps pressure on {who[opp_nil[0]]}'s {blind}."
    from spades.bots.heuristic import own_state

    s = own_state(obs)
    need = side_need(s, side)
    if not trick:
        suit = SUIT_OF[card]
        if not out & above(card) and out & SUIT_MASKS[suit]:
            return (f"Lead the {name}: it is the highest {_suit_word(suit)} left, "
                    "so it should win the trick.")
        if suit == SPADES:
            return f"Lead the {name}: drawing out the opponents' spades protects your winners."
        if not out & SUIT_MASKS[suit]:
            return (f"Lead the {name}: no other {_suit_word(suit)} is left to be played, so "
                    "the others must trump it or play another suit.")
        # Others hold a higher card of the suit (else it is the highest left, above). The
        # words say why this card rather than a lower one of the suit held: "low" only of
        # a low card that is the lowest held (a ten led from the six, ten and king is not).
        lower = (obs.hand or 0) & below(card)
        is_low = card % 13 <= LOW_RANK and not lower
        if need <= 0:
            if is_low:
                return f"Lead the {name}: your side has its tricks; a low lead avoids bags."
            higher = _higher_out(out & above(card), suit)
            if not lower:
                return (f"Lead the {name}: your side has its tricks, and it is your lowest "
                        f"{_suit_word(suit)}; {higher} to beat it, which avoids bags.")
            return (f"Lead the {name}: your side has its tricks; {higher} to beat it now, "
                    "while later it could take a trick and a bag, and "
                    f"{_lower_kept(lower, suit)} for later.")
        if is_low:
            return (f"Lead the {name}: a low card from {SUIT_NAMES[suit]} keeps your high "
                    "cards for later.")
        return (f"Lead the {name}: it draws out the higher {SUIT_NAMES[suit]} still to be "
                "played.")
    following = SUIT_OF[card] == led
    if best_seat in mates and not wins_now:
        return f"Play the {name}: your partner is already winning this trick."
    if wins_now:
        if not following:
            return (f"Trump with the {name}: you have no {SUIT_NAMES[led]} and "
                    "the trick is worth taking.")
        winners = [c for c in legal if _beats(c, best, led)]
        if last and card == min(winners, key=lambda c: (SUIT_OF[c] == SPADES, c)):
            return f"Play the {name}: the cheapest card that takes the trick."
        if last:
            return f"Play the {name}: it takes the trick."
        if not out & above(card) and (led == SPADES or not out & SPADE_MASK):
            return f"Play the {name}: no card left in play can beat it, so it takes the trick."
        return f"Play the {name}: it beats the cards played so far and may hold."
    if need <= 0:
        return (f"Play the {name}: your side has made its bid, so more tricks would "
                "only be bags.")
    if not following and SUIT_OF[card] != SPADES:
        return (f"Discard the {name}: you cannot follow suit and it is your least "
                "useful card.")
    if any(_beats(c, best, led) for c in legal):
        return (f"Play the {name}: letting this trick go keeps your better cards for "
                "later.")
    return f"Play the {name}: {_no_win(card, legal)}."


def _no_win(card: int, legal: list[int]) -> str:
    """Why ``card``, when no legal card wins the trick: to keep the better ones, unless it is
    the only card or the highest of its suit with lower ones held (a king played over the
    queen held is not "keep your better cards")."""
    if legal == [card]:
        return "it is the only card you may play, and it cannot win this trick"
    suit = [c for c in legal if SUIT_OF[c] == SUIT_OF[card]]
    if min(suit) < card == max(suit):
        return "you cannot win this trick with any card you may play"
    return "you cannot win this trick, so keep your better cards"


def _together(names: list[str]) -> str:
    """``East``, ``East and West``, ``North, East and West``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _explain_broken_nil(obs: Observation, card: int, who: list[str]) -> str:
    """The reason for ``card`` of a seat whose own Nil (or Blind Nil) is broken: the Nil's
    points are lost whatever it does now, so the reason says what its tricks are worth
    under these rules (toward the side's bid, with ``failed_nil_tricks_count``, else a
    point and a bag each) and why the card helps: making the side's bid, avoiding bags,
    leaving a trick to the partner, or taking one from opponents who still need it."""
    from spades.bots.heuristic import own_state

    name = card_name(card)
    seat = obs.seat
    side = obs.my_side
    rules = obs.rules
    mine = "Blind Nil" if obs.blind[seat] else "Nil"
    mates = [m for m in obs.sides[side] if m != seat]
    bidders = [m for m in mates if (obs.bids[m] or 0) > 0]
    contract = sum(obs.bids[m] or 0 for m in bidders)
    out = unseen_cards(obs)
    trick = obs.trick
    legal = [a for a in obs.legal_actions if a < BID_BASE]
    s = own_state(obs)
    need = side_need(s, side)
    # What the seat's tricks are worth now.
    if rules.failed_nil_tricks_count and bidders:
        if need > s.left:
            worth = (f"your {mine} is broken, and your side's bid of {contract} is out of "
                     f"reach ({need} more needed, {s.left} tricks left)")
        elif need > 0:
            worth = (f"your {mine} is broken, but your tricks still count toward your side's "
                     f"bid of {contract}, {need} more to make it")
        else:
            worth = (f"your {mine} is broken, and your side has made its bid of {contract}, "
                     "so more tricks would only be bags")
        helps = 0 < need <= s.left  # a trick of this seat's is a trick toward the bid
    else:
        worth = f"your {mine} is broken, and each trick you take now is only a bag"
        if bidders:
            mate = ("your partner " if len(bidders) == 1 else "your partners ") + _together(
                [who[m] for m in bidders])
            worth += f", not a trick toward {mate}'s bid"
        helps = False
    # Opponents a trick taken from them may set: a side short of its bid that can still
    # make it in the tricks left.
    short = []
    for k, seats in enumerate(obs.sides):
        opp_need = side_need(s, k)
        if k != side and 0 < opp_need <= s.left and any((obs.bids[p] or 0) > 0 for p in seats):
            short.append((k, opp_need))
    if not trick:
        suit = SUIT_OF[card]
        sure = not out & above(card) and bool(out & SUIT_MASKS[suit])
        if out & above(card):  # others hold a higher card of the suit
            if helps:
                return (f"Lead the {name}: {worth}; it draws out the higher "
                        f"{SUIT_NAMES[suit]} still to be played.")
            return f"Lead the {name}: {worth}; others are likely to beat this lead."
        if sure:
            take = (f"it is the highest {_suit_word(suit)} left, so it should win the "
                    "trick")
        elif suit == SPADES:
            take = "no other spade is left, so it takes the trick"
        else:
            take = (f"no other {_suit_word(suit)} is left, so the others must trump it or "
                    "play another suit")
        if helps:
            return f"Lead the {name}: {worth}; {take}."
        if short:
            return f"Lead the {name}: {worth}, but {_set_them(short, obs, who)}; {take}."
        return (f"Lead the {name}: {worth}; {take}, and over likely deals this lead costs "
                "the least.")
    best_seat, best = _winning(trick)
    led = SUIT_OF[trick[0][1]]
    wins_now = _beats(card, best, led)
    last = len(trick) == rules.players - 1
    winners = [c for c in legal if _beats(c, best, led)]
    verb = ("Play" if SUIT_OF[card] == led else "Trump with" if wins_now
            else "Play" if SUIT_OF[card] == SPADES else "Discard")
    if not wins_now:
        if best_seat in mates:
            return (f"{verb} the {name}: {worth}; {_partner(obs, best_seat, who)} is already "
                    "winning this trick.")
        if not winners:
            return f"{verb} the {name}: {worth}; {_no_win(card, legal)}."
        if helps:
            return (f"{verb} the {name}: {worth}; letting this trick go keeps your better "
                    "cards for later.")
        if verb == "Discard":
            return f"Discard the {name}: {worth}; it leaves the trick to others."
        return (f"{verb} the {name}: {worth}; it stays under the {card_name(best)} and "
                "leaves the trick to others.")
    if last:
        take = ("the cheapest card that takes the trick"
                if card == min(winners, key=lambda c: (SUIT_OF[c] == SPADES, c))
                else "it takes the trick")
    elif not out & above(card) and (led == SPADES or not out & SPADE_MASK):
        take = "no card left in play can beat it, so it takes the trick"
    else:
        take = "it beats the cards played so far and may hold"
    if helps:
        return f"{verb} the {name}: {worth}; {take}."
    if len(winners) == len(legal):
        if last:
            return (f"{verb} the {name}: {worth}, but every card you may play takes this "
                    "trick; this one keeps your lower cards.")
        return (f"{verb} the {name}: {worth}, but every card you may play beats the "
                f"{card_name(best)}; a later player may still take the trick from you.")
    # the side now winning the trick, if a trick taken from it may set it
    short = [(k, n) for k, n in short if k == rules.side_of[best_seat]]
    if short:
        return f"{verb} the {name}: {worth}, but {_set_them(short, obs, who)}; {take}."
    return (f"{verb} the {name}: {worth}; {take}, and over likely deals this card costs "
            "the least.")


def _set_them(short: list[tuple[int, int]], obs: Observation, who: list[str]) -> str:
    """``a trick taken from East and West may set their bid of 5 (they need 2 more)``."""
    k, need = short[0]
    seats = [p for p in obs.sides[k] if (obs.bids[p] or 0) > 0]
    bid = sum(obs.bids[p] or 0 for p in seats)
    names = _together([who[p] for p in obs.sides[k]])
    return f"a trick taken from {names} may set their bid of {bid} (they need {need} more)"
