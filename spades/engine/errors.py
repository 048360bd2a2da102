"""The engine's exceptions (every one a :class:`SpadesError`, itself a ``ValueError``), and
:func:`check_flag`, which refuses a flag argument that is not ``True`` or ``False``."""

from __future__ import annotations


class SpadesError(ValueError):
    """Base class of the engine's errors for bad input: a value that is no card, action,
    rule or record, an illegal action. An argument of the wrong kind (a profile name where
    :class:`~spades.engine.rules.Rules` are due, a match where an observation is) is a
    ``TypeError`` instead."""


class CardError(SpadesError):
    """A value that is no card: text that reads as none (:func:`parse_card`), a number
    outside 0 to 53 (:func:`card_str`), a negative card mask; also text that is no action
    (:func:`parse_action`)."""


class RulesError(SpadesError):
    """A rules object that cannot be built: unknown profile or knob, or an impossible combination."""


class IllegalAction(SpadesError):
    """An action that is not allowed now. The state is unchanged."""


class RecordError(SpadesError):
    """A match record that cannot be read or replayed. ``str()`` says where and why."""


def check_flag(name: str, value: object) -> bool:
    """``value`` if it is ``True`` or ``False``; else a ``TypeError`` naming the argument
    and what it got (``events must be True or False, not 'yes'``): a flag given ``"yes"``,
    ``1`` or ``None`` is a mistake, not a truthy choice."""
    if isinstance(value, bool):
        return value
    raise TypeError(f"{name} must be True or False, not {value!r}"[:200])
