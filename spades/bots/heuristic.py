"""The rule-based levels: ``beginner`` (seed 001's strategy page) and ``intermediate``."""

from __future__ import annotations

import random
from collections.abc import Callable

from spades.bots.base import check_turn
from spades.bots.policy import _discard, choose_bid, play_card, side_need
from spades.engine import BID_BASE, BLIND_NIL, LOOK, NIL, Observation
from spades.engine.cards import (
    NON_SPADE_MASK,
    RANK_OF,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    above,
    cards_of_int,
    highest,
    lowest,
)
from spades.engine.handstate import HandState


def own_state(obs: Observation) -> HandState:
    """A HandState of the observed hand that knows only the observer's own cards."""
    hands = [0] * obs.rules.players
    hands[obs.seat] = obs.hand or 0
    return HandState.from_obs(obs, hands)


def blind_nil_choice(obs: Observation, behind_by: int = 200) -> int:
    """Blind nil when the side is far behind (by ``behind_by`` points or more), else look."""
    side = obs.my_side
    behind = max(obs.scores) - obs.scores[side]
    return BLIND_NIL if behind >= behind_by else LOOK


def always_look(obs: Observation) -> int:
    """Look at the cards, never blind nil."""
    return LOOK


def settled(obs: Observation, look: Callable[[Observation], int] = blind_nil_choice
            ) -> int | None:
    """The action that needs no thought, or None: the only legal action; or, offered a look
    at the cards (blind nil allowed), ``look``'s choice between looking and blind nil."""
    legal = obs.legal_actions
    if len(legal) == 1:
        return legal[0]
    if LOOK in legal:
        return look(obs)
    return None


class IntermediateBot:
    """Counts cards and voids, covers a partner's nil and attacks the opponents', avoids
    its own bags, feeds bags to opponents near the limit, and bids nil more boldly when
    behind."""

    name = "intermediate"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> int:
        """This level's choice among ``obs.legal_actions``, for the seat of ``obs``, which is
        to act (else a ``SpadesError`` or ``TypeError``: :func:`check_turn`)."""
        check_turn(obs)
        given = settled(obs)
        if given is not None:
            return given
        s = own_state(obs)
        if obs.phase == "bid":
            return self._bid(s, obs, obs.legal_actions)
        return self._play(s)

    def _bid(self, s: HandState, obs: Observation, legal: tuple[int, ...]) -> int:
        return choose_bid(s, obs.scores, legal)

    def _play(self, s: HandState) -> int:
        return play_card(s)


class BeginnerBot:
    """Seed 001's strategy page, literally: bid aces, kings, queens with two or three
    others and spades above ten; nil when there is nothing to bid (or little, when behind);
    lead low spades with five or more; play low second; keep the ace of spades late;
    give tricks to opponents close to ten bags."""

    name = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> int:
        """This level's choice among ``obs.legal_actions``, for the seat of ``obs``, which is
        to act (else a ``SpadesError`` or ``TypeError``: :func:`check_turn`)."""
        check_turn(obs)
        given = settled(obs, always_look)
        if given is not None:
            return given
        if obs.phase == "bid":
            return self._bid(obs, obs.legal_actions)
        return self._play(obs)

    def _bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        hand = obs.hand or 0
        count = beginner_count(hand)
        behind = max(obs.scores) - obs.scores[obs.my_side]
        high_spades = (hand & SPADE_MASK & ~((1 << 48) - 1)).bit_count()
        if NIL in legal and high_spades == 0 and (
            count == 0 or (behind >= 100 and count <= 1)
        ):
            return NIL
        want = max(1, count)
        numbers = [a for a in legal if BID_BASE < a < BLIND_NIL]
        if not numbers:
            return NIL if NIL in legal else legal[0]
        return min(numbers, key=lambda a: abs(a - BID_BASE - want))

    def _play(self, obs: Observation) -> int:
        s = own_state(obs)
        seat = obs.seat
        legal = s.legal_mask()
        hand = s.hands[seat]
        out = s.deck & ~s.played & ~hand
        side = obs.my_side
        mates = [m for m in obs.sides[side] if m != seat]
        pos = len(s.trick)
        ace_spades = 1 << 51
        late = s.left <= 3
        keep = legal & ~ace_spades if not late and legal & ~ace_spades else legal
        if s.bids[seat] == 0:
            return _under_or_low(s, keep)
        opps_full = any(
            obs.bags[k] >= obs.rules.bag_limit - 3 and side_need(s, k) <= 0
            for k in range(len(obs.sides)) if k != side)
        if opps_full:
            return _under_or_low(s, keep)
        if pos == 0:
            spades = keep & SPADE_MASK
            if (hand & SPADE_MASK).bit_count() >= 5 and spades:
                return lowest(spades)
            for c in sorted(cards_of_int(keep & NON_SPADE_MASK), key=lambda c: -RANK_OF[c]):
                if not out & above(c):
                    return c
            side_cards = keep & NON_SPADE_MASK or keep
            return min(cards_of_int(side_cards), key=lambda c: RANK_OF[c])
        if pos == 1:
            return _discard(s, seat, keep, out)
        if s.best_seat in mates:
            return _discard(s, seat, keep, out)
        winners = [c for c in cards_of_int(keep) if c > s.best and (
            SUIT_OF[c] == s.led or SUIT_OF[c] == SPADES)]
        if winners:
            if keep & SUIT_MASKS[s.led]:
                return max(winners)
            return min(winners)
        return _discard(s, seat, keep, out)


def beginner_count(hand: int) -> int:
    """Seed 001: aces and kings, queens with two or three others, spades above ten."""
    count = 0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        base = suit * 13
        length = cards.bit_count()
        if suit == SPADES:
            count += (cards & ~((1 << (base + 9)) - 1)).bit_count()  # J, Q, K, A, jokers
            continue
        count += (cards >> (base + 12) & 1) + (cards >> (base + 11) & 1)
        if cards >> (base + 10) & 1 and 3 <= length <= 4:
            count += 1
    return count


def _under_or_low(s: HandState, legal: int) -> int:
    """The highest card that does not take the trick, else the lowest."""
    if s.trick:
        unders = [c for c in cards_of_int(legal) if not (c > s.best and (
            SUIT_OF[c] == s.led or SUIT_OF[c] == SPADES))]
        if unders:
            side = [c for c in unders if c < 39]
            return max(side or unders, key=lambda c: RANK_OF[c])
        return highest(legal) if len(s.trick) == s.n - 1 else lowest(legal)
    return min(cards_of_int(legal & NON_SPADE_MASK or legal), key=lambda c: RANK_OF[c])
