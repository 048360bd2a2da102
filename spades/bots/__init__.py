"""CPU players. Build one with :func:`make_bot` from a spec ``level[:budget]``.

Levels (see :data:`LEVELS`): ``random``, ``beginner``, ``intermediate``, ``expert``,
``ismcts``, ``human:MODEL`` (a model of a person, :data:`HUMAN_MODELS`),
``cmd:PROGRAM ARGS`` for an external program (docs/bot-protocol.md), and
``py:MODULE:OBJECT`` for a Python class of your own. The budget of the search levels is a
number of iterations per decision (deterministic), or seconds with an ``s`` suffix
(``expert:0.8s``; not reproducible), or seconds of the deciding thread's CPU time with a
``cpu`` suffix (``expert:0.25cpu``: the same search per decision however busy the machine is,
for measuring bots at equal time on a shared machine). The expert adapts to the other seats during a match;
``:noadapt`` at the end of its spec (``expert:noadapt``, ``expert:0.5s:noadapt``,
``hard:noadapt``) turns that off. :data:`STRENGTHS` maps the user-facing CPU strengths to
specs.
"""

from __future__ import annotations

import math
from typing import Any

from spades.bots.base import Bot, RandomBot
from spades.bots.heuristic import BeginnerBot, IntermediateBot
from spades.bots.hints import Hint, hint
from spades.bots.human import HUMAN_MODELS, HumanBot
from spades.engine import Observation
from spades.engine.actions import whole_number

LEVELS = ("random", "beginner", "intermediate", "expert", "ismcts", "human")
#: The suffix that turns the expert's adaptation off.
NOADAPT = ":noadapt"

#: User-facing CPU strength → bot spec. The terminal and the server offer these names.
STRENGTHS: dict[str, str] = {
    "easy": "beginner",
    "normal": "intermediate",
    "hard": "expert:12",
    "expert": "expert",
}

DEFAULT_STRENGTH = "normal"


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec like ``random``, ``beginner``, ``expert:40``, ``expert:0.5s``,
    ``expert:0.5cpu``, ``expert:noadapt``, ``hard`` (a strength name), ``human:over``,
    ``cmd:python3 my_bot.py`` or ``py:my_bots:MyBot``.

    Every project bot (not a ``py:`` one, your own code) refuses in ``act`` what is not
    the observation of the seat to act (:func:`~spades.bots.base.check_turn`): a
    ``SpadesError`` (a ``ValueError``) naming the seat and whose turn it is, or a
    ``TypeError``.

    ``seed`` is a whole number of any integer type (numpy's are that int) or None (a seed
    of the system's randomness); anything else, a float or text, is a ``TypeError``."""
    if not isinstance(spec, str):
        raise TypeError(not_a_spec(spec, "a bot spec is text like 'expert' or "
                                         "'cmd:python3 my_bot.py'"))
    if seed is not None:
        number = whole_number(seed)
        if number is None:  # (1.5 or "x" seeded the bot all the same, another way)
            raise TypeError(f"seed: must be a whole number (or None), not {seed!r}"[:200])
        seed = number
    if spec.startswith("cmd:"):
        from spades.bots.external import ExternalBot

        return ExternalBot(spec[4:])
    if spec.startswith("py:"):
        return python_bot(spec, seed)
    adapt = True
    if spec.endswith(NOADAPT):
        adapt = False
        spec = spec[: -len(NOADAPT)]
    named, _, budget = spec.partition(":")  # as written: a strength is named before mapping
    if budget and named in STRENGTHS and named not in LEVELS:
        raise ValueError(_strength_budget(named, budget, adapt))
    if spec in STRENGTHS:
        spec = STRENGTHS[spec]
    level, _, budget = spec.partition(":")
    if not adapt and level != "expert":
        raise ValueError(f"{NOADAPT} applies to expert and hard only, not to {named!r}")
    if level == "human":
        if budget not in HUMAN_MODELS:
            raise ValueError(f"human:{budget} is not a model of a person; choose human:"
                             + ", human:".join(HUMAN_MODELS))
        return HumanBot(budget, seed)
    if level in ("random", "beginner", "intermediate") and budget:
        raise ValueError(f"level {level!r} takes no budget")
    if level == "random":
        return RandomBot(seed)
    if level == "beginner":
        return BeginnerBot(seed)
    if level == "intermediate":
        return IntermediateBot(seed)
    if level == "expert":
        from spades.bots.expert import ExpertBot

        return ExpertBot(seed, adapt=adapt, **parse_budget(budget, "worlds"))
    if level == "ismcts":
        from spades.bots.ismcts import IsmctsBot

        return IsmctsBot(seed, **parse_budget(budget, "iterations"))
    raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}, "
                     f"a strength ({', '.join(STRENGTHS)}), human:MODEL, cmd:PROGRAM or "
                     "py:MODULE:OBJECT")


