"""The engine's exceptions. Every one is a :class:`SpadesError`, itself a ``ValueError``."""

from __future__ import annotations


class SpadesError(ValueError):
    """Base class of every error the engine raises for bad input."""


class CardError(SpadesError):
    """Text that is not a card."""


class RulesError(SpadesError):
    """A rules object that cannot be built: unknown profile or knob, or an impossible combination."""


class IllegalAction(SpadesError):
    """An action that is not allowed now. The state is unchanged."""


class RecordError(SpadesError):
    """A match record that cannot be read or replayed. ``str()`` says where and why."""
