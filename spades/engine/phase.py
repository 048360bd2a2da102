"""The phases of a match, as an enum whose members are also the strings ``"deal"``,
``"bid"``, ``"play"`` and ``"over"`` (so ``match.phase == "bid"`` and JSON keep working)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a match stands: waiting for a deal, bidding, playing, or over."""

    DEAL = "deal"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


DEAL, BID, PLAY, OVER = Phase.DEAL, Phase.BID, Phase.PLAY, Phase.OVER

__all__ = ["BID", "DEAL", "OVER", "PLAY", "Phase"]
