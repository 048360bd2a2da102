"""The optional mypyc build of the engine behaves exactly like the pure Python one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOT_MODULES = ["actions.py", "cards.py", "handstate.py", "match.py", "scoring.py"]

CHECK = r"""
import hashlib, json, random
import spades.engine.match
from spades.engine import PROFILES, Match, profile, replay, summary
out = []
for name, (counts, _) in PROFILES.items():
    for players in counts:
        for extra in ({}, {"turn_timer": 30}):
            if name == "cards4net":
                extra = dict(extra, jokers=True)
            rules = profile(name, players=players, **extra)
            m = Match(rules, rng=random.Random(3))
            rng = random.Random(4)
            while not m.is_over() and m.hand_number < 4:
                if rules.turn_timer and rng.random() < 0.05:
                    m.apply_timeout()
                    continue
                m.apply(rng.choice(m.legal_actions()))
            c = m.clone()
            c.undo()
            rec = m.to_record()
            assert summary(replay(json.loads(json.dumps(rec)))) == summary(m)
            out.append(json.dumps([rec, summary(c)], sort_keys=True))
built = not spades.engine.match.__file__.endswith(".py")
print(built, hashlib.sha256("".join(out).encode()).hexdigest())
"""


@pytest.mark.slow
def test_compiled_engine_matches_pure(tmp_path: Path) -> None:
    mypyc = shutil.which("mypyc")
    if mypyc is None or shutil.which("cc") is None:
        pytest.skip("mypyc (from mypy) and a C compiler are needed for the compiled build")
    shutil.copytree(ROOT / "spades", tmp_path / "spades",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    engine = tmp_path / "spades" / "engine"
    subprocess.run([mypyc, *[f"spades/engine/{m}" for m in HOT_MODULES]], cwd=tmp_path,
                   check=True, capture_output=True, timeout=600)
    assert list(engine.glob("match*.so")), "mypyc built no extension"

    def run(path: Path) -> list[str]:
        done = subprocess.run([sys.executable, "-c", CHECK], cwd=path, check=True,
                              capture_output=True, text=True, timeout=300,
                              env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin"})
        return done.stdout.split()

    compiled = run(tmp_path)
    pure = run(ROOT)
    assert compiled[0] == "True" and pure[0] == "False"
    assert compiled[1] == pure[1]
