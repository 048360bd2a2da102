"""Rule-based bidding and card play on a :class:`~spades.engine.handstate.HandState`.

The same functions drive the ``intermediate`` level (on a hand state built from the
observation, other hands empty) and the rollouts of the search levels (on sampled deals). They read only
the acting seat's own cards and public information: bids, tricks, cards played, known voids.
"""

from __future__ import annotations

from typing import Final

from spades.engine.actions import BID_BASE, BLIND_NIL, NIL
from spades.engine.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    NON_SPADE_MASK,
    RANK_OF,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    above,
    cards_of_int,
    count_spades,
    highest,
    lowest,
)
from spades.engine.handstate import BID, PLAY, HandState
from spades.engine.rules import Rules

_SPADE_LOW: Final = 39


# Hand evaluation --------------------------------------------------------------------------


def estimate_tricks(hand: int, rules: Rules) -> float:
    """Expected tricks of a hand in plain play: side-suit honours by length, trumps by
    rank and length, and ruffs from short suits with spare trumps."""
    n = rules.players
    tricks = 0.0
    spades = hand & SPADE_MASK
    nsp = spades.bit_count()
    # Trumps: walk down from the highest possible trump.
    higher_missing = 0
    counted = 0
    top = BIG_JOKER if rules.jokers else 51
    deck = rules.deck  # a computed property: once, not per card
    for c in range(top, _SPADE_LOW - 1, -1):
        if not (deck >> c & 1):
            continue
        if spades >> c & 1:
            if higher_missing == 0:
                tricks += 1.0
            elif higher_missing <= counted + (nsp - counted - 1):
                tricks += max(0.0, 0.9 - 0.15 * higher_missing)
            else:
                tricks += 0.15
            counted += 1
        else:
            higher_missing += 1
        if counted == nsp:
            break
    length_bonus = max(0, nsp - 4) * 0.6
    tricks += length_bonus
    spare = max(0, nsp - 2)
    per_suit = rules.hand_size / 13 * 13 / 4  # average suit length is 13 / 4 in any deck
    for suit in range(3):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        base = suit * 13
        ace = cards >> (base + 12) & 1
        king = cards >> (base + 11) & 1
        queen = cards >> (base + 10) & 1
        long_cut = 1.0 if length <= per_suit + 2 else 0.7
        tricks += ace * long_cut
        if king:
            tricks += (0.85 if ace else 0.75) * long_cut if length >= 2 else 0.25
        if queen and length >= 3:
            tricks += (0.6 if (ace or king) else 0.45) * long_cut
        if spare and length <= 2:
            ruffs = (1.0 if length == 0 else 0.55 if length == 1 else 0.2) * min(spare, 2)
            tricks += ruffs * 0.8
            spare -= min(spare, 2 - length)
    if n >= 5:
        tricks *= 0.92
    return tricks


def nil_risk(hand: int, rules: Rules) -> float:
    """How dangerous a hand is for Nil: 0 is very safe, above about 2.5 is reckless."""
    risk = 0.0
    spades = hand & SPADE_MASK
    nsp = spades.bit_count()
    if spades >> BIG_JOKER & 1 or spades >> LITTLE_JOKER & 1 or spades >> 51 & 1:
        risk += 4.0
    if spades >> 50 & 1:
        risk += 2.0 if nsp <= 3 else 3.0
    if spades >> 49 & 1:
        risk += 1.2
    if spades >> 48 & 1:
        risk += 0.6
    risk += max(0, nsp - 3) * 0.9
    for suit in range(3):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        if not length:
            continue
        base = suit * 13
        low = (cards & ((1 << (base + 6)) - 1)).bit_count()  # 2..7
        for rank, weight in ((12, 1.3), (11, 0.9), (10, 0.55), (9, 0.3)):
            if cards >> (base + rank) & 1:
                cover = min(low, 3)
                risk += max(0.0, weight - 0.3 * cover)
    return risk


