"""Shared helpers for the engine tests: rules variants, hand building and random play.

Not a test module (pytest collects only ``test_*.py``); the test modules import it by name,
since pytest puts this folder on ``sys.path`` (the folder has no ``__init__.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from spades.engine import (
    BLIND_NIL,
    LOOK,
    NIL,
    IllegalAction,
    Match,
    Rules,
    cards_of,
    mask_of,
    parse_card,
    profile,
    suggested_bid,
)
from spades.engine.actions import BID_BASE

RANKS = "23456789TJQKA"

#: A seed for a random match, drawn by the property tests.
SEEDS = st.integers(min_value=0, max_value=2**31)


def few_examples(n: int) -> settings:
    """Hypothesis settings for property tests that play whole matches: ``n`` examples, no
    deadline, no example database, no complaint that an example is slow."""
    return settings(max_examples=n, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])



def hand(text: str) -> int:
    """A card mask from ``"AS KS 2H"``."""
    return mask_of(parse_card(c) for c in text.split())


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def suit_deal(order: str = "SHDC") -> list[int]:
    """Each seat holds one whole suit: seat 0 the first suit of ``order``, and so on."""
    return [hand(" ".join(r + s for r in RANKS)) for s in order]


def bid(n: int) -> int:
    """The action of bidding ``n`` (0 = Nil)."""
    return BID_BASE + n


# Rules variants ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """A rules profile with overrides, as a named test case."""

    label: str
    preset: str
    overrides: dict[str, Any] = field(default_factory=dict)
    timeouts: bool = False  # play with the turn timer running out now and then

    def rules(self) -> Rules:
        return profile(self.preset, **self.overrides)


T6_3x2 = ((0, 3), (1, 4), (2, 5))
T6_2x3 = ((0, 2, 4), (1, 3, 5))

#: Every profile, every player count and side layout, and every table option.
VARIANTS: tuple[Variant, ...] = (
    Variant("cardems", "cardems"),
    Variant("cardems-100", "cardems", {"target": 100}),
    Variant("cardgames-club", "cardgames-club"),
    Variant("cardgames-club-150", "cardgames-club", {"target": 150}),
    Variant("game93", "game93"),
    Variant("game93-one-hand", "game93", {"one_hand": True}),
    Variant("game93-120", "game93", {"target": 120}),
    Variant("cards4net", "cards4net"),
    Variant("cards4net-150", "cards4net", {"target": 150}),
    Variant("cards4net-no-blind", "cards4net", {"blind_nil": False}),
    Variant("cards4net-jokers", "cards4net", {"jokers": True, "target": 200}),
    Variant("cards4net-mirror", "cards4net", {"bidding": "mirror", "blind_nil": False}),
    Variant("cards4net-suicide", "cards4net", {"bidding": "suicide", "target": 200}),
    Variant("cards4net-whiz", "cards4net", {"bidding": "whiz"}),
    Variant("cards4net-10-for-200", "cards4net", {"ten_for_200": True}),
    Variant("cards4net-bags-5-50", "cards4net", {"bag_limit": 5, "bag_penalty": 50}),
    Variant("race400-3", "race400", {"players": 3}),
    Variant("race400-4", "race400"),
    Variant("race400-4-teams", "race400", {"teams": ((0, 2), (1, 3)), "target": 150}),
    Variant("race400-5", "race400", {"players": 5, "target": 150}),
    Variant("race400-6", "race400", {"players": 6}),
    Variant("race400-6-3x2", "race400", {"players": 6, "teams": T6_3x2, "target": 150}),
    Variant("race400-6-2x3", "race400", {"players": 6, "teams": T6_2x3}),
    Variant("race400-timer", "race400", {"turn_timer": 20, "target": 150}, timeouts=True),
    Variant("race400-3-timer", "race400", {"players": 3, "turn_timer": 30}, timeouts=True),
    Variant("race400-6-timer", "race400", {"players": 6, "teams": T6_3x2, "turn_timer": 15},
            timeouts=True),
    Variant("cards4net-timer", "cards4net", {"turn_timer": 20, "target": 150}, timeouts=True),
    Variant("cards4net-jokers-timer", "cards4net", {"jokers": True, "turn_timer": 20},
            timeouts=True),
)

VARIANT_BY_LABEL = {v.label: v for v in VARIANTS}


# Random play --------------------------------------------------------------------------------


def pick_action(match: Match, rng: random.Random) -> int:
    """A random legal action, with bids drawn mostly near a sensible count of tricks so that
    contracts are often made and matches with low targets end."""
    legal = match.legal_actions()
    if match.phase == "bid" and len(legal) > 1:
        if LOOK in legal:
            return BLIND_NIL if rng.random() < 0.3 else LOOK
        if rng.random() < 0.75:
            want = suggested_bid(match.hands[match.turn], match.rules)
            want += rng.choice((-1, 0, 0, 0, 1))
            near = [a for a in legal if a != NIL and abs(a - BID_BASE - want) <= 0]
            if near:
                return near[0]
            if NIL in legal and want <= 0:
                return NIL
    return legal[int(rng.random() * len(legal))]


def step(match: Match, rng: random.Random, timeouts: bool) -> None:
    """One random step: a legal action, or (with the timer) sometimes a timeout."""
    if timeouts and rng.random() < 0.04:
        match.apply_timeout()
    else:
        match.apply(pick_action(match, rng))


def random_match(
    variant: Variant,
    seed: int,
    *,
    max_hands: int = 4,
    partial: bool = False,
) -> Match:
    """A match of random play: to its end or ``max_hands`` hands, then (``partial``) part
    of one more hand."""
    rng = random.Random(seed)
    match = Match(variant.rules(), rng=random.Random(seed * 7919 + 1))
    while not match.is_over() and len(match.results) < max_hands:
        step(match, rng, variant.timeouts)
    if partial and not match.is_over():
        n = match.n
        stop = rng.randrange(1, n + n * match.hand_size)
        for _ in range(stop):
            step(match, rng, variant.timeouts)
            if match.phase != "bid" and match.phase != "play":
                break
    return match


def illegal_actions(match: Match) -> list[int]:
    """Some actions that are not legal now (cards held but not allowed, cards not held,
    bids out of turn or out of range, nonsense numbers)."""
    legal = set(match.legal_actions())
    out: list[int] = [-1, 54, 63, 200]
    if match.phase == "play":
        seat = match.turn
        held = cards_of(match.hands[seat])
        out += [c for c in held if c not in legal][:3]
        other = match.hands[(seat + 1) % match.n]
        out += cards_of(other)[:2]
        out += [NIL, bid(3), BLIND_NIL, LOOK]
    elif match.phase == "bid":
        out += [bid(b) for b in range(0, 19) if bid(b) not in legal][:4]
        out += [a for a in (BLIND_NIL, LOOK) if a not in legal]
        out += cards_of(match.hands[match.turn])[:2]
    else:
        out += [0, bid(1)]
    return [a for a in out if a not in legal]


def snapshot(match: Match) -> Any:
    """Everything observable about a match, to compare before and after."""
    return (
        match.to_record(),
        [match.observation(s).to_json() for s in range(match.n)],
        match.phase,
        match.current_player,
        match.legal_actions(),
        tuple(match.hands),
        tuple(match.scores),
        tuple(match.bags),
        match.winner,
        match.broken,
        tuple(match.trick),
        tuple(match.tricks),
    )


def expect_illegal(match: Match, action: int) -> str:
    """Apply an illegal action: it must raise IllegalAction and change nothing."""
    before = snapshot(match)
    try:
        match.apply(action)
    except IllegalAction as exc:
        assert snapshot(match) == before
        return str(exc)
    raise AssertionError(f"action {action} was accepted")


def play_cards(match: Match, plays: Sequence[str]) -> None:
    for c in plays:
        match.apply(parse_card(c))


def build_deal(rules: Rules, fixed: dict[int, str], voids: dict[int, str] | None = None) -> list[int]:
    """A deal where ``fixed[seat]`` cards (``"AS KH"``) go to that seat and the rest of the
    deck fills the hands, keeping each seat of ``voids`` (``{1: "HS"}``) free of those suits.
    Deterministic."""
    voids = voids or {}
    n, size = rules.players, rules.hand_size
    masks = [hand(fixed.get(s, "")) for s in range(n)]
    used = 0
    for m in masks:
        assert not used & m, "a card is fixed twice"
        used |= m
    rest = [c for c in cards_of(rules.deck & ~used)]
    # Seats with voids pick first, from the suits they may hold.
    order = sorted(range(n), key=lambda s: -len(voids.get(s, "")))
    for s in order:
        banned = {"CDHS".index(x) for x in voids.get(s, "")}
        for c in list(rest):
            if masks[s].bit_count() >= size:
                break
            suit = 3 if c >= 52 else c // 13
            if suit not in banned:
                masks[s] |= 1 << c
                rest.remove(c)
    assert not rest and all(m.bit_count() == size for m in masks), "cannot complete the deal"
    return masks
