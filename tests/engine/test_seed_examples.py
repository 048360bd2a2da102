"""Every worked example of the seed documents (../shared/seeds/), as a test.

Each test names its seed and quotes the sentence it checks. Arithmetic is tested through
``spades.engine.scoring.score_side``; rules of play through real hands dealt with
``Match(rules, dealer=...)`` and ``deal([...])``.
"""

from __future__ import annotations

import pytest
from engine_support import bid, build_deal, expect_illegal, hand, play_cards, suit_deal

from spades.engine import (
    BIG_JOKER,
    BLIND_NIL,
    LITTLE_JOKER,
    LOOK,
    NIL,
    IllegalAction,
    Match,
    Rules,
    RulesError,
    SpadesError,
    card_str,
    cards_of,
    parse_card,
    profile,
)
from spades.engine.scoring import SideScore, apply_bags, score_side, winner

# Helpers ------------------------------------------------------------------------------------


def side(
    rules: Rules,
    bids: list[int],
    tricks: list[int],
    bags_before: int = 0,
    blind: list[bool] | None = None,
) -> tuple[SideScore, int]:
    """Score one side whose seats are 0..k-1 with these bids (0 = Nil) and tricks."""
    seats = list(range(len(bids)))
    return score_side(rules, seats, bids, blind or [False] * len(bids), tricks, bags_before)


def points(rules: Rules, bids: list[int], tricks: list[int], bags_before: int = 0) -> int:
    return side(rules, bids, tricks, bags_before)[0].points


def lowest_card_hand(match: Match, bids: list[int]) -> None:
    """Bid ``bids`` (in bidding order) and play the hand out, always the lowest legal card."""
    for b in bids:
        match.apply(bid(b))
    number = match.hand_number
    while match.phase == "play" and match.hand_number == number:
        match.apply(match.legal_actions()[0])


CARDEMS = profile("cardems")
RACE4 = profile("race400")


# Seed 000 (cardems): the scoring table ------------------------------------------------------


def test_000_bid_6_take_8_is_62_points_and_2_bags() -> None:
    # "| Bid 6, take 8 | +62 points and 2 bags |"
    score, bags = side(CARDEMS, [4, 2], [5, 3])
    assert (score.points, score.new_bags, bags) == (62, 2, 2)


def test_000_bid_6_take_5_is_minus_60_and_no_bags() -> None:
    # "| Bid 6, take 5 | -60 points and no new bags |"
    score, bags = side(CARDEMS, [3, 3], [1, 4], bags_before=4)
    assert (score.points, score.new_bags, bags) == (-60, 0, 4)


def test_000_nil_and_5_take_5_is_150() -> None:
    # "| Bid Nil + 5, take 5, Nil takes 0 | +150 points: +50 contract and +100 Nil |"
    score, _ = side(CARDEMS, [0, 5], [0, 5])
    assert (score.contract_points, score.nil_points, score.points) == (50, 100, 150)


def test_000_nine_bags_then_bid_4_take_5() -> None:
    # "| Team enters with 9 bags, makes bid 4 with 5 tricks | +41 contract points, then -100
    # bag penalty; 0 bags remain |"
    score, bags = side(CARDEMS, [2, 2], [3, 2], bags_before=9)
    assert (score.contract_points, score.penalties, score.points, bags) == (41, 1, -59, 0)


def test_000_table_on_a_real_hand() -> None:
    # The first three rows of the table, scored by the engine at the end of real hands.
    # Every seat holds one suit: North (0) all spades takes all 13 tricks.
    m = Match(CARDEMS, dealer=3)
    m.deal(suit_deal("SHDC"))
    lowest_card_hand(m, [6, 1, 2, 1])  # N 6, E 1, S 2, W 1: N/S contract 8 takes 13
    r = m.results[0]
    assert r.tricks == (13, 0, 0, 0)
    assert r.points == (80 + 5, -20) and r.bags == (5, 0)
    # North bids Nil and takes tricks: -100, and in cardems the failed-nil tricks count.
    m = Match(CARDEMS, dealer=3)
    m.deal(suit_deal("SHDC"))
    lowest_card_hand(m, [0, 1, 5, 1])
    assert m.results[0].points == (-100 + 50 + 8, -20)
    # East holds the spades: E/W contract 4 + 1 = 5 takes 13; N/S: North 2 is set (-20)
    # and South's Nil holds (+100).
    m = Match(CARDEMS, dealer=3)
    m.deal(suit_deal("HSDC"))
    lowest_card_hand(m, [2, 4, 0, 1])
    assert m.results[0].tricks == (0, 13, 0, 0)
    assert m.results[0].points == (-20 + 100, 50 + 8)


