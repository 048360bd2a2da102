"""Cards as small integers and hands as bitmasks.

A card is an ``int``: ``suit * 13 + rank`` for the 52 ordinary cards, where suits are
clubs 0, diamonds 1, hearts 2, spades 3 and ranks run from 0 (the two) to 12 (the ace).
The little joker is 52 and the big joker 53. Jokers belong to the spade suit, so within a
suit a larger number is a stronger card, and every trump (spades and jokers) is numbered
above every other card.

A set of cards (a hand, the cards played so far) is an ``int`` with one bit per card, so
following suit is ``hand & SUIT_MASKS[led] or hand``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import Final

from spades.engine.errors import CardError

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final[tuple[int, ...]] = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS: Final = "CDHS"
SUIT_NAMES: Final[tuple[str, ...]] = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final[tuple[str, ...]] = ("♣", "♦", "♥", "♠")
RANK_LETTERS: Final = "23456789TJQKA"
RANK_NAMES: Final[tuple[str, ...]] = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)

LITTLE_JOKER: Final = 52
BIG_JOKER: Final = 53
NUM_CARDS: Final = 54

#: The suit of every card (jokers are spades).
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52)) + (SPADES, SPADES)
#: The rank of every card, 0 (two) .. 12 (ace), 13 little joker, 14 big joker.
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52)) + (13, 14)

SUIT_MASKS: Final[tuple[int, ...]] = (
    0x1FFF,
    0x1FFF << 13,
    0x1FFF << 26,
    (0x1FFF << 39) | (1 << LITTLE_JOKER) | (1 << BIG_JOKER),
)
SPADE_MASK: Final = SUIT_MASKS[SPADES]
NON_SPADE_MASK: Final = SUIT_MASKS[CLUBS] | SUIT_MASKS[DIAMONDS] | SUIT_MASKS[HEARTS]
JOKER_MASK: Final = (1 << LITTLE_JOKER) | (1 << BIG_JOKER)
FULL_DECK: Final = (1 << 52) - 1

_TWOS_IN_REMOVAL_ORDER: Final[tuple[int, ...]] = (0, 13, 26, 39)  # 2C, 2D, 2H, 2S


def deck_mask(players: int, jokers: bool = False) -> int:
    """The cards in play: 52 (or 54 with jokers) less as many twos as needed, in the
    order 2C, 2D, 2H, 2S, for every player to get the same number of cards."""
    mask = FULL_DECK | (JOKER_MASK if jokers else 0)
    extra = (54 if jokers else 52) % players
    for card in _TWOS_IN_REMOVAL_ORDER[:extra]:
        mask &= ~(1 << card)
    return mask


def _check_card(card: object) -> int:
    """``card`` if it is a card's number, else :class:`CardError` saying what cards are."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < NUM_CARDS:
        hint = (f" (parse_card({card!r}) reads text)"
                if isinstance(card, str) and len(card) <= 20 else "")
        raise CardError(f"{card!r} is not a card: cards are numbered 0 to {NUM_CARDS - 1}"
                        f"{hint}"[:200])
    return card


def card_str(card: object) -> str:
    """``AS``, ``TH``, ``2C``; ``LJ`` and ``BJ`` for the jokers."""
    card = _check_card(card)
    if card == LITTLE_JOKER:
        return "LJ"
    if card == BIG_JOKER:
        return "BJ"
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def card_name(card: object) -> str:
    """A card in words: ``queen of hearts``, ``big joker``."""
    card = _check_card(card)
    if card == LITTLE_JOKER:
        return "little joker"
    if card == BIG_JOKER:
        return "big joker"
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def card_symbol(card: object) -> str:
    """A short form with a suit symbol: ``Q♥``, ``10♠``, ``BJ``."""
    card = _check_card(card)
    if card >= LITTLE_JOKER:
        return card_str(card)
    rank = RANK_LETTERS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


_WORD_RANKS: Final[dict[str, int]] = {name: i for i, name in enumerate(RANK_NAMES)}
_WORD_RANKS.update({"deuce": 0, "10": 8, "jack": 9, "j": 9, "q": 10, "k": 11, "a": 12})
_WORD_RANKS.update({str(i + 2): i for i in range(9)})
_WORD_SUITS: Final[dict[str, int]] = {name: i for i, name in enumerate(SUIT_NAMES)}
_WORD_SUITS.update({name[:-1]: i for i, name in enumerate(SUIT_NAMES)})


#: Suit symbols read as suit letters: card_symbol's and their outline forms.
_SYMBOL_SUITS: Final[dict[str, str]] = {
    sym: letter
    for syms, letter in (("♣♧", "C"), ("♦♢", "D"), ("♥♡", "H"), ("♠♤", "S"))
    for sym in syms
}


