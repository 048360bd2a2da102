"""Which cards leave the deck and which come in, said from the engine's own deck."""

from __future__ import annotations

import re

import pytest

from spades.engine import PROFILES, card_name, cards_of, profile
from spades.engine.cards import FULL_DECK, JOKER_MASK
from spades.present import deck_sentence


@pytest.mark.parametrize("rules, said", [
    (profile("cards4net", jokers=True), "The two of clubs and the two of diamonds are removed; "
                                        "the big and little jokers are added: 52 cards, 13 each."),
    (profile("race400", players=3), "The two of clubs is removed so that the deck divides "
                                    "evenly: 51 cards, 17 each."),
    (profile("race400", players=5), "The two of clubs and the two of diamonds are removed so "
                                    "that the deck divides evenly: 50 cards, 10 each."),
    (profile("race400", players=6), "The two of clubs, the two of diamonds, the two of hearts "
                                    "and the two of spades are removed so that the deck divides "
                                    "evenly: 48 cards, 8 each."),
    (profile("race400", players=3, jokers=True), "The big and little jokers are added: 54 "
                                                 "cards, 18 each."),
    (profile("cardems"), None),
    (profile("race400", players=4), None),
])
def test_the_deck_in_words(rules: object, said: str | None) -> None:
    assert deck_sentence(rules) == said  # type: ignore[arg-type]


NAMES = {card_name(c): c for c in range(54)}


@pytest.mark.parametrize("name", list(PROFILES))
@pytest.mark.parametrize("players", range(3, 7))
@pytest.mark.parametrize("jokers", [False, True])
def test_the_cards_named_are_the_engines(name: str, players: int, jokers: bool) -> None:
    """Every profile and table size: the cards said removed and added are exactly those the
    engine leaves out of a full deck and adds to it, and the count is the engine's."""
    counts, _ = PROFILES[name]
    if players not in counts:
        return
    rules = profile(name, players=players, jokers=jokers)
    said = deck_sentence(rules)
    removed = cards_of(FULL_DECK & ~rules.deck)
    added = cards_of(rules.deck & JOKER_MASK)
    if not removed and not added:
        assert said is None
        return
    assert said is not None
    head, _, count = said.partition(": ")
    assert count == f"{rules.deck.bit_count()} cards, {rules.hand_size} each."
    gone_part, _, added_part = head.partition("; ") if "; " in head else (
        (head, "", "") if "removed" in head else ("", "", head))
    named = {NAMES[n] for n in re.findall(r"(?i:the) (\w+ of \w+)", gone_part)}
    assert named == set(removed), said
    assert ("the big and little jokers are added" in added_part.lower()) == bool(added), said
