"""Spades: rules engine, CPU players, and the apps that play them.

The engine (:mod:`spades.engine`) is pure; bots (:mod:`spades.bots`) build on it; the
terminal, server and web apps build on both.

The top level offers the library's main entry points (docs/engine.md, "The top level"):
play a match (:class:`Match`, :func:`profile`, :class:`Rules`, :class:`Observation`), read
and write records (:func:`replay`, :func:`to_record`, :func:`summary`), spell cards and
actions (:func:`card_str`, :func:`parse_card`, :func:`action_str`, :func:`action_name`,
:func:`parse_action`), the engine's errors, and the CPU players (:func:`make_bot`,
:class:`Bot`, :func:`hint`, :class:`Hint`) and the arena (:func:`run_arena`,
:class:`ArenaConfig`). ``import spades`` loads the engine only: the bots load when one of
their names is first used. Everything else is in :mod:`spades.engine` and :mod:`spades.bots`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spades.engine import (
    IllegalAction,
    Match,
    Observation,
    RecordError,
    Rules,
    RulesError,
    SpadesError,
    action_name,
    action_str,
    card_name,
    card_str,
    parse_action,
    parse_card,
    profile,
    replay,
    summary,
    to_record,
)

if TYPE_CHECKING:  # for type checkers and IDEs; at run time __getattr__ loads them on first use
    from spades.bots import Bot, Hint, hint, make_bot
    from spades.bots.arena import ArenaConfig, run_arena

__version__ = "0.1.0"

#: The names loaded on first use, and their modules: the bots, which import the search.
_LAZY = {
    "Bot": "spades.bots",
    "Hint": "spades.bots",
    "hint": "spades.bots",
    "make_bot": "spades.bots",
    "ArenaConfig": "spades.bots.arena",
    "run_arena": "spades.bots.arena",
}

__all__ = [
    "ArenaConfig",
    "Bot",
    "Hint",
    "IllegalAction",
    "Match",
    "Observation",
    "RecordError",
    "Rules",
    "RulesError",
    "SpadesError",
    "__version__",
    "action_name",
    "action_str",
    "card_name",
    "card_str",
    "hint",
    "make_bot",
    "parse_action",
    "parse_card",
    "profile",
    "replay",
    "run_arena",
    "summary",
    "to_record",
]

if not TYPE_CHECKING:  # (hidden from type checkers, which would take any name for Any)

    def __getattr__(name: str) -> Any:
        """A name of :data:`_LAZY`, imported from its module on first use."""
        home = _LAZY.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(home), name)
        globals()[name] = value  # the next use finds it without asking again
        return value


def __dir__() -> list[str]:
    """The module's names, the ones still to load included."""
    return sorted(set(globals()) | set(_LAZY))