def test_000_nil_and_5_made_on_a_real_hand() -> None:
    m = Match(CARDEMS, dealer=2)  # West (3), left of the dealer, bids first
    m.deal(suit_deal("CHDS"))  # seat 3 (West) holds every spade
    # Bidding starts left of the dealer: seats 3, 0, 1, 2.
    lowest_card_hand(m, [13, 0, 0, 1])
    r = m.results[0]
    assert r.bids == (0, 0, 1, 13)
    assert r.tricks == (0, 0, 0, 13)
    # N/S: North Nil made +100, South 1 set -10. E/W: West 13 made 130, East Nil made +100.
    assert r.points == (100 - 10, 130 + 100)


def test_000_nil_is_not_a_zero_bid_and_13_is_the_top() -> None:
    # "Each player chooses Nil or a bid from 1 through 13"
    m = Match(CARDEMS, dealer=0)
    m.deal(suit_deal())
    assert m.legal_actions() == tuple(bid(b) for b in range(14))
    assert m.legal_actions()[0] == NIL
    assert "13" in expect_illegal(m, bid(14))
    # "Blind Nil is not implemented"
    assert "blind nil is not allowed" in expect_illegal(m, BLIND_NIL)


def test_000_bids_start_left_of_dealer_and_the_first_bidder_leads() -> None:
    # "Bidding begins with that same player and continues clockwise. ... After all four
    # bids, the first bidder leads the first trick. The dealer advances one seat clockwise"
    m = Match(CARDEMS, dealer=1)
    m.deal(suit_deal())
    order = []
    for _ in range(4):
        order.append(m.current_player)
        m.apply(bid(1))
    assert order == [2, 3, 0, 1]
    assert m.phase == "play" and m.current_player == 2 and m.leader == 2
    while m.phase == "play":
        m.apply(m.legal_actions()[0])
    assert m.dealer == 2 and m.phase == "deal"


def test_000_cardems_failed_nil_tricks_count_toward_the_contract() -> None:
    # Profiles table: cardems "count toward the side's contract"; "a team bidding Nil and 5
    # still needs five total tricks to make its contract"
    score, _ = side(CARDEMS, [0, 5], [2, 3])
    assert score.made and score.points == 50 - 100
    club = profile("cardgames-club")
    score, bags = side(club, [0, 5], [2, 3])
    assert not score.made and score.points == -50 - 100 + 2 and bags == 2


# Seed 002 (race400): trick winners ---------------------------------------------------------


def test_002_example_one_highest_of_the_led_suit() -> None:
    # "the first plays the queen of diamonds, the second the jack of diamonds, the third the
    # 3 of diamonds. Answer: the first."
    rules = profile("race400", players=3)
    m = Match(rules, dealer=2)
    m.deal(build_deal(rules, {0: "QD AC", 1: "JD", 2: "3D"}, {0: "S"}))
    lowest_card_hand_bids(m, 3)
    play_cards(m, ["QD", "JD", "3D"])
    assert m.tricks == [1, 0, 0] and m.current_player == 0


def lowest_card_hand_bids(m: Match, n: int) -> None:
    """Everybody bids 1 (looking at the cards first where blind nil is offered)."""
    for _ in range(n):
        if m.legal_actions() == (BLIND_NIL, LOOK):
            m.apply(LOOK)
        m.apply(bid(1))


def test_002_example_two_a_small_spade_beats_a_queen() -> None:
    # "the first plays the queen of hearts, the second the 7 of spades, the third the 9 of
    # hearts. Answer: the second."
    rules = profile("race400", players=3)
    m = Match(rules, dealer=2)
    m.deal(build_deal(rules, {0: "QH", 1: "7S", 2: "9H"}, {1: "H", 0: "S"}))
    lowest_card_hand_bids(m, 3)
    play_cards(m, ["QH", "7S", "9H"])
    assert m.tricks == [0, 1, 0] and m.current_player == 1


def test_002_example_three_the_higher_spade_wins() -> None:
    # "the first plays the ace of hearts, the second the 10 of hearts, the third the jack of
    # spades, the fourth the 7 of spades. Answer: the third."
    rules = profile("race400")
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AH", 1: "TH", 2: "JS", 3: "7S"}, {2: "H", 3: "H", 0: "S"}))
    lowest_card_hand_bids(m, 4)
    play_cards(m, ["AH", "TH", "JS", "7S"])
    assert m.tricks == [0, 0, 1, 0] and m.current_player == 2


def test_002_two_of_spades_takes_the_ace_of_hearts() -> None:
    # "the 2 of spades — the weakest card in the whole deck — takes the trick from the ace of
    # hearts" (seed 001 too: "The Ace of Hearts is beaten by the Two of Spades.")
    m = Match(profile("cardgames-club"), dealer=3)
    m.deal(build_deal(CARDEMS, {0: "AH", 1: "2S"}, {1: "H", 0: "S"}))
    lowest_card_hand_bids(m, 4)
    m.apply(parse_card("AH"))
    m.apply(parse_card("2S"))
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    assert m.tricks[1] == 1


