"""The engine's entry points given values of the wrong type: an error saying which argument
and what it should be, not an AttributeError from deep inside."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from spades.engine import BID_BASE, Match, Rules, RulesError, profile


@pytest.mark.parametrize("rules", ["cardems", None, {"preset": "cardems"}])
def test_match_rules_must_be_a_rules(rules: Any) -> None:
    # Match("cardems") was AttributeError: 'str' object has no attribute 'players'.
    with pytest.raises(TypeError, match=r"rules must be a Rules, like profile\('cardems'\), not "):
        Match(rules, rng=random.Random(1))


@pytest.mark.parametrize("rng", [5, "seed", random])
def test_match_rng_must_be_a_random_generator(rng: Any) -> None:
    # Match(rules, rng=5) was AttributeError: 'int' object has no attribute 'randrange'.
    with pytest.raises(TypeError, match=r"rng must be a random.Random, like random.Random\(7\)"):
        Match(profile("cardems"), rng=rng)
    assert Match(profile("cardems"), rng=random.SystemRandom()).phase == "bid"


def test_match_takes_its_rng_second_by_position_and_says_a_seed_is_for_new() -> None:
    # Match(rules, random.Random(7)) was "Match.__init__() takes 2 positional arguments but
    # 3 were given" in pure Python and "__init__() takes exactly 1 positional argument (2
    # given)" compiled (rng was keyword-only); Match(rules, rng=7) named no way to a seed.
    rules = profile("cardems")
    assert Match(rules, random.Random(7)).to_record() == Match(
        rules, rng=random.Random(7)).to_record() == Match.new(rules, 7).to_record()
    with pytest.raises(TypeError, match=r"^rng must be a random\.Random, like random\.Random"
                                        r"\(7\), not 7 \(Match\.new\(rules, seed\) deals "
                                        r"from a seed\)$"):
        Match(rules, 7)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", ["0", None, 1.0])
def test_an_observation_seat_must_be_a_whole_number(seat: Any) -> None:
    # observation("0") was TypeError: '<=' not supported between instances of 'int' and 'str'.
    # (Compiled with mypyc, the match checks an int's type itself, with its own words.)
    match = Match(profile("cardems"), rng=random.Random(1))
    with pytest.raises(TypeError, match=r"seat must be a whole number 0 to 3, not |int object expected"):
        match.observation(seat)
    with pytest.raises(ValueError, match="seat must be 0 to 3, not 4"):
        match.observation(4)
    assert match.observation(2).seat == 2


def test_the_observation_of_chance_or_terminal_says_no_seat_is_to_act() -> None:
    # The README's loop (seat = match.current_player; match.observation(seat)) on a match
    # dealt by hand, or run past its end, asked for seat -1 or -2 and was told only
    # "seat must be 0 to 3, not -1".
    match = Match(profile("cardems", one_hand=True), dealer=0)
    with pytest.raises(ValueError, match=r"^seat must be 0 to 3, not -1 \(CHANCE: no seat is to "
                       r"act until the hand is dealt, match\.deal\(\.\.\.\)\)$"):
        match.observation(match.current_player)
    played = Match(profile("cardems", one_hand=True), rng=random.Random(1))
    while not played.is_over():
        played.apply(played.legal_actions()[0])
    with pytest.raises(ValueError, match=r"^seat must be 0 to 3, not -2 \(TERMINAL: the match "
                       r"is over\)$"):
        played.observation(played.current_player)


@pytest.mark.parametrize(("name", "shown"), [
    (["cardems"], r"\['cardems'\]"), ({"preset": "cardems"}, r"\{'preset': 'cardems'\}"),
    (None, "None"), (5, "5")])
def test_profile_of_a_name_that_is_no_text_says_a_name_is_text(name: Any, shown: str) -> None:
    # profile(["cardems"]) and profile({"preset": ...}) were TypeError: unhashable type;
    # profile(None) said "unknown rules profile null".
    with pytest.raises(RulesError, match=rf"^a rules profile is named by text, one of cardems, "
                       rf"cardgames-club, race400, game93, cards4net; not {shown}$"):
        profile(name)


def test_profile_of_rules_says_how_to_change_them() -> None:
    # It said "unknown rules profile a Rules".
    with pytest.raises(RulesError, match=r"^profile takes a profile's name, and these are "
                       r"already Rules \(cardems\): rules\.replace\(\*\*knobs\) changes them$"):
        profile(profile("cardems"))  # type: ignore[arg-type]


def test_rules_replace_and_rules_take_teams_as_lists_as_profile_does() -> None:
    # profile("race400", teams=[[0, 2], [1, 3]]) was read, but the same lists given to
    # rules.replace(...) or Rules(...) (and so to env(rules_object, teams=...)) were refused
    # with "teams: there must be at least two sides".
    teams = [[0, 2], [1, 3]]
    made = profile("race400", teams=teams)
    assert profile("race400").replace(teams=teams) == made
    assert made.replace(teams=None).replace(teams=teams) == made
    assert Rules(players=4, teams=teams).teams == ((0, 2), (1, 3))
    assert hash(profile("race400").replace(teams=teams)) == hash(made)
    with pytest.raises(RulesError, match=r"^teams: side 0: a seat must be a whole number"):
        Rules(players=4, teams=[["0", 2], [1, 3]])


def test_rules_replace_with_mirror_turns_blind_nil_off_as_profile_does() -> None:
    # profiles.md: choosing Mirror over a profile with blind nil turns blind nil off, "only
    # asking for both is refused"; profile("cards4net").replace(bidding="mirror") was refused
    # with "blind_nil: mirror bidding has no blind nil".
    assert profile("cards4net").replace(bidding="mirror") == profile("cards4net",
                                                                     bidding="mirror")
    with pytest.raises(RulesError, match=r"^blind_nil: mirror bidding has no blind nil$"):
        profile("cards4net").replace(bidding="mirror", blind_nil=True)


def test_rules_replace_refuses_an_unknown_knob_as_profile_does() -> None:
    # rules.replace(foo=1) was TypeError: Rules.__init__() got an unexpected keyword argument.
    rules = profile("cardems")
    with pytest.raises(RulesError, match=r"^foo: unknown rules knob; known: bag_limit, "):
        rules.replace(foo=1)
    with pytest.raises(RulesError, match=r"^foo: unknown rules knob"):
        profile("cardems", foo=1)
    assert rules.replace(target=300).target == 300


def test_rules_replace_of_players_gives_the_profile_for_that_many_players() -> None:
    # profile("race400").replace(players=6) kept the 4-player hard_contract_from (6, where
    # race400 for 6 players has 4) and small_contract_bonus: rules that no profile() call
    # gives, and that to_json() wrote as race400's 6-player rules with two knobs changed.
    assert profile("race400").replace(players=6) == profile("race400", players=6)
    assert profile("race400").replace(players=6).hard_contract_from == 4
    # the knobs that differ from the profile's are kept, and the changes go on top
    assert profile("race400", target=300).replace(players=6, turn_timer=30) == profile(
        "race400", players=6, target=300, turn_timer=30)
    assert profile("race400", players=6, hard_contract_from=2).replace(players=3) == profile(
        "race400", players=3, hard_contract_from=2)
    six = profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5)))
    assert six.replace(players=4, teams=None) == profile("race400")
    for rules in (profile("race400"), profile("race400", players=5, target=300)):
        assert rules.replace(players=6) == __import__("spades.engine").engine.rules_from_json(
            {**rules.to_json(teams=True), "players": 6})
    # teams for 4 players do not fit 6: said as profile("race400", players=6, teams=...) says
    with pytest.raises(RulesError, match=r"^teams: every seat 0 to 5 must be on exactly one "):
        profile("race400", teams=[[0, 2], [1, 3]]).replace(players=6)
    # a count the profile is not played by, or rules of no profile: the knobs as they are
    assert profile("cardems").replace(players=6, teams=None).failed_nil_tricks_count
    mine = Rules(name="mine", players=4, teams=None, hard_contract_from=6)
    assert mine.replace(players=6).hard_contract_from == 6


def test_a_hand_state_needs_one_mask_per_seat() -> None:
    from spades.engine import HandState

    m = Match(profile("cardems"), rng=random.Random(1))
    obs = m.observation(m.current_player)
    with pytest.raises(ValueError, match=r"one card mask per seat \(4\), not 3"):
        HandState.from_obs(obs, [0, 0, 0])
    assert HandState.from_obs(obs, list(m.hands)).hands == list(m.hands)


def test_the_documented_names_are_in_spades_engine() -> None:
    """ENGINE_API.md: "Everything is in spades.engine"."""
    import spades.engine

    for name in ("HandState", "public_voids", "SideScore"):
        assert name in spades.engine.__all__ and hasattr(spades.engine, name), name


@pytest.mark.parametrize("card", [-1, 54, 99])
def test_a_hand_state_refuses_a_number_that_is_no_card(card: int) -> None:
    # HandState.play(-1) was ValueError: negative shift count.
    from spades.engine import HandState, IllegalAction

    m = Match(profile("cardems"), rng=random.Random(1))
    while m.phase == "bid":
        m.apply(m.legal_actions()[0])
    state = HandState.from_obs(m.observation(m.current_player), list(m.hands))
    with pytest.raises(IllegalAction, match=rf"^{card} is not a card: cards are numbered 0 to 53"):
        state.play(card)
    assert state.play(state.legal_actions()[0]) is False


@pytest.mark.parametrize("action", ["3", "0", None, 3.0, [3]])
@pytest.mark.parametrize("phase", ["bid", "play"])
def test_an_action_that_is_not_a_whole_number_is_refused_as_illegal(action: Any,
                                                                    phase: str) -> None:
    # Compiled, Match.apply("3") was mypyc's TypeError "int object expected; got str", and
    # is_legal("3") was TypeError: '<=' not supported between 'int' and 'str' in the play phase.
    from spades.engine import IllegalAction

    m = Match(profile("cardems"), rng=random.Random(1))
    while m.phase != phase:
        m.apply(m.legal_actions()[0])
    before = m.to_record()
    assert m.is_legal(action) is False
    with pytest.raises(IllegalAction, match=rf"^{__import__('re').escape(repr(action))} is not "
                                            r"an action: a card \(0 to 53\) or a bid"):
        m.apply(action)
    with pytest.raises(IllegalAction, match=r"is not an action"):
        m.check(action)
    assert m.to_record() == before
    m.apply(m.legal_actions()[0])


@pytest.mark.parametrize("field", ["format", "rules", "teams", "hands"])
def test_extra_fields_of_a_record_may_not_replace_its_own(field: str) -> None:
    # m.to_record(hands=1) gave a record without its hands, format="x" one that replay
    # refuses, and rules=... a TypeError "got multiple values for argument 'rules'".
    m = Match(profile("cardems"), rng=random.Random(1))
    from spades.engine import SpadesError

    with pytest.raises(SpadesError, match=rf"^{field}: a record's own field, made from the "
                                          r"match; extra fields may not"):
        m.to_record(**{field: 1})
    assert m.to_record(id="g1", names=["a", "b", "c", "d"])["id"] == "g1"


def _playing(rules: Rules) -> Match:
    """A match at its first card: every seat has bid 1."""
    match = Match(rules, rng=random.Random(1))
    while match.phase == "bid":
        match.apply(BID_BASE + 1 if match.is_legal(BID_BASE + 1) else match.legal_actions()[-1])
    return match


def _scored() -> Any:
    """The result of a one-hand cardems match, played with the lowest legal actions."""
    match = Match(profile("cardems", one_hand=True), rng=random.Random(3))
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    return match.results[0]


WRONG_TYPES: list[tuple[str, Any, type[Exception], str]] = [
    # (what, call, error, message): the same in the compiled build as in pure Python (the
    # compiled one said mypyc's "int object expected; got str" and the like)
    ("dealer '0'", lambda: Match(profile("cardems"), rng=random.Random(1), dealer="0"),
     ValueError, r"dealer must be a seat from 0 to 3, not '0'"),
    ("dealer True", lambda: Match(profile("cardems"), rng=random.Random(1), dealer=True),
     ValueError, r"dealer must be a seat from 0 to 3, not True"),
    ("observation True", lambda: Match(profile("cardems"), rng=random.Random(1)).observation(True),
     TypeError, r"seat must be a whole number 0 to 3, not True"),
    ("parse_card None", lambda: __import__("spades.engine").engine.parse_card(None),
     ValueError, r"a card must be a string like 'AS', not None"),
    ("card_str 'AS'", lambda: __import__("spades.engine").engine.card_str("AS"),
     ValueError, r"^'AS' is not a card: cards are numbered 0 to 53 \(parse_card\('AS'\) reads "
     r"text\)$"),
    ("card_name 1.0", lambda: __import__("spades.engine").engine.card_name(1.0),
     ValueError, r"1.0 is not a card"),
    ("mask_of ['AS']", lambda: __import__("spades.engine").engine.mask_of(["AS"]),
     ValueError, r"'AS' is not a card"),
    ("deal strings", lambda: Match(profile("cardems")).deal(["AS"] * 4),
     ValueError, r"^seat 0: a hand must be a card mask \(a whole number: mask_of\(cards\)\), "
     r"not 'AS'$"),
    ("deal lists of cards", lambda: Match(profile("cardems")).deal([[0, 1]] * 4),
     ValueError, r"^seat 0: a hand must be a card mask \(a whole number: mask_of\(cards\)\), "
     r"not \[0, 1\]$"),
    # (bid_value("x") and bid_action("x") were TypeError: '<=' not supported between
    # instances of 'int' and 'str'; mask_of(5) "'int' object is not iterable", mask_of("AS")
    # "'A' is not a card", sorted_for_display([1, 2]) "'<' not supported between ...")
    ("bid_value of text", lambda: __import__("spades.engine").engine.bid_value("3"),
     ValueError, r"^'3' is not a bid action: those are 64 to 96$"),
    ("bid_value of a bool", lambda: __import__("spades.engine").engine.bid_value(True),
     ValueError, r"^True is not a bid action: those are 64 to 96$"),
    ("bid_action of text", lambda: __import__("spades.engine").engine.bid_action("3"),
     ValueError, r"^a bid is 0 \(Nil\) to 18 tricks, not '3' \(parse_bid\('3'\) reads text\)$"),
    ("bid_action of a float", lambda: __import__("spades.engine").engine.bid_action(3.0),
     ValueError, r"^a bid is 0 \(Nil\) to 18 tricks, not 3.0$"),
    ("mask_of of a mask", lambda: __import__("spades.engine").engine.mask_of(5),
     TypeError, r"^mask_of takes cards, like mask_of\(\[parse_card\('AS'\), 36\]\), not 5$"),
    ("mask_of of text", lambda: __import__("spades.engine").engine.mask_of("AS KS"),
     TypeError, r"^mask_of takes cards, like .*, not 'AS KS'$"),
    ("sorted_for_display of cards", lambda: __import__("spades.engine").engine
     .sorted_for_display([1, 2]), TypeError, r"^sorted_for_display takes a card mask \(a whole "
     r"number: mask_of\(cards\)\), not \[1, 2\]$"),
    ("sorted_for_display of a bool", lambda: __import__("spades.engine").engine
     .sorted_for_display(True), TypeError, r"^sorted_for_display takes a card mask .*not True$"),
    # (match.apply("QH") said what an action is, not how to get one from text)
    ("apply of a card's name", lambda: _playing(profile("cardems")).apply("QH"),
     ValueError, r"^'QH' is not an action: a card \(0 to 53\) or a bid \(64 \+ tricks, 96 "
     r"blind nil, 97 look\); parse_action\('QH'\) reads text$"),
    ("a joker without jokers", lambda: _playing(profile("cardems")).apply(53),
     ValueError, r"^the big joker is not in this deck \(no seat holds it\)$"),  # (it said
    # "seat 3 does not hold the big joker", as if another seat might)
    ("a two the joker deck leaves out", lambda: _playing(profile("cards4net", jokers=True))
     .apply(0), ValueError, r"^the two of clubs is not in this deck \(no seat holds it\)$"),
    ("deal of one card", lambda: Match(profile("cardems"), dealer=0).deal([1, 2, 4, 8]),
     ValueError, r"^seat 0 holds 1 card, not 13$"),  # (it said "1 cards")
    # (summary and to_record raised AttributeError: 'str' object has no attribute ...)
    ("summary of a record", lambda: __import__("spades.engine").engine.summary({"hands": []}),
     TypeError, r"^summary takes a Match \(replay\(record\) gives one\), not a dict$"),
    ("to_record of a name", lambda: __import__("spades.engine").engine.to_record("cardems"),
     TypeError, r"^to_record takes a Match, not 'cardems'$"),
    # (suggested_bid of a list of cards or of a hidden hand was "unsupported operand type(s)
    # for &: 'list' and 'int'"; of a profile name, "'str' object has no attribute ...")
    ("suggested_bid of cards", lambda: __import__("spades.engine").engine.suggested_bid(
        [51, 50], profile("cardems")), TypeError,
     r"^hand must be a card mask \(a whole number: mask_of\(cards\)\), not \[51, 50\]$"),
    ("suggested_bid of an unseen hand", lambda: __import__("spades.engine").engine
     .suggested_bid(None, profile("cardems")), TypeError, r"^hand must be a card mask .*None$"),
    ("suggested_bid of a profile name", lambda: __import__("spades.engine").engine
     .suggested_bid(1 << 51, "cardems"), TypeError,
     r"^rules must be a Rules, like profile\('cardems'\), not 'cardems'$"),
    # (cards_of('x') was "'<' not supported between instances of 'str' and 'int'" in pure
    # Python and mypyc's "int object expected; got str" compiled; cards_of(True) was [0])
    ("cards_of of text", lambda: __import__("spades.engine").engine.cards_of("AS KS"),
     TypeError, r"^cards_of takes a card mask \(a whole number: mask_of\(cards\)\), not "
     r"'AS KS' \(mask_of\(parse_card\(c\) for c in text\.split\(\)\) reads cards' text\)$"),
    ("cards_of of cards", lambda: __import__("spades.engine").engine.cards_of([1, 2]),
     TypeError, r"^cards_of takes a card mask \(a whole number: mask_of\(cards\)\), "
     r"not \[1, 2\]$"),
    ("cards_of of None", lambda: __import__("spades.engine").engine.cards_of(None),
     TypeError, r"^cards_of takes a card mask .*, not None$"),
    ("cards_of of a float", lambda: __import__("spades.engine").engine.cards_of(3.0),
     TypeError, r"^cards_of takes a card mask .*, not 3\.0$"),
    ("cards_of of a bool", lambda: __import__("spades.engine").engine.cards_of(True),
     TypeError, r"^cards_of takes a card mask .*, not True$"),
    # (profile(name='cardems') and profile() were "profile() missing 1 required positional
    # argument: 'name'": the user gave a name)
    ("profile of name=", lambda: profile(name="cardems"), RulesError,
     r"^profile takes the profile's name first, by position: profile\('cardems'\), not "
     r"profile\(name='cardems'\)$"),
    ("profile of no name", lambda: profile(), RulesError,
     r"^profile takes a profile's name first, like profile\('cardems'\): one of cardems, "
     r"cardgames-club, race400, game93, cards4net$"),
    ("profile of no name but knobs", lambda: profile(players=4), RulesError,
     r"^profile takes a profile's name first"),
    ("profile custom", lambda: profile("custom"), RulesError,  # (a record's preset, no profile)
     r"^'custom' is no profile: rules of your own are Rules\(name='mine', \.\.\.knobs\)"),
    # (match.deal(5) was "'int' object is not iterable", deal("AS KS") "seat 0: ... not 'A'")
    ("deal of one mask", lambda: Match(profile("cardems"), dealer=0).deal(5),
     ValueError, r"^deal takes one card mask per seat \(4\), like \[mask_of\(cards\), "
     r"\.\.\.\], not 5$"),
    ("deal of text", lambda: Match(profile("cardems"), dealer=0).deal("AS KS"),
     ValueError, r"^deal takes one card mask per seat \(4\), .*not 'AS KS'$"),
    # (from_obs took ["AS", ...] as the hands and failed later, in the search)
    ("from_obs of hands of text", lambda: __import__("spades.engine").engine.HandState.from_obs(
        Match(profile("cardems"), rng=random.Random(1)).observation(0), ["AS"] * 4),
     TypeError, r"^hands: seat 0: a hand must be a card mask \(a whole number: "
     r"mask_of\(cards\)\), not 'AS'$"),
    ("from_obs of a negative mask", lambda: __import__("spades.engine").engine.HandState
     .from_obs(Match(profile("cardems"), rng=random.Random(1)).observation(0), [1, 2, -1, 0]),
     ValueError, r"^hands: seat 2: -1 is not a card mask: a mask is 0 or more$"),
    # (engine.md's "Scoring alone": winner('cardems', ...) was AttributeError: 'str' object
    # has no attribute 'one_hand')
    ("winner of a profile name", lambda: __import__("spades.engine.scoring").engine.scoring
     .winner("cardems", [0, 0], 1), TypeError,
     r"^rules must be a Rules, like profile\('cardems'\), not 'cardems'$"),
    # (engine.md's HandResult.nil_bids(rules, side): a side not at the table was IndexError:
    # tuple index out of range, rules by name AttributeError: 'str' object has no attribute
    # 'sides', blind="yes" counted no Nil at all)
    ("nil_bids of a side not at the table", lambda: _scored().nil_bids(profile("cardems"), 2),
     ValueError, r"^side: a side from 0 to 1, not 2$"),
    ("nil_bids of a profile name", lambda: _scored().nil_bids("cardems", 0), TypeError,
     r"^rules must be a Rules, like profile\('cardems'\), not 'cardems'$"),
    ("nil_bids of blind as text", lambda: _scored().nil_bids(profile("cardems"), 0, "yes"),
     TypeError, r"^blind must be True or False, not 'yes'$"),
    # (winner(rules, 5, 3) was "'int' object is not iterable", winner(rules, [1, 'x'], 3)
    # "'>' not supported between instances of 'str' and 'int'", and three scores for two
    # sides, or hands_played='x', were taken)
    ("winner of one score", lambda: __import__("spades.engine.scoring").engine.scoring
     .winner(profile("cardems"), 5, 3), TypeError,
     r"^scores must be a whole number per side, like \[120, 85\], not 5$"),
    ("winner of a score as text", lambda: __import__("spades.engine.scoring").engine.scoring
     .winner(profile("cardems"), [1, "x"], 3), TypeError,
     r"^scores must be a whole number per side, like \[120, 85\], not \[1, 'x'\]$"),
    ("winner of a score too many", lambda: __import__("spades.engine.scoring").engine.scoring
     .winner(profile("cardems"), [500, 0, 0], 3), ValueError,
     r"^scores: 2 sides need 2 scores, not 3$"),
    ("winner of hands played as text", lambda: __import__("spades.engine.scoring").engine
     .scoring.winner(profile("cardems"), [500, 0], "3"), TypeError,
     r"^hands_played must be a whole number 0 or more, not '3'$"),
    # (score_side's seats=0 was "'int' object is not iterable", bids=None "object of type
    # 'NoneType' has no len()", bags_before='9' "can only concatenate str (not "int") to str"
    # in pure Python and mypyc's "int object expected; got str" compiled)
    ("score_side of a seat for seats", lambda: __import__("spades.engine.scoring").engine
     .scoring.score_side(profile("cardems"), 0, [3, 1, 3, 1], [False] * 4, [5, 0, 3, 0], 9),
     TypeError, r"^seats must be the side's seats, like \[0, 2\], not 0$"),
    ("score_side of no bids", lambda: __import__("spades.engine.scoring").engine
     .scoring.score_side(profile("cardems"), [0, 2], None, [False] * 4, [5, 0, 3, 0], 9),
     TypeError, r"^bids, blind and tricks must be lists by seat, like \[3, 1, 3, 1\], "
     r"not None$"),
    ("score_side of bags as text", lambda: __import__("spades.engine.scoring").engine
     .scoring.score_side(profile("cardems"), [0, 2], [3, 1, 3, 1], [False] * 4, [5, 0, 3, 0],
                         "9"), TypeError,
     r"^bags_before must be a whole number \(the side's bags before the hand\), not '9'$"),
]


@pytest.mark.parametrize("what, call, error, message", WRONG_TYPES,
                         ids=[w[0] for w in WRONG_TYPES])
def test_wrong_types_are_refused_in_words_in_either_build(what: str, call: Any,
                                                          error: type[Exception],
                                                          message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_suggested_bid_takes_a_mask_of_any_integer_type() -> None:
    np = pytest.importorskip("numpy")
    from spades.engine import mask_of, parse_card, suggested_bid
    hand = mask_of(parse_card(c) for c in ("AS", "KS", "QS", "AH", "AD", "AC"))
    assert suggested_bid(np.int64(hand), profile("cardems")) == suggested_bid(
        hand, profile("cardems")) == 6


def test_a_numpy_seed_deals_as_that_int_and_a_seed_of_no_kind_is_refused_by_name() -> None:
    # Match.new(rules, np.int64(3)) raised Python's "The only supported seed types are:
    # None, int, float, str, bytes, and bytearray."
    np = pytest.importorskip("numpy")
    assert Match.new(profile("cardems"), np.int64(3)).hands == Match.new(
        profile("cardems"), 3).hands
    with pytest.raises(TypeError, match=r"^seed must be a whole number or text, like "
                                        r"Match\.new\(rules, 7\), not \[3\]$"):
        Match.new(profile("cardems"), [3])
    # True and 1.0 dealt as seed 1, and 1.5 by its hash: taken though the message rules them
    # out (make_bot refuses them); None still deals at random, as documented
    for wrong in (True, np.bool_(False), 1.0, 1.5, b"7"):
        with pytest.raises(TypeError, match=r"^seed must be a whole number or text"):
            Match.new(profile("cardems"), wrong)
    assert Match.new(profile("cardems"), None).hands


def test_a_text_seed_deals_in_either_build() -> None:
    # Match.new(rules, "x") dealt in pure Python; compiled, it was "int or None object expected".
    assert Match.new(profile("cardems"), "x").hands == Match.new(profile("cardems"), "x").hands


class _Index:
    """An integer type of its own, as numpy's are: a whole number through ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"_Index({self.value})"


