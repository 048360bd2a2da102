"""Budgets in CPU seconds (``expert:0.25cpu``, ``ismcts:0.25cpu``): the search stops on the
deciding thread's CPU time, so a busy machine does not shrink it (measuring at equal time)."""

from __future__ import annotations

import time

import pytest

from spades.bots import make_bot, parse_budget
from spades.bots.expert import ExpertBot
from spades.bots.ismcts import IsmctsBot
from spades.engine import Match, profile


def test_cpu_suffix_is_a_budget_in_cpu_seconds() -> None:
    assert parse_budget("0.25cpu", "worlds") == {"seconds": 0.25, "cpu": True}
    assert parse_budget("0.25s", "worlds") == {"seconds": 0.25}
    for text in ("0cpu", "-1cpu", "cpu", "fastcpu"):
        with pytest.raises(ValueError, match=r"CPU seconds like 0\.5cpu"):
            parse_budget(text, "worlds")


@pytest.mark.parametrize("spec, cls", [("expert:0.02cpu", ExpertBot),
                                       ("expert:0.02cpu:noadapt", ExpertBot),
                                       ("ismcts:0.02cpu", IsmctsBot)])
def test_a_cpu_budget_uses_the_threads_cpu_clock(spec: str, cls: type) -> None:
    bot = make_bot(spec, seed=3)
    assert isinstance(bot, (ExpertBot, IsmctsBot)) and isinstance(bot, cls)
    assert bot.clock is time.thread_time and bot.seconds == 0.02
    wall = make_bot(spec.replace("cpu", "s"), seed=3)
    assert wall.clock is time.perf_counter  # type: ignore[attr-defined]


class Ticks:
    """A clock that moves 1 s per reading: a budget of 2.5 s lasts a few readings."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("spec", ["expert:2.5cpu", "ismcts:2.5cpu"])
def test_the_search_stops_on_its_clock(spec: str) -> None:
    match = Match.new(profile("cardems"), 7)
    bot = make_bot(spec, seed=1)
    ticks = Ticks()
    bot.clock = ticks  # type: ignore[attr-defined]
    while not match.is_over() and not match.results:
        obs = match.observation(match.current_player)
        action = bot.act(obs)
        assert action in obs.legal_actions
        match.apply(action)
    assert ticks.readings > 0
