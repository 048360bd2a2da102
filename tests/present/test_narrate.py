"""The narrator: one sentence per event, with the right names for the listener."""

from __future__ import annotations

import random
import re

import pytest

from spades.engine import (
    BLIND_NIL,
    LOOK,
    NIL,
    BagWarning,
    BiddingClosed,
    BidMade,
    CardPlayed,
    ContractDecided,
    Event,
    HandDealt,
    HandScored,
    LookedAtCards,
    Match,
    MatchOver,
    NilDecided,
    SideHand,
    SpadesBroken,
    TimedOut,
    TrickWon,
    bid_action,
    parse_card,
    profile,
)
from spades.present import Narrator, bag_warning, seat_names

CARDEMS = profile("cardems")
T6 = ((0, 2, 4), (1, 3, 5))


def side_hand(side: int, **parts: int) -> SideHand:
    values = {"contract": 7, "tricks": 8, "made": True, "contract_points": 70,
              "overtrick_points": 1, "nil_points": 0, "bonus_points": 0,
              "loose_trick_points": 0, "bag_penalty_points": 0, "timer_penalty_points": 0,
              "points": 71, "score": 171, "new_bags": 1, "timer_bags": 0, "bags": 4}
    values.update(parts)
    return SideHand(side=side, **values)  # type: ignore[arg-type]


def test_seat_words_for_each_listener() -> None:
    bid = BidMade(2, 4)
    assert Narrator(CARDEMS).say(bid) == "South bids 4."
    assert Narrator(CARDEMS, me=2).say(bid) == "You bid 4."
    assert Narrator(CARDEMS, me=0).say(bid) == "Your partner South bids 4."
    assert Narrator(CARDEMS, me=1).say(bid) == "South bids 4."
    assert Narrator(CARDEMS, me=1).say(BidMade(3, 0)) == "Your partner West bids Nil."
    assert Narrator(CARDEMS).say(BidMade(0, 0, blind=True)) == "North bids Blind Nil."


def test_nil_and_blind_nil_are_named_as_the_page_names_them() -> None:
    """The bids' names are capitalised, as on the page's buttons and cards ("Nil", "Blind
    Nil"), for every seat and every listener; a number stays a number."""
    for me in (None, 0, 1, 2, 3):
        n = Narrator(CARDEMS, me=me)
        for seat in range(4):
            said = n.say(BidMade(seat, 0))
            assert said.endswith(" Nil.") and "nil" not in said, said
            said = n.say(BidMade(seat, 0, blind=True))
            assert said.endswith(" Blind Nil.") and "nil" not in said, said
            for made, blind in ((True, False), (False, True)):
                said = n.say(NilDecided(seat, made, blind, 3))
                assert ("Blind Nil is" if blind else " Nil is") in said, said
                assert "nil" not in said, said
    assert Narrator(CARDEMS, me=2).say(BidMade(2, 0)) == "You bid Nil."
    assert Narrator(CARDEMS, me=2).say(BidMade(2, 0, blind=True)) == "You bid Blind Nil."
    assert Narrator(CARDEMS).say(BidMade(1, 0)) == "East bids Nil."
    assert Narrator(CARDEMS, me=2).say(BidMade(2, 3)) == "You bid 3."


def test_the_apps_names_are_used_and_checked() -> None:
    names = ("Ann", "Bob", "Cy", "Di")
    n = Narrator(CARDEMS, names=names, me=0)
    assert n.say(BidMade(2, 3)) == "Your partner Cy bids 3."
    assert n.say(CardPlayed(1, parse_card("QH"), 1)) == "Bob plays the queen of hearts."
    with pytest.raises(ValueError, match="names: 4 seat names are needed, not 3"):
        Narrator(CARDEMS, names=("a", "b", "c"))
    with pytest.raises(ValueError, match="me: a seat from 0 to 3"):
        Narrator(CARDEMS, me=4)
    # Narrator("cardems") was AttributeError: 'str' object has no attribute 'players'.
    with pytest.raises(TypeError, match=r"^rules must be a Rules, like profile\('cardems'\), "
                                        r"not 'cardems'$"):
        Narrator("cardems")  # type: ignore[arg-type]
    assert seat_names(profile("race400", players=5)) == tuple(f"Seat {s}" for s in range(5))
    assert seat_names(CARDEMS, ["Ann", None, "", "Di"]) == ("Ann", "East", "South", "Di")


