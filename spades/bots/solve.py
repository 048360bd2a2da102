"""The exact end of a hand: alpha-beta search over every play, for the expert's last tricks.

Compiled with mypyc at install with the other hot modules (setup.py).
"""

from __future__ import annotations

from spades.engine.cards import cards_of_int
from spades.engine.handstate import PLAY, HandState


def solve(s: HandState, side: int, bag_weight: float, rel: float = 1.0) -> float:
    """Exact value of the rest of the hand for ``side`` (its seats maximize, the other
    seats minimize), by alpha-beta search over every play."""
    return _alphabeta(s, side, -1e9, 1e9, bag_weight, rel)


def _alphabeta(s: HandState, side: int, alpha: float, beta: float, bag_weight: float,
               rel: float) -> float:
    if s.phase is not PLAY:
        return s.utility(side, bag_weight, rel)
    cards = cards_of_int(s.legal_mask())
    maximize = s.side_of[s.turn] == side
    if maximize:
        value = -1e9
        for c in reversed(cards):
            child = s.clone()
            child.play_int(c)
            value = max(value, _alphabeta(child, side, alpha, beta, bag_weight, rel))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = 1e9
    for c in cards:
        child = s.clone()
        child.play_int(c)
        value = min(value, _alphabeta(child, side, alpha, beta, bag_weight, rel))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value
