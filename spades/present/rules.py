"""The rules in words, where more than one app says them: pure text from the engine's
:class:`~spades.engine.Rules` (its own data, not a second copy of the rules' knowledge).

>>> from spades.engine import profile
>>> deck_sentence(profile("race400", players=3))
'The two of clubs is removed so that the deck divides evenly: 51 cards, 17 each.'
"""

from __future__ import annotations

from spades.engine import Rules, card_name, cards_of
from spades.engine.cards import FULL_DECK, JOKER_MASK
from spades.present.words import listing


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


#: The name of the 10-for-200 rule (``Rules.ten_for_200``), as it is said.
TEN_FOR_200 = "10 for 200"


def ten_for_200_words(rules: Rules) -> str:
    """The 10-for-200 rule in words, for the rules and for a hand it scores:
    ``10 for 200: a contract of exactly 10 scores +200 made, -200 set``."""
    worth = 2 * 10 * 10  # 20 a trick bid instead of 10 (spades.engine.scoring)
    return (f"{TEN_FOR_200}: a contract of exactly 10 scores +{worth} made, -{worth} set"
            if rules.ten_for_200 else "")


def ten_for_200_note(rules: Rules, contract: int, made: bool) -> str:
    """The 10-for-200 rule named briefly where a hand's points are summed (the score sheet,
    the "hand N scored" sentence), for a contract it scores: ``10 for 200, set`` or ``10
    for 200, made`` ("" when the rule is off or the contract is not 10)."""
    if not rules.ten_for_200 or contract != 10:
        return ""
    return f"{TEN_FOR_200}, {'made' if made else 'set'}"


def small_bonus_words(rules: Rules) -> str:
    """The small contract bonus, said the same in the rules and in a hand that earns it:
    ``a contract of 1 or 2 made exactly`` ("" without one)."""
    return "a contract of 1 or 2 made exactly" if rules.small_contract_bonus else ""


def hard_bonus_words(rules: Rules) -> str:
    """The hard contract bonus, said the same in the rules and in a hand that earns it:
    ``a made contract above 6`` ("" without one)."""
    if rules.hard_contract_from is None:
        return ""
    return f"a made contract above {rules.hard_contract_from}"


#: What the hard contract bonus is worth, after :func:`hard_bonus_words`.
HARD_BONUS_EACH = "10 for each trick above it"


def bonus_rules(rules: Rules) -> list[str]:
    """The contract bonuses of ``rules`` as the rules say them: ``A contract of 1 or 2 made
    exactly earns +20.``, ``A made contract above 6 earns +10 for each trick above it.``"""
    lines = []
    if small := small_bonus_words(rules):
        lines.append(f"{small[:1].upper()}{small[1:]} earns +{rules.small_contract_bonus}.")
    if hard := hard_bonus_words(rules):
        lines.append(f"{hard[:1].upper()}{hard[1:]} earns +{HARD_BONUS_EACH}.")
    return lines


def bonus_note(rules: Rules, contract: int) -> str:
    """Which bonus a made ``contract`` earned, briefly, where a hand's points are summed
    (the score sheet): ``for a contract of 1 or 2 made exactly``, ``for a made contract
    above 6`` ("" when no bonus applies); :func:`bonus_words` says what it is worth too."""
    if contract in (1, 2) and rules.small_contract_bonus:
        return f"for {small_bonus_words(rules)}"
    if rules.hard_contract_from is not None and contract > rules.hard_contract_from:
        return f"for {hard_bonus_words(rules)}"
    return ""


def bonus_words(rules: Rules, contract: int) -> str:
    """Why a made ``contract`` earned a bonus, in the rules' words: ``for a contract of 1 or
    2 made exactly``, ``for a made contract above 6, 10 for each trick above it`` ("" when
    no bonus applies)."""
    note = bonus_note(rules, contract)
    hard = note and not (contract in (1, 2) and rules.small_contract_bonus)
    return f"{note}, {HARD_BONUS_EACH}" if hard else note


def winning_rule(rules: Rules) -> str:
    """How the match is won, as the rules say it and as the end of the match gives it for its
    reason: ``The first side to reach 500 points with the highest score wins; a tie at the top
    plays on.`` (``player`` when everyone plays alone), or the one-hand match's rule."""
    if rules.one_hand:
        return "One-hand match: the higher score after one hand wins; equal scores draw."
    who = "player" if rules.teams is None else "side"
    return (f"The first {who} to reach {rules.target} points with the highest score wins; a "
            "tie at the top plays on.")


def forced_bid_sentence(bidding: str, bid: int) -> str:
    """Why the game bids ``bid`` for you, your only bid under ``bidding`` (before "You bid
    4."): the rule that leaves you no choice, in words."""
    if bidding == "mirror":
        if bid == 0:
            return "Mirror bidding: you hold no spades, so the game bids Nil for you."
        return ("Mirror bidding: your bid is the number of spades you hold, so the game bids "
                "it for you.")
    if bidding == "whiz" and bid == 0:
        return "Whiz bidding: you hold no spades, so your only bid is Nil; the game bids it for you."
    if bidding == "suicide" and bid == 0:
        return ("Suicide bidding: nobody else on your side has bid Nil, so you must; the game "
                "bids it for you.")
    return f"Only one bid is allowed ({bidding} bidding), so the game bids it for you."


__all__ = ["HARD_BONUS_EACH", "TEN_FOR_200", "bonus_note", "bonus_rules", "bonus_words",
           "deck_sentence", "forced_bid_sentence", "hard_bonus_words", "small_bonus_words",
           "ten_for_200_note", "ten_for_200_words", "winning_rule"]