def test_a_players_name_is_told_as_written_at_the_start_of_a_sentence() -> None:
    # spades replay --events said "Dave bids 1.", "EBay bids Nil.", "Van Dyke bids 2." while
    # the score sheet (and the terminal's status) kept "dave", "eBay" and "van Dyke".
    n = Narrator(CARDEMS, names=("dave", "eBay", "van Dyke", "o'neil"))
    assert n.say(BidMade(0, 1)) == "dave bids 1."
    assert n.say(BidMade(1, 0)) == "eBay bids Nil."
    assert n.say(CardPlayed(2, parse_card("QH"), 1)) == "van Dyke plays the queen of hearts."
    assert n.say(NilDecided(1, False, False, 3)) == "eBay's Nil is broken."
    assert n.say(MatchOver(0, (500, 310))) == "dave and van Dyke win the match with 500 points."
    # the narrator's own words still open with a capital
    assert n.say(HandDealt(2, 3)) == "Hand 2: o'neil deals and dave bids first."
    assert Narrator(CARDEMS, names=("dave", "e", "f", "g"), me=0).say(BidMade(0, 1)) == (
        "You bid 1.")


def test_deal_look_play_trick_and_spades() -> None:
    n = Narrator(CARDEMS, me=3)
    assert n.say(HandDealt(2, 3)) == "Hand 2: you deal and North bids first."
    assert n.say(HandDealt(3, 0)) == "Hand 3: North deals and your partner East bids first."
    assert n.say(LookedAtCards(3)) == "You look at your cards."
    assert n.say(LookedAtCards(0)) == "North looks at their cards."
    # the turn timer's look, its time up: not "You look at your cards.", which you did not
    assert n.say(LookedAtCards(3, timer=True)) == "The game looks at your cards for you."
    assert n.say(LookedAtCards(0, timer=True)) == "The game looks at North's cards for them."
    assert LookedAtCards(3, timer=True).to_json() == {"type": "look", "seat": 3, "timer": True}
    assert n.say(CardPlayed(3, parse_card("2C"), 1)) == "You play the two of clubs."
    assert n.say(SpadesBroken(3, parse_card("AS"), 4)) == "Spades are broken."
    won = TrickWon(1, 5, ((0, 1), (1, 51)), 51, 3)
    # whose count it is, said: East's own, not East and West's (the contract's)
    assert n.say(won) == ("Your partner East wins trick 5 with the ace of spades, 3 tricks so "
                          "far for East.")
    assert Narrator(CARDEMS, me=1).say(TrickWon(1, 1, (), 51, 1)) == (
        "You win trick 1 with the ace of spades, 1 trick so far for you.")
    assert Narrator(CARDEMS).say(won) == (
        "East wins trick 5 with the ace of spades, 3 tricks so far for East.")
    # everyone alone (race400): the same words
    alone = Narrator(profile("race400"), me=0)
    assert alone.say(won) == "East wins trick 5 with the ace of spades, 3 tricks so far for East."


def test_bidding_closed_by_sides() -> None:
    e = BiddingClosed((7, 5), 0)
    assert Narrator(CARDEMS).say(e) == (
        "Bidding is over with 12 of 13 tricks bid: North and South bid 7, East and West bid 5; "
        "North leads.")
    assert Narrator(CARDEMS, me=0).say(e) == (
        "Bidding is over with 12 of 13 tricks bid: your side bids 7, East and West bid 5; "
        "you lead.")
    solo = profile("race400", players=3)
    assert Narrator(solo, me=1).say(BiddingClosed((5, 6, 4), 2)) == (
        "Bidding is over with 15 of 17 tricks bid; Seat 2 leads.")


