"""Bot specs ``py:MODULE:OBJECT``: a Python class of your own, in make_bot and the arena."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from spades.bots import make_bot
from spades.engine import Match, profile

BOT = textwrap.dedent('''
    class LowestBot:
        """Always the lowest legal action: a bot of one line."""

        name = "lowest"

        def __init__(self, seed=None):
            self.seed = seed

        def act(self, obs):
            return obs.legal_actions[0]


    def nameless(seed=None):
        class Plain:
            def act(self, obs):
                return obs.legal_actions[-1]
        return Plain()


    NOT_CALLABLE = 3


    def no_act(seed=None):
        return object()


    class Crashes:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            raise RuntimeError("boom")


    class PlaysNonsense:
        def __init__(self, seed=None):
            pass

        def act(self, obs):
            return 999


    class ActsOnNothing:
        def __init__(self, seed=None):
            pass

        def act(self):
            return 0
''')


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "my_spades_bots.py").write_text(BOT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_py_spec_builds_the_class_with_the_seed_and_it_plays(bot_dir: Path) -> None:
    bot = make_bot("py:my_spades_bots:LowestBot", seed=5)
    assert bot.name == "lowest" and bot.seed == 5
    match = Match(profile("cardems", one_hand=True), dealer=0)
    match.deal([0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39])
    while not match.is_over():
        match.apply(bot.act(match.observation(match.current_player)))
    other = make_bot("py:my_spades_bots:nameless")
    assert other.name == "py:my_spades_bots:nameless"


@pytest.mark.parametrize(("spec", "message"), [
    ("py:my_spades_bots", "write py:MODULE:OBJECT"),
    ("py:no_such_module_here:Bot", "cannot import module 'no_such_module_here'"),
    ("py:my_spades_bots:Missing", "has no 'Missing'"),
    ("py:my_spades_bots:NOT_CALLABLE", "is not a class or function"),
    ("py:my_spades_bots:no_act", "has no act"),
    ("py:my_spades_bots:ActsOnNothing", "whose act does not take one observation"),
    ("py:json:loads", r"loads\(seed\) failed \(TypeError"),
    ("py:json:JSONDecoder", r"JSONDecoder\(seed\) failed \(TypeError"),
])
def test_a_bad_py_spec_says_what_is_wrong(bot_dir: Path, spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_the_arena_plays_a_py_spec(bot_dir: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(bot_dir), env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, "-m", "spades", "arena", "--a", "py:my_spades_bots:LowestBot",
         "--b", "random", "--deals", "4", "--jobs", "1", "--quiet", "--json"],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["a"] == "py:my_spades_bots:LowestBot"
    assert result["deals"] == 4 and result["void"] == 0
    bad = subprocess.run(
        [sys.executable, "-m", "spades", "arena", "--a", "py:my_spades_bots:Missing",
         "--b", "random", "--deals", "1"],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    assert bad.returncode == 2 and "has no 'Missing'" in bad.stderr


@pytest.mark.parametrize(("spec", "why"), [
    ("py:my_spades_bots:Crashes", "py:my_spades_bots:Crashes: act raised RuntimeError: boom"),
    ("py:my_spades_bots:PlaysNonsense",
     "py:my_spades_bots:PlaysNonsense: act gave 999, not one of obs.legal_actions"),
])
def test_a_py_bot_that_fails_in_play_voids_its_deals(bot_dir: Path, spec: str, why: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from spades.cli import main

    code = main(["arena", "--a", spec, "--b", "random", "--deals", "2", "--jobs", "1",
                 "--quiet", "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["void"] == 2 and result["mean"] is None
    assert why in result["void_reasons"][0] and why in err


def test_the_example_policy_says_which_table_it_was_trained_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # examples/learn's PolicyBot at a six-player table: "ValueError: matmul: Input operand 1
    # has a mismatch in its core dimension 0 ... (size 880 is different from 608)".
    pytest.importorskip("numpy")
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "examples" / "learn"))
    bot = make_bot("py:policy_bot:PolicyBot", 1)
    four = Match.new(profile("cards4net"), 1)
    assert bot.act(four.observation(four.current_player)) in four.legal_actions()
    six = Match.new(profile("race400", players=6), 1)
    with pytest.raises(ValueError, match=r"^the policy was trained on 608 inputs \(4 players\), "
                                         r"this table's observation has 880 \(6 players\)"):
        bot.act(six.observation(six.current_player))
