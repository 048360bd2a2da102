"""Every bot make_bot builds, and hint, refuses to decide for a seat that is not to act,
and refuses what is not an observation, saying what is wrong (was: a Nil bid for the wrong
seat from some levels, an IndexError from others, and "object of type 'method' has no
len()" for a Match)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from spades.bots import hint, make_bot
from spades.bots.base import check_turn
from spades.bots.expert import ExpertBot
from spades.bots.ismcts import IsmctsBot
from spades.engine import Match, Observation, SpadesError, profile

SPECS = ["random", "beginner", "intermediate", "expert:5", "hard", "ismcts:5", "human:over"]
BROKEN = Path(__file__).with_name("broken_bot.py")


def _started() -> Match:
    return Match.new(profile("cardems"), seed=1)


@pytest.mark.parametrize("spec", SPECS + [f"cmd:{sys.executable} {BROKEN} legal"])
def test_a_bot_refuses_a_seat_that_is_not_to_act(spec: str) -> None:
    match = _started()
    seat = (match.current_player + 1) % 4
    bot = make_bot(spec, 1)
    with pytest.raises(SpadesError) as caught:
        bot.act(match.observation(seat))
    assert str(caught.value) == (f"it is not seat {seat}'s turn: seat "
                                 f"{match.current_player} is to act")
    close = getattr(bot, "close", None)
    if close is not None:
        close()


@pytest.mark.parametrize("spec", SPECS)
def test_a_bot_refuses_a_match_for_an_observation(spec: str) -> None:
    with pytest.raises(TypeError) as caught:
        make_bot(spec, 1).act(_started())  # type: ignore[arg-type]
    assert str(caught.value) == ("act takes an Observation (match.observation(seat)), "
                                 "not a Match")


def test_hint_refuses_a_match_and_a_seat_not_to_act() -> None:
    match = _started()
    with pytest.raises(TypeError, match=r"^hint takes an Observation \(match\.observation"
                                        r"\(seat\)\), not a Match$"):
        hint(match)  # type: ignore[arg-type]
    seat = (match.current_player + 1) % 4
    with pytest.raises(ValueError, match=rf"^it is not seat {seat}'s turn: seat "
                                         rf"{match.current_player} is to act$"):
        hint(match.observation(seat))


def test_no_one_to_act_at_the_end_of_a_match() -> None:
    match = Match.new(profile("cardems", one_hand=True), seed=2)
    bots = [make_bot("random", s) for s in range(4)]
    while not match.is_over():
        seat = match.current_player
        match.apply(bots[seat].act(match.observation(seat)))
    with pytest.raises(SpadesError, match=r"^it is not seat 0's turn: the match is over$"):
        bots[0].act(match.observation(0))


def test_no_one_to_act_before_the_deal() -> None:
    match = Match(profile("cardems"), dealer=0)
    with pytest.raises(SpadesError, match=r"^it is not seat 1's turn: the next hand is not "
                                          r"dealt$"):
        make_bot("beginner", 1).act(match.observation(1))


def test_the_bots_are_their_plain_classes_and_decide_as_before() -> None:
    import pickle

    bot = make_bot("expert:5:noadapt", 3)
    assert type(bot) is ExpertBot and type(make_bot("ismcts:5", 1)) is IsmctsBot
    match = _started()
    obs = match.observation(match.current_player)
    assert bot.act(obs) == ExpertBot(3, worlds=5, adapt=False).act(obs)
    assert type(pickle.loads(pickle.dumps(make_bot("intermediate", 1)))).__name__ == (
        "IntermediateBot")


def test_check_turn_passes_the_seat_to_act() -> None:
    match = _started()
    obs = match.observation(match.current_player)
    assert isinstance(obs, Observation)
    check_turn(obs)
    with pytest.raises(TypeError, match=r"not a str$"):
        check_turn("obs")  # type: ignore[arg-type]