def test_the_close_of_the_bidding_names_the_nils_that_no_contract_counts() -> None:
    """"Your side bids 6" after "You bid Nil" hid, at the one line that sums up the bidding,
    that you play to take nothing (the golden story's hand 7); now each Nil is named."""
    north = Narrator(CARDEMS, me=0)
    assert north.say(BiddingClosed((6, 4), 3, nils=(0,))) == (
        "Bidding is over with 10 of 13 tricks bid: your side bids 6 with your Nil, East and "
        "West bid 4; West leads.")
    assert Narrator(CARDEMS, me=1).say(BiddingClosed((0, 5), 1, (2,), (0,))) == (
        "Bidding is over with 5 of 13 tricks bid: North and South bid 0 with North's Blind Nil "
        "and South's Nil, your side bids 5; you lead.")
    assert Narrator(CARDEMS, me=3).say(BiddingClosed((7, 2), 0, (1,))) == (
        "Bidding is over with 9 of 13 tricks bid: North and South bid 7, your side bids 2 with "
        "your partner East's Nil; North leads.")
    solo = profile("race400", players=3)
    assert Narrator(solo, me=1).say(BiddingClosed((5, 0, 0), 2, (1,), (2,))) == (
        "Bidding is over with 5 of 17 tricks bid and your Nil and Seat 2's Blind Nil; Seat 2 "
        "leads.")


def test_nil_and_contract_outcomes() -> None:
    n = Narrator(CARDEMS, me=0)
    assert n.say(NilDecided(0, True, False, 13)) == "Your Nil is made."
    assert n.say(NilDecided(2, False, True, 4)) == "Your partner South's Blind Nil is broken."
    assert n.say(NilDecided(1, False, False, 2)) == "East's Nil is broken."
    assert n.say(ContractDecided(0, True, 7, 7, 9)) == "Your side's contract of 7 is made."
    assert n.say(ContractDecided(1, False, 6, 2, 11)) == "East and West's contract of 6 is set."
    assert n.say(ContractDecided(1, False, 14, 0, 0)) == (
        "East and West's contract of 14 is set already: the hand has only 13 tricks.")
    solo = Narrator(profile("race400", players=4), me=2)
    assert solo.say(ContractDecided(2, True, 3, 3, 8)) == "Your contract of 3 is made."
    assert solo.say(ContractDecided(1, False, 3, 0, 12)) == "East's contract of 3 is set."


def test_hand_scored_by_parts_and_bag_warning() -> None:
    e = HandScored(4, (side_hand(0), side_hand(1, contract=5, made=False, contract_points=-50,
                                                    overtrick_points=0, nil_points=100,
                                                    bag_penalty_points=-100, points=-50,
                                                    score=250, bags=1)))
    assert Narrator(CARDEMS, me=1).say(e) == (
        "Hand 4 scored: North and South +71 (contract +70, overtricks +1), 171 in all, 4 bags; "
        "your side -50 (contract -50, Nil +100, bag penalty -100), 250 in all, 1 bag.")
    assert Narrator(CARDEMS, me=1).say(BagWarning(1, 8, 2)) == (
        "Your side is 2 bags from a bag penalty.")
    assert Narrator(CARDEMS).say(BagWarning(0, 9, 1)) == (
        "North and South are 1 bag from a bag penalty.")
    assert Narrator(profile("race400", players=3), me=0).say(BagWarning(0, 7, 3)) == (
        "You are 3 bags from a bag penalty.")


def test_no_bag_warning_without_bags_or_without_a_penalty() -> None:
    # With --bag-limit 3, "3 bags from a penalty" was said at 0 bags, every hand.
    three = profile("cards4net", bag_limit=3)
    assert bag_warning(three, 0) == ""
    assert bag_warning(three, 1) == "2 bags from a penalty"
    assert bag_warning(profile("cards4net"), 7) == "3 bags from a penalty"
    assert bag_warning(profile("cards4net", bag_penalty=0), 9) == ""


def test_timeout_and_match_over() -> None:
    n = Narrator(CARDEMS, me=0)
    assert n.say(TimedOut(0, parse_card("2C"), 0, 1, 4, 0)) == (
        "Time is up for you: the game plays for you, and your side takes 1 penalty bag, "
        "4 bags now.")
    assert n.say(TimedOut(1, bid_action(3), 1, 1, 0, 100)) == (
        "Time is up for East: the game bids for them, and East and West take 1 penalty bag: "
        "a bag penalty of 100 points, 0 bags left.")
    assert n.say(MatchOver(0, (510, 380))) == (
        "You and your partner South win the match with 510 points.")
    assert Narrator(CARDEMS).say(MatchOver(1, (380, 510))) == (
        "East and West win the match with 510 points.")
    assert Narrator(CARDEMS).say(MatchOver(None, (300, 300))) == (
        "The match is a draw at 300 points.")
    # With three sides or more, who drew ("The match is a draw at 70 points." said not whom)
    three = Narrator(profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5))))
    assert three.say(MatchOver(None, (70, 32, 70))) == (
        "The match is a draw at 70 points: Seat 0 and Seat 3 tie with Seat 2 and Seat 5.")
    solo = Narrator(profile("race400", players=3), me=1)
    assert solo.say(MatchOver(None, (90, 90, 90))) == (
        "The match is a draw at 90 points: you tie with Seat 0 and with Seat 2.")
    six = Narrator(profile("race400", players=6, teams=T6), me=3)
    assert six.say(MatchOver(1, (300, 410))) == (
        "You and your partners Seat 1 and Seat 5 win the match with 410 points.")
    assert six.say(BiddingClosed((5, 6), 2)).startswith(
        "Bidding is over with 11 of 8 tricks bid: Seat 0, Seat 2 and Seat 4 bid 5, your side bids 6")


