"""Cards, masks and actions given values that are not cards or actions: a clear SpadesError."""

from __future__ import annotations

import re

import pytest

from spades.engine import (
    BID_BASE,
    BLIND_NIL,
    CardError,
    Match,
    SpadesError,
    action_name,
    action_str,
    card_name,
    card_str,
    card_symbol,
    cards_of,
    mask_of,
    parse_action,
    parse_bid,
    parse_card,
    profile,
)
from spades.engine.cards import iter_cards


@pytest.mark.parametrize("text", ["\u00b2", "\u2460", "9" * 5000, "3\u00b2"],
                         ids=["superscript", "circled", "5000-digits", "3-superscript"])
def test_digits_that_are_no_number_are_not_a_bid(text: str) -> None:
    # str.isdigit() is true of them, int() refuses them: a bare ValueError before.
    with pytest.raises(SpadesError, match="is not a bid"):
        parse_bid(text)
    with pytest.raises(SpadesError, match="is not a bid"):
        parse_action(text)


def test_digits_that_are_a_number_are_a_bid() -> None:
    assert parse_bid("4") == parse_action(" 4 ") == BID_BASE + 4
    assert parse_bid("0") == BID_BASE


@pytest.mark.parametrize("card", [-1, 54, 60, 1 << 70])
def test_a_number_that_is_no_card_is_refused_by_name(card: int) -> None:
    # card_name(-1) was "ace of spades"; card_str(60), card_name(54) an IndexError.
    for show in (card_str, card_name, card_symbol):
        with pytest.raises(CardError, match=f"{card} is not a card"):
            show(card)
    with pytest.raises(CardError, match="is not a card"):
        mask_of([0, card])
    with pytest.raises(SpadesError, match=f"{card} is not an action"):
        action_name(card)
    with pytest.raises(SpadesError, match=f"{card} is not an action"):
        action_str(card)


@pytest.mark.parametrize("value", ["x", None, 3.5, True, False, [1]])
def test_what_is_no_action_is_refused_by_name_in_either_build(value: object) -> None:
    # Pure Python raised a bare TypeError comparing str and int for 'x'; the compiled build
    # said "int object expected" and spelt True as the three of clubs.
    for show in (action_str, action_name):
        with pytest.raises(SpadesError, match=rf"^{re.escape(repr(value))} is not an action: "
                                              r"actions are whole numbers"):
            show(value)


def test_an_action_of_another_integer_type_is_that_action() -> None:
    numpy = pytest.importorskip("numpy")
    assert action_str(numpy.int64(BID_BASE + 3)) == "3"
    assert action_name(numpy.int16(49)) == "plays the queen of spades"


def test_bid_and_play_helpers_refuse_what_is_not_theirs() -> None:
    # bid_value(3) was -61 and bid_value(LOOK) 33; is_play(60) was True (no card is 60);
    # sorted_for_display(-1) listed all 54 cards.
    from spades.engine import LOOK, bid_action, bid_value, is_play, sorted_for_display

    for action in (3, LOOK, -1, 200):
        with pytest.raises(SpadesError, match=rf"^{action} is not a bid action"):
            bid_value(action)
    assert bid_value(bid_action(4)) == 4 and bid_value(BID_BASE) == 0
    assert [is_play(a) for a in (0, 53, 54, 60, BID_BASE, -1)] == [True, True] + [False] * 4
    with pytest.raises(CardError, match=r"^-1 is not a card mask"):
        sorted_for_display(-1)
    for n in (-1, 19):
        with pytest.raises(SpadesError, match=rf"^a bid is 0 \(Nil\) to 18 tricks, not {n}"):
            bid_action(n)


def test_every_card_and_action_still_has_its_names() -> None:
    assert [card_str(c) for c in (0, 34, 51, 52, 53)] == ["2C", "TH", "AS", "LJ", "BJ"]
    assert card_name(0) == "two of clubs" and card_symbol(34) == "10\u2665"
    assert action_name(parse_card("QH")) == "plays the queen of hearts"
    assert action_name(BID_BASE + 3) == "bids 3" and action_name(BLIND_NIL) == "bids blind nil"
    assert mask_of([0, 53]) == 1 | 1 << 53


def test_a_negative_mask_is_refused_rather_than_looping_for_ever() -> None:
    # A negative int has no highest bit: cards_of(-1) never returned.
    with pytest.raises(CardError, match="-1 is not a card mask"):
        cards_of(-1)
    with pytest.raises(CardError, match="-8 is not a card mask"):
        next(iter_cards(-8))
    assert cards_of(0b1011) == list(iter_cards(0b1011)) == [0, 1, 3]


def test_a_deal_with_a_bit_that_is_no_card_names_the_seat() -> None:
    # Bit 60 above a whole suit of spades: an IndexError from inside card_str before.
    hands = [0x1FFF << (13 * suit) for suit in range(4)]
    match = Match(profile("cardems"), dealer=0)
    with pytest.raises(SpadesError, match="seat 3: a hand must be a card mask, and bit 60 is no card"):
        match.deal(hands[:3] + [hands[3] | 1 << 60])
    match.deal(hands)
    assert match.phase == "bid"


