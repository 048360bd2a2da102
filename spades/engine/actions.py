"""Actions as small integers.

* ``0 .. 53``: play that card (see :mod:`spades.engine.cards`);
* ``BID_BASE + n``: bid ``n`` tricks, where ``n == 0`` is Nil;
* ``BLIND_NIL``: bid Blind Nil (before looking at the cards);
* ``LOOK``: look at the cards instead of bidding Blind Nil.
"""

from __future__ import annotations

import operator
from typing import Final

from spades.engine.cards import NUM_CARDS, card_name, card_str, parse_card
from spades.engine.errors import CardError, SpadesError

BID_BASE: Final = 64
NIL: Final = BID_BASE
BLIND_NIL: Final = 96
LOOK: Final = 97
MAX_BID: Final = 18


def whole_number(action: object) -> int | None:
    """``action`` as an int if it is a whole number of any integer type (an ``int``, a numpy
    integer: anything ``operator.index`` takes), else None: a bool (``True == 1`` is no
    card), a float even when whole, text, anything else."""
    if isinstance(action, bool) or type(action).__name__ in ("bool", "bool_"):  # numpy's too
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def bid_action(n: object) -> int:
    """The action of bidding ``n`` tricks (0 = Nil): a whole number 0 to 18 (numpy's
    integers too), else a :class:`SpadesError` (text is read by :func:`parse_bid`)."""
    number = whole_number(n)
    if number is None or not 0 <= number <= MAX_BID:
        hint = f" (parse_bid({n!r}) reads text)" if isinstance(n, str) else ""
        raise SpadesError(f"a bid is 0 (Nil) to {MAX_BID} tricks, not {n!r}{hint}"[:200])
    return BID_BASE + number


def is_bid(action: object) -> bool:
    """Whether ``action`` is a bid: a number bid, Nil or Blind Nil (not ``LOOK``).

    Like :meth:`~spades.engine.match.Match.is_legal` it answers for any value: an action of
    another integer type (numpy's) is that int; a bool, a float, text or ``None`` is no
    action, so no bid (False)."""
    if type(action) is int:  # the usual case first: no conversion
        return BID_BASE <= action <= BLIND_NIL
    number = whole_number(action)
    return number is not None and BID_BASE <= number <= BLIND_NIL


def is_play(action: object) -> bool:
    """Whether ``action`` plays a card (0 to 53); for any value, as :func:`is_bid`."""
    if type(action) is int:
        return 0 <= action < NUM_CARDS
    number = whole_number(action)
    return number is not None and 0 <= number < NUM_CARDS


def bid_value(action: object) -> int:
    """Tricks bid by a bid action (0 for Nil and Blind Nil); anything else (another
    action, text, a bool) is a :class:`SpadesError`."""
    number = whole_number(action)
    if number is None or not BID_BASE <= number <= BLIND_NIL:
        raise SpadesError(f"{action!r} is not a bid action: those are {BID_BASE} to "
                          f"{BLIND_NIL}"[:200])
    return 0 if number == BLIND_NIL else number - BID_BASE


def _an_action(action: object) -> int:
    """``action`` as an int (numpy integers too), or :class:`SpadesError` saying it is no
    action: a bool, a float, text, ``None``."""
    if type(action) is int:
        return action
    number = whole_number(action)
    if number is None:
        raise SpadesError(f"{action!r} is not an action: actions are whole numbers, cards 0 to 53"
                          f" and bids {BID_BASE} to {LOOK}"[:200])
    return number


def action_str(action: object) -> str:
    """``AS``, ``3``, ``nil``, ``blind-nil``, ``look``: the record's spelling. Anything that
    is no action (a number out of range, a bool, text) is a :class:`SpadesError`."""
    action = _an_action(action)
    if action == BLIND_NIL:
        return "blind-nil"
    if action == LOOK:
        return "look"
    if action == NIL:
        return "nil"
    if BID_BASE < action <= BID_BASE + MAX_BID:
        return str(action - BID_BASE)
    if 0 <= action < 54:
        return card_str(action)
    raise SpadesError(f"{action!r} is not an action")


def action_name(action: object) -> str:
    """An action in words, for people: ``bids 3``, ``plays the queen of hearts``; what is
    no action is a :class:`SpadesError`, as for :func:`action_str`."""
    action = _an_action(action)
    if action == BLIND_NIL:
        return "bids blind nil"
    if action == LOOK:
        return "looks at the cards"
    if action == NIL:
        return "bids nil"
    if BID_BASE < action <= BID_BASE + MAX_BID:
        return f"bids {action - BID_BASE}"
    if 0 <= action < 54:
        return f"plays the {card_name(action)}"
    raise SpadesError(f"{action!r} is not an action")


def parse_bid(value: object) -> int:
    """A record's bid (``3``, ``"nil"``, ``"blind-nil"``, ``0``) as an action."""
    if isinstance(value, bool):
        raise SpadesError(f"{value!r} is not a bid: use a number, 'nil' or 'blind-nil'")
    if isinstance(value, int):
        if 0 <= value <= MAX_BID:
            return BID_BASE + value
        raise SpadesError(f"{value} is not a bid: bids run from 0 (Nil) to the hand size")
    if isinstance(value, str):
        text = value.strip().lower().replace("_", "-").replace(" ", "-")
        if text == "nil":
            return NIL
        if text == "blind-nil":
            return BLIND_NIL
        if text.isdigit():  # also true of '²' and of more digits than int() reads
            try:
                number = int(text)
            except ValueError:
                number = -1
            if number >= 0:
                return parse_bid(number)
    raise SpadesError(f"{value!r} is not a bid: use a number, 'nil' or 'blind-nil'")


_ACTION_HELP: Final = "a card like 'QH' or '10H', a bid like '3' or 'nil', 'blind-nil' or 'look'"


def parse_action(text: object) -> int:
    """A card (``QH``, as :func:`parse_card` reads it), a bid (``3``, ``nil``,
    ``blind-nil``) or ``look``.

    Raises :class:`CardError` (a :class:`SpadesError`) saying what is wrong: text that is
    none of these (``'bid 3' is not an action: write a card like 'QH' ...``), a bid out of
    range, a bare ``joker``, or a value that is not text.
    """
    if not isinstance(text, str):
        raise CardError(f"an action to parse is text ({_ACTION_HELP}), not {text!r}"[:200])
    t = text.strip().lower()
    if t == "look":
        return LOOK
    if t.isdigit() or t.replace("_", "-").replace(" ", "-") in ("nil", "blind-nil"):
        return parse_bid(t)
    try:
        return parse_card(text)
    except CardError:
        if t == "joker":  # "joker: say big joker or little joker"
            raise
    quoted = repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text)} characters)"
    raise CardError(f"{quoted} is not an action: write {_ACTION_HELP}")
