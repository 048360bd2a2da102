"""Every kind of table: each profile, each player count and kind of sides, and the house
variants, as (profile, rule knobs) for tests that run something under all of them; and a
first hand played to order (:func:`first_hand`, :func:`played_to`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from spades.engine import LOOK, NIL, OVER, HandResult, Match, profile

EVERY_TABLE: list[tuple[str, dict[str, Any]]] = [
    ("cardems", {}),
    ("cardgames-club", {}),
    ("game93", {}),
    ("cards4net", {}),
    ("cards4net", {"jokers": True}),
    ("cards4net", {"bidding": "mirror", "blind_nil": False}),
    ("cards4net", {"bidding": "suicide"}),
    ("cards4net", {"bidding": "whiz"}),
    ("race400", {"players": 3}),
    ("race400", {"players": 4}),
    ("race400", {"players": 4, "teams": [[0, 2], [1, 3]]}),
    ("race400", {"players": 5}),
    ("race400", {"players": 6}),
    ("race400", {"players": 6, "teams": [[0, 2, 4], [1, 3, 5]]}),
    ("race400", {"players": 6, "teams": [[0, 3], [1, 4], [2, 5]]}),
]

#: Test ids for :data:`EVERY_TABLE`: the profile, then each knob as ``-name=value``.
EVERY_TABLE_IDS = [name + "".join(f"-{k}={v}" for k, v in knobs.items())
                   for name, knobs in EVERY_TABLE]


def played_to(rules_name: str, bids: dict[int, int], seed: int,
              done: Callable[[Match], bool], **knobs: Any) -> Match:
    """A match of ``rules_name`` played until ``done(match)``: seat ``s`` bids ``bids[s]``
    (every other seat 1), each looking at its cards first, and plays its first legal card
    (the same cards, whatever the bids)."""
    match = Match(profile(rules_name, **knobs), rng=random.Random(seed))
    while not done(match):
        if match.phase == "deal":
            match.deal()
            continue
        legal = match.legal_actions()
        if LOOK in legal:
            match.apply(LOOK)
        elif match.phase == "bid":
            match.apply(NIL + bids.get(match.current_player, 1))
        else:
            match.apply(legal[0])
    return match


def first_hand(rules_name: str, bids: dict[int, int], seed: int, **knobs: Any) -> Match:
    """:func:`played_to` the end of the first hand."""
    return played_to(rules_name, bids, seed, lambda m: bool(m.results), **knobs)


def scored_hands(match: Match, bots: Sequence[Any], most: int) -> Iterator[HandResult]:
    """Play ``match`` with ``bots`` (one per seat, each with ``act(observation)``), giving
    each hand's result as it is scored, until the match is over or ``most`` hands are."""
    while match.phase is not OVER and len(match.results) < most:
        if match.phase == "deal":
            match.deal()
            continue
        seat = match.current_player
        done = len(match.results)
        match.apply(bots[seat].act(match.observation(seat)))
        if len(match.results) > done:
            yield match.results[-1]
