"""Presentation shared by the apps (terminal, server, page, command line): words for events,
the score sheet and the rules. Pure text from engine values: no I/O.

Imports point inward: the engine is below, the apps above.
"""

from spades.present.narrate import Narrator, seat_names
from spades.present.rules import deck_sentence
from spades.present.sheet import bag_warning, score_sheet, seat_name, side_name

__all__ = ["Narrator", "bag_warning", "deck_sentence", "score_sheet", "seat_name", "seat_names",
           "side_name"]
