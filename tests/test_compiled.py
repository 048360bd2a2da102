"""The mypyc build of the engine and the search's hot modules: it behaves exactly like the pure
Python one, a build without a
C compiler falls back to pure Python with one warning, and a compiled build older than its
sources (an editable install whose source was edited) is never used, in whole or in part."""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades.engine._build import HOT_MODULES as BUILD_HOT_MODULES
from tests.server.netclient import NetPlayer, Server, free_port

ROOT = Path(__file__).resolve().parents[1]
HOT_MODULES = list(BUILD_HOT_MODULES)  # "engine/match", "bots/policy", ...
N_HOT = len(HOT_MODULES)
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

PICKLE = r"""
import copy, hashlib, json, pickle, random
import spades.engine.match
from spades.engine import (EVENT_TYPES, PROFILES, HandLog, HandResult, Match, Observation,
                           Rules, profile, replay, summary)
from spades.engine.handstate import HandState
from spades.engine.scoring import SideScore

def attrs(value):
    # every attribute of a hand state or match (mypyc lists them; pure Python has slots)
    names = getattr(type(value), "__mypyc_attrs__", None) or [
        n for k in type(value).__mro__ for n in getattr(k, "__slots__", ())]
    out = {}
    for n in sorted(set(names)):
        v = getattr(value, n)
        out[n] = v.getstate() if isinstance(v, random.Random) else v
    return out

def same(a, b):
    if isinstance(a, HandState):
        return type(a) is type(b) and attrs(a) == attrs(b)
    return type(a) is type(b) and a == b

def describe(value):
    if isinstance(value, Match):
        return [repr(value), summary(value), value.to_record(), attrs(value)["looked"],
                [repr(value.observation(s)) for s in range(value.n)]]
    if isinstance(value, HandState):
        return repr(sorted((k, v) for k, v in attrs(value).items()))
    return repr(value)

def play_on(m):
    # the copy plays on exactly like the original: same actions, same record
    rng = random.Random(9)
    for _ in range(40):
        if m.is_over():
            break
        m.apply(rng.choice(m.legal_actions()))
    return summary(m), m.to_record()

values = []
kinds = set()
for name, (counts, _) in PROFILES.items():
    players = counts[0]
    extra = {"turn_timer": 30, "jokers": True} if name == "cards4net" else {"turn_timer": 30}
    rules = profile(name, players=players, **extra)
    values.append(rules)
    m = Match(rules, rng=random.Random(3), events=True)
    rng = random.Random(4)
    while m.hand_number < 3 or len(m.trick) < 2:  # into hand 3's play: past hands, open trick
        if rng.random() < 0.05:
            m.apply_timeout()
        else:
            m.apply(rng.choice(m.legal_actions()))
    events = m.take_events()
    kinds.update(type(e) for e in events)
    values += [m, m.clone(), *m.results, *(r.sides[0] for r in m.results), *m.log, *events,
               m.to_record(), replay(json.loads(json.dumps(m.to_record())))]
    values += [m.observation(s) for s in range(rules.players)]
    hand = HandState.from_obs(m.observation(m.current_player), m.hands)
    values += [hand, hand.clone()]
    m = Match(rules.replace(one_hand=True), rng=random.Random(5), events=True)
    while not m.is_over():
        m.apply(rng.choice(m.legal_actions()))
    events = m.take_events()
    kinds.update(type(e) for e in events)
    values += [m, *events, m.observation(0)]
assert {SideScore, HandResult, HandLog, Observation, Rules, Match, HandState} <= {
    type(v) for v in values}
assert {e.__name__ for e in EVENT_TYPES} - {k.__name__ for k in kinds} <= {"LookedAtCards"}, kinds
out = []
failed = []
for value in values:
    for how, copied in (("pickle", lambda v: pickle.loads(pickle.dumps(v))),
                        ("copy", copy.copy), ("deepcopy", copy.deepcopy)):
        try:
            back = copied(value)
        except Exception as exc:
            failed.append(f"{how} {type(value).__name__}: {type(exc).__name__}: {exc}")
            continue
        if not same(back, value):
            failed.append(f"{how} {type(value).__name__}: not equal")
        elif isinstance(value, Match) and how == "pickle":
            if play_on(back) != play_on(value.clone()):
                failed.append(f"{how} Match plays on differently")
        out.append(describe(back))
built = not spades.engine.match.__file__.endswith(".py")
digest = hashlib.sha256(json.dumps(out, sort_keys=True, default=repr).encode()).hexdigest()
print(json.dumps({"compiled": built, "failed": sorted(set(failed)), "digest": digest}))
"""