VARIANTS = [
    profile("cardems"),
    profile("cards4net", turn_timer=20, target=150),
    profile("cards4net", bidding="suicide", target=150),
    profile("race400", players=3, turn_timer=20, target=150),
    profile("race400", players=6, teams=T6, target=150),
    profile("race400", players=5, target=150),
]


def random_events(rules_index: int, seed: int) -> tuple[Match, list[Event]]:
    rules = VARIANTS[rules_index]
    match = Match(rules, rng=random.Random(seed), events=True)
    rng = random.Random(seed + 1)
    while not match.is_over() and match.hand_number < 4:
        if rules.turn_timer and rng.random() < 0.05:
            match.apply_timeout()
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match, match.take_events()


@pytest.mark.parametrize("index", range(len(VARIANTS)))
def test_every_sentence_of_random_matches_is_one_clean_sentence(index: int) -> None:
    match, events = random_events(index, 11 + index)
    listeners: list[int | None] = [None, *range(match.n)]
    for me in listeners:
        narrator = Narrator(match.rules, me=me)
        hand_sentences: set[str] = set()
        for e in events:
            text = narrator.say(e)
            if isinstance(e, HandDealt):
                hand_sentences = set()
            assert text[0].isupper() and text.endswith("."), text
            assert ". " not in text and ".." not in text, f"more than one sentence: {text}"
            assert "  " not in text and " ," not in text and "None" not in text, text
            assert not re.search(r"\bYou\b", text[1:]), f"'You' mid-sentence: {text}"
            if me is None:
                assert not re.search(r"\byou\b|\byour\b", text, re.I), text
            assert text not in hand_sentences, f"said twice in a hand: {text}"
            hand_sentences.add(text)
        assert len(narrator.story(events)) == len(events)


def hand_with_blind_nil(partner_nil: bool) -> tuple[Match, list[Event]]:
    """One cards4net hand in which the first bidder bids Blind Nil (and, with
    ``partner_nil``, that bidder's partner bids Nil), played out by random choices."""
    rules = profile("cards4net", one_hand=True)
    match = Match(rules, rng=random.Random(5), events=True)
    rng = random.Random(6)
    blind_seat = match.current_player
    match.apply(BLIND_NIL)
    while not match.is_over():
        legal = match.legal_actions()
        seat = match.current_player
        if partner_nil and seat == (blind_seat + 2) % 4 and NIL in legal:
            match.apply(NIL)
        else:
            match.apply(rng.choice([a for a in legal if a not in (NIL, BLIND_NIL, LOOK)]
                                   or legal))
    return match, match.take_events()


@pytest.mark.parametrize("partner_nil", [False, True])
def test_the_hand_score_names_a_blind_nil_blind_nil(partner_nil: bool) -> None:
    """The hand's score by parts calls a Blind Nil's points Blind Nil, as its bid and its
    result are called (it said "Nil +200"); a side with a Nil and a Blind Nil has both."""
    match, events = hand_with_blind_nil(partner_nil)
    result = match.results[-1]
    blind_seat = result.blind.index(True)
    side = match.rules.side_of[blind_seat]
    worth = match.rules.blind_nil_points
    blind = worth if result.tricks[blind_seat] == 0 else -worth
    scored = next(e for e in events if isinstance(e, HandScored))
    said = Narrator(match.rules, me=blind_seat).say(scored)
    mine = said.split("; ")[0 if side == 0 else 1]
    assert f"Blind Nil {blind:+d}" in mine, said
    if partner_nil:
        partner = (blind_seat + 2) % 4
        nil = 100 if result.tricks[partner] == 0 else -100
        assert "(contract" not in mine and f", Nil {nil:+d}" not in mine, said
        assert re.search(rf"\(Nil {nil:+d}, Blind Nil {blind:+d}", mine), said
    else:
        assert re.search(r"(?<!Blind )Nil [+-]", mine) is None, said


