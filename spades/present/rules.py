"""The rules in words, where more than one app says them: pure text from the engine's
:class:`~spades.engine.Rules` (its own data, not a second copy of the rules' knowledge).

>>> from spades.engine import profile
>>> deck_sentence(profile("race400", players=3))
'The two of clubs is removed so that the deck divides evenly: 51 cards, 17 each.'
"""

from __future__ import annotations

from spades.engine import Rules, card_name, cards_of
from spades.engine.cards import FULL_DECK, JOKER_MASK
from spades.present.narrate import listing


def deck_sentence(rules: Rules) -> str | None:
    """Which cards leave the 52-card deck and which come in under ``rules`` (the twos taken
    out so that every player gets as many cards, the jokers added), with the deck's size and
    each hand's; ``None`` for the plain 52-card deck."""
    removed = cards_of(FULL_DECK & ~rules.deck)  # 2C, 2D, 2H, 2S: the engine's order
    added = cards_of(rules.deck & JOKER_MASK)[::-1]  # the big joker first
    if not removed and not added:
        return None
    size = f"{rules.deck.bit_count()} cards, {rules.hand_size} each"
    jokers = ("the big and little jokers" if len(added) == 2
              else listing([f"the {card_name(c)}" for c in added]))
    joined = f"{jokers} {'are' if len(added) > 1 else 'is'} added"
    if not removed:
        return f"{joined[:1].upper()}{joined[1:]}: {size}."
    gone = (listing([f"the {card_name(c)}" for c in removed])
            + (" are" if len(removed) > 1 else " is") + " removed")
    gone = gone[:1].upper() + gone[1:]
    if added:
        return f"{gone}; {joined}: {size}."
    return f"{gone} so that the deck divides evenly: {size}."


__all__ = ["deck_sentence"]