def _integer_types() -> list[Any]:
    types: list[Any] = [_Index]
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with the learn extra
        return types
    return [*types, np.int64, np.int8, np.uint16]


@pytest.mark.parametrize("phase", ["bid", "play"])
def test_an_action_of_any_integer_type_is_that_int(phase: str) -> None:
    # match.apply(np.int64(1)) (an argmax, a sampler) was "IllegalAction: np.int64(1) is not
    # an action: a card (0 to 53)...", for a legal card 1; the learning environments and the
    # arena take numpy integers.
    for kind in _integer_types():
        m = Match(profile("cardems"), rng=random.Random(1))
        while m.phase != phase:
            m.apply(m.legal_actions()[0])
        plain = m.clone()
        legal = m.legal_actions()[-1]
        assert m.is_legal(kind(legal)) and not m.is_legal(kind(98))
        m.check(kind(legal))
        m.apply(kind(legal))
        plain.apply(legal)
        assert m.to_record() == plain.to_record()
        assert type(m.log[-1].actions[-1]) is int
        assert m.observation(0).to_json() == plain.observation(0).to_json()


@pytest.mark.parametrize("phase", ["bid", "play"])
def test_a_bool_is_no_action(phase: str) -> None:
    # True == 1: in the play phase match.apply(True) played the 3 of clubs and kept True in
    # the log (is_legal(True) said yes), where the learning environments refuse a bool.
    from spades.engine import IllegalAction

    for seed in range(100):
        m = Match(profile("cardems"), rng=random.Random(seed))
        while m.phase != phase:
            m.apply(m.legal_actions()[-1])
        if phase == "bid" or 1 in m.legal_actions():
            break
    before = m.to_record()
    assert m.is_legal(True) is False and m.is_legal(False) is False
    with pytest.raises(IllegalAction, match=r"^True is not an action: a card \(0 to 53\) or a bid"):
        m.apply(True)
    with pytest.raises(IllegalAction, match=r"^False is not an action"):
        m.check(False)
    assert m.to_record() == before


