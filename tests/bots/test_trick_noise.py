"""The expert's ``trick_noise`` knob: number bids are scored over the spread of tricks that
real play takes a side away from its play-out (``TRICK_SPREAD``), not on the play-out's
tricks alone; a set costs more than a bag, so the spread lowers bids."""

from __future__ import annotations

from collections import Counter

from spades.bots.expert import TRICK_SPREAD, ExpertBot
from spades.bots.policy import rollout
from spades.engine import BID_BASE, NIL, Match, profile
from spades.engine.handstate import HandState
from tests.bots.test_nil_doubt import _first_bids


def _played_out(seed: int) -> HandState:
    match = Match.new(profile("cardems"), seed)
    s = HandState.from_obs(match.observation(match.current_player), list(match.hands))
    rollout(s)
    return s


def test_shifts_follow_the_spread_and_keep_the_tricks() -> None:
    bot = ExpertBot(seed=3, trick_noise=1.0)
    base = _played_out(4)
    me = 0
    seen: Counter[int] = Counter()
    for _ in range(20_000):
        s = base.clone()
        bot._shift_tricks(s, me)
        assert sum(s.tricks) == sum(base.tricks)
        assert min(s.tricks) >= 0
        moved = [p for p in range(4) if s.tricks[p] != base.tricks[p]]
        assert not moved or (me in moved and len(moved) == 2)
        assert all(s.side_of[p] != s.side_of[me] for p in moved if p != me)
        seen[s.tricks[me] - base.tricks[me]] += 1
    room_down, room_up = base.tricks[me], max(base.tricks[p] for p in (1, 3))
    for shift, share in TRICK_SPREAD:
        if -room_down < shift < room_up and shift:
            assert abs(seen[shift] / 20_000 - share) < 0.015, (shift, seen)


def test_spread_only_with_a_budget_in_seconds() -> None:
    assert ExpertBot(seed=3).trick_noise == 0.0
    assert ExpertBot(seed=3, seconds=0.25, cpu=True).trick_noise == 1.0
    assert ExpertBot(seed=3, seconds=0.25, trick_noise=0.0).trick_noise == 0.0


def test_no_shift_without_noise() -> None:
    observations = _first_bids(range(30))
    plain = [ExpertBot(seed=i, worlds=12).act(o) for i, o in enumerate(observations)]
    again = [ExpertBot(seed=i, worlds=12, trick_noise=0.0).act(o)
             for i, o in enumerate(observations)]
    assert plain == again


def test_spread_lowers_number_bids() -> None:
    observations = _first_bids(range(40))
    plain = [ExpertBot(seed=i, worlds=12).act(o) for i, o in enumerate(observations)]
    noisy = [ExpertBot(seed=i, worlds=12, trick_noise=1.0).act(o)
             for i, o in enumerate(observations)]
    pairs = [(a - BID_BASE, b - BID_BASE) for a, b in zip(plain, noisy, strict=True)
             if NIL not in (a, b)]
    assert len(pairs) >= 25
    assert sum(b for _, b in pairs) < sum(a for a, _ in pairs)
    assert sum(b > a for a, b in pairs) <= 2
