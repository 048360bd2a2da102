"""The Gymnasium single-agent environment: Gymnasium's env checker for every profile, and
the learner's seat, its partner's spec, the rewards and the illegal-action modes."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env

from spades.engine import IllegalAction
from spades.learn import single_agent_env
from spades.learn.encoding import action_mask
from spades.learn.single import BotError, SingleAgentEnv

#: PettingZoo and Gymnasium checkers warn about style choices shared with their own card
#: games (a dict observation, an all-zero mask for agents not to act); those are not failures.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("cardems", {}),
    ("cardgames-club", {}),
    ("game93", {}),
    ("cards4net", {}),
    ("cards4net", {"jokers": True, "bidding": "suicide"}),
    ("race400", {"players": 3}),
    ("race400", {"players": 5, "seat": 4}),
    ("race400", {"players": 6, "teams": [[0, 2, 4], [1, 3, 5]], "seat": 3}),
]


@pytest.mark.parametrize(("name", "knobs"), CONFIGS,
                         ids=[n + "".join(f"-{k}" for k in kn) for n, kn in CONFIGS])
def test_gymnasiums_env_checker_passes(name: str, knobs: dict[str, Any]) -> None:
    e = single_agent_env(name, opponents="random", **knobs)
    check_env(e, skip_render_check=True)
    check_env(single_agent_env(name, opponents="beginner", render_mode="ansi", **knobs))


def play(e: SingleAgentEnv, seed: int) -> tuple[float, int]:
    """Random legal actions to the end: total reward and number of learner steps."""
    rng = np.random.default_rng(seed)
    obs, _ = e.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert e.match.current_player == e.seat
        obs, reward, terminated, truncated, _info = e.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, steps


def test_the_learner_gets_its_sides_points_and_acts_only_on_its_turns() -> None:
    e = single_agent_env("cardems", seat=1, opponents="intermediate", partner="random")
    for seed in range(3):
        total, steps = play(e, seed)
        assert steps == 14  # one bid and 13 cards
        assert total == e.match.results[0].points[1]
    assert e.bots[3] is not None and e.bots[3].name == "random"
    assert e.bots[0] is not None and e.bots[0].name == "intermediate"


def test_match_rewards_come_once_at_the_end() -> None:
    e = single_agent_env("race400", players=3, one_hand=False, max_hands=3, reward="match",
                         opponents="beginner")
    total, _ = play(e, 2)
    scores = e.match.scores
    assert len(e.match.results) == 3
    assert total == pytest.approx(scores[0] - (scores[1] + scores[2]) / 2)


def test_a_program_that_cannot_be_started_is_refused_when_the_env_is_built(
        tmp_path: Path) -> None:
    """``opponents="cmd:./nope"`` was taken, and failed only at ``reset()`` (BotError: cannot
    start './nope'), though a bad spec is refused when the environment is built, as the
    arena refuses it."""
    missing = tmp_path / "nope"
    with pytest.raises(ValueError, match=rf"^opponents: cmd:{re.escape(str(missing))}: cannot "
                       r"run the program .*: not found$"):
        single_agent_env("cardems", opponents=f"cmd:{missing}")
    text = tmp_path / "bot.py"
    text.write_text("print('hi')\n", encoding="utf-8")  # not executable
    with pytest.raises(ValueError, match=r"^partner: cmd:.*: not executable"):
        single_agent_env("cardems", opponents="random", partner=f"cmd:{text}")


def test_an_episode_that_ended_takes_no_more_steps() -> None:
    """An episode ended by an illegal action (``illegal_action="end"``) went on: the next
    step played the action and said ``terminated`` False again, and the final observation
    still offered 14 actions. Ended that way, or truncated by ``max_hands``, it now refuses
    steps until ``reset()``, as an episode that ended by the match's end does, and its last
    observation offers no action."""
    e = single_agent_env("cardems", opponents="beginner")
    e.reset(seed=1)
    record = e.match.to_record()
    obs, _, terminated, _, info = e.step(0)  # a card while bidding: ends the episode
    assert terminated and "illegal_action" in info
    assert not obs["action_mask"].any()
    with pytest.raises(IllegalAction, match=r"the episode is over: call reset\(\)"):
        e.step(54)
    assert e.match.to_record() == record  # nothing was played
    e.reset(seed=1)
    assert e.step(54)[2] is False  # a new episode plays on
    cut = single_agent_env("race400", players=3, one_hand=False, max_hands=2,
                           opponents="beginner")
    obs, _ = cut.reset(seed=2)  # (cut where the learner bids first in the hand after)
    truncated = False
    while not truncated:
        obs, _, terminated, truncated, _ = cut.step(
            int(np.flatnonzero(obs["action_mask"])[0]))
        assert not terminated
    assert not obs["action_mask"].any()
    assert cut.match.current_player == cut.seat and not cut.match.is_over()
    with pytest.raises(IllegalAction, match=r"the episode is over: call reset\(\)"):
        cut.step(int(np.flatnonzero(action_mask(cut.match, cut.seat))[0]))  # (a legal one)


def test_same_seed_same_episode() -> None:
    a = single_agent_env("cards4net", opponents="intermediate")
    b = single_agent_env("cards4net", opponents="intermediate")
    assert play(a, 9) == play(b, 9)
    assert a.match.to_record() == b.match.to_record()


def test_illegal_actions_end_the_episode_or_raise() -> None:
    e = single_agent_env("cardems", opponents="random", illegal_reward=-50.0)
    _obs, _ = e.reset(seed=1)
    _, reward, terminated, truncated, info = e.step(0)  # a card while bidding
    assert (reward, terminated, truncated) == (-50.0, True, False)
    assert "it is time to bid" in info["illegal_action"]
    strict = single_agent_env("cardems", opponents="random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction, match="cannot take action 200: outside the action space"):
        strict.step(200)


@pytest.mark.parametrize("mode", ["end", "raise"])
@pytest.mark.parametrize("action", [54.9, 56.0, np.float64(56.0), "56", "3", True, False,
                                    np.True_, None],
                         ids=repr)
def test_an_action_that_is_not_a_whole_number_is_refused_in_either_mode(action: Any,
                                                                         mode: str) -> None:
    e = single_agent_env("cardems", opponents="random", illegal_action=mode)  # type: ignore[arg-type]
    e.reset(seed=1)
    before = e.match.to_record()
    with pytest.raises(IllegalAction, match=rf"^seat 0 cannot take action "
                       rf"{re.escape(repr(action))}: an action is a whole number"):
        e.step(action)
    assert e.match.to_record() == before
    _, _, terminated, _, info = e.step(56)  # the episode goes on
    assert not terminated and "illegal_action" not in info
    assert e.match.bids[0] == 2


@pytest.mark.parametrize("action", [56, np.int64(56), np.int16(56), np.uint8(56), np.array(56)],
                         ids=repr)
def test_python_and_numpy_integers_are_the_learners_actions(action: Any) -> None:
    e = single_agent_env("cardems", opponents="random", illegal_action="raise")
    e.reset(seed=1)
    e.step(action)
    assert e.match.bids[0] == 2


def test_bad_arguments_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        single_agent_env("cardems", opponents="grandmaster")
    with pytest.raises(ValueError, match="seat: must be 0 to 3"):
        single_agent_env("cardems", seat=4)
    with pytest.raises(ValueError, match="illegal_action"):
        single_agent_env("cardems", illegal_action="ignore")  # type: ignore[arg-type]
    for name in ("reward_scale", "illegal_reward"):
        for value in ("x", None, False, float("nan")):
            with pytest.raises(ValueError, match=rf"^{name}: must be a finite number, "
                               rf"not {re.escape(repr(value))}$"):
                single_agent_env("cardems", **{name: value})
    # A bool was taken as a seat or a hand count (seat=True played seat 1).
    with pytest.raises(ValueError, match=r"^seat: must be 0 to 3, not True$"):
        single_agent_env("cardems", seat=True)
    with pytest.raises(ValueError, match=r"^max_hands: must be a whole number 1 or more, "
                                         r"not True$"):
        single_agent_env("cardems", max_hands=True)
    # 18 cards each do not fit the action space's bids 0 to 17 (reset failed at the mask).
    with pytest.raises(ValueError, match=r"^jokers: 3 players with jokers hold 18 cards"):
        single_agent_env("race400", players=3, jokers=True)


@pytest.mark.parametrize(("knobs", "message"), [
    ({"partner": "nope"}, "partner: unknown bot level 'nope'"),
    ({"opponents": "nope"}, "opponents: unknown bot level 'nope'"),
    ({"opponents": "nope", "partner": "random"}, "opponents: unknown bot level 'nope'"),
    ({"opponents": "random", "partner": "expert:zzz"}, "partner: "),
    ({"partner": "py:no_such_module_here:Bot"},
     "partner: py:no_such_module_here:Bot: cannot import module"),
    ({"opponents": 3}, "opponents: a bot spec is text"),
])
def test_a_bad_bot_spec_is_refused_naming_the_argument(knobs: dict[str, Any],
                                                       message: str) -> None:
    with pytest.raises((ValueError, TypeError), match="^" + re.escape(message)):
        single_agent_env("cardems", **knobs)


def test_step_before_reset_says_to_call_reset_and_changes_nothing() -> None:
    e = single_agent_env("cardems", opponents="random")
    before = e.match.to_record()
    for mode in ("end", "raise"):
        e.illegal_action = mode  # type: ignore[assignment]
        with pytest.raises(IllegalAction, match=r"^call reset\(\) before step\(\)$"):
            e.step(54)
    assert e.match.to_record() == before


BOTS = textwrap.dedent('''
    import numpy as np


    class NumpyBot:
        """Legal actions as numpy integers, as a policy's argmax gives them."""

        name = "numpy"

        def __init__(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def act(self, obs):
            return self.rng.choice(np.array(obs.legal_actions, dtype=np.int64))


    class FloatBot:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return np.float64(obs.legal_actions[0])


    class NonsenseBot:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return 999


    class CrashBot:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            raise RuntimeError("boom")
''')


@pytest.fixture
def bots_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "learn_env_test_bots.py").write_text(BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "py:learn_env_test_bots:"


def test_a_bot_may_give_numpy_integers(bots_module: str) -> None:
    e = single_agent_env("cardems", opponents=bots_module + "NumpyBot",
                         partner=bots_module + "NumpyBot")
    for seed in range(3):
        total, steps = play(e, seed)
        assert steps == 14 and e.match.is_over()
        assert total == e.match.results[0].points[0]


@pytest.mark.parametrize(("bot", "arg", "why"), [
    ("FloatBot", "opponents", r"act gave np.float64\(\d+.0\), not an action \(a whole number\)"),
    ("NonsenseBot", "opponents", r"act gave 999, which the engine refuses: 999 is not an action"),
    ("CrashBot", "opponents", r"act raised RuntimeError: boom"),
    ("NonsenseBot", "partner", r"act gave 999, which the engine refuses"),
])
def test_a_bot_that_fails_is_named_by_seat_and_spec_not_blamed_on_the_learner(
        bots_module: str, bot: str, arg: str, why: str) -> None:
    spec = bots_module + bot
    e = single_agent_env("cardems", illegal_action="raise",
                         **({"opponents": spec, "partner": "random"} if arg == "opponents"
                            else {"opponents": "random", "partner": spec}))
    seats = "2" if arg == "partner" else "[13]"
    failure = rf"^seat {seats} \({arg}={re.escape(repr(spec))}\): {why}"
    with pytest.raises(BotError, match=failure):
        for seed in range(20):  # the bot fails before the learner's first turn or after it
            obs, _ = e.reset(seed=seed)
            e.step(int(obs["action_mask"].argmax()))
    with pytest.raises(IllegalAction, match=r"^the episode stopped: seat .* call reset\(\)$"):
        e.step(54)
    assert not isinstance(BotError("x"), IllegalAction)


def test_a_seat_and_a_hand_count_of_any_integer_type_are_that_int() -> None:
    # seat=np.int64(1) was refused: "seat: must be 0 to 3, not np.int64(1)"; so was
    # max_hands=np.int64(3), and players=np.int64(5) by the rules.
    e = single_agent_env("race400", players=np.int64(5), seat=np.int64(1),
                         one_hand=False, max_hands=np.int64(3))
    assert (e.seat, e.max_hands, e.rules.players) == (1, 3, 5)
    assert type(e.seat) is int and type(e.max_hands) is int and type(e.rules.players) is int
    e.reset(seed=1)


def test_reset_takes_a_numpy_seed_as_that_int_and_refuses_what_is_no_whole_number() -> None:
    # reset(seed=np.int64(3)) raised gymnasium's "Seed must be a python integer, actual
    # type: <class 'numpy.int64'>" (learn.md: numpy integers are taken as that int).
    a = single_agent_env("cardems", opponents="random")
    b = single_agent_env("cardems", opponents="random")
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.unwrapped.match.to_record() == b.unwrapped.match.to_record()
    for seed in (1.5, "3", True):
        with pytest.raises(ValueError, match=r"^seed: must be a whole number or None, not "):
            a.reset(seed=seed)  # type: ignore[arg-type]