BOTS = r"""
import hashlib, json
import spades.bots.policy
from spades.bots import make_bot
from spades.engine import Match, profile
out = []
for name, players, specs in (("cardems", 4, ("expert:8", "ismcts:60", "intermediate", "hard:noadapt")),
                             ("cards4net", 4, ("intermediate", "expert:8", "human:nocover", "expert:8")),
                             ("race400", 3, ("expert:8", "intermediate", "ismcts:60")),
                             ("race400", 6, ("expert:6", "intermediate") * 3),
                             ("game93", 4, ("expert:8",) * 4)):
    kwargs = {"jokers": True} if name == "cards4net" else {}
    m = Match.new(profile(name, players=players, **kwargs), 5)
    bots = [make_bot(spec, seed=9 + seat) for seat, spec in enumerate(specs)]
    while not m.is_over() and m.hand_number < 3:  # past hands: the experts adapt
        action = bots[m.current_player].act(m.observation(m.current_player))
        out.append(action)
        m.apply(action)
built = not spades.bots.policy.__file__.endswith(".py")
print(built, hashlib.sha256(json.dumps(out).encode()).hexdigest())
"""

WHICH = r"""
import importlib, json
import spades.engine
from spades.engine._build import HOT_MODULES
files = [importlib.import_module("spades." + m.replace("/", ".")).__file__ for m in HOT_MODULES]
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


def which(path: Path, **env: str) -> tuple[dict[str, object], str]:
    done = python(path, "-c", WHICH, **env)
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
    the current sources; then ``edited`` (e.g. ``engine/match``) changes after the build."""
    package = path / "spades"
    for m in modules:
        (package / f"{m}{SUFFIX}").write_bytes(b"not a shared object")
    sources = {f"{m}.py": hashlib.sha256((package / f"{m}.py").read_bytes()).hexdigest()
               for m in HOT_MODULES}
    (package / "engine" / "_build.json").write_text(
        json.dumps({"build": "compiled", "sources": sources}))
    if edited:
        with (package / f"{edited}.py").open("a") as f:
            f.write("\n# edited after the build\n")


def compiled_files(path: Path) -> list[Path]:
    return [p for p in (path / "spades").rglob(f"*{SUFFIX}")]


