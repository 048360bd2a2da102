"""The pure Spades engine: cards, rules profiles, the match state machine, scoring, records.

No I/O, no clock, no global random.
"""

from spades.engine.actions import (
    BID_BASE,
    BLIND_NIL,
    LOOK,
    NIL,
    action_name,
    action_str,
    bid_action,
    bid_value,
    is_bid,
    is_play,
    parse_action,
    parse_bid,
)
from spades.engine.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    card_name,
    card_str,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    sorted_for_display,
)
from spades.engine.errors import CardError, IllegalAction, RecordError, RulesError, SpadesError
from spades.engine.match import (
    BID,
    CHANCE,
    DEAL,
    OVER,
    PLAY,
    TERMINAL,
    HandLog,
    HandResult,
    Match,
    suggested_bid,
)
from spades.engine.observation import Observation, unseen_cards
from spades.engine.records import FORMAT as RECORD_FORMAT
from spades.engine.records import replay, summary, to_record
from spades.engine.rules import PROFILE_OPTIONS, PROFILES, Rules, profile, rules_from_json

__all__ = [
    "BID",
    "BID_BASE",
    "BIG_JOKER",
    "BLIND_NIL",
    "CHANCE",
    "DEAL",
    "LITTLE_JOKER",
    "LOOK",
    "NIL",
    "OVER",
    "PLAY",
    "PROFILES",
    "PROFILE_OPTIONS",
    "RECORD_FORMAT",
    "TERMINAL",
    "CardError",
    "HandLog",
    "HandResult",
    "IllegalAction",
    "Match",
    "Observation",
    "RecordError",
    "Rules",
    "RulesError",
    "SpadesError",
    "action_name",
    "action_str",
    "bid_action",
    "bid_value",
    "card_name",
    "card_str",
    "card_symbol",
    "cards_of",
    "is_bid",
    "is_play",
    "mask_of",
    "parse_action",
    "parse_bid",
    "parse_card",
    "profile",
    "replay",
    "rules_from_json",
    "sorted_for_display",
    "suggested_bid",
    "summary",
    "to_record",
    "unseen_cards",
]
