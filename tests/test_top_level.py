"""``import spades`` offers the library's main entry points (docs/engine.md, "The top
level"): every name of ``spades.__all__`` is there, documented, in ``dir(spades)`` and known
to type checkers, and importing ``spades`` stays cheap: the bots load on first use, and no
app (server, terminal, store, web framework) at all."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import spades
from tests.engine.test_docstrings import source_module

ROOT = Path(__file__).resolve().parents[1]

#: Where each name of the top level comes from.
HOMES = {
    "spades.engine": ["Match", "Observation", "Rules", "profile", "replay", "summary",
                      "to_record", "action_name", "action_str", "parse_action", "card_name",
                      "card_str", "parse_card", "SpadesError", "IllegalAction", "RecordError",
                      "RulesError"],
    "spades.bots": ["make_bot", "hint", "Hint", "Bot"],
    "spades.bots.arena": ["ArenaConfig", "run_arena"],
}


def test_the_main_entry_points_are_at_the_top() -> None:
    # spades.__all__ was Match, Observation, Rules and profile: a library user looked for
    # replay, make_bot and hint there, as the README and the guides use them.
    names = [n for names in HOMES.values() for n in names]
    assert sorted(spades.__all__) == sorted([*names, "__version__"])
    for home, names in HOMES.items():
        module = importlib.import_module(home)
        for name in names:
            assert getattr(spades, name) is getattr(module, name), name


@pytest.mark.parametrize("name", [n for n in spades.__all__ if n != "__version__"])
def test_every_top_level_name_resolves_and_says_what_it_is(name: str) -> None:
    thing = getattr(spades, name)
    assert name in dir(spades)
    module = source_module(thing.__module__)  # (compiled, the docstrings are the source's)
    assert (getattr(module, name, thing).__doc__ or "").strip(), f"spades.{name} has no docstring"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"^module 'spades' has no attribute 'nosuch'$"):
        spades.nosuch  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(spades, "hints")  # a module of spades.bots, not a name of the top


def _modules_after(code: str) -> set[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(*sorted(sys.modules))"],
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    return set(done.stdout.split())


#: What ``import spades`` must not load: the apps and their frameworks.
HEAVY = ("spades.server", "spades.tui", "spades.store", "spades.cli", "spades.learn", "fastapi",
         "starlette", "uvicorn", "pydantic", "sqlalchemy", "numpy")


def test_importing_spades_loads_the_engine_only() -> None:
    loaded = _modules_after("import spades")
    assert "spades.engine.match" in loaded
    assert not {m for m in loaded if m.startswith("spades.bots")}, "the bots load on first use"
    assert not {m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}
    loaded = _modules_after("import spades\nspades.make_bot\nspades.run_arena")
    assert "spades.bots.arena" in loaded
    assert not {m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}


def test_a_users_script_type_checks_against_the_top_level(tmp_path: Path) -> None:
    # The lazy names are declared for type checkers: their types are known (not Any), and a
    # name that is not there is an error.
    pytest.importorskip("mypy")
    (tmp_path / "my_script.py").write_text(textwrap.dedent('''
        import spades

        bot: spades.Bot = spades.make_bot("random", 1)
        cfg = spades.ArenaConfig(a="random", b="beginner", rules=spades.profile("cardems"), deals=1)
        match: spades.Match = spades.replay(spades.to_record(spades.Match.new(cfg.rules, 1)))
        wrong: str = spades.hint(match.observation(match.current_player))
        spades.nosuch
    '''), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MYPYPATH"] = str(ROOT)  # as README.md says for a clone
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
         str(tmp_path / "cache"), "my_script.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [e.split(": error:")[0] for e in errors] == ["my_script.py:7", "my_script.py:8"], (
        done.stdout + done.stderr)
    assert 'has type "Hint"' in errors[0] and '"nosuch"' in errors[1]