def test_a_draw_names_you_first() -> None:
    """A draw among three sides or more where your side was not the first seat's said "Seat
    0 ties with you": you are named first ("you tie with Seat 0"), your side with its
    partners too; a draw without you, or of two sides, reads as before."""
    solo = profile("race400", players=3)
    assert Narrator(solo, me=2).say(MatchOver(None, (34, 21, 34))) == (
        "The match is a draw at 34 points: you tie with Seat 0.")
    assert Narrator(solo, me=0).say(MatchOver(None, (34, 21, 34))) == (
        "The match is a draw at 34 points: you tie with Seat 2.")
    assert Narrator(solo, me=1).say(MatchOver(None, (34, 21, 34))) == (
        "The match is a draw at 34 points: Seat 0 ties with Seat 2.")
    assert Narrator(solo).say(MatchOver(None, (34, 21, 34))) == (
        "The match is a draw at 34 points: Seat 0 ties with Seat 2.")
    teams = profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5)))
    assert Narrator(teams, me=5).say(MatchOver(None, (70, 32, 70))) == (
        "The match is a draw at 70 points: you and your partner Seat 2 tie with Seat 0 and "
        "Seat 3.")
    assert Narrator(teams, me=4).say(MatchOver(None, (70, 70, 70))) == (
        "The match is a draw at 70 points: you and your partner Seat 1 tie with Seat 0 and "
        "Seat 3 and with Seat 2 and Seat 5.")
    assert Narrator(CARDEMS, me=3).say(MatchOver(None, (300, 300))) == (
        "The match is a draw at 300 points.")
    for me in (None, 0, 1, 2):  # every listener: one sentence, "you" first where named
        said = Narrator(solo, me=me).say(MatchOver(None, (5, 5, 5)))
        assert " with you" not in said, said


def test_the_hand_scored_sentence_names_10_for_200() -> None:
    """Under 10 for 200, "Hand 1 scored: your side -200, ..." did not say why a contract of
    10 was worth 200 (the hand's details do): the sentence names the rule briefly."""
    ten = profile("cards4net", ten_for_200=True)
    set_ = side_hand(0, contract=10, tricks=8, made=False, contract_points=-200,
                     overtrick_points=0, points=-200, score=-200, new_bags=0, bags=0)
    made = side_hand(1, contract=3, tricks=5, contract_points=30, overtrick_points=2,
                     points=32, score=32, new_bags=2, bags=2)
    assert Narrator(ten, me=2).say(HandScored(1, (set_, made))) == (
        "Hand 1 scored: your side -200 (10 for 200, set), -200 in all, 0 bags; East and West "
        "+32 (contract +30, overtricks +2), 32 in all, 2 bags.")
    made10 = side_hand(1, contract=10, tricks=11, contract_points=200, overtrick_points=1,
                       nil_points=-100, points=101, score=101, new_bags=1, bags=1)
    plain = side_hand(0, contract=4, tricks=4, contract_points=40, overtrick_points=0,
                      points=40, score=40, new_bags=0, bags=0)
    assert Narrator(ten).say(HandScored(1, (plain, made10))) == (
        "Hand 1 scored: North and South +40, 40 in all, 0 bags; East and West +101 (10 for "
        "200, made: contract +200, overtricks +1, Nil -100), 101 in all, 1 bag.")
    # without the rule, a contract of 10 is 100, and nothing is said of it
    assert "10 for 200" not in Narrator(CARDEMS).say(HandScored(1, (plain, made10)))


@pytest.mark.parametrize("names", [5, 2.5, {0: "Ann"}])
def test_names_that_are_no_list_are_refused_by_name(names: object) -> None:
    # Narrator(rules, names=5) was "object of type 'int' has no len()".
    with pytest.raises(TypeError, match=r"^names: 4 seat names, like \('Ann', 'Bob', 'Cy', "
                                        r"'Di'\), not "):
        Narrator(CARDEMS, names=names)  # type: ignore[arg-type]