def test_002_must_follow_suit_but_any_card_of_it() -> None:
    # "the first player plays the 7 of hearts, and you have hearts. So you must play a heart.
    # You may play the ace of hearts ... or the 2 of hearts"; "You may not trump while you
    # have the led suit."
    rules = profile("race400")
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "7H", 1: "AH 2H 3S KC"}, {0: "S"}))
    lowest_card_hand_bids(m, 4)
    m.apply(parse_card("7H"))
    assert {card_str(c) for c in m.legal_actions()} == {"AH", "2H"}
    assert "must follow suit" in expect_illegal(m, parse_card("3S"))
    assert "must follow suit" in expect_illegal(m, parse_card("KC"))


def test_002_discarding_cannot_win() -> None:
    # "the ace of diamonds is led, you have no diamonds, so you discard the king of clubs.
    # The king takes nothing"
    rules = profile("race400")
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AD", 1: "KC", 2: "2D", 3: "3D"}, {1: "DS", 0: "S"}))
    lowest_card_hand_bids(m, 4)
    play_cards(m, ["AD", "KC", "2D", "3D"])
    assert m.tricks == [1, 0, 0, 0]


# Seed 002: bids, bonuses, sandbags and Nil ---------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(3, 17), (4, 13), (5, 10), (6, 8)])
def test_002_a_bid_is_zero_up_to_the_hand_size(players: int, size: int) -> None:
    # "A bid is a number from zero up to the number of cards in your hand."
    rules = profile("race400", players=players)
    assert rules.hand_size == size
    m = Match.new(rules, seed=players)
    assert m.legal_actions() == tuple(bid(b) for b in range(size + 1))
    expect_illegal(m, bid(size + 1))


def test_002_small_contract_bonus() -> None:
    # "someone who bid 2 and took 2 gets 20 for the bid and 20 bonus, 40 in total. Had they
    # taken a third, the bonus would be gone and their total would be 21 points and a
    # sandbag."
    for players in (3, 4):
        rules = profile("race400", players=players)
        assert points(rules, [2], [2]) == 40
        score, bags = side(rules, [2], [3])
        assert (score.points, bags) == (21, 1)
        assert points(rules, [1], [1]) == 30
    # "This bonus only applies with three or four players."
    for players in (5, 6):
        assert points(profile("race400", players=players), [2], [2]) == 20


def test_002_a_player_who_bid_4() -> None:
    # "Took exactly 4: +40 points. ... Took 6: +42 points, and two sandbags ... Took 3: −40"
    assert points(RACE4, [4], [4]) == 40
    score, bags = side(RACE4, [4], [6])
    assert (score.points, bags) == (42, 2)
    assert points(RACE4, [4], [3]) == -40
    # "Someone who bid 6 and took 5, and someone who bid 6 and took nothing — both lose 60."
    assert points(RACE4, [6], [5]) == points(RACE4, [6], [0]) == -60


@pytest.mark.parametrize(
    ("players", "examples"),
    [
        (4, {6: 60, 7: 80, 10: 140}),
        (3, {9: 90, 10: 110, 13: 170}),
        (5, {5: 50, 6: 70, 9: 130}),
        (6, {4: 40, 5: 60, 8: 120}),
    ],
)
def test_002_hard_contract_bonus(players: int, examples: dict[int, int]) -> None:
    # "Four players — the bonus starts after 6: ... Bid 7 and made it? ... 70 + 10 = 80" etc.
    rules = profile("race400", players=players)
    for contract, result in examples.items():
        assert points(rules, [contract], [contract]) == result, (players, contract)


def test_002_no_bonus_on_a_set_contract() -> None:
    # "Both bonuses are only given when the contract is made. Someone who bid 7 and took 6
    # loses 70, with no bonus."
    assert points(RACE4, [7], [6]) == -70
    assert points(RACE4, [2], [1]) == -20


def test_002_six_players_bid_8_take_all_8_on_a_real_hand() -> None:
    # "Bid 8 — every trick in the round — and made it? ... your result is 80 + 40 = 120."
    rules = profile("race400", players=6)
    m = Match(rules, dealer=5)
    m.deal(build_deal(rules, {0: "AS KS QS JS TS 9S 8S 7S"}))
    lowest_card_hand(m, [8, 1, 1, 1, 1, 1])
    assert m.results[0].tricks == (8, 0, 0, 0, 0, 0)
    assert m.results[0].points == (120, -10, -10, -10, -10, -10)