@pytest.mark.parametrize("text, card", [
    ("ace spades", "AS"), ("queen hearts", "QH"), ("Queen  Hearts", "QH"), ("10 hearts", "TH"),
    ("two club", "2C"), ("k diamonds", "KD"), ("queen of hearts", "QH"),
    ("big joker", "BJ"), ("little joker", "LJ")])
def test_a_card_in_words_may_leave_out_of(text: str, card: str) -> None:
    """``ace spades`` was refused as not a card while ``ace of spades`` was read."""
    assert parse_card(text) == parse_card(card)


@pytest.mark.parametrize("text", ["spades ace", "ace of", "of spades", "ace spades hearts",
                                  "ace in spades", "queen heart of", "ace joker", "big",
                                  "joker joker", "eleven spades", "ace sp"])
def test_words_that_are_no_card_are_still_refused(text: str) -> None:
    with pytest.raises(CardError, match=rf"^{text!r} is not a card"):
        parse_card(text)


@pytest.mark.parametrize("text", ["joker", " Joker ", "JOKER"])
def test_a_bare_joker_asks_which(text: str) -> None:
    """A joker deck holds two: "joker" alone cannot say which."""
    with pytest.raises(CardError, match=r"^joker: say big joker or little joker$"):
        parse_card(text)


def test_a_card_as_card_symbol_writes_it_is_read_back() -> None:
    # spades hint printed "Seat 0 holds 2♥ 3♥ ... 10♣ J♣", and the same cards given back to
    # spades hint --hand were refused: "'2♥' is not a card" (parse_card read no symbol).
    for card in range(54):
        assert parse_card(card_symbol(card)) == card
        assert parse_card(card_symbol(card).lower()) == card
    assert parse_card("q♡") == parse_card("QH") == parse_card("Q\u2665\ufe0f")
    assert parse_card("10♤") == parse_card("TS") and parse_card("2♧") == parse_card("2C")
    assert parse_card("A♢") == parse_card("AD")
    with pytest.raises(CardError, match=r"^'♥Q' is not a card: write rank then suit"):
        parse_card("♥Q")


ACTION_HELP = "a card like 'QH' or '10H', a bid like '3' or 'nil', 'blind-nil' or 'look'"


@pytest.mark.parametrize("text", ["x", "bid 3", "-1", "AS-not-legal", "three", "11H"])
def test_text_that_is_no_action_is_refused_as_an_action(text: str) -> None:
    # parse_action said "'bid 3' is not a card: write it like 'queen of hearts' or 'QH'":
    # an external bot asked for a bid was told to write a card.
    with pytest.raises(CardError) as caught:
        parse_action(text)
    assert str(caught.value) == f"{text!r} is not an action: write {ACTION_HELP}"


def test_a_long_text_that_is_no_action_is_quoted_briefly() -> None:
    with pytest.raises(CardError, match=r"^'x{40}'\.\.\. \(5000 characters\) is not an action"):
        parse_action("x" * 5000)


@pytest.mark.parametrize("value", [3, 3.0, None, b"QH", ["QH"]])
def test_a_value_that_is_no_text_is_refused_by_parse_action(value: object) -> None:
    # parse_action(3) raised AttributeError: 'int' object has no attribute 'strip'.
    with pytest.raises(CardError, match=rf"^an action to parse is text \({ACTION_HELP}\), "
                                        rf"not {re.escape(repr(value))}$"):
        parse_action(value)


def test_parse_action_reads_every_bid_spelling_parse_bid_reads() -> None:
    assert parse_action("blind_nil") == parse_action("Blind Nil") == BLIND_NIL
    assert parse_action("big joker") == parse_card("BJ")
    with pytest.raises(CardError, match=r"^joker: say big joker or little joker$"):
        parse_action("joker")


class _Index:
    """An integer type of its own, as numpy's are (``__index__``)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize("value", ["x", "70", "QH", None, 70.0, 5.0, True, False, [70], b"F",
                                   object()])
def test_the_action_predicates_say_no_to_what_is_no_action(value: object) -> None:
    # is_bid('x') was TypeError: '<=' not supported between instances of 'int' and 'str'
    # (and is_play(True) was True): a predicate answers, as match.is_legal does, and like it
    # takes no bool, float or text for an action.
    from spades.engine import is_bid, is_play

    assert is_bid(value) is False
    assert is_play(value) is False
    assert Match(profile("cardems"), rng=__import__("random").Random(1)).is_legal(value) is False


def test_the_action_predicates_take_any_integer_type() -> None:
    from spades.engine import LOOK, is_bid, is_play

    for kind in (int, _Index):
        assert [is_bid(kind(a)) for a in (BID_BASE - 1, BID_BASE, BLIND_NIL, LOOK)] == [
            False, True, True, False]
        assert [is_play(kind(a)) for a in (-1, 0, 53, 54)] == [False, True, True, False]
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with the learn extra
        return
    assert is_bid(np.int64(BID_BASE + 3)) and is_play(np.int8(5))
    assert not is_bid(np.bool_(True)) and not is_play(np.bool_(True))
