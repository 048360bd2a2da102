"""The score sheet, now in :mod:`spades.present.sheet` (presentation shared by the apps lives
below them); this name stays importable."""

from __future__ import annotations

from spades.present.sheet import SEAT_NAMES_4, bag_warning, score_sheet, seat_name, side_name

__all__ = ["SEAT_NAMES_4", "bag_warning", "score_sheet", "seat_name", "side_name"]