def test_002_team_contract_who_took_what_changes_nothing() -> None:
    # "You took 2 and they took 4? ... You took 3 and they took 3? ... Made again. Who took
    # what changes nothing."
    rules = profile("race400", teams=((0, 2), (1, 3)))
    got = {points(rules, [2, 4], t) for t in ([2, 4], [3, 3], [4, 2])}
    assert got == {60}


def test_002_sandbags_cost_100_and_the_counter_drops_by_ten() -> None:
    # "The moment it reaches ten, you lose 100 points on the spot and your counter drops by
    # ten. So ten extra tricks spread over six rounds end up costing you a hundred points."
    score, bags = side(RACE4, [4], [7], bags_before=8)
    assert (score.contract_points, score.penalties, score.points, bags) == (43, 1, -57, 1)
    bags = 0
    total = 0
    for over in (2, 1, 3, 1, 2, 1):  # ten overtricks in six rounds
        score, bags = side(RACE4, [3], [3 + over], bags_before=bags)
        total += score.points
    assert bags == 0 and total == 6 * 30 + 10 - 100


def test_002_failed_nil_example() -> None:
    # "you bid Nil and your teammate bids 4. ... If you take one trick and they take three,
    # you have broken your Nil and their contract has fallen as well — and your trick did not
    # help them"; "−100 points, and every trick you took becomes a sandbag against you"
    rules = profile("race400", teams=((0, 2), (1, 3)))
    score, bags = side(rules, [0, 4], [1, 3])
    assert not score.made
    assert (score.contract_points, score.nil_points, score.new_bags) == (-40, -100, 1)
    assert score.points == -40 - 100 + 1 and bags == 1
    # Solo: a lone Nil bidder who takes two tricks.
    score, bags = side(RACE4, [0], [2])
    assert (score.points, bags) == (-100 + 2, 2)
    assert points(RACE4, [0], [0]) == 100


def test_002_teams_are_seated_apart() -> None:
    # "the seats are rearranged so that nobody ever sits next to a teammate"
    with pytest.raises(RulesError, match="side by side"):
        profile("race400", teams=((0, 1), (2, 3)))
    with pytest.raises(RulesError, match="side by side"):
        profile("race400", players=6, teams=((0, 1), (2, 3), (4, 5)))
    assert profile("race400", players=6, teams=((0, 3), (1, 4), (2, 5))).sides == (
        (0, 3), (1, 4), (2, 5))
    assert profile("race400", players=6, teams=((0, 2, 4), (1, 3, 5))).side_of == (
        0, 1, 0, 1, 0, 1)
    # "By default you play alone against everyone"
    assert profile("race400").teams is None
    assert profile("race400").sides == ((0,), (1,), (2,), (3,))


# Decks for 3, 5 and 6 players, and jokers -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "removed", "size"),
    [(3, "2C", 17), (4, "", 13), (5, "2C 2D", 10), (6, "2C 2D 2H 2S", 8)],
)
def test_002_as_many_twos_as_needed_are_taken_out(players: int, removed: str, size: int) -> None:
    # "Three players: the 2 of clubs is taken out, leaving 51 cards: 17 each ... Five
    # players: the 2 of clubs and the 2 of diamonds ... Six players: all four 2s"
    rules = profile("race400", players=players)
    full = (1 << 52) - 1
    assert full & ~rules.deck == hand(removed)
    assert rules.hand_size == size
    m = Match.new(rules, seed=1)
    assert [h.bit_count() for h in m.hands] == [size] * players
    if removed:
        m = Match(rules, dealer=0)
        bad = build_deal(profile("race400", players=players), {})
        swapped = bad[0] & -bad[0]
        bad[0] = bad[0] ^ swapped | hand(removed.split()[0])
        with pytest.raises(SpadesError, match="not in this deck"):
            m.deal(bad)


JOKER_DECK_TRUMPS = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
JOKER_DECK_REST = {
    1: "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    2: "AH 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    3: "AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
}


def joker_match(north: str, east: str) -> Match:
    """North holds only trumps (a joker and 2♠..K♠), East a joker and diamonds, South
    A♥ and clubs, West A♠ and hearts."""
    rules = profile("cards4net", jokers=True)
    m = Match(rules, dealer=3)
    m.deal([hand(f"{north} {JOKER_DECK_TRUMPS}"), hand(f"{east} {JOKER_DECK_REST[1]}"),
            hand(JOKER_DECK_REST[2]), hand(JOKER_DECK_REST[3])])
    lowest_card_hand_bids(m, 4)
    return m


