"""CPU players and the expert's hint, through the :mod:`spades.bots` interface.

Levels that the installed bots do not offer yet fall back, visibly, to one that exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spades import bots
from spades.engine import BLIND_NIL, LOOK, Observation, card_name, is_play, suggested_bid
from spades.engine.actions import BID_BASE

#: The levels of the issue, weakest first.
LEVELS = ("random", "beginner", "intermediate", "expert", "ismcts")
DEFAULT_LEVEL = "intermediate"
#: What a level that is not installed yet raises when asked for.
_MISSING = (ValueError, KeyError, NotImplementedError, ImportError)
HINT_LEVEL = "expert"


def strengths() -> dict[str, str]:
    """Strength names → bot specs, as ``spades.bots.STRENGTHS`` offers them (if it does)."""
    table = getattr(bots, "STRENGTHS", None)
    if isinstance(table, dict):
        return {str(k): str(v) for k, v in table.items()}
    return {}


def known_levels() -> list[str]:
    names = list(LEVELS)
    for name in strengths():
        if name not in names:
            names.append(name)
    return names


def spec_of(level: str) -> str:
    return strengths().get(level, level)


def available(level: str) -> bool:
    try:
        bots.make_bot(spec_of(level), 0)
    except _MISSING:
        return False
    return True


def make_cpu(level: str, seed: int) -> tuple[bots.Bot, str]:
    """A bot of ``level`` (a level or strength name), or of the strongest weaker level that
    exists (else ``random``); an external program (``cmd:``) that cannot be run is replaced
    by the :data:`DEFAULT_LEVEL`, as one that fails during play is. Returns the bot and the
    level actually used."""
    order = list(LEVELS)
    candidates = [level]
    base = spec_of(level).partition(":")[0]
    if base in order:
        candidates += list(reversed(order[: order.index(base)]))
    else:
        candidates.append(DEFAULT_LEVEL)
    candidates.append("random")
    for name in candidates:
        try:
            return bots.make_bot(spec_of(name), seed), name
        except _MISSING:
            continue
    raise ValueError(f"no CPU level available for {level!r}")


def fallback_note(wanted: str, used: str, who: Sequence[str]) -> str:
    """What the table says when seats ``who`` cannot have the ``wanted`` level."""
    verb = "plays" if len(who) == 1 else "play"
    if wanted.startswith("cmd:"):
        return (f"The program {wanted[4:]!r} cannot be run: {' and '.join(who)} {verb} at "
                f"the {used} level instead.")
    return (f"The {wanted} CPU level is not available in this version yet: "
            f"{' and '.join(who)} {verb} at the {used} level instead.")


def hint(obs: Observation, names: Sequence[str] | None = None) -> tuple[int, str]:
    """The expert's suggestion for this observation, with its reason (seats named by
    ``names``)."""
    fn: Callable[..., Any] | None = getattr(bots, "hint", None)
    if fn is not None:
        found = fn(obs, names=names)
        if hasattr(found, "action"):  # a ``Hint`` record
            return int(found.action), str(getattr(found, "reason", ""))
        action, reason = found
        return int(action), str(reason)
    try:
        bot, level = make_cpu(HINT_LEVEL, 0)
    except ValueError:
        level = "random"
    if level == HINT_LEVEL:
        return bot.act(obs), "that is what the expert CPU would do"
    return _simple_hint(obs)


def _simple_hint(obs: Observation) -> tuple[int, str]:
    """A plain rule of thumb, used while the expert is not installed."""
    legal = obs.legal_actions
    note = " (a simple rule of thumb: the expert CPU is not available in this version)"
    if LOOK in legal:
        return LOOK, "Look at your cards before you decide" + note
    if obs.hand is not None and not is_play(legal[0]):
        want = suggested_bid(obs.hand, obs.rules)
        options = [a for a in legal if a != BLIND_NIL]
        best = min(options, key=lambda a: (abs(a - BID_BASE - want), a))
        return best, (f"Bid {text_bid(best)}: count your aces, guarded kings and long "
                      f"spades: about {want}" + note)
    cards = [a for a in legal if is_play(a)]
    if obs.trick:
        led = obs.trick[0][1]
        winning = max((c for _, c in obs.trick), key=lambda c: (c >= 39, c // 13 == led // 13, c))
        beats = [c for c in cards if _beats(c, winning, led)]
        if beats and len(obs.trick) == obs.rules.players - 1:
            choice = min(beats)
            return choice, f"Play the {card_name(choice)}: the lowest card that takes the trick" + note
        choice = min(cards, key=lambda c: (c >= 39, c % 13))
        return choice, f"Play the {card_name(choice)}: keep your strength, play low" + note
    choice = max((c for c in cards if c < 39), key=lambda c: c % 13, default=min(cards))
    return choice, f"Lead the {card_name(choice)}: your strongest side card" + note


def _beats(card: int, best: int, led: int) -> bool:
    def key(c: int) -> tuple[int, int]:
        return (2 if c >= 39 else 1 if c // 13 == led // 13 else 0, c)

    return key(card) > key(best)


def text_bid(action: int) -> str:
    return "nil" if action == BID_BASE else str(action - BID_BASE)
