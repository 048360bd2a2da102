"""Hints for a person: the action a strong CPU player would take, with a one-line reason.

:func:`hint` asks the expert (a modest budget, a fixed seed: the same position gives the
same hint) and explains its choice in plain words from the seat's point of view.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.bots.expert import ExpertBot
from spades.bots.policy import estimate_tricks, nil_risk, side_need
from spades.bots.sim import above
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
from spades.engine.cards import SPADE_MASK, SPADES, SUIT_MASKS, SUIT_NAMES, SUIT_OF

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
        return action_str(self.action)

    def to_json(self) -> dict[str, str]:
        return {"action": action_str(self.action), "reason": self.reason}


def hint(obs: Observation, worlds: int = HINT_WORLDS, seed: int = 0) -> Hint:
    """What the seat of ``obs`` should do now. Raises ``ValueError`` when it is not that
    seat's turn."""
    if not obs.legal_actions:
        raise ValueError(f"it is not seat {obs.seat}'s turn")
    bot = ExpertBot(seed, worlds=worlds)
    action = bot.act(obs)
    return Hint(action, explain(obs, action))


def explain(obs: Observation, action: int) -> str:
    """A one-line reason for ``action`` in the position ``obs``."""
    if len(obs.legal_actions) == 1:
        if action >= BID_BASE:
            style = obs.rules.bidding
            return f"{style.capitalize()} bidding leaves only this bid."
        return f"The {card_name(action)} is your only legal card."
    if action == LOOK:
        return "Look at your cards: at this score a blind nil is not worth the risk."
    if action == BLIND_NIL:
        behind = max(obs.scores) - obs.scores[obs.my_side]
        return (f"Bid blind nil: your side is {behind} points behind and it is worth "
                f"{obs.rules.blind_nil_points}.")
    if action >= BID_BASE:
        return _explain_bid(obs, action)
    return _explain_play(obs, action)


def _explain_bid(obs: Observation, action: int) -> str:
    hand = obs.hand or 0
    rules = obs.rules
    est = estimate_tricks(hand, rules)
    if action == NIL:
        if rules.bidding == "suicide":
            return ("Bid nil: one partner of each side must bid nil, and this hand is "
                    "the one to do it.")
        if rules.bidding == "whiz":
            spades = (hand & SPADE_MASK).bit_count()
            return (f"Bid nil: whiz allows only nil or your {spades} spades, and nil is "
                    "the better contract here.")
        risk = nil_risk(hand, rules)
        return (f"Bid nil: few high cards (about {est:.1f} likely tricks) and "
                f"{'no' if risk < 1 else 'few'} dangerous ones, so taking no trick is realistic.")
    n = action - BID_BASE
    aces = sum(hand >> (s * 13 + 12) & 1 for s in range(4))
    spades = (hand & SPADE_MASK).bit_count()
    parts = []
    if aces:
        parts.append(f"{aces} ace{'s' if aces > 1 else ''}")
    parts.append(f"{spades} spade{'s' if spades != 1 else ''}")
    mates = [m for m in obs.sides[obs.my_side] if m != obs.seat]
    mate_bid = next((obs.bids[m] for m in mates if obs.bids[m] is not None), None)
    extra = ""
    if mate_bid == 0:
        extra = "; your partner bid nil, so you will need to cover"
    return (f"Bid {n}: your hand is worth about {est:.1f} tricks "
            f"({', '.join(parts)}){extra}.")


def _explain_play(obs: Observation, card: int) -> str:
    name = card_name(card)
    hand = obs.hand or 0
    seat = obs.seat
    side = obs.my_side
    mates = [m for m in obs.sides[side] if m != seat]
    out = unseen_cards(obs)
    n = obs.rules.players
    trick = obs.trick
    if obs.bids[seat] == 0 and obs.tricks[seat] == 0:
        if not trick:
            return f"Lead the {name}: a low card others are likely to beat keeps your nil safe."
        return f"Play the {name}: the highest card you can play without taking the trick."
    mate_nil = [m for m in mates if obs.bids[m] == 0 and obs.tricks[m] == 0]
    if mate_nil:
        return (f"Play the {name}: take control of the trick so that your partner's nil "
                "stays safe.")
    opp_nil = [p for p in range(n) if obs.rules.side_of[p] != side and obs.bids[p] == 0
               and obs.tricks[p] == 0]
    if opp_nil and card % 13 <= 5 and card < 39 and (
            not trick or opp_nil[0] not in [s for s, _ in trick]):
        return (f"Play the {name}: a low card keeps pressure on seat {opp_nil[0]}'s nil.")
    from spades.bots.heuristic import own_sim

    s = own_sim(obs)
    need = side_need(s, side)
    if not trick:
        suit = SUIT_OF[card]
        if not out & above(card) and out & SUIT_MASKS[suit]:
            return (f"Lead the {name}: it is the highest {SUIT_NAMES[suit]} left, "
                    "so it should win the trick.")
        if suit == SPADES:
            return f"Lead the {name}: drawing out the opponents' spades protects your winners."
        if need <= 0:
            return (f"Lead the {name}: your side has its tricks; a low lead avoids bags.")
        return (f"Lead the {name}: a low card from {SUIT_NAMES[suit]} keeps your high cards "
                "for later.")
    best_seat, best = trick[0]
    led = SUIT_OF[trick[0][1]]
    for st, c in trick[1:]:
        if c > best and (SUIT_OF[c] == led or SUIT_OF[c] == SPADES):
            best_seat, best = st, c
    wins_now = card > best and (SUIT_OF[card] == led or SUIT_OF[card] == SPADES)
    following = SUIT_OF[card] == led
    if best_seat in mates and not wins_now:
        return f"Play the {name}: your partner is already winning this trick."
    if wins_now:
        last = len(trick) == n - 1
        if not following:
            return (f"Trump with the {name}: you have no {SUIT_NAMES[led]} and "
                    "the trick is worth taking.")
        if last:
            return f"Play the {name}: the cheapest card that takes the trick."
        if not out & above(card):
            return f"Play the {name}: no card left in play can beat it, so it takes the trick."
        return f"Play the {name}: it beats the cards played so far and may hold."
    if need <= 0:
        return (f"Play the {name}: your side has made its bid, so more tricks would "
                "only be bags.")
    if not following and hand & SPADE_MASK and not (card >= 39):
        return (f"Discard the {name}: you cannot follow suit and it is your least "
                "useful card.")
    return f"Play the {name}: you cannot win this trick, so keep your better cards."
