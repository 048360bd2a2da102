"""The expert with a time budget: its cards are chosen by a tree search (SO-ISMCTS) to the end
of the hand, over deals read by bids (not weighted by plays) and the expert's own play-outs;
with a budget in deals (the default) or ``tree=False`` it never searches a tree."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

import pytest

import spades.bots.expert as expert_module
from spades.bots.adapt import SeatModel, adapted_rollout
from spades.bots.expert import ExpertBot
from spades.bots.infer import sample_deals
from spades.bots.ismcts import tree_search
from spades.bots.policy import rollout
from spades.engine import PLAY, Match, profile
from spades.engine.handstate import HandState


class Ticks:
    """A clock that moves 1 s per reading: a budget of a few seconds lasts a few readings."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_tree_search_chooses_among_the_root_actions_only() -> None:
    match = Match.new(profile("cardems"), 5)
    while match.phase != PLAY:
        match.apply(match.observation(match.current_player).legal_actions[0])
    obs = match.observation(match.current_player)
    allowed = set(obs.legal_actions[-2:])
    rng = random.Random(1)
    for _ in range(3):
        choice = tree_search(obs, allowed, lambda k: sample_deals(obs, rng, k), rollout, rng, 60)
        assert choice in allowed


Calls = list[tuple[int, frozenset[int]]]


def _recording(calls: Calls) -> Callable[..., int]:
    def record(obs: Any, root_actions: Collection[int], *args: Any, **kwargs: Any) -> int:
        calls.append((sum(obs.hand_sizes), frozenset(root_actions)))
        return tree_search(obs, root_actions, *args, **kwargs)
    return record


def _play_hand(bot: ExpertBot, seed: int) -> None:
    match = Match.new(profile("cardems"), seed)
    while not match.results:
        obs = match.observation(match.current_player)
        action = bot.act(obs)
        assert action in obs.legal_actions
        match.apply(action)


def test_a_time_budget_plays_every_card_by_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: Calls = []
    monkeypatch.setattr(expert_module, "tree_search", _recording(calls))
    bot = ExpertBot(seed=2, seconds=3.0)
    bot.clock = Ticks()
    _play_hand(bot, 11)
    card_calls = [left for left, _ in calls]
    assert card_calls, "no card was chosen by the tree"
    # The end of the hand too: no switch to the play-outs for the last tricks.
    assert min(card_calls) <= 8


