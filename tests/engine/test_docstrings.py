"""The examples in the library's docstrings (what ``help()`` shows a newcomer) run and print
what they say, and end: an example that plays a match is stopped after a bounded number of
actions instead of running for ever. Every public method and property of the classes
``spades.engine`` and ``spades.bots`` export has a docstring, and every ``to_json`` names
the fields it writes."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
import sys
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
    if spec.name in sys.modules:  # run once: (a compiled module's classes, each asked)
        return sys.modules[spec.name]
    source = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = source  # (dataclasses look their module up there)
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


def _public_classes() -> list[tuple[str, type]]:
    """(name as help() shows it, class) of every class the engine and the bots export."""
    import spades.bots

    found = []
    for package in (spades.engine, spades.bots):
        for name in package.__all__:
            thing = getattr(package, name)
            if isinstance(thing, type):
                found.append((f"{package.__name__}.{name}", thing))
    return found


def _undocumented(cls: type) -> list[str]:
    """The public methods and properties of ``cls`` (its own and those it inherits from a
    spades class) without a docstring, read from their source modules."""
    missing = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("spades"):
            continue
        source = getattr(source_module(klass.__module__), klass.__name__, klass)
        for attr, value in vars(source).items():
            if attr.startswith("_"):
                continue
            func = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if callable(func) and not isinstance(func, type) and not (func.__doc__ or "").strip():
                missing.append(f"{klass.__qualname__}.{attr}")
    return missing


@pytest.mark.parametrize(("name", "cls"), _public_classes(), ids=[n for n, _ in _public_classes()])
def test_every_public_method_says_what_it_does(name: str, cls: type) -> None:
    # The events' to_json (13 of them), SideHand.to_json, HandResult.to_json, Rules.hand_size,
    # Observation.sides and the bots' act showed no word in help().
    assert not _undocumented(cls), f"{name}: no docstring on {', '.join(_undocumented(cls))}"


def _blank(cls: type) -> Any:
    """An instance of a frozen dataclass of the engine with zeros, falses and empties."""
    import dataclasses

    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind = str(f.type)
        values[f.name] = (None if kind.endswith("| None") else () if kind.startswith("tuple")
                          else False if kind == "bool" else 0)
    return cls(**values)


def _json_values() -> list[tuple[str, Any]]:
    """(name, a value with a to_json) for every kind of value the engine writes as JSON."""
    import random

    from spades.bots import Hint
    from spades.engine import EVENT_TYPES, SideHand

    match = Match(spades.engine.profile("cardems"), rng=random.Random(1))
    while not match.results:
        match.apply(match.legal_actions()[0])
    values: list[tuple[str, Any]] = [(cls.__name__, _blank(cls)) for cls in EVENT_TYPES]
    return values + [("SideHand", _blank(SideHand)), ("HandResult", match.results[0]),
                     ("Observation", match.observation(0)), ("Hint", Hint(0, "why"))]


@pytest.mark.parametrize(("name", "value"), _json_values(), ids=[n for n, _ in _json_values()])
def test_every_to_json_names_the_fields_it_writes(name: str, value: Any) -> None:
    # The events' to_json had no docstring: help() did not say what the JSON looks like.
    source = getattr(source_module(type(value).__module__), type(value).__name__)
    doc = source.to_json.__doc__ or ""
    unnamed = [key for key in value.to_json() if not re.search(rf"\b{key}\b", doc)]
    assert not unnamed, f"{name}.to_json's docstring does not name {unnamed}"
