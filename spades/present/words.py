"""English helpers every presentation module uses: a count with its noun, a list joined
with "and". Below :mod:`~spades.present.rules`, :mod:`~spades.present.sheet` and
:mod:`~spades.present.narrate`, which all say things with them."""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str) -> str:
    """``1 bag``, ``2 bags``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