def not_a_spec(spec: object, what: str) -> str:
    """Why ``spec`` is no spec: ``what`` a spec is, and for a bot object (or class) of the
    user's own, how a spec names it: ``py:MODULE:OBJECT``."""
    text = f"{what}, not {spec!r}"[:200]
    if callable(getattr(spec, "act", None)):
        name = getattr(spec, "__name__", type(spec).__name__)
        module = getattr(spec, "__module__", None) or type(spec).__module__
        text += (f"; a bot class of your own is named by where it is: "
                 f"'py:{module}:{name}' (docs/bots.md)")
    return text


def _strength_budget(strength: str, budget: str, adapt: bool) -> str:
    """Why ``strength:budget`` is refused, and what to write instead."""
    spec = STRENGTHS[strength]
    level = spec.partition(":")[0]
    why = f"{strength} is a strength ({spec}) and takes no budget; "
    if level not in ("expert", "ismcts"):
        return why + f"{level} has none"
    try:
        parse_budget(budget, "worlds")
    except ValueError:
        return why + (f"for the {level} with a budget of your own write {level}:N, "
                      f"{level}:Ss or {level}:Scpu")
    return why + (f"for the {level} with a budget of your own write {level}:{budget}"
                  + ("" if adapt else NOADAPT))


def python_bot(spec: str, seed: int | None = None) -> Bot:
    """``py:module:object``: ``object`` of the importable ``module`` (a class, or any
    callable) called with the seed; it must give a bot (``name`` and ``act(obs)``)."""
    import importlib
    import inspect

    module_name, _, attr = spec[3:].partition(":")
    if not module_name or not attr:
        raise ValueError(f"bad spec {spec!r}: write py:MODULE:OBJECT, like py:my_bots:MyBot")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"{spec}: cannot import module {module_name!r} ({exc}); is its "
                         "folder on PYTHONPATH?") from None
    factory: Any = module
    for part in attr.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise ValueError(f"{spec}: module {module_name!r} has no {attr!r}")
    if not callable(factory):
        raise ValueError(f"{spec}: {attr!r} is not a class or function")
    try:
        bot = factory(seed)
    except Exception as exc:
        raise ValueError(f"{spec}: {attr}(seed) failed ({type(exc).__name__}: {exc}); "
                         "OBJECT must be a class or function taking the seed and giving a "
                         "bot with act(obs)") from None
    act = getattr(bot, "act", None)
    if not callable(act):
        raise ValueError(f"{spec}: {attr}(seed) gave {type(bot).__name__}, which has no act(obs)")
    try:
        inspect.signature(act).bind(None)
    except TypeError:
        raise ValueError(f"{spec}: {attr}(seed) gave {type(bot).__name__}, whose act does not "
                         "take one observation, act(obs)") from None
    except ValueError:
        pass  # no signature to check (a built-in)
    if not isinstance(getattr(bot, "name", None), str):
        try:
            bot.name = spec
        except (AttributeError, TypeError, ValueError):  # __slots__, frozen dataclasses, models
            return _Named(bot, spec)
    return bot  # type: ignore[no-any-return]


class _Named:
    """A ``py:`` bot that has no ``name`` and cannot be given one (``__slots__``, a frozen
    dataclass): its spec is the name, everything else is the bot's own."""

    def __init__(self, bot: Any, name: str) -> None:
        self._bot = bot
        self.name = name

    def act(self, obs: Observation) -> int:
        return self._bot.act(obs)  # type: ignore[no-any-return]

    def __getattr__(self, attr: str) -> Any:  # see, close... as the bot has them
        if attr.startswith("__") or attr == "_bot":  # (copy and pickle ask before _bot is set)
            raise AttributeError(attr)
        return getattr(self._bot, attr)


def parse_budget(text: str, unit: str) -> dict[str, Any]:
    """``""`` → defaults; ``"40"`` → ``{unit: 40}``; ``"0.5s"`` → ``{"seconds": 0.5}``;
    ``"0.5cpu"`` → ``{"seconds": 0.5, "cpu": True}`` (CPU time of the deciding thread)."""
    if not text:
        return {}
    try:
        if text.endswith("cpu"):
            seconds = float(text[:-3])
            if not 0 < seconds < math.inf:  # also refuses nan
                raise ValueError
            return {"seconds": seconds, "cpu": True}
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds < math.inf:
                raise ValueError
            return {"seconds": seconds}
        count = int(text)
        if count < 1:
            raise ValueError
        return {unit: count}
    except ValueError:
        advice = ("" if ":" not in text
                  else "; write :noadapt last, like expert:40:noadapt" if "noadapt" in text
                  else "; a spec is LEVEL:BUDGET, then :noadapt for expert and hard")
        raise ValueError(f"bad budget {text!r}: a whole number of {unit}, or seconds like "
                         f"0.5s, or CPU seconds like 0.5cpu (more than 0, finite){advice}") from None


__all__ = ["DEFAULT_STRENGTH", "HUMAN_MODELS", "LEVELS", "NOADAPT", "STRENGTHS", "BeginnerBot", "Bot", "Hint",
           "HumanBot", "IntermediateBot", "RandomBot", "hint", "make_bot", "parse_budget"]
