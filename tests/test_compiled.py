"""The mypyc build of the engine: it behaves exactly like the pure Python one, a build without a
C compiler falls back to pure Python with one warning, and a compiled build older than its
sources (an editable install whose source was edited) is never used, in whole or in part."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOT_MODULES = ["actions", "cards", "handstate", "match", "scoring"]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
STALE = "the compiled engine is older than its sources; using pure Python"

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

WHICH = r"""
import json, sys
import spades.engine
hot = ["actions", "cards", "handstate", "match", "scoring"]
files = [sys.modules["spades.engine." + m].__file__ for m in hot]
print(json.dumps({"build": spades.engine.BUILD, "note": spades.engine.BUILD_NOTE,
                  "pure": [f.endswith(".py") for f in files]}))
"""


def copy_project(target: Path) -> Path:
    """The package and its build files, without any build output."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "spades", target / "spades",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_build.json"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, target / name)
    return target


def python(path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=path, capture_output=True,
                          text=True, timeout=600, check=False,
                          env={"PYTHONPATH": str(path), "PATH": "/usr/bin:/bin", **env})


def which(path: Path) -> tuple[dict[str, object], str]:
    done = python(path, "-c", WHICH)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def build_in_place(path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """What ``pip install -e .`` runs: setup.py's build_ext, in place."""
    done = python(path, "setup.py", "build_ext", "--inplace", **env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def stamp(path: Path) -> dict[str, object]:
    result: dict[str, object] = json.loads((path / "spades/engine/_build.json").read_text())
    return result


def fake_compiled(path: Path, modules: list[str], edited: str | None = None) -> None:
    """Compiled-module files that must never be loaded, and the stamp of a compiled build of
    the current sources; then ``edited`` changes after the build."""
    engine = path / "spades" / "engine"
    for m in modules:
        (engine / f"{m}{SUFFIX}").write_bytes(b"not a shared object")
    sources = {f"{m}.py": hashlib.sha256((engine / f"{m}.py").read_bytes()).hexdigest()
               for m in HOT_MODULES}
    (engine / "_build.json").write_text(json.dumps({"build": "compiled", "sources": sources}))
    if edited:
        with (engine / edited).open("a") as f:
            f.write("\n# edited after the build\n")


def test_a_build_without_a_c_compiler_is_pure_with_one_warning(tmp_path: Path) -> None:
    path = copy_project(tmp_path)
    done = build_in_place(path, CC="/nonexistent/cc", SPADES_COMPILE="1")
    output = (done.stdout + done.stderr).splitlines()
    warnings = [line for line in output if "WARNING: spades:" in line]
    assert len(warnings) == 1 and "no C compiler" in warnings[0], output
    assert stamp(path) == {"build": "pure", "reason": "no C compiler at build time"}
    assert not list((path / "spades" / "engine").glob("*.so"))
    found, stderr = which(path)
    assert found == {"build": "pure", "note": "no C compiler at build time", "pure": [True] * 5}
    assert STALE not in stderr


def test_spades_compile_0_forces_pure_and_drops_old_compiled_modules(tmp_path: Path) -> None:
    path = copy_project(tmp_path)
    fake_compiled(path, HOT_MODULES)
    done = build_in_place(path, SPADES_COMPILE="0")
    assert "WARNING: spades" not in done.stdout + done.stderr
    assert stamp(path) == {"build": "pure", "reason": "SPADES_COMPILE=0"}
    assert not list((path / "spades" / "engine").glob("*.so"))
    found, _ = which(path)
    assert found == {"build": "pure", "note": "SPADES_COMPILE=0", "pure": [True] * 5}


@pytest.mark.parametrize("compiled, edited", [
    (HOT_MODULES, "match.py"),  # an edited source
    (HOT_MODULES, "cards.py"),
    (["match"], None),  # only some modules compiled: never a mix
])
def test_a_stale_compiled_engine_is_not_loaded(tmp_path: Path, compiled: list[str],
                                               edited: str | None) -> None:
    path = copy_project(tmp_path)
    fake_compiled(path, compiled, edited)
    found, stderr = which(path)
    assert found["build"] == "pure" and found["pure"] == [True] * 5
    assert stderr.count(STALE) == 1, stderr
    done = python(path, "-m", "spades", "bench", "engine", "--seconds", "0.05", "--runs", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["engine"] == "pure" and result["engine_note"] == found["note"] != ""


@pytest.fixture(scope="module")
def compiled_build(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One real in-place build (what ``pip install -e .`` does), shared by the slow tests."""
    if shutil.which("cc") is None:
        pytest.skip("a C compiler is needed for the compiled build")
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        pytest.skip("mypy (mypyc) is needed for the compiled build")
    path = copy_project(tmp_path_factory.mktemp("compiled"))
    done = build_in_place(path, SPADES_COMPILE="1")
    assert "WARNING: spades" not in done.stdout + done.stderr, done.stderr
    assert stamp(path)["build"] == "compiled"
    assert len(list((path / "spades" / "engine").glob(f"*{SUFFIX}"))) == len(HOT_MODULES)
    yield path


@pytest.mark.slow
def test_compiled_engine_matches_pure(compiled_build: Path, tmp_path: Path) -> None:
    def run(path: Path) -> list[str]:
        done = python(path, "-c", CHECK)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    compiled = run(compiled_build)
    pure = run(copy_project(tmp_path))
    assert compiled[0] == "True" and pure[0] == "False"
    assert compiled[1] == pure[1]


@pytest.mark.slow
def test_editing_a_compiled_source_switches_to_pure(compiled_build: Path, tmp_path: Path) -> None:
    path = tmp_path / "project"
    shutil.copytree(compiled_build, path)
    found, stderr = which(path)
    assert found == {"build": "compiled", "note": "", "pure": [False] * 5}
    assert STALE not in stderr
    with (path / "spades" / "engine" / "match.py").open("a") as f:
        f.write("\n# a developer's edit\n")
    found, stderr = which(path)
    assert found["build"] == "pure" and found["pure"] == [True] * 5
    assert stderr.count(STALE) == 1, stderr