def test_setup_compiles_the_modules_the_engine_checks() -> None:
    """setup.py (which compiles) and spades/engine/_build.py (which checks the build at
    import) name the same hot modules."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    lists = [ast.literal_eval(node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "HOT_MODULES" for t in node.targets)]
    assert lists == [HOT_MODULES]
    for m in HOT_MODULES:
        assert (ROOT / "spades" / f"{m}.py").exists()


def test_a_build_without_a_c_compiler_is_pure_with_one_warning(tmp_path: Path) -> None:
    path = copy_project(tmp_path)
    done = build_in_place(path, CC="/nonexistent/cc")
    output = (done.stdout + done.stderr).splitlines()
    warnings = [line for line in output if "WARNING: spades:" in line]
    assert len(warnings) == 1 and "no C compiler" in warnings[0], output
    assert stamp(path) == {"build": "pure", "reason": "no C compiler at build time"}
    assert not compiled_files(path)
    found, stderr = which(path)
    assert found == {"build": "pure", "note": "no C compiler at build time",
                     "pure": [True] * N_HOT}
    assert STALE not in stderr
    assert bench_says(path) == "measuring the engine pure Python (no C compiler at build time)"


def test_spades_compile_0_forces_pure_and_drops_old_compiled_modules(tmp_path: Path) -> None:
    path = copy_project(tmp_path)
    fake_compiled(path, HOT_MODULES)
    done = build_in_place(path, SPADES_COMPILE="0")
    assert "WARNING: spades" not in done.stdout + done.stderr
    assert stamp(path) == {"build": "pure", "reason": "SPADES_COMPILE=0"}
    assert not compiled_files(path)
    found, _ = which(path)
    assert found == {"build": "pure", "note": "SPADES_COMPILE=0", "pure": [True] * N_HOT}


@pytest.mark.parametrize("compiled, edited", [
    (HOT_MODULES, "engine/match"),  # an edited source
    (HOT_MODULES, "engine/cards"),
    (HOT_MODULES, "bots/policy"),  # the search's policy: the engine is pure too
    (["engine/match"], None),  # only some modules compiled: never a mix
    (HOT_MODULES[:7], None),  # compiled before the last hot modules were added
])
def test_a_stale_compiled_engine_is_not_loaded(tmp_path: Path, compiled: list[str],
                                               edited: str | None) -> None:
    path = copy_project(tmp_path)
    fake_compiled(path, compiled, edited)
    found, stderr = which(path)
    assert found["build"] == "pure" and found["pure"] == [True] * N_HOT
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
    done = build_in_place(path)
    assert "WARNING: spades" not in done.stdout + done.stderr, done.stderr
    assert stamp(path)["build"] == "compiled"
    assert len(compiled_files(path)) == N_HOT
    yield path


def same_in_both_builds(script: str, compiled_build: Path, pure_build: Path) -> None:
    """``script`` prints whether it ran compiled and a digest of what it did: the digests
    agree, and each build is the one it should be."""
    def run(path: Path) -> list[str]:
        done = python(path, "-c", script)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    compiled = run(compiled_build)
    pure = run(pure_build)
    assert compiled[0] == "True" and pure[0] == "False"
    assert compiled[1] == pure[1]


@pytest.mark.slow
def test_compiled_engine_matches_pure(compiled_build: Path, tmp_path: Path) -> None:
    same_in_both_builds(CHECK, compiled_build, copy_project(tmp_path))


@pytest.mark.slow
def test_spades_pure_1_loads_pure_python_from_a_compiled_build(compiled_build: Path) -> None:
    """For measuring the compiled build against pure Python on one install
    (bench/expert_speed.py): every hot module from its source, no stale warning."""
    found, stderr = which(compiled_build, SPADES_PURE="1")
    assert found == {"build": "pure", "note": "SPADES_PURE=1", "pure": [True] * N_HOT}
    assert STALE not in stderr
    found, _ = which(compiled_build)
    assert found["build"] == "compiled"


@pytest.mark.slow
def test_compiled_bots_decide_as_pure(compiled_build: Path, tmp_path: Path) -> None:
    """The search's compiled modules: the intermediate, expert (adapting over several hands,
    reading plays), ismcts and model-of-a-person players make exactly the same decisions
    under five profiles."""
    same_in_both_builds(BOTS, compiled_build, copy_project(tmp_path))


@pytest.mark.slow
def test_editing_a_compiled_source_switches_to_pure(compiled_build: Path, tmp_path: Path) -> None:
    path = tmp_path / "project"
    shutil.copytree(compiled_build, path)
    found, stderr = which(path)
    assert found == {"build": "compiled", "note": "", "pure": [False] * N_HOT}
    assert STALE not in stderr
    assert bench_says(path) == "measuring the engine compiled (mypyc)"
    with (path / "spades" / "engine" / "match.py").open("a") as f:
        f.write("\n# a developer's edit\n")
    found, stderr = which(path)
    assert found["build"] == "pure" and found["pure"] == [True] * N_HOT
    assert stderr.count(STALE) == 1, stderr
    assert bench_says(path) == "measuring the engine pure Python (match.py changed since the" \
                               " compiled build)"


def bench_says(path: Path) -> str:
    """The first line of ``spades bench engine``: which engine it measures."""
    done = python(path, "-m", "spades", "bench", "engine", "--seconds", "0.05", "--runs", "1")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[0]


@pytest.mark.slow
def test_compiled_values_pickle_and_copy_like_pure(compiled_build: Path, tmp_path: Path) -> None:
    """The server sends observations to CPU worker processes (pickled): every engine value —
    rules, observations with past hands, matches mid-hand, hand states, results, side
    scores, logs, events, records — survives pickle, copy and deepcopy in the compiled build
    exactly as in the pure one. (Compiled, frozen dataclasses once failed to unpickle.)"""
    def run(path: Path) -> dict[str, object]:
        done = python(path, "-c", PICKLE)
        assert done.returncode == 0, done.stderr
        result: dict[str, object] = json.loads(done.stdout)
        return result

    pure = run(copy_project(tmp_path))
    compiled = run(compiled_build)
    assert pure["compiled"] is False and compiled["compiled"] is True
    assert pure["failed"] == []
    assert compiled["failed"] == []
    assert compiled["digest"] == pure["digest"]


@pytest.mark.slow
def test_a_compiled_servers_cpus_decide_every_hand(compiled_build: Path, tmp_path: Path) -> None:
    """The server on the compiled engine, its CPUs deciding in worker processes (each
    observation pickled): from hand 2 on (observations with past hands' results) the CPUs'
    bids are their own decisions, not the fallback (the first legal bid, nil), and nothing
    failed. Once, compiled observations with past hands could not be unpickled: every CPU
    bid nil from hand 2 and a match never ended."""
    server = Server(tmp_path / "s.sqlite3", free_port(), "--bots", "process", "--bot-workers", "1",
                    "--cpu-delay", "0", env={"PYTHONPATH": str(compiled_build)},
                    cwd=compiled_build).start()
    try:
        ann = NetPlayer(server, "Ann")
        ans = ann.request({"type": "create", "cpus": True, "options": {"cpu": "random"}})
        assert ans["type"] == "ack", ans
        bids: dict[int, list[object]] = {}
        while len(bids) < 2:
            view = ann.view
            if view is not None and view["phase"] == "play" and view["hand_number"] >= 2:
                bids[view["hand_number"]] = view["bids"]
            if ann.my_turn():
                assert view is not None
                done = ann.request({"type": "act", "action": view["legal_actions"][0]})
                assert done["type"] == "ack", done
            else:
                ann.recv(timeout=60)
        assert ann.view is not None
        seat = ann.view["seat"]
        cpu_bids = [b for hand in bids.values() for s, b in enumerate(hand) if s != seat]
        assert len(cpu_bids) == 6 and any(b != "nil" for b in cpu_bids), bids
        ann.close()
    finally:
        server.stop()
    log = server.log()
    assert "failed to decide" not in log and "Traceback" not in log, log[-3000:]


def _unfinal_constants(source: str) -> list[str]:
    """The module-level UPPER_CASE names ``source`` binds without a ``Final`` annotation."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "Final" in ast.unparse(node.annotation):
                continue
            names = [node.target.id]
        else:
            continue
        found += [n for n in names if n.lstrip("_").isupper() and n != "__all__"]
    return found


@pytest.mark.parametrize("module", BUILD_HOT_MODULES)
def test_hot_modules_constants_are_final(module: str) -> None:
    """Compiled, a module constant that is not ``Final`` is looked up in the module's dict at
    every use (the play path read ten of them per card); a ``Final`` one is a C static or,
    for a literal, inlined. Names imported from modules mypyc does not compile (the phases
    of ``spades.engine.phase``) are looked up the same way: the hot modules take them from
    ``spades.engine.handstate``, where they are finals."""
    source = (ROOT / "spades" / f"{module}.py").read_text()
    assert _unfinal_constants(source) == []
    if module != "engine/handstate":
        assert "from spades.engine.phase import" not in source.replace(
            "from spades.engine.phase import Phase\n", "")
        assert not any(f" {p}," in line or line.endswith(f" {p}")
                       for line in source.splitlines() if line.startswith("from spades.engine import")
                       for p in ("BID", "PLAY", "DEAL", "OVER"))