def side_need(s: HandState, side: int) -> int:
    """Tricks the side still needs for its contract (0 or less: made)."""
    contract = taken = 0
    counts_nil = s.rules.failed_nil_tricks_count
    for seat in s.sides[side]:
        b = s.bids[seat]
        if b > 0:
            contract += b
            taken += s.tricks[seat]
        elif b == 0 and counts_nil:
            taken += s.tricks[seat]
    return contract - taken


# Bidding ----------------------------------------------------------------------------------


def choose_bid(s: HandState, scores: tuple[int, ...] = (), legal: tuple[int, ...] = (),
               nil_boldness: float = 0.0) -> int:
    """The intermediate bid for the seat to act, among ``legal`` (default
    ``s.legal_bids()``)."""
    seat = s.turn
    legal = legal or s.legal_bids()
    if len(legal) == 1:
        return legal[0]
    rules = s.rules
    hand = s.hands[seat]
    side = s.side_of[seat]
    mates = [m for m in s.sides[side] if m != seat]
    behind = 0
    if scores:
        mine = scores[side]
        behind = max(scores) - mine if len(scores) > 1 else 0
    if BLIND_NIL in legal and behind >= 200 and not any(s.bids[m] == 0 for m in mates):
        return BLIND_NIL
    est = estimate_tricks(hand, rules)
    risk = nil_risk(hand, rules)
    mate_nil = any(s.bids[m] == 0 for m in mates)
    nil_limit = 1.6 + nil_boldness + (0.6 if behind >= 100 else 0.0)
    if mate_nil:
        nil_limit = -1.0
    nil_ok = NIL in legal and risk <= nil_limit and est < 2.5
    held = count_spades(hand)
    if rules.bidding == "whiz":
        if nil_ok or (est + 1.2 < held and risk <= nil_limit + 1.0):
            return NIL
        return BID_BASE + held
    numbers = [a for a in legal if BID_BASE < a <= BID_BASE + s.hand_size]
    if not numbers:
        return NIL if NIL in legal else legal[0]
    if rules.bidding == "suicide" and NIL in legal:
        # The first partner chooses; the other is then bound to the other kind of bid.
        if risk <= nil_limit + 0.8 or est < 2.0:
            return NIL
    elif nil_ok:
        return NIL
    want = est
    if mate_nil:
        want += 0.4  # covering a nil partner takes a little extra
    bid = max(1, int(want + 0.35))
    total_others = sum(b for b in s.bids if b > 0)
    if bid + total_others > s.hand_size + 1:
        bid = max(1, bid - 1)
    bid = min(bid, s.hand_size)
    return min(numbers, key=lambda a: abs(a - BID_BASE - bid))


# Card play --------------------------------------------------------------------------------


def _beats(s: HandState, card: int) -> bool:
    """Whether ``card`` would take the lead of the open trick now."""
    if not s.trick:
        return True
    return card > s.best and (SUIT_OF[card] == s.led or card >= _SPADE_LOW)


def _threatened(s: HandState, card: int, later: list[int], out: int) -> bool:
    """Whether a seat still to play might beat ``card`` (assumed to lead the trick)."""
    led = s.led if s.trick else SUIT_OF[card]
    higher = out & above(card)
    spades_out = out & SPADE_MASK
    suit = SUIT_OF[card]
    for p in later:
        v = s.voids[p]
        if suit == led:
            if led != SPADES:
                if not v >> led & 1:
                    if higher:
                        return True
                elif not v >> SPADES & 1 and spades_out:
                    return True
            elif not v >> SPADES & 1 and higher:
                return True
        elif v >> led & 1 and not v >> SPADES & 1 and higher:
            return True
    return False


def _rank_key(c: int) -> int:
    return RANK_OF[c]