@pytest.mark.parametrize("action", [64.0, True, "nil", 999, -1, None])
def test_a_timeout_given_no_action_changes_nothing(action: Any) -> None:
    # apply_timeout(64.0) in the bidding (64 == 64.0 is a legal bid) gave the side its
    # penalty bag and logged the timeout, then raised "64.0 is not an action": the match was
    # left half changed. apply_timeout(999) raised a SpadesError from action_str, and
    # apply_timeout("nil") in the play a TypeError.
    from spades.engine import IllegalAction

    for phase in ("bid", "play"):
        m = Match(profile("race400", turn_timer=20), rng=random.Random(1))
        while m.phase != phase:
            m.apply(m.legal_actions()[0])
        before = (m.to_record(), list(m.bags), list(m.timeout_bags), list(m.scores))
        if action is None:  # the timer's own choice: still fine
            m.apply_timeout(action)
            continue
        with pytest.raises(IllegalAction, match=rf"^{__import__('re').escape(repr(action))} is "
                                                r"not an action"):
            m.apply_timeout(action)
        assert (m.to_record(), list(m.bags), list(m.timeout_bags), list(m.scores)) == before


def test_a_timeout_takes_an_action_of_any_integer_type() -> None:
    m = Match(profile("race400", turn_timer=20), rng=random.Random(1))
    plain = m.clone()
    assert m.apply_timeout(_Index(m.timeout_action())) == plain.apply_timeout()
    assert m.to_record() == plain.to_record()


