"""The expert's ``nil_doubt`` knob: a Nil is valued as if its play-outs failed more often, so a
doubting expert bids Nil less; 0 (the default) leaves its bids as they were."""

from __future__ import annotations

from spades.bots.expert import ExpertBot
from spades.engine import NIL, Match, Observation, profile


def _first_bids(seeds: range) -> list[Observation]:
    out = []
    for seed in seeds:
        match = Match.new(profile("cardems"), seed)
        out.append(match.observation(match.current_player))
    return out


def test_doubt_makes_fewer_nils() -> None:
    observations = _first_bids(range(40))
    plain = [ExpertBot(seed=i, worlds=12).act(o) for i, o in enumerate(observations)]
    doubting = [ExpertBot(seed=i, worlds=12, nil_doubt=5.0).act(o)
                for i, o in enumerate(observations)]
    assert plain.count(NIL) >= 2, "no Nil to doubt among these hands"
    assert doubting.count(NIL) < plain.count(NIL)
    # Only Nil changes value: where the plain expert bid a number, so does the doubting one.
    for a, b in zip(plain, doubting, strict=True):
        if a != NIL:
            assert a == b


def test_no_doubt_by_default() -> None:
    assert ExpertBot().nil_doubt == 0.0
