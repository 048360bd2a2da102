"""A user's script type-checks against the package as README.md says
(``MYPYPATH=/path/to/spades mypy my_script.py``), learning interfaces included: the errors
mypy reports are the user's own, never ones inside spades."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import numpy as np

    import spades.learn.openspiel
    from spades.bots.external import ExternalBot
    from spades.engine import Match, profile
    from spades.learn import env, single_agent_env

    e = env("cardems")
    e.reset(seed=1)
    s = single_agent_env("cardems", opponents="random")
    obs, info = s.reset(seed=1)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    obs, reward, terminated, truncated, info = s.step(action)
    match = Match.new(profile("cardems"), 1)
    with ExternalBot("python3 my_bot.py") as bot:
        name: str = bot.name
    games: dict[str, str] = spades.learn.openspiel.GAME_NAMES
    wrong: str = match.scores  # the user's own mistake, and the only error
''')


def test_a_users_script_gets_only_its_own_errors(tmp_path: Path) -> None:
    # mypy stopped at spades/learn/aec.py:23: 'Skipping analyzing "pettingzoo": module is
    # installed, but missing library stubs', an error in the package, not in the script.
    (tmp_path / "my_script.py").write_text(SCRIPT, encoding="utf-8")
    # as README.md says: MYPYPATH names the clone (PYTHONPATH, which the test run may set,
    # would make mypy take spades as an installed package and hide its errors)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MYPYPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
         str(tmp_path / "cache"), "my_script.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, done.stdout + done.stderr
    assert errors[0].startswith("my_script.py:19: error: Incompatible types in assignment")
