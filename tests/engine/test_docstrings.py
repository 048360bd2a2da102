"""The examples in the library's docstrings (what ``help()`` shows a newcomer) run and print
what they say, and end: an example that plays a match is stopped after a bounded number of
actions instead of running for ever."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import spades.engine
from spades.engine import Match

#: Modules whose docstrings hold ``>>>`` examples (the learn ones need the learn extra and
#: are run by tests/learn).
MODULES = ["spades.engine.match", "spades.engine.rules", "spades.present.narrate",
           "spades.present.rules"]

#: More actions than any one-hand example takes (a whole cardems match is a few thousand).
MAX_ACTIONS = 20_000


class BoundedMatch:
    """A :class:`Match` for an example, which refuses to play on past :data:`MAX_ACTIONS`:
    an example whose loop never ends fails instead of hanging the suite."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._match = Match(*args, **kwargs)
        self._actions = 0

    def apply(self, action: object) -> None:
        self._actions += 1
        if self._actions > MAX_ACTIONS:
            raise AssertionError(f"the example played {MAX_ACTIONS} actions and goes on "
                                 f"(hand {self._match.hand_number}, scores "
                                 f"{self._match.scores}): it never ends")
        self._match.apply(action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._match, name)


def source_module(module_name: str) -> ModuleType:
    """The module, or, compiled (mypyc keeps no module docstring), its source run as a
    module of its own: the examples are those of the source, which ``help()`` shows in the
    pure build."""
    module = importlib.import_module(module_name)
    if str(module.__file__).endswith(".py"):
        return module
    path = Path(str(module.__file__)).with_name(module_name.rsplit(".", 1)[1] + ".py")
    spec = importlib.util.spec_from_file_location(module_name + "_source", path)
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    return source


def run_doctests(module_name: str, monkeypatch: pytest.MonkeyPatch) -> doctest.TestResults:
    monkeypatch.setattr(spades.engine, "Match", BoundedMatch)
    return doctest.testmod(source_module(module_name), raise_on_error=True, verbose=False)


@pytest.mark.parametrize("module_name", MODULES)
def test_the_docstring_examples_run_and_end(module_name: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    result = run_doctests(module_name, monkeypatch)
    assert result.attempted > 0, f"{module_name} has no example any more: update MODULES"
    assert result.failed == 0


def _entry_points() -> list[tuple[str, str]]:
    """(what help() shows, the module that defines it)."""
    return [("Match.is_over", "spades.engine.match"), ("Match.is_legal", "spades.engine.match"),
            ("is_bid", "spades.engine.actions"), ("is_play", "spades.engine.actions"),
            ("Bot.act", "spades.bots.base"), ("Hint.to_json", "spades.bots.hints")]


@pytest.mark.parametrize(("name", "module_name"), _entry_points(),
                         ids=[n for n, _ in _entry_points()])
def test_the_main_entry_points_say_what_they_do_in_help(name: str, module_name: str) -> None:
    # help(Match) showed is_over and is_legal, help(spades.bots.Bot) its act, with no word.
    # (Read from the source: the compiled build keeps no docstrings; docs/engine.md.)
    thing: object = source_module(module_name)
    for part in name.split("."):
        thing = getattr(thing, part)
    assert (getattr(thing, "__doc__", None) or "").strip(), f"{name} has no docstring"
