"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every profile and
3-6 players, and checks of the observation, the mask, the rewards and the errors."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test import api_test, seed_test

from spades.engine import IllegalAction, Match, profile
from spades.engine.actions import BID_BASE, BLIND_NIL, LOOK
from spades.learn import env
from spades.learn.aec import SpadesEnv
from spades.learn.encoding import (
    BID_OFFSET,
    BLIND_NIL_ACTION,
    LOOK_ACTION,
    NUM_ACTIONS,
    encode,
    from_engine,
    layout,
    played_by_seat,
    to_engine,
    vector_size,
)
from tests.tables import EVERY_TABLE, EVERY_TABLE_IDS

#: PettingZoo and Gymnasium checkers warn about style choices shared with their own card
#: games (a dict observation, an all-zero mask for agents not to act); those are not failures.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("name", "knobs"), EVERY_TABLE, ids=EVERY_TABLE_IDS)
def test_pettingzoo_api_and_seed_tests(name: str, knobs: dict[str, Any]) -> None:
    api_test(env(name, **knobs), num_cycles=300)
    seed_test(lambda: env(name, **knobs), num_cycles=300)


@pytest.mark.parametrize("name", ["cardems", "cards4net", "race400"])
def test_whole_matches_pass_the_api_test(name: str) -> None:
    api_test(env(name, one_hand=False, max_hands=4), num_cycles=1000)
    seed_test(lambda: env(name, one_hand=False, max_hands=3), num_cycles=1000)


