"""CPU players. Build one with :func:`make_bot` from a level name (see :data:`LEVELS`)."""

from __future__ import annotations

from spades.bots.base import Bot, RandomBot


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec like ``random``, ``beginner``, ``expert:0.5`` (level[:budget])."""
    level, _, _budget = spec.partition(":")
    if level == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot level {level!r}")


__all__ = ["Bot", "RandomBot", "make_bot"]