def parse_card(text: object) -> int:
    """Parse ``AS``, ``th``, ``10H``, ``Q♥`` (as :func:`card_symbol` writes it), ``BJ``,
    ``LJ`` or words (``queen of hearts``,
    ``queen hearts``, ``big joker``; a bare ``joker`` is refused: which one?).

    Raises :class:`CardError` saying what is wrong with the text.
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be a string like 'AS', not {text!r}")
    s = text.strip().upper().removesuffix("\ufe0f")  # (a symbol shown as an emoji)
    if s and s[-1] in _SYMBOL_SUITS:  # as card_symbol writes it: Q♥, 10♠ (also ♡ ♤ ♢ ♧)
        s = s[:-1] + _SYMBOL_SUITS[s[-1]]
    if s in ("BJ", "LJ"):
        return BIG_JOKER if s == "BJ" else LITTLE_JOKER
    if " " in s or s == "JOKER":
        return _parse_words(text)
    if len(s) == 3 and s.startswith("10"):
        s = "T" + s[2]
    if len(s) != 2 or s[0] not in RANK_LETTERS or s[1] not in SUIT_LETTERS:
        raise CardError(
            f"{text!r} is not a card: write rank then suit, like 'AS', 'TH', '10H' or '2C'"
        )
    return SUIT_LETTERS.index(s[1]) * 13 + RANK_LETTERS.index(s[0])


def _parse_words(text: str) -> int:
    words = text.strip().lower().split()
    if words in (["big", "joker"], ["little", "joker"]):
        return BIG_JOKER if words[0] == "big" else LITTLE_JOKER
    if words == ["joker"]:  # a deck with jokers holds both
        raise CardError("joker: say big joker or little joker")
    if len(words) == 3 and words[1] == "of":  # "queen of hearts", or "queen hearts"
        words = [words[0], words[2]]
    if len(words) == 2 and words[0] in _WORD_RANKS and words[1] in _WORD_SUITS:
        return _WORD_SUITS[words[1]] * 13 + _WORD_RANKS[words[0]]
    raise CardError(f"{text!r} is not a card: write it like 'queen of hearts' or 'QH'")


def _mask_arg(mask: object, who: str) -> int:
    """``mask`` as an int: a card mask of any integer type (numpy's too), never a bool;
    else a ``TypeError`` saying that ``who`` takes a mask."""
    if type(mask) is int:
        hand: int = mask
    else:
        try:
            if isinstance(mask, bool) or type(mask).__name__ == "bool_":  # numpy's too
                raise TypeError
            hand = operator.index(mask)  # type: ignore[arg-type]
        except TypeError:
            hint = (" (mask_of(parse_card(c) for c in text.split()) reads cards' text)"
                    if isinstance(mask, str) else "")
            raise TypeError(f"{who} takes a card mask (a whole number: mask_of(cards)), "
                            f"not {mask!r}"[:200] + hint) from None
    if hand < 0:
        raise CardError(f"{hand} is not a card mask: a mask is 0 or more")
    return hand


def cards_of(mask: object) -> list[int]:
    """The cards of a bitmask in ascending order. The mask is an ``int`` or a whole number
    of another integer type (numpy's); anything else is a ``TypeError`` saying so.

    >>> cards_of(0b1011)
    [0, 1, 3]
    """
    return cards_of_int(_mask_arg(mask, "cards_of"))


def cards_of_int(mask: int) -> list[int]:
    """:func:`cards_of` for a plain ``int`` mask, without checking its type: the engine's
    and the search's own masks."""
    if mask < 0:  # it has no highest bit: the loop below would never end
        raise CardError(f"{mask} is not a card mask: a mask is 0 or more")
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """The cards of a bitmask in ascending order, one at a time."""
    if mask < 0:
        raise CardError(f"{mask} is not a card mask: a mask is 0 or more")
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[object]) -> int:
    """The bitmask of some cards (card numbers, as :func:`parse_card` gives them)."""
    given: object = cards  # (typed as given: compiled, a narrowed name is cast)
    if not isinstance(given, Iterable) or isinstance(given, str):
        raise TypeError(f"mask_of takes cards, like mask_of([parse_card('AS'), 36]), "
                        f"not {given!r}"[:200])
    mask = 0
    for c in cards:
        mask |= 1 << _check_card(c)
    return mask


#: Seed 002's display order: hearts, spades, diamonds, clubs, weakest first in each.
DISPLAY_SUIT_ORDER: Final[tuple[int, ...]] = (HEARTS, SPADES, DIAMONDS, CLUBS)


def sorted_for_display(mask: object) -> list[int]:
    """A hand sorted as seed 002 sorts it: hearts, spades, diamonds, clubs, weakest first."""
    hand = _mask_arg(mask, "sorted_for_display")  # numpy's integers too; never a bool
    out: list[int] = []
    for suit in DISPLAY_SUIT_ORDER:
        out.extend(cards_of_int(hand & SUIT_MASKS[suit]))
    return out


def count_spades(mask: int) -> int:
    """Trumps held: spades and jokers."""
    return (mask & SPADE_MASK).bit_count()


def lowest(mask: int) -> int:
    """The weakest card of a non-empty mask (-1 for an empty one)."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The strongest card of a mask (-1 for an empty one)."""
    return mask.bit_length() - 1


def above(card: int) -> int:
    """Cards of the same suit stronger than ``card``."""
    return SUIT_MASKS[SUIT_OF[card]] & ~((2 << card) - 1)


def below(card: int) -> int:
    """Cards of the same suit weaker than ``card``."""
    return SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1)