def test_004_jokers_deck_and_ranks() -> None:
    # Profiles doc: "Big Joker and Little Joker join the deck as the two highest trumps
    # (Big > Little > A♠), count as spades for following suit and breaking, and 2♣ and 2♦
    # leave the deck." Seed 004: "Jokers adds two jokers as the top two trumps and removes
    # the two lowest cards"
    rules = profile("cards4net", jokers=True)
    assert rules.deck == ((1 << 52) - 1) & ~hand("2C 2D") | hand("BJ LJ")
    assert rules.hand_size == 13
    # Little joker beats the ace of spades; it must follow a spade lead.
    m = joker_match("BJ", "LJ")
    assert m.legal_actions() == tuple(cards_of(m.hands[0]))  # only trumps: may lead them
    m.apply(parse_card("2S"))
    assert m.legal_actions() == (LITTLE_JOKER,)
    m.apply(LITTLE_JOKER)
    m.apply(parse_card("3C"))
    assert m.legal_actions() == (parse_card("AS"),)
    m.apply(parse_card("AS"))
    assert m.tricks == [0, 1, 0, 0]
    # Led and followed only: in cards4net that does not break spades.
    assert not m.broken
    # A joker played on another suit is trumping and breaks them.
    play_cards(m, ["3D", "4C", "2H"])
    m.apply(BIG_JOKER)
    assert m.broken and m.tricks == [1, 1, 0, 0]
    # Big joker beats little joker.
    m = joker_match("LJ", "BJ")
    play_cards(m, ["LJ", "BJ", "3C", "AS"])
    assert m.tricks == [0, 1, 0, 0]


def test_004_a_joker_on_another_suit_breaks_spades() -> None:
    rules = profile("cards4net", jokers=True)
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AH", 1: "BJ"}, {1: "HS", 0: "S"}))
    lowest_card_hand_bids(m, 4)
    m.apply(parse_card("AH"))
    assert not m.broken
    m.apply(BIG_JOKER)
    assert m.broken


# Seed 004 (cards4net): scoring, bags, blind nil ---------------------------------------------

C4N = profile("cards4net")


def test_004_bid_7_take_8_is_71() -> None:
    # "A team that bid 7 and took 8 scores 71 — seventy for the contract, one for the
    # overtrick."
    score, bags = side(C4N, [4, 3], [6, 2])
    assert (score.points, bags) == (71, 1)


def test_004_bid_7_take_6_is_minus_70() -> None:
    # "A team that bid 7 and took 6 scores −70."
    assert points(C4N, [4, 3], [6, 0]) == -70


def test_004_505_becomes_405_and_play_continues() -> None:
    # "a partnership that reaches 505 on the same hand that takes it across ten bags is on
    # 405 and the match continues." Bags reset: "ten bags costs your partnership 100 points
    # and the counter resets"
    score, bags = side(C4N, [4, 3], [6, 2], bags_before=9)
    before = 434
    after = before + score.points
    assert (score.points, after, bags) == (71 - 100, 405, 0)
    assert winner(C4N, [after, 380], 12) == (False, None)
    # Without the bags the same hand would have won.
    assert winner(C4N, [505, 380], 12) == (True, 0)


def test_004_bags_reset_to_zero_but_cardems_keeps_the_remainder() -> None:
    # Profiles doc: "More than 10 bags at once: each full ten costs one penalty;
    # keep-remainder profiles keep the bags modulo 10, reset profiles drop to 0."
    assert apply_bags(C4N, 13) == (0, 1)
    assert apply_bags(C4N, 21) == (0, 2)
    assert apply_bags(CARDEMS, 13) == (3, 1)
    assert apply_bags(CARDEMS, 21) == (1, 2)
    assert apply_bags(CARDEMS, 9) == (9, 0)
    # "Both numbers are table settings"
    table = profile("cards4net", bag_limit=5, bag_penalty=50)
    score, bags = side(table, [2, 2], [4, 3], bags_before=2)
    assert (score.points, bags) == (43 - 50, 0)


def test_004_nil_and_blind_nil_points() -> None:
    # "+100 for a nil that holds, −100 for one that breaks, +200 and −200 for blind nil"
    def nil_points(tricks: int, blind: bool) -> int:
        score, _ = side(C4N, [0, 3], [tricks, 3], blind=[blind, False])
        return score.nil_points

    assert [nil_points(0, False), nil_points(1, False)] == [100, -100]
    assert [nil_points(0, True), nil_points(2, True)] == [200, -200]
    # "A partnership can therefore have a hand where one partner makes their number, the
    # other breaks nil, and the team still ends up negative."
    score, _ = side(C4N, [0, 3], [1, 3])
    assert score.made and score.points < 0
    # "a double nil is worth +200 if they both hold"
    assert side(C4N, [0, 0], [0, 0])[0].points == 200


