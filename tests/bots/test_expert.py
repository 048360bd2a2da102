"""The expert's racing over sampled deals and its preference for the rule-based card."""

from __future__ import annotations

from spades.bots.expert import ExpertBot, _race


def test_race_drops_only_clearly_worse_candidates() -> None:
    n = 40
    lead = [float(10 + (i % 5)) for i in range(n)]
    close = [x - (1 if i % 2 else -1) for i, x in enumerate(lead)]   # same mean as lead
    worse = [x - 30 for x in lead]
    dropped: dict[int, float] = {}
    active = _race([lead, close, worse], [0, 1, 2], n, 2.5, dropped)
    assert active == [0, 1]
    assert set(dropped) == {2}
    # Too few deals to judge: nobody drops.
    assert _race([lead[:4], worse[:4]], [0, 1], 4, 2.5, {}) == [0, 1]


def test_prefer_keeps_the_default_unless_clearly_beaten() -> None:
    bot = ExpertBot(seed=1, worlds=10)
    noisy_better = [0.0, 20.0, -18.0, 19.0, -20.0, 21.0]   # mean +3.7, large spread
    default = [0.0] * 6
    bot._values = [noisy_better, default]
    assert bot._prefer([5, 7], [3.7, 0.0], 0, 1) == 1
    clearly_better = [5.0, 6.0, 5.5, 6.5, 5.0, 6.0]
    bot._values = [clearly_better, default]
    assert bot._prefer([5, 7], [5.7, 0.0], 0, 1) == 0