def test_a_seat_of_any_integer_type_is_that_seat() -> None:
    # match.observation(np.int64(0)) (a seat from np.arange) was "TypeError: seat must be a
    # whole number 0 to 3, not np.int64(0)", which it is.
    m = Match(profile("cardems"), rng=random.Random(1))
    for kind in _integer_types():
        obs = m.observation(kind(2))
        assert type(obs.seat) is int and obs == m.observation(2)


def test_a_numpy_bool_is_no_action() -> None:
    np = pytest.importorskip("numpy")
    m = Match(profile("cardems"), rng=random.Random(1))
    assert m.is_legal(np.True_) is False and m.is_legal(np.int64(m.legal_actions()[0]))


def _hand_state(phase: str) -> Any:
    from spades.engine import HandState

    m = Match(profile("cardems"), rng=random.Random(1))
    while m.phase != phase:
        m.apply(m.legal_actions()[0])
    return HandState.from_obs(m.observation(m.current_player), list(m.hands))


def _state_of(s: Any) -> tuple[Any, ...]:
    return (s.hands, s.bids, s.looked, s.trick, s.tricks, s.played, s.turn, s.phase, s.voids)


@pytest.mark.parametrize("method", ["play", "apply", "bid"])
def test_a_hand_state_takes_any_integer_type_as_match_does(method: str) -> None:
    # HandState.play(np.int64(c)) played it, but left numpy integers in the hand masks and
    # the trick (1 << np.int64 is one); Match.apply takes them as their int.
    phase = "bid" if method == "bid" else "play"
    for kind in _integer_types():
        s = _hand_state(phase)
        plain = s.clone()
        for _ in range(6 if phase == "play" else 1):
            action = s.legal_actions()[-1]
            getattr(s, method)(kind(action))
            getattr(plain, method)(action)
        assert _state_of(s) == _state_of(plain)
        assert all(type(x) is int for x in [*s.hands, *s.trick, *s.bids, s.played])