def test_004_blind_nil_only_as_the_first_bid_before_looking() -> None:
    # "it is only available as the very first bid of the hand — on Cards4.net's tables,
    # blind nil is offered only when no one at the table has bid yet." Profiles doc: "their
    # hand stays hidden from them until they bid blind nil or choose to look"
    m = Match(C4N, dealer=3)
    m.deal(suit_deal())
    assert m.current_player == 0
    assert m.legal_actions() == (BLIND_NIL, LOOK)
    assert m.observation(0).hand is None
    assert m.observation(1).hand is not None
    m.apply(LOOK)
    assert m.observation(0).hand == m.hands[0]
    assert BLIND_NIL not in m.legal_actions()
    assert "before looking" in expect_illegal(m, BLIND_NIL)
    m.apply(bid(2))
    assert m.current_player == 1 and BLIND_NIL not in m.legal_actions()
    assert "first bid" in expect_illegal(m, BLIND_NIL)
    # Bidding it:
    m = Match(C4N, dealer=3)
    m.deal(suit_deal("HSDC"))  # East holds the spades and takes every trick
    m.apply(BLIND_NIL)
    assert m.blind[0] and m.bids[0] == 0
    lowest_card_hand(m, [3, 2, 3])
    r = m.results[0]
    assert r.tricks == (0, 13, 0, 0)
    assert r.sides[0].nil_points == 200
    assert r.points == (200 - 20, 60 + 7)


def test_004_blind_nil_is_an_option_and_off_elsewhere() -> None:
    # Profiles doc: "blind nil ±200, only as the first bid of the hand (option: off)"
    m = Match(profile("cards4net", blind_nil=False), dealer=3)
    m.deal(suit_deal())
    assert BLIND_NIL not in m.legal_actions() and LOOK not in m.legal_actions()
    for name in ("cardems", "cardgames-club", "race400", "game93"):
        assert not profile(name).blind_nil


def test_004_ten_for_200() -> None:
    # "10-for-200 makes a bid of exactly 10 tricks worth 200 points instead of 100, and
    # −200 if set."
    rules = profile("cards4net", ten_for_200=True)
    assert points(rules, [6, 4], [6, 4]) == 200
    assert points(rules, [6, 4], [6, 5]) == 201
    assert points(rules, [6, 4], [5, 4]) == -200
    assert points(rules, [6, 5], [6, 5]) == 110
    assert points(C4N, [6, 4], [6, 4]) == 100


def test_004_mirror_bids_the_spades_held() -> None:
    # "Mirror or "blind" bidding removes the choice entirely: each player bids the number of
    # spades they hold." Profiles doc: "none held = Nil. No blind nil."
    rules = profile("cards4net", bidding="mirror", blind_nil=False)
    m = Match(rules, dealer=3)
    deal = build_deal(rules, {0: "AS KS QS", 1: "2S", 2: "3S 4S 5S 6S 7S 8S 9S TS JS"},
                      {0: "", 3: "S", 1: "S"})
    m.deal(deal)
    assert m.legal_actions() == (bid(3),)
    assert "3 spades held" in expect_illegal(m, bid(2))
    m.apply(bid(3))
    assert m.legal_actions() == (bid(1),)
    m.apply(bid(1))
    assert m.legal_actions() == (bid(9),)
    m.apply(bid(9))
    assert m.legal_actions() == (NIL,)
    # Decided: choosing Mirror turns blind nil off; asking for both is refused.
    assert profile("cards4net", bidding="mirror") == rules
    with pytest.raises(RulesError, match="blind"):
        profile("cards4net", bidding="mirror", blind_nil=True)


def test_004_whiz_bids_nil_or_the_spades_held() -> None:
    # "Whiz requires every player to either bid the number of spades in their hand or bid
    # nil."
    rules = profile("cards4net", bidding="whiz", blind_nil=False)
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AS KS", 1: "2S"}, {0: "", 1: "S", 3: "S"}))
    assert m.legal_actions() == (NIL, bid(2))
    expect_illegal(m, bid(3))
    m.apply(bid(2))
    assert m.legal_actions() == (NIL, bid(1))
    m.apply(NIL)
    m.apply(m.legal_actions()[-1])
    assert m.legal_actions() == (NIL,)  # West holds no spade


def test_004_suicide_one_partner_of_each_side_bids_nil() -> None:
    # "Suicide forces one partner on each team to bid nil every hand." Profiles doc: "exactly
    # one partner of each side bids Nil each hand; the other bids a number."
    rules = profile("cards4net", bidding="suicide", blind_nil=False)
    m = Match(rules, dealer=3)
    m.deal(suit_deal())
    assert m.legal_actions() == tuple(bid(b) for b in range(14))  # seat 0: either
    m.apply(bid(4))
    m.apply(NIL)  # seat 1
    assert m.legal_actions() == (NIL,)  # seat 2: partner 0 bid a number
    assert "must bid nil" in expect_illegal(m, bid(3))
    m.apply(NIL)
    assert NIL not in m.legal_actions()  # seat 3: partner 1 bid nil
    assert "bid a number" in expect_illegal(m, NIL)
    with pytest.raises(RulesError, match="suicide needs teams"):
        profile("race400", bidding="suicide")