def test_the_tree_s_deals_are_not_weighted_by_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading plays costs a replay of the hand per deal; the tree samples as for bids."""
    weights: list[float] = []
    original = expert_module.sample_deals

    def recording(*args: Any, **kwargs: Any) -> list[list[int]]:
        if args[0].plays:  # a card decision (bids have no plays to read)
            weights.append(kwargs.get("play_weight", 1.0))
        return original(*args, **kwargs)

    monkeypatch.setattr(expert_module, "sample_deals", recording)
    calls: Calls = []
    monkeypatch.setattr(expert_module, "tree_search", _recording(calls))
    bot = ExpertBot(seed=2, seconds=3.0)
    bot.clock = Ticks()
    _play_hand(bot, 11)
    assert calls and weights
    assert set(weights) == {1.0}
    assert bot.play_weight < 1.0  # the flat search (budget in deals) still reads plays


@pytest.mark.parametrize("kwargs", [{"worlds": 6}, {"seconds": 3.0, "tree": False}])
def test_without_a_time_budget_or_with_tree_off_no_tree(monkeypatch: pytest.MonkeyPatch,
                                                        kwargs: dict[str, Any]) -> None:
    calls: Calls = []
    monkeypatch.setattr(expert_module, "tree_search", _recording(calls))
    bot = ExpertBot(seed=2, **kwargs)
    bot.clock = Ticks()
    _play_hand(bot, 11)
    assert calls == []


def test_the_tree_reads_the_expert_s_own_play_outs() -> None:
    """The tree's play-outs are the expert's (adapted to the seats, when it has models)."""
    seen: list[HandState] = []
    bot = ExpertBot(seed=3, seconds=2.0)
    bot.clock = Ticks()
    original = bot._rollout

    def counting(s: HandState, stop: int = 0) -> None:
        seen.append(s)
        original(s, stop)

    bot._rollout = counting  # type: ignore[method-assign]
    match = Match.new(profile("cardems"), 4)
    while match.phase != PLAY:
        match.apply(bot.act(match.observation(match.current_player)))
    before = len(seen)
    match.apply(bot.act(match.observation(match.current_player)))
    assert len(seen) > before


def test_a_guide_s_card_is_tried_first() -> None:
    """With a guide, an untried card the guide plays in the iteration's deal is expanded
    first (not a random one): after one iteration the root's only child is the guide's."""
    match = Match.new(profile("cardems"), 5)
    while match.phase != PLAY:
        match.apply(match.observation(match.current_player).legal_actions[0])
    obs = match.observation(match.current_player)
    legal = set(obs.legal_actions)
    assert len(legal) > 2
    wanted = sorted(legal)[1]
    for seed in range(6):
        rng = random.Random(seed)
        choice = tree_search(obs, legal, lambda k, r=rng: sample_deals(obs, r, k), rollout,
                             rng, 1, guide=lambda s: wanted)
        assert choice == wanted


def test_the_expert_guides_its_tree_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    guides: list[object] = []

    def record(*args: Any, **kwargs: Any) -> int:
        guides.append(kwargs.get("guide"))
        return tree_search(*args, **kwargs)

    monkeypatch.setattr(expert_module, "tree_search", record)
    for guide in (False, True):
        guides.clear()
        bot = ExpertBot(seed=2, seconds=2.0, guide=guide, bias=0.5)
        bot.clock = Ticks()
        _play_hand(bot, 11)
        assert guides
        assert all((g is not None) == guide for g in guides)


def _late(seed: int, left: int) -> tuple[Match, Any]:
    """A cardems hand played by the first legal action until ``left`` tricks are left."""
    match = Match.new(profile("cardems"), seed)
    while True:
        obs = match.observation(match.current_player)
        if obs.phase == PLAY and sum(obs.hand_sizes) <= 4 * left:
            return match, obs
        match.apply(obs.legal_actions[0])


@pytest.mark.parametrize("stop", [1, 2, 3])
def test_a_play_out_can_stop_before_the_end_of_the_hand(stop: int) -> None:
    """``stop``: the play-out leaves the last tricks (the one in progress among them)."""
    for seed in range(4):
        match, obs = _late(seed, 13)
        s = HandState.from_obs(obs, match.hands)
        rollout(s, stop)
        assert s.phase is PLAY and s.left == stop
        t = HandState.from_obs(obs, match.hands)
        adapted_rollout(t, [SeatModel() for _ in range(4)], stop)
        assert t.phase is PLAY and t.left == stop
        rollout(s)
        assert s.phase is not PLAY


@pytest.mark.parametrize("seed", range(6))
def test_a_finish_values_the_stopped_play_outs_for_side_0(seed: int) -> None:
    """A play-out that stops is valued by ``finish`` (side 0's utility, side 1's its
    negative): the tree plays the card that ``finish`` says wins, whichever side it is on."""
    _, obs = _late(seed, 2)
    legal = sorted(obs.legal_actions)
    wanted = legal[-1]
    sign = 1 if obs.my_side == 0 else -1
    seen: list[HandState] = []

    def finish(s: HandState) -> float:
        seen.append(s)
        assert s.phase is PLAY and s.left <= 2
        return sign * (100.0 if s.played >> wanted & 1 else -100.0)

    rng = random.Random(seed)
    choice = tree_search(obs, set(legal), lambda k: sample_deals(obs, rng, k),
                         lambda s: rollout(s, 2), rng, 40, finish=finish)
    assert choice == wanted
    assert seen


def test_the_expert_solves_the_tree_s_last_tricks_unless_told_not_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    finishes: list[object] = []

    def record(*args: Any, **kwargs: Any) -> int:
        finishes.append(kwargs.get("finish"))
        return tree_search(*args, **kwargs)

    monkeypatch.setattr(expert_module, "tree_search", record)
    for exact in (0, 2, None):
        finishes.clear()
        bot = (ExpertBot(seed=2, seconds=2.0) if exact is None
               else ExpertBot(seed=2, seconds=2.0, tree_exact=exact))
        bot.clock = Ticks()
        _play_hand(bot, 11)
        assert finishes
        assert all((f is not None) == (exact != 0) for f in finishes)