@pytest.mark.parametrize("method, name", [("play", "card"), ("apply", "action"),
                                          ("bid", "action")])
@pytest.mark.parametrize("value", [True, False, "3", 3.0, None])
def test_a_hand_state_refuses_a_bool_or_a_non_integer_naming_the_argument(
        method: str, name: str, value: Any) -> None:
    # HandState.play(True) played the card 1 (True == 1), where Match.apply refuses a bool;
    # play("3") was TypeError: '<' not supported between instances of 'str' and 'int'.
    s = _hand_state("bid" if method == "bid" else "play")
    before = _state_of(s.clone())
    with pytest.raises(TypeError, match=rf"^{name} must be a whole number \(a .*\), "
                                        rf"not {__import__('re').escape(repr(value))}$"):
        getattr(s, method)(value)
    assert _state_of(s) == before


def test_a_hand_state_refuses_a_numpy_bool() -> None:
    np = pytest.importorskip("numpy")
    s = _hand_state("play")
    with pytest.raises(TypeError, match=r"^card must be a whole number"):
        s.play(np.True_)
    with pytest.raises(TypeError, match=r"^action must be a whole number"):
        s.apply(np.False_)


def _flag_message(name: str, value: object) -> str:
    return rf"^{name} must be True or False, not {re.escape(repr(value))}$"