# Breaking spades ------------------------------------------------------------------------------


def break_test_match(name: str) -> Match:
    """North holds only hearts and spades below the king; East holds K♠ A♠ and no hearts.
    North leads A♥ and K♥, then only spades are left: North leads 2♠ unbroken, East
    follows with K♠ and wins; East now leads, holding A♠ and other suits."""
    rules = profile(name)
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AH KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS", 1: "KS AS"},
                      {1: "H"}))
    lowest_card_hand_bids(m, 4)
    for lead in ("AH", "KH"):
        m.apply(parse_card(lead))
        for _ in range(3):
            m.apply(min(m.legal_actions()))  # a non-spade: East discards rather than trump
    assert m.tricks[0] == 2 and not m.broken
    # The all-spades lead exception: "unless the leader has only Spades left".
    assert m.legal_actions() == tuple(cards_of(m.hands[0]))
    m.apply(parse_card("2S"))
    assert m.legal_actions() == (parse_card("KS"), parse_card("AS"))  # East follows spades
    m.apply(parse_card("KS"))
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    assert m.current_player == 1
    return m


@pytest.mark.parametrize("name", ["cardems", "cardgames-club", "race400"])
def test_any_spade_played_breaks_spades(name: str) -> None:
    # Seed 000: "Spades may not be led until a Spade has been played"; seed 001: "The first
    # time a spade is played, "Spades is Broken""; seed 002: "Spades are broken the first
    # time a spade is played in the round"
    m = break_test_match(name)
    assert m.broken and m.observation(2).spades_broken
    assert parse_card("AS") in m.legal_actions()


@pytest.mark.parametrize("name", ["game93", "cards4net"])
def test_only_trumping_breaks_spades(name: str) -> None:
    # Seed 003: "Spades cannot lead until played on another suit, unless your hand contains
    # only spades." Seed 004: "Spades are broken the first time somebody plays a spade on a
    # trick led in another suit". A spade led from an all-spade hand does not break them.
    m = break_test_match(name)
    assert not m.broken and not m.observation(2).spades_broken
    assert parse_card("AS") not in m.legal_actions()
    assert "not broken" in expect_illegal(m, parse_card("AS"))


@pytest.mark.parametrize("name", ["cardems", "cardgames-club", "race400", "game93", "cards4net"])
def test_no_spade_lead_until_broken_then_trumping_breaks(name: str) -> None:
    # Seed 001: "She can play any card, except a spade."; seed 004: "You may trump a trick
    # with a spade at any point in the hand, and doing so is what breaks them"
    rules = profile(name)
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AD 2H 3S", 1: "5S 6S"}, {1: "D"}))
    if m.legal_actions() == (BLIND_NIL, LOOK):
        m.apply(LOOK)
    lowest_card_hand_bids(m, 4)
    assert parse_card("3S") not in m.legal_actions()
    assert "spades are not broken" in expect_illegal(m, parse_card("3S"))
    m.apply(parse_card("AD"))
    m.apply(parse_card("5S"))  # East is void in diamonds and trumps
    assert m.broken
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    assert m.current_player == 1 and m.tricks[1] == 1
    assert parse_card("6S") in m.legal_actions()


def test_spades_are_unbroken_again_each_hand() -> None:
    # Seed 002: "Spades go back to "not broken" at the start of every round."
    m = Match.new(CARDEMS, seed=3)
    while m.hand_number == 1:
        m.apply(m.legal_actions()[-1])
    assert m.phase == "bid" and not m.broken


# The winner -----------------------------------------------------------------------------------


def test_winner_unique_highest_at_or_above_the_target() -> None:
    # Seed 000: "Reach 500 points with a uniquely higher team score. If both partnerships are
    # tied at or above 500 after a round, play continues until one team leads."
    assert winner(CARDEMS, [500, 499], 9) == (True, 0)
    assert winner(CARDEMS, [510, 530], 9) == (True, 1)
    assert winner(CARDEMS, [520, 520], 9) == (False, None)
    assert winner(CARDEMS, [499, -20], 9) == (False, None)
    # Seed 002: "If two reach it in the same round, the one with more points is the winner.
    # And if they are tied at the top, there is no winner yet"
    r3 = profile("race400", players=3)
    assert winner(r3, [410, 410, 300], 5) == (False, None)
    assert winner(r3, [410, 420, 300], 5) == (True, 1)
    assert winner(r3, [400, 390, 390], 5) == (True, 0)
    assert winner(r3, [399, 390, 390], 5) == (False, None)


