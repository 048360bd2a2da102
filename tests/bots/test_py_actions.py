"""What a ``py:`` bot's act may return in the arena: an action of any integer type is
played as that int; anything else (a float, a bool, text) is refused as a bad action is, the
deal void with the reason, never a traceback."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from spades.bots.arena import PythonBotError, _python_act
from spades.cli import main
from spades.engine import Match, profile

BOTS = textwrap.dedent('''
    class Index:
        """An integer type of its own (as numpy's are): int() via __index__ only."""

        def __init__(self, value):
            self.value = value

        def __index__(self):
            return self.value

        def __eq__(self, other):
            return self.value == other

        def __hash__(self):
            return hash(self.value)


    class IndexBot:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return Index(obs.legal_actions[0])


    class FloatBot:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return float(obs.legal_actions[0])


    class TrueBot:
        """True == 1: a legal action 1 (the 3 of clubs) would pass an equality test."""

        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return True


    class TextBot:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return str(obs.legal_actions[0])


    class SlotsBot:
        """No name, and no room for one (__slots__)."""

        __slots__ = ("seen",)

        def __init__(self, seed=None):
            self.seen = 0

        def act(self, obs):
            self.seen += 1
            return obs.legal_actions[0]

        def close(self):
            pass


    from dataclasses import dataclass


    @dataclass(frozen=True)
    class FrozenBot:
        """No name, and frozen: a name cannot be set on it."""

        seed: int | None = None

        def act(self, obs):
            return obs.legal_actions[-1]
''')


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "odd_action_bots.py").write_text(BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


class _Obs:
    legal_actions = (1, 2, 64)


class _Gives:
    name = "gives"

    def __init__(self, value: object) -> None:
        self.value = value

    def act(self, obs: object) -> int:
        return self.value  # type: ignore[return-value]


def test_an_integer_of_another_type_is_played_as_an_int() -> None:
    np = pytest.importorskip("numpy")
    for value in (np.int64(64), np.int8(1), np.uint16(2)):
        action = _python_act(_Gives(value), _Obs(), "py:m:B")
        assert action == int(value) and type(action) is int


@pytest.mark.parametrize(("value", "shown"), [
    (64.0, "64.0"), (True, "True"), ("64", "'64'"), (None, "None"),
])
def test_what_is_no_integer_is_refused_even_when_equal_to_a_legal_action(
        value: object, shown: str) -> None:
    with pytest.raises(PythonBotError,
                       match=rf"^py:m:B: act gave {shown}, not one of obs\.legal_actions"):
        _python_act(_Gives(value), _Obs(), "py:m:B")


def test_a_numpy_bool_or_float_is_refused() -> None:
    np = pytest.importorskip("numpy")
    for value in (np.True_, np.float64(64.0)):
        with pytest.raises(PythonBotError, match=r"not one of obs\.legal_actions \(\w+, not an int\)"):
            _python_act(_Gives(value), _Obs(), "py:m:B")


def test_the_arena_plays_a_bot_giving_its_own_integer_type(
        bot_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--a", "py:odd_action_bots:IndexBot", "--b", "random", "--deals",
                 "2", "--jobs", "1", "--quiet", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["deals"] == 2 and result["void"] == 0


@pytest.mark.parametrize(("spec", "why"), [
    ("py:odd_action_bots:FloatBot", "act gave 64.0, not one of obs.legal_actions"),
    ("py:odd_action_bots:TrueBot", "act gave True, not one of obs.legal_actions"),
    ("py:odd_action_bots:TextBot", "act gave '64', not one of obs.legal_actions"),
])
def test_the_arena_voids_the_deals_of_a_bot_giving_no_integer(
        bot_dir: Path, spec: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--a", spec, "--b", "random", "--deals", "2", "--jobs", "1",
                 "--quiet", "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["void"] == 2 and result["mean"] is None
    assert f"{spec}: {why}" in result["void_reasons"][0] and why in err


def test_a_legal_int_still_plays() -> None:
    match = Match.new(profile("cardems"), seed=3)
    obs = match.observation(match.current_player)
    assert _python_act(_Gives(obs.legal_actions[0]), obs, "py:m:B") == obs.legal_actions[0]


@pytest.mark.parametrize("spec", ["py:odd_action_bots:SlotsBot", "py:odd_action_bots:FrozenBot"])
def test_a_bot_without_a_name_that_cannot_take_one_plays_under_its_spec(
        bot_dir: Path, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    from spades.bots import make_bot

    bot = make_bot(spec, 1)
    assert bot.name == spec
    match = Match.new(profile("cardems"), seed=3)
    obs = match.observation(match.current_player)
    assert bot.act(obs) in obs.legal_actions
    code = main(["arena", "--a", spec, "--b", "random", "--deals", "2", "--jobs", "1",
                 "--quiet", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err, err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["deals"] == 2 and result["void"] == 0