@pytest.mark.parametrize("value", ["yes", "false", 1, 0, None])
def test_replay_events_must_be_true_or_false(value: Any) -> None:
    # replay(record, events='yes') recorded events, and events='false' did too: any truthy
    # value was taken for True.
    from spades.engine import replay

    record = Match(profile("cardems", one_hand=True), rng=random.Random(1)).to_record()
    with pytest.raises(TypeError, match=_flag_message("events", value)):
        replay(record, events=value)
    assert replay(record, events=True).events
    assert replay(record, events=False).events is None


@pytest.mark.parametrize("into", ["events", ()])
def test_replay_into_must_be_a_list(into: Any) -> None:
    # into="events" failed deep inside with AttributeError: 'str' object has no attribute
    # 'append'.
    from spades.engine import replay

    record = Match(profile("cardems", one_hand=True), rng=random.Random(1)).to_record()
    with pytest.raises(TypeError, match=rf"^into must be a list \(the events are appended to "
                                        rf"it\) or None, not {re.escape(repr(into))}$"):
        replay(record, into=into)
    kept: list[Any] = []
    replay(record, into=kept)
    assert kept


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_match_flags_must_be_true_or_false(value: Any) -> None:
    # Match(rules, events='yes') and match.record_events('no') took any truthy value for True
    # (pure Python); the compiled build refused it in mypyc's words, "bool object expected;
    # got str", naming neither the argument nor what it takes.
    rules = profile("cardems")
    with pytest.raises(TypeError, match=_flag_message("events", value)):
        Match(rules, rng=random.Random(1), events=value)
    with pytest.raises(TypeError, match=_flag_message("events", value)):
        Match.new(rules, 1, events=value)
    match = Match(rules, rng=random.Random(1))
    with pytest.raises(TypeError, match=_flag_message("on", value)):
        match.record_events(value)
    assert match.events is None
    match.record_events(True)
    assert match.events == []


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_rules_to_json_teams_must_be_true_or_false(value: Any) -> None:
    rules = profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5)))
    with pytest.raises(TypeError, match=_flag_message("teams", value)):
        rules.to_json(teams=value)
    assert "teams" in rules.to_json(teams=True) and "teams" not in rules.to_json()