def random_episode(e: SpadesEnv, seed: int) -> dict[str, float]:
    """Play to the end with random legal actions; the total reward of each agent."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    return totals


def test_the_same_seed_plays_the_same_episode_and_another_seed_another() -> None:
    a = env("cards4net", one_hand=False, max_hands=3)
    b = env("cards4net", one_hand=False, max_hands=3)
    assert random_episode(a, 7) == random_episode(b, 7)
    assert a.match.to_record() == b.match.to_record()
    deals = {tuple(random_episode(a, s).values()) and a.match.log[0].deal for s in range(5)}
    assert len(deals) == 5


def test_hand_rewards_are_the_sides_points_and_match_rewards_the_final_difference() -> None:
    e = env("cardems", one_hand=False, max_hands=3)
    totals = random_episode(e, 3)
    match = e.match
    side_of = match.rules.side_of
    for agent, total in totals.items():
        k = side_of[int(agent.split("_")[1])]
        assert total == sum(r.points[k] for r in match.results) == match.scores[k]
    m = env("race400", players=3, one_hand=False, max_hands=2, reward="match")
    totals = random_episode(m, 4)
    scores = m.match.scores
    for seat, agent in enumerate(m.possible_agents):
        others = (sum(scores) - scores[seat]) / 2
        assert totals[agent] == pytest.approx(scores[seat] - others)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_a_finished_match_terminates_every_agent() -> None:
    e = env("game93", one_hand=False, target=30, bag_penalty=0)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _agent in e.agent_iter(5000):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        bid_one = BID_OFFSET + 1
        e.step(bid_one if bid_one in legal else int(rng.choice(legal)))  # contracts of 2
    assert e.match.is_over() and max(e.match.scores) >= 30
    assert e.agents == []


def test_the_mask_is_exactly_the_engines_legal_actions() -> None:
    e = env("cards4net", jokers=True)
    rng = random.Random(1)
    for seed in range(3):
        e.reset(seed=seed)
        while e.agents and not any(e.terminations.values()):
            agent = e.agent_selection
            obs = e.observe(agent)
            seat = e.agent_name_mapping[agent]
            legal = [from_engine(a) for a in e.match.legal_actions()]
            assert list(np.flatnonzero(obs["action_mask"])) == legal
            for other in e.possible_agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            assert seat == e.match.current_player
            e.step(rng.choice(legal))


def test_the_action_space_covers_every_engine_action() -> None:
    engine = list(range(54)) + [BID_BASE + n for n in range(18)] + [BLIND_NIL, LOOK]
    assert [from_engine(a) for a in engine] == list(range(NUM_ACTIONS))
    assert [to_engine(a) for a in range(NUM_ACTIONS)] == engine
    assert from_engine(BLIND_NIL) == BLIND_NIL_ACTION and from_engine(LOOK) == LOOK_ACTION
    with pytest.raises(ValueError, match="outside the action space"):
        to_engine(NUM_ACTIONS)
    assert to_engine(np.int64(56)) == BID_BASE + 2
    for bad in (54.9, 54.0, "55", True):
        with pytest.raises(TypeError, match="an action is a whole number 0 to 73"):
            to_engine(bad)  # type: ignore[arg-type]


def test_an_illegal_action_is_refused_with_the_reason_and_changes_nothing() -> None:
    e = env("cardems")
    e.reset(seed=2)
    agent = e.agent_selection
    before = e.match.to_record()
    with pytest.raises(IllegalAction, match=rf"{agent} \(seat \d\) cannot take action 0 "
                       r"\(plays the two of clubs\): it is time to bid"):
        e.step(0)
    with pytest.raises(IllegalAction, match="outside the action space"):
        e.step(99)
    with pytest.raises(IllegalAction, match="must act"):
        e.step(None)
    assert e.match.to_record() == before
    assert e.agent_selection == agent


@pytest.mark.parametrize("action", [54.9, 55.0, np.float64(55.0), "55", "3", True, False,
                                    np.True_, [55], b"55"],
                         ids=repr)
def test_an_action_that_is_not_a_whole_number_is_refused_and_changes_nothing(action: Any) -> None:
    e = env("cardems")
    e.reset(seed=1)
    agent = e.agent_selection
    seat = e.agent_name_mapping[agent]
    before = e.match.to_record()
    with pytest.raises(IllegalAction, match=rf"^{agent} \(seat {seat}\) cannot take action "
                       rf"{re.escape(repr(action))}: an action is a whole number"):
        e.step(action)
    assert e.match.to_record() == before
    assert e.agent_selection == agent


@pytest.mark.parametrize("action", [55, np.int64(55), np.int8(55), np.uint16(55), np.array(55)],
                         ids=repr)
def test_python_and_numpy_integers_are_actions(action: Any) -> None:
    e = env("cardems")
    e.reset(seed=1)
    seat = e.match.current_player
    e.step(action)
    assert e.match.bids[seat] == 1


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="reward: must be"):
        env("cardems", reward="points")
    with pytest.raises(ValueError, match="players: cardems is played by 4"):
        env("cardems", players=5)
    with pytest.raises(ValueError, match="bag_limit"):
        env("cards4net", bag_limit=0)
    with pytest.raises(ValueError, match="max_hands"):
        env("cardems", max_hands=0)
    for scale in ("x", "2", None, True, float("nan"), float("inf"), [1.0]):
        with pytest.raises(ValueError, match=rf"^reward_scale: must be a finite number, "
                           rf"not {re.escape(repr(scale))}$"):
            env("cardems", reward_scale=scale)
    assert env("cardems", reward_scale=np.float32(0.5)).reward_scale == 0.5
    assert env("cardems", reward_scale=2).reward_scale == 2.0


def test_rules_with_more_cards_than_the_action_space_bids_are_refused_when_built() -> None:
    # race400 at 3 players with jokers deals 18 cards each; the fixed action space bids 0 to
    # 17, so the first observation failed: "engine action 82 has no place in the fixed
    # action space".
    with pytest.raises(ValueError, match=r"^jokers: 3 players with jokers hold 18 cards each"):
        env("race400", players=3, jokers=True)
    with pytest.raises(ValueError, match=r"^jokers: "):
        env(profile("race400", players=3, jokers=True))
    env("race400", players=3).reset(seed=1)            # 17 cards each: bids 0 to 17 fit
    env("race400", players=6, jokers=True).reset(seed=1)


def test_step_before_reset_says_to_call_reset() -> None:
    e = env("cardems")
    with pytest.raises(IllegalAction, match=r"^call reset\(\) before step\(\)$"):
        e.step(54)
    e.reset(seed=1)
    e.step(int(e.observe(e.agent_selection)["action_mask"].argmax()))


def block(vector: np.ndarray[Any, Any], players: int, name: str) -> np.ndarray[Any, Any]:
    start, length = next((s, n) for b, s, n in layout(players) if b == name)
    return vector[start:start + length]


def test_the_observation_vector_follows_the_documented_layout() -> None:
    rules = profile("race400", players=5, one_hand=True)
    match = Match(rules, rng=random.Random(11))
    rng = random.Random(3)
    while len(match.log[-1].plays) < 7:  # bids, then a trick and two cards of the next
        match.apply(rng.choice(match.legal_actions()))
    seat = match.current_player
    v = encode(match, seat)
    assert v.shape == (vector_size(5),) == (64 + 136 * 5,)
    assert list(np.flatnonzero(block(v, 5, "hand"))) == [
        c for c in range(54) if match.hands[seat] >> c & 1]
    played = block(v, 5, "played").reshape(5, 54)
    for s, mask in enumerate(played_by_seat(match)):
        r = (s - seat) % 5
        assert list(np.flatnonzero(played[r])) == [c for c in range(54) if mask >> c & 1]
    trick = block(v, 5, "trick").reshape(5, 54)
    assert trick.sum() == 2
    for i, card in enumerate(match.trick):
        assert trick[(match.leader + i - seat) % 5, card] == 1
    bids = block(v, 5, "bids").reshape(5, 20)
    for s in range(5):
        assert bids[(s - seat) % 5, match.bids[s]] == 1 and bids[(s - seat) % 5, 19] == 1
    assert block(v, 5, "to_act")[0] == 1
    assert block(v, 5, "dealer")[(match.dealer - seat) % 5] == 1
    assert block(v, 5, "cards_left")[0] == match.hands[seat].bit_count() / rules.hand_size
    assert list(block(v, 5, "flags")[1:3]) == [0, 1]  # playing, not bidding
    assert list(block(v, 5, "my_side")) == [1, 0, 0, 0, 0]


def test_an_unseen_hand_stays_hidden_until_the_seat_looks() -> None:
    e = env("cards4net")
    e.reset(seed=5)
    first = e.agent_selection
    obs = e.observe(first)
    assert not block(obs["observation"], 4, "hand").any()
    assert block(obs["observation"], 4, "flags")[4] == 1
    assert list(np.flatnonzero(obs["action_mask"])) == [BLIND_NIL_ACTION, LOOK_ACTION]
    e.step(LOOK_ACTION)
    obs = e.observe(first)
    assert block(obs["observation"], 4, "hand").sum() == 13
    assert block(obs["observation"], 4, "flags")[4] == 0


def test_observation_does_not_depend_on_the_other_seats_cards() -> None:
    rules = profile("cardems")
    match = Match(rules, rng=random.Random(4))
    for _ in range(10):
        match.apply(match.legal_actions()[0])
    seat = match.current_player
    other = match.clone()
    a, b = (seat + 1) % 4, (seat + 2) % 4
    ca = match.hands[a] & -match.hands[a]  # exchange one card between two other seats
    cb = match.hands[b] & -match.hands[b]
    other.hands[a] = match.hands[a] ^ ca | cb
    other.hands[b] = match.hands[b] ^ cb | ca
    assert other.hands[a] != match.hands[a]
    assert np.array_equal(encode(match, seat), encode(other, seat))


def test_render_shows_the_table_in_text() -> None:
    e = env("cardems", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None
    assert "cardems, 4 players, hand 1" in text and "seat 3 (side 1)" in text
    with pytest.raises(ValueError, match="render_mode"):
        env("cardems", render_mode="rgb_array")


@pytest.mark.parametrize(("name", "knobs"), [
    ("cardems", {"one_hand": False, "max_hands": 3}),
    ("cards4net", {"jokers": True}),
    ("game93", {}),
    ("race400", {"players": 3}),
    ("race400", {"players": 5}),
    ("race400", {"players": 6, "teams": [[0, 2, 4], [1, 3, 5]]}),
])
def test_every_agents_observation_equals_a_fresh_encoding(name: str, knobs: dict[str, Any]) -> None:
    """What the environment gives each agent equals encoding the table afresh (it keeps the
    cards played per seat itself) and what a bot's Observation gives."""
    from spades.learn.encoding import encode_observation

    e = env(name, **knobs)
    rng = random.Random(2)
    for seed in range(2):
        e.reset(seed=seed)
        while e.agents and not (any(e.terminations.values()) or any(e.truncations.values())):
            for seat, agent in enumerate(e.possible_agents):
                kept = e.observe(agent)["observation"]
                assert np.array_equal(kept, encode(e.match, seat)), (agent, e.match)
                assert np.array_equal(kept, encode_observation(e.match.observation(seat)))
            e.step(rng.choice(list(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def test_reset_takes_a_numpy_seed_as_that_int_and_refuses_what_is_no_whole_number() -> None:
    # reset(seed=np.int64(3)) raised Python's "The only supported seed types are: None,
    # int, float, str, bytes, and bytearray."; reset(seed=1.5) dealt from it silently.
    a, b = env("cardems"), env("cardems")
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.unwrapped.match.to_record() == b.unwrapped.match.to_record()
    for seed in (1.5, "3", True):
        with pytest.raises(ValueError, match=rf"^seed: must be a whole number or None, "
                                             rf"not {re.escape(repr(seed))}$"):
            a.reset(seed=seed)  # type: ignore[arg-type]