def _discard(s: HandState, seat: int, legal: int, out: int) -> int:
    """A cheap card: lowest of the led suit, else a low card from a short side suit."""
    if s.trick and legal & SUIT_MASKS[s.led]:
        return lowest(legal)
    pool = legal & NON_SPADE_MASK or legal
    hand = s.hands[seat]
    best_card = -1
    best_key = (99, 99)
    for c in cards_of_int(pool):
        suit = SUIT_OF[c]
        is_boss = not (out & above(c))
        key = (RANK_OF[c] + (6 if is_boss and suit != SPADES else 0),
               (hand & SUIT_MASKS[suit]).bit_count())
        if key < best_key:
            best_key, best_card = key, c
    return best_card


def _dump(s: HandState, legal: int) -> int:
    """When not wanting the trick: the highest card that does not win it, else (if every
    card wins) the lowest when someone may still overtake, the highest when last."""
    cards = cards_of_int(legal)
    unders = [c for c in cards if not _beats(s, c)]
    if unders:
        side = [c for c in unders if c < _SPADE_LOW]
        return max(side or unders, key=_rank_key)
    if len(s.trick) == s.n - 1:
        return max(cards, key=_rank_key)
    return min(cards, key=_rank_key)


def _lead_low(s: HandState, seat: int, legal: int, out: int, avoid_spades: bool = True) -> int:
    """A low lead from the suit where others hold the most higher cards."""
    pool = legal & NON_SPADE_MASK if avoid_spades else legal
    pool = pool or legal
    best_card, best_key = -1, (-99, 99)
    for suit in range(4):
        cards = pool & SUIT_MASKS[suit]
        if not cards:
            continue
        c = lowest(cards)
        key = ((out & above(c)).bit_count(), RANK_OF[c])
        if key[0] > best_key[0] or (key[0] == best_key[0] and key[1] < best_key[1]):
            best_key, best_card = key, c
    return best_card


