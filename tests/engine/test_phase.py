"""Phases are an enum whose members still read, compare and serialize as the old strings."""

from __future__ import annotations

import json
import random

from spades.engine import BID, DEAL, OVER, PLAY, Match, Phase, profile
from spades.engine import match as match_module


def test_phases_are_an_enum_equal_to_their_strings() -> None:
    assert [p.value for p in Phase] == ["deal", "bid", "play", "over"]
    assert (DEAL, BID, PLAY, OVER) == (Phase.DEAL, Phase.BID, Phase.PLAY, Phase.OVER)
    assert match_module.DEAL is DEAL and match_module.PLAY is PLAY  # old import path
    assert DEAL == "deal" and PLAY == "play" and BID in ("bid",) and OVER in {"over"}
    assert {"bid": 1}[BID] == 1 and f"{PLAY}" == "play" and str(OVER) == "over"
    assert json.dumps({"phase": BID}) == '{"phase": "bid"}'


def test_a_match_moves_through_the_phases() -> None:
    m = Match(profile("game93", one_hand=True), dealer=0)
    assert m.phase is Phase.DEAL and m.phase == "deal"
    m = Match(profile("game93", one_hand=True), rng=random.Random(1))
    assert m.phase is BID
    obs = m.observation(0)
    assert obs.phase is BID and obs.to_json()["phase"] == "bid"
    assert type(obs.to_json()["phase"]) is str
    while m.phase == "bid":
        m.apply(m.legal_actions()[0])
    assert m.phase is PLAY
    while not m.is_over():
        m.apply(m.legal_actions()[0])
    assert m.phase is OVER and repr(m).split()[4] == "over"