def test_the_helpers_take_numpy_integers_as_ints() -> None:
    np = pytest.importorskip("numpy")
    from spades.engine import BLIND_NIL, bid_action, bid_value, sorted_for_display

    assert bid_value(np.int64(BID_BASE + 3)) == 3 and bid_value(np.int32(BLIND_NIL)) == 0
    assert bid_action(np.int64(4)) == BID_BASE + 4
    assert sorted_for_display(np.int64(0b11)) == sorted_for_display(0b11) == [0, 1]


def test_score_side_refuses_rules_by_name_and_lists_per_side() -> None:
    # engine.md's "Scoring alone": score_side("cardems", ...) was AttributeError: 'str'
    # object has no attribute 'ten_for_200', and bids given per side ([3, 1] for seats 0
    # and 2) an IndexError.  (Compiled, mypyc refuses the name first, in its words.)
    from spades.engine.scoring import score_side

    with pytest.raises(TypeError, match=r"^rules must be a Rules, like profile\('cardems'\), "
                                        r"not 'cardems'$|Rules object expected"):
        score_side("cardems", [0, 2], [3, 1, 3, 1], [False] * 4, [5, 0, 3, 0], 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^seat 2: bids, blind and tricks are by seat "
                                         r"\(bids\[s\] for seat s\), and 2 bids, 2 tricks hold "
                                         r"no entry for it$"):
        score_side(profile("cardems"), [0, 2], [3, 3], [False] * 4, [5, 3], 0)
    assert score_side(profile("cardems"), [0, 1], [3, 3], [False] * 2, [5, 3], 0)[0].points == 62
    score, bags = score_side(profile("cardems"), [0, 2], [3, 1, 3, 1], [False] * 4,
                             [5, 0, 3, 0], 9)
    assert (score.points, bags) == (-38, 1)
    # seats and bags of another integer type, seats as a tuple or a range: the same
    assert score_side(profile("cardems"), (0, 2), [3, 1, 3, 1], [False] * 4, [5, 0, 3, 0],
                      _Index(9)) == (score, bags)
    assert score_side(profile("cardems"), range(0, 4, 2), [3, 1, 3, 1], [False] * 4,
                      [5, 0, 3, 0], 9) == (score, bags)


@pytest.mark.parametrize("make", [lambda: profile("cardems", name="mine"),
                                  lambda: profile("cardems").replace(name="mine")],
                         ids=["profile", "replace"])
def test_a_name_given_as_a_knob_is_told_it_is_the_rules_own(make: Any) -> None:
    # It said "name: unknown rules knob; known: bag_limit, ...", though Rules has a name.
    with pytest.raises(RulesError, match=r"^name: the rules' own name, not a knob: a "
                                         r"profile's rules keep the profile's; rules of your "
                                         r"own are Rules\(name='mine', \.\.\.knobs\)$"):
        make()
    assert Rules(name="mine").name == "mine"


