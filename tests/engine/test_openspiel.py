"""Differential test against OpenSpiel's ``spades`` (``pip install open-spiel``), a test extra.

OpenSpiel plays one hand of four-player partnership Spades per game. Its rules agree with
``cardems`` (Nil or 1-13, failed-Nil tricks count toward the contract, bags of 1 point each,
10 bags cost 100) except where it has known defects or other choices, which the test steers
around rather than copies:

* it never marks spades broken, so a leader holding spades and other suits may never lead a
  spade: after spades are broken our legal leads are a superset; the test plays only actions
  both allow;
* partners' bids may not add up to more than 13: the test bids only within that;
* it takes the bag count from ``score % 10``: the test sets its running scores to our bag
  counts (``set_current_scores``), which makes that formula give our bags;
* it checks the win on the hand's score, not the total: irrelevant here, since each OpenSpiel
  game is one hand (and its win bonus is set to 0).

Action ids (read from open_spiel/games/spades/spades.{h,cc}): a card is ``suit * 13 + rank``
with suits clubs, diamonds, hearts, spades and rank 0 = two, as in our engine; a bid of ``b``
tricks is ``52 + b`` (0 = Nil). Chance action ``i`` deals a card to player ``i % 4``; player 0
bids first and leads, so OpenSpiel player ``p`` is our seat ``(dealer + 1 + p) % 4``; its
partnership ``p & 1``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from spades.engine import Match, card_str, cards_of, profile, suggested_bid
from spades.engine.actions import BID_BASE
from spades.engine.cards import NON_SPADE_MASK, SPADE_MASK

pyspiel = pytest.importorskip("pyspiel")

OS_BID_BASE = 52
GAME = pyspiel.load_game("spades", {"use_mercy_rule": False, "win_or_loss_bonus": 0})
RULES = profile("cardems")


def to_os(action: int) -> int:
    return action - BID_BASE + OS_BID_BASE if action >= BID_BASE else action


def from_os(action: int) -> int:
    return action - OS_BID_BASE + BID_BASE if action >= OS_BID_BASE else action


def os_tricks(state: Any) -> list[int]:
    """Tricks per OpenSpiel player, read from its terminal text ("Tricks taken:" table)."""
    lines = str(state).splitlines()
    i = lines.index("Tricks taken:")
    return [int(x) for x in lines[i + 3].split()]


def play_hand(match: Match, rng: random.Random, stats: dict[str, int]) -> None:
    """Play the match's current hand in step with a fresh OpenSpiel game, comparing."""
    dealer = match.dealer
    seat_of = [(dealer + 1 + p) % 4 for p in range(4)]
    state = GAME.new_initial_state()
    held = [cards_of(match.hands[seat_of[p]]) for p in range(4)]
    for i in range(52):
        state.apply_action(held[i % 4][i // 4])
    assert not state.is_chance_node()
    # Our bag counts as its running scores: its score % 10 is then our bags.
    side_of_pship = [match.rules.side_of[seat_of[k]] for k in range(2)]
    state.set_current_scores([match.bags[side_of_pship[0]], match.bags[side_of_pship[1]]])
    number = match.hand_number
    while not state.is_terminal():
        p = state.current_player()
        seat = match.current_player
        assert seat == seat_of[p], "different player to act"
        ours = {to_os(a) for a in match.legal_actions()}
        theirs = set(state.legal_actions())
        if match.phase == "bid":
            partner = match.bids[(seat + 2) % 4]
            expected = {a for a in ours if partner < 0 or a - OS_BID_BASE + partner <= 13}
            assert theirs == expected
            want = OS_BID_BASE + suggested_bid(match.hands[seat], match.rules)
            pool = sorted(theirs)
            action = want if want in theirs and rng.random() < 0.7 else rng.choice(pool)
            stats["bids"] += 1
        else:
            hand = match.hands[seat]
            if not match.trick and match.broken and hand & SPADE_MASK and hand & NON_SPADE_MASK:
                # Its defect: spades never broken, so no spade lead from a mixed hand.
                assert theirs == {c for c in ours if not SPADE_MASK >> c & 1}
                stats["leads after broken"] += 1
            else:
                assert theirs == ours
            action = rng.choice(sorted(theirs))
            stats["plays"] += 1
        state.apply_action(action)
        match.apply(from_os(action))
    assert match.hand_number > number or match.is_over()
    result = match.results[number - 1]
    returns = state.returns()
    tricks = os_tricks(state)
    for p in range(4):
        assert tricks[p] == result.tricks[seat_of[p]]
        assert returns[p] == result.points[match.rules.side_of[seat_of[p]]]
    stats["hands"] += 1


def test_engine_agrees_with_openspiel_hand_by_hand() -> None:
    stats = {"hands": 0, "bids": 0, "plays": 0, "leads after broken": 0}
    rng = random.Random(2024)
    for seed in range(100):
        match = Match(RULES, rng=random.Random(seed))
        for _ in range(6):  # a few hands of each match: dealers rotate, bags carry over
            if match.is_over():
                break
            play_hand(match, rng, stats)
    assert stats["hands"] >= 500
    assert stats["leads after broken"] > 100
    print(stats)


def test_openspiel_action_ids_match_our_cards() -> None:
    """Both number a card suit * 13 + rank with suits clubs, diamonds, hearts, spades."""
    state = GAME.new_initial_state()
    for card in (0, 12, 13, 38, 39, 51):
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, card)
        ours = card_str(card)
        assert ours[1] in text and ours[0] in text, (text, ours)
