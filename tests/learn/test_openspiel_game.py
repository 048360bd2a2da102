"""The profiles as registered OpenSpiel games: OpenSpiel's own random-simulation checks, its
ISMCTS bot through a few hands under cards4net, resampling and the tensors."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from spades.engine import IllegalAction, replay
from spades.engine.handstate import public_voids
from spades.learn.encoding import vector_size
from spades.learn.openspiel import GAME_NAMES, SpadesState

SIM_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("cardems", {}),
    ("cardgames-club", {}),
    ("game93", {}),
    ("cards4net", {}),
    ("cards4net", {"jokers": True, "bidding": "whiz", "blind_nil": False}),
    ("race400", {"players": 3}),
    ("race400", {"players": 5}),
    ("race400", {"players": 6, "teams": "0,3;1,4;2,5"}),
    ("cardems", {"one_hand": False, "max_hands": 3}),
]


@pytest.mark.parametrize(("name", "params"), SIM_CONFIGS,
                         ids=[n + "".join(f"-{k}" for k in p) for n, p in SIM_CONFIGS])
def test_openspiels_random_simulation_checks_pass(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(GAME_NAMES[name], params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_every_profile_is_registered_with_its_tensors() -> None:
    names = set(pyspiel.registered_names())
    for name in ("cardems", "cardgames_club", "race400", "game93", "cards4net"):
        assert f"python_spades_{name}" in names
    game = pyspiel.load_game("python_spades_race400", {"players": 6})
    assert game.num_players() == 6
    assert game.observation_tensor_shape() == [vector_size(6)]
    assert game.information_state_tensor_shape() == [vector_size(6) + 48 * 54]
    assert game.num_distinct_actions() == 74


def test_bad_parameters_are_refused_by_name() -> None:
    with pytest.raises(pyspiel.SpielError, match="players: cardems is played by 4"):
        pyspiel.load_game("python_spades_cardems", {"players": 5})
    with pytest.raises(pyspiel.SpielError, match="teams: write sides"):
        pyspiel.load_game("python_spades_race400", {"teams": "north-south"})
    with pytest.raises(pyspiel.SpielError, match="dealer: must be a seat"):
        pyspiel.load_game("python_spades_cardems", {"dealer": 7})
    # 18 cards each (3 players, jokers) do not fit the bids 0 to 17 of the action space: the
    # game loaded, then its first decision failed with "engine action 82 has no place".
    with pytest.raises(pyspiel.SpielError, match=r"^jokers: 3 players with jokers hold 18"):
        pyspiel.load_game("python_spades_race400", {"players": 3, "jokers": True})


def test_an_illegal_chance_or_player_action_is_refused_at_once_and_changes_nothing() -> None:
    game = pyspiel.load_game("python_spades_cardems")
    state = game.new_initial_state()
    with pytest.raises(IllegalAction, match=r"^chance cannot deal card 99: not a card "
                       r"\(cards are 0 to 53\)"):
        state.apply_action(99)
    with pytest.raises(IllegalAction, match=r"^chance cannot deal card 52 \(LJ\): "
                       r"not in this game's deck"):
        state.apply_action(52)  # no jokers in cardems
    assert state.history() == [] and state.chance_outcomes()[0] == (0, 1 / 52)
    state.apply_action(3)
    with pytest.raises(IllegalAction, match=r"^chance cannot deal card 3 \(5C\): "
                       r"it was dealt already"):
        state.apply_action(3)
    assert state.history() == [3] and len(state.chance_outcomes()) == 51
    deal(state, np.random.RandomState(4))
    player = state.current_player()
    before = state.history()
    with pytest.raises(IllegalAction, match=rf"^player {player} cannot take action 0 "
                       r"\(2C\): it is time to bid"):
        state.apply_action(0)
    with pytest.raises(IllegalAction, match=rf"^player {player} cannot take action 99: "
                       r"action 99 is outside the action space"):
        state.apply_action(99)
    assert state.history() == before and state.current_player() == player
    state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == len(before) + 1


def test_a_finished_game_takes_no_more_actions() -> None:
    game = pyspiel.load_game("python_spades_cardems", {"one_hand": False, "max_hands": 1})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    history = state.history()
    with pytest.raises(IllegalAction, match=r"^the game is over"):
        state.apply_action(0)  # the match goes on, but the game was cut after max_hands
    assert state.history() == history and state.is_terminal()


def deal(state: Any, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def test_openspiels_ismcts_bot_plays_cards4net_hands() -> None:
    game = pyspiel.load_game("python_spades_cards4net")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=12,
                           random_state=np.random.RandomState(2))
    for _ in range(3):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            deal(state, rng)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if state.current_player() in (0, 2):
                action = int(bot.step(state))
                decisions += 1
            else:
                action = int(rng.choice(legal))
            assert action in legal
            state.apply_action(action)
        assert decisions >= 26
        # The hand, checked again by the engine's record replayer, scores the same.
        match = state.match
        checked = replay(match.to_record())
        assert list(checked.scores) == list(match.scores)
        assert state.returns() == [float(match.scores[k]) for k in match.rules.side_of]


def test_resampling_keeps_what_the_seat_knows_and_the_voids_it_has_seen() -> None:
    game = pyspiel.load_game("python_spades_game93")
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    deal(state, rng)
    while len(state.match.log[-1].plays) < 21:
        state.apply_action(int(rng.choice(state.legal_actions())))
    me = state.current_player()
    voids = public_voids(state.match.observation(me))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen_other_hands = set()
    for _ in range(5):
        other: SpadesState = state.resample_from_infostate(me, sampler)
        assert other.information_state_string(me) == state.information_state_string(me)
        assert other.observation_tensor(me) == state.observation_tensor(me)
        assert other.information_state_tensor(me) == state.information_state_tensor(me)
        assert other.match.hands[me] == state.match.hands[me]
        assert other.legal_actions() == state.legal_actions()
        for seat, lacks in enumerate(voids):
            for suit in range(4):
                if lacks >> suit & 1:
                    assert not other.match.hands[seat] & (0x1FFF << (13 * suit))
        seen_other_hands.add(tuple(other.match.hands))
        checked = replay(other.match.to_record())  # a legal history, replayed by the engine
        assert checked.hand_number == 1
    assert len(seen_other_hands) > 1


def test_the_information_state_hides_other_hands_and_an_unseen_own_hand() -> None:
    game = pyspiel.load_game("python_spades_cards4net")
    state = game.new_initial_state()
    deal(state, np.random.RandomState(8))
    first = state.current_player()
    assert "[?]" in state.information_state_string(first)
    assert not any(state.observation_tensor(first)[:54])
    state.apply_action(73)  # look
    assert "[?]" not in state.information_state_string(first)
    assert sum(state.observation_tensor(first)[:54]) == 13
    assert state.information_state_string(first) != state.information_state_string(
        (first + 1) % 4)


def _midway(game: Any, steps: int = 70) -> Any:
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(steps):
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("name", "params"), [
    ("game93", {"target": 200}),
    ("race400", {"players": 4, "teams": "0,2;1,3"}),
    ("race400", {"players": 6, "teams": "0,3;1,4;2,5"}),
    ("race400", {"players": 4, "teams": "0+2;1+3"}),
])
def test_a_game_and_its_states_copy_pickle_and_load_from_their_string(
        name: str, params: dict[str, Any]) -> None:
    # pickle.dumps(game) was PicklingError (no SpadesGame_race400 in the module) and
    # copy.deepcopy(game) a game without its rules; str(game) of a game with teams
    # ("teams=0,2;1,3", commas inside a parameter) could not be loaded back, so neither
    # could a pickled state of it, nor pyspiel.serialize_game_and_state.
    import copy
    import pickle
    game = pyspiel.load_game(GAME_NAMES[name], params)
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game),
                  pyspiel.load_game(str(game))):
        assert again.rules == game.rules and str(again) == str(game)
    state = _midway(game)
    back = pickle.loads(pickle.dumps(state))
    assert back.history() == state.history() and str(back) == str(state)
    _, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert loaded.history() == state.history()
    assert loaded.legal_actions() == state.legal_actions()
