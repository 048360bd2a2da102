"""Shared helpers for the bot tests."""

from __future__ import annotations

from spades.bots.base import Bot
from spades.engine import Match


def play_hand(match: Match, bots: list[Bot]) -> None:
    """Play until the current hand is scored (every action is checked by the engine)."""
    hands = len(match.results)
    while not match.is_over() and len(match.results) == hands:
        seat = match.current_player
        obs = match.observation(seat)
        action = bots[seat].act(obs)
        assert action in obs.legal_actions, (bots[seat].name, action, obs.legal_actions)
        match.apply(action)