def play_card(s: HandState) -> int:
    """The intermediate card for the seat to act."""
    legal = s.legal_mask()
    if not legal & (legal - 1):
        return lowest(legal)
    seat = s.turn
    n = s.n
    hand = s.hands[seat]
    out = s.deck & ~s.played & ~hand
    side = s.side_of[seat]
    mates = [m for m in s.sides[side] if m != seat]
    pos = len(s.trick)
    later = [(seat + i) % n for i in range(1, n - pos)]
    in_trick = [(s.leader + i) % n for i in range(pos)]

    # My own nil, or a failed one whose tricks are only bags now; a failed nil whose tricks
    # count toward the side's contract (failed_nil_tricks_count) plays for the contract.
    if s.bids[seat] == 0 and not (s.tricks[seat] and s.rules.failed_nil_tricks_count):
        if pos == 0:
            return _lead_low(s, seat, legal, out)
        return _dump(s, legal)

    mate_nil = [m for m in mates if s.bids[m] == 0 and s.tricks[m] == 0]
    if mate_nil:
        m = mate_nil[0]
        if pos == 0:
            side_cards = legal & NON_SPADE_MASK or legal
            return max(cards_of_int(side_cards),
                       key=lambda c: (RANK_OF[c], -(hand & SUIT_MASKS[SUIT_OF[c]]).bit_count()))
        if m in in_trick:
            if s.best_seat == m:
                winners = [c for c in cards_of_int(legal) if _beats(s, c)]
                if winners:
                    return min(winners, key=_rank_key) if legal & SUIT_MASKS[s.led] else min(winners)
        else:
            if legal & SUIT_MASKS[s.led]:
                return highest(legal)
            if RANK_OF[s.best] < 10 or s.best >= _SPADE_LOW:
                winners = [c for c in cards_of_int(legal) if _beats(s, c)]
                if winners:
                    return min(winners)

    opp_nil = [p for p in range(n) if s.side_of[p] != side and s.bids[p] == 0
               and s.tricks[p] == 0]
    if opp_nil and not mate_nil:
        target = opp_nil[0]
        if pos == 0:
            v = s.voids[target]
            pool = legal & ~SPADE_MASK
            for suit in range(3):
                if v >> suit & 1:
                    pool &= ~SUIT_MASKS[suit]
            if pool:
                return min(cards_of_int(pool), key=_rank_key)
        elif target in in_trick:
            if s.best_seat == target:
                return _dump(s, legal)
        elif target in later:
            follow = legal & SUIT_MASKS[s.led]
            if follow and not (s.best_seat in mates and len(later) == 1):
                return lowest(follow)

    # Plain play: want tricks, or duck.
    need = side_need(s, side)
    want = need > 0
    if need > s.left or need <= 0:
        want = False
        for k in range(len(s.sides)):
            if k == side:
                continue
            opp_need = side_need(s, k)
            if 0 < opp_need <= s.left and s.left - opp_need + 1 <= max(1, s.left // 2):
                want = True
    if not want:
        if pos == 0:
            return _lead_low(s, seat, legal, out)
        return _dump(s, legal)

    if pos == 0:
        return _lead_for_tricks(s, seat, legal, out, mates)
    if s.best_seat in mates and not _threatened(s, s.best, later, out):
        return _discard(s, seat, legal, out)
    winners = [c for c in cards_of_int(legal) if _beats(s, c)]
    if not winners:
        return _discard(s, seat, legal, out)
    safe = [c for c in winners if not _threatened(s, c, later, out)]
    if safe:
        return min(safe)
    following = bool(legal & SUIT_MASKS[s.led])
    if pos == 1 and following and s.led != SPADES and n >= 4:
        return lowest(legal)  # second hand low
    if following:
        return max(winners) if pos >= 2 else min(winners)
    return min(winners)


def _lead_for_tricks(s: HandState, seat: int, legal: int, out: int, mates: list[int]) -> int:
    opps = [p for p in range(s.n) if p != seat and p not in mates]
    spades_out = out & SPADE_MASK
    # Cash a side-suit winner no opponent can trump.
    for c in sorted(cards_of_int(legal & NON_SPADE_MASK), key=lambda c: -RANK_OF[c]):
        if out & above(c):
            continue
        suit = SUIT_OF[c]
        if not (out & SUIT_MASKS[suit]) and spades_out:
            continue  # nobody follows: it would only be trumped
        if spades_out and any(s.voids[p] >> suit & 1 and not s.voids[p] >> SPADES & 1
                               for p in opps):
            continue
        return c
    spades = legal & SPADE_MASK
    if spades and spades_out:
        top = highest(spades)
        if not (out & above(top)):
            return top
    # Lead into a partner's void, so the partner trumps.
    for m in mates:
        for suit in range(3):
            cards = legal & SUIT_MASKS[suit]
            if cards and s.voids[m] >> suit & 1 and not s.voids[m] >> SPADES & 1 and not any(
                    s.voids[p] >> suit & 1 for p in opps):
                return lowest(cards)
    # Short suit with spare trumps: lead a singleton to ruff later.
    hand = s.hands[seat]
    if (hand & SPADE_MASK).bit_count() >= 2:
        for suit in range(3):
            cards = legal & SUIT_MASKS[suit]
            if cards.bit_count() == 1 and RANK_OF[lowest(cards)] < 9:
                return lowest(cards)
    side_cards = legal & NON_SPADE_MASK
    if side_cards:
        longest = max(range(3), key=lambda su: ((side_cards & SUIT_MASKS[su]).bit_count(), su))
        return lowest(side_cards & SUIT_MASKS[longest])
    return lowest(legal)


def rollout(s: HandState, stop: int = 0) -> None:
    """Play the hand out with the intermediate policy for every seat (and bid if needed);
    with ``stop``, only until at most ``stop`` tricks are left (the current one among them)."""
    while s.phase is BID:
        s.bid_int(choose_bid(s))
    while s.phase is PLAY:
        if s.left <= stop:
            return
        s.play_int(play_card(s))