@pytest.mark.parametrize("make", [
    lambda: Rules(name="mine", players=3),
    lambda: profile("cardems").replace(players=3),
    lambda: __import__("spades.engine").engine.rules_from_json({"preset": "custom",
                                                                 "players": 3}),
])
def test_another_count_of_players_with_the_default_teams_says_to_give_teams(make: Any) -> None:
    # Rules(name="mine", players=3) said only "teams: every seat 0 to 2 must be on exactly
    # one side, got [[0, 2], [1, 3]]": teams the caller never gave.
    with pytest.raises(RulesError, match=r"^teams: every seat 0 to 2 must be on exactly one "
                                         r"side, got \[\[0, 2\], \[1, 3\]\]: those are teams "
                                         r"of 4 players; give the teams of 3 \(teams=None: "
                                         r"everyone alone\)$"):
        make()
    assert Rules(name="mine", players=3, teams=None).sides == ((0,), (1,), (2,))


@pytest.mark.parametrize("timer", [20.0, "20"])
def test_a_turn_timer_in_range_but_no_whole_number_says_whole(timer: object) -> None:
    # profile("race400", turn_timer=20.0) said "must be off (null) or 5 to 600 seconds, not
    # 20.0": 20 is from 5 to 600; what is wrong is that it is not a whole number.
    with pytest.raises(RulesError, match=r"^turn_timer: must be off \(null\) or a whole number "
                                         r"of seconds, 5 to 600, not "):
        profile("race400", turn_timer=timer)
    assert profile("race400", turn_timer=20).turn_timer == 20


def test_teams_of_numpy_seats_are_those_seats() -> None:
    # profile("cardems", teams=[[np.int64(0), 2], [1, 3]]) said "teams: side 0: a seat must
    # be a whole number, not a int64", though a numpy integer is taken for every other knob.
    np = pytest.importorskip("numpy")
    rules = profile("race400", players=6, teams=[[np.int64(0), np.int64(3)], [1, 4], [2, 5]])
    assert rules == profile("race400", players=6, teams=[[0, 3], [1, 4], [2, 5]])
    assert type(rules.teams[0][0]) is int
    with pytest.raises(RulesError, match=r"^teams: side 0: a seat must be a whole number, "
                                         r"not 0\.0$"):
        profile("cardems", teams=[[0.0, 2], [1, 3]])


def test_a_numpy_bool_knob_is_that_bool() -> None:
    # profile("cardems", jokers=np.True_) said "jokers: must be true or false, not np.True_"
    # (a setting read from a numpy array, as numpy integers are taken for whole knobs).
    np = pytest.importorskip("numpy")
    rules = profile("cards4net", jokers=np.True_, blind_nil=np.bool_(False))
    assert rules == profile("cards4net", jokers=True, blind_nil=False)
    assert type(rules.jokers) is bool and type(rules.blind_nil) is bool
    with pytest.raises(RulesError, match=r"^jokers: must be true or false, not 1$"):
        profile("cardems", jokers=1)


def _finished_hand_state() -> Any:
    from spades.engine import HandState

    m = Match(profile("cardems"), rng=random.Random(3))
    s = HandState.from_obs(m.observation(m.current_player), list(m.hands))
    while s.legal_actions():
        s.apply(s.legal_actions()[0])
    return s


@pytest.mark.parametrize("value", ["x", None, True, [0.5]])
def test_side_values_refuses_a_bag_weight_that_is_no_number_by_name(value: Any) -> None:
    # side_values("x") was "unsupported operand type(s) for /: 'str' and 'int'" in pure
    # Python and mypyc's "float object expected; got str" compiled; True weighed as 1.
    s = _finished_hand_state()
    with pytest.raises(TypeError, match=rf"^bag_weight must be a number, like 0\.5, "
                                        rf"not {re.escape(repr(value))}$"):
        s.side_values(value)
    with pytest.raises(TypeError, match=r"^bag_weight must be a number"):
        s.utility(0, value)


@pytest.mark.parametrize("value, error, message", [
    ("x", TypeError, r"^side must be a whole number 0 to 1 \(a side of rules\.sides\), "
                     r"not 'x'$"),
    (None, TypeError, r"^side must be a whole number 0 to 1 .*, not None$"),
    (True, TypeError, r"^side must be a whole number 0 to 1 .*, not True$"),
    (1.0, TypeError, r"^side must be a whole number 0 to 1 .*, not 1\.0$"),
    (2, ValueError, r"^side must be 0 to 1 \(a side of rules\.sides\), not 2$"),
    (-1, ValueError, r"^side must be 0 to 1 \(a side of rules\.sides\), not -1$"),
])
def test_utility_refuses_a_side_that_is_no_side_by_name(value: Any, error: type[Exception],
                                                        message: str) -> None:
    # utility("x") was "list indices must be integers or slices, not str" (mypyc: "int
    # object expected; got str"), utility(2) "list index out of range", and utility(-1)
    # silently the last side's.
    s = _finished_hand_state()
    with pytest.raises(error, match=message):
        s.utility(value)
    with pytest.raises(TypeError, match=r"^rel must be a number, like 1\.0, not 'x'$"):
        s.utility(0, 0.5, "x")


def test_side_values_and_utility_take_any_kind_of_number() -> None:
    s = _finished_hand_state()
    assert s.side_values(1) == s.side_values(1.0)
    assert s.utility(1, 0, 2) == s.utility(1, 0.0, 2.0)
    np = pytest.importorskip("numpy")
    assert s.side_values(np.float32(0.5)) == s.side_values(0.5)
    assert s.side_values(np.int64(1)) == s.side_values(1.0)
    assert s.utility(np.int64(1), np.float64(0.25), np.float32(1.0)) == s.utility(1, 0.25, 1.0)
    with pytest.raises(TypeError, match=r"^side must be a whole number"):
        s.utility(np.True_)