def test_game93_one_hand_match_higher_wins_equal_draws() -> None:
    # Seed 003: "A one-hand match ends after 13 tricks; the higher team score wins and equal
    # scores draw."
    rules = profile("game93", one_hand=True)
    assert winner(rules, [40, -20], 1) == (True, 0)
    assert winner(rules, [-20, 40], 1) == (True, 1)
    assert winner(rules, [30, 30], 1) == (True, None)
    # A real draw: both sides bid 14 and both are set (-140 each), whoever takes what.
    m = Match.new(rules, seed=11)
    lowest_card_hand(m, [7, 7, 7, 7])
    assert m.is_over() and m.winner is None and m.scores == [-140, -140]
    assert m.legal_actions() == ()
    with pytest.raises(IllegalAction, match="over"):
        m.apply(bid(1))


def test_a_real_match_ends_when_a_side_reaches_the_target() -> None:
    rules = profile("cardems", target=100)
    m = Match(rules, dealer=3)
    m.deal(suit_deal("SHDC"))  # North takes all 13
    lowest_card_hand(m, [6, 1, 4, 1])  # N/S contract 10 made +3: 103
    assert m.is_over() and m.winner == 0 and m.scores == [103, -20]
    assert m.current_player == -2


# Turn timer (seed 002) ----------------------------------------------------------------------


def test_002_timeout_plays_the_weakest_card_and_costs_a_bag_at_once() -> None:
    # "The game plays for you: a bid that suits your hand if you are bidding, or the weakest
    # card you are allowed to play ... And your counter goes up by one sandbag, which is
    # announced to the table the moment it happens."
    rules = profile("race400", turn_timer=30)
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "9C 5H 3S KD AC AD AH AS KC KH KS QC QD"}))
    for _ in range(4):
        m.apply(bid(1))
    assert m.timeout_action() == parse_card("5H")  # lowest rank among non-spades
    assert m.apply_timeout() == parse_card("5H")
    assert m.bags == [1, 0, 0, 0] and m.scores == [0, 0, 0, 0]


def test_002_timeouts_can_trigger_the_bag_penalty_at_once() -> None:
    # Profiles doc: "the side takes 1 penalty bag ... (it can trigger the 10-bag penalty at
    # once)"
    rules = profile("race400", turn_timer=30)
    m = Match(rules, dealer=3)
    m.deal(suit_deal())
    for _ in range(4):
        m.apply_timeout()
    assert m.bags == [1, 1, 1, 1]
    seen = []
    while m.bags[0] < 9 or m.current_player != 0:
        m.apply_timeout()
    m.apply_timeout()  # the tenth
    seen.append((m.bags[0], m.scores[0]))
    assert seen == [(0, -100)]


def test_002_timeout_spade_only_when_nothing_else_is_legal() -> None:
    rules = profile("race400", turn_timer=30)
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AD", 1: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AC"}))
    for _ in range(4):
        m.apply(bid(1))
    m.apply(parse_card("AD"))
    assert m.timeout_action() == parse_card("AC")  # the ace of clubs rather than a spade
    # A hand of spades only: the lowest spade.
    m = Match(rules, dealer=3)
    m.deal(build_deal(rules, {0: "AD", 1: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"}))
    for _ in range(4):
        m.apply(bid(1))
    m.apply(parse_card("AD"))
    assert m.timeout_action() == parse_card("2S")


@pytest.mark.parametrize(
    ("name", "first_bids"),
    [
        # 000: "Each player chooses Nil or a bid from 1 through 13"
        ("cardems", tuple(bid(b) for b in range(14))),
        # 001: "each player has to make a bid" (profiles doc: Nil or 1–13)
        ("cardgames-club", tuple(bid(b) for b in range(14))),
        # 003: "Choose your bid ... Zero means Nil"
        ("game93", tuple(bid(b) for b in range(14))),
        # 004: "A bid is a whole number from 0 to 13"; blind nil first: look or bid it
        ("cards4net", (BLIND_NIL, LOOK)),
    ],
)
def test_bidding_limits_per_profile(name: str, first_bids: tuple[int, ...]) -> None:
    m = Match(profile(name), dealer=0)
    m.deal(suit_deal())
    assert m.legal_actions() == first_bids
    if m.legal_actions() == (BLIND_NIL, LOOK):
        m.apply(LOOK)
        assert m.legal_actions() == tuple(bid(b) for b in range(14))
    expect_illegal(m, bid(14))
    m.apply(bid(13))
    for _ in range(3):
        assert m.legal_actions() == tuple(bid(b) for b in range(14))  # no combined limit
        m.apply(bid(13))
    assert m.phase == "play"


def test_nil_can_be_switched_off() -> None:
    m = Match(profile("race400", nil=False), dealer=0)
    m.deal(suit_deal())
    assert m.legal_actions() == tuple(bid(b) for b in range(1, 14))
    assert "nil is not allowed" in expect_illegal(m, NIL)
