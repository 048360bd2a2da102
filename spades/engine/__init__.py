"""The pure Spades engine: cards, rules profiles, the match state machine, its events,
scoring, records.

No I/O, no clock, no global random. The modules import one another without a cycle:
``errors``, ``cards``, ``actions``, ``rules``, ``scoring``, ``phase``, ``hands``, ``events``,
``observation``, ``handstate``, ``record_format``, then ``match``, then ``records``.

The hot modules (``actions``, ``cards``, ``handstate``, ``match``, ``scoring``, and the
search's ``spades.bots.policy``, ``infer``, ``adapt`` and ``solve``) are normally compiled with mypyc at
install (see setup.py). An editable install keeps the compiled modules
next to their sources, so this package checks the build's stamp first: if any hot source
changed since the build, all the hot modules load from their pure Python sources (never a
mix) and one warning says so. ``BUILD`` is ``compiled`` or ``pure``; ``BUILD_NOTE`` says why
the engine is pure ("" when compiled).
"""

from spades.engine._build import BUILD, BUILD_NOTE
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
from spades.engine.events import (
    EVENT_TYPES,
    BagWarning,
    BiddingClosed,
    BidMade,
    CardPlayed,
    ContractDecided,
    Event,
    HandDealt,
    HandScored,
    LookedAtCards,
    MatchOver,
    NilDecided,
    SideHand,
    SpadesBroken,
    TimedOut,
    TrickWon,
)
from spades.engine.hands import HandLog, HandResult
from spades.engine.handstate import HandState, public_voids
from spades.engine.match import CHANCE, TERMINAL, Match, suggested_bid
from spades.engine.observation import Observation, unseen_cards
from spades.engine.phase import BID, DEAL, OVER, PLAY, Phase
from spades.engine.records import FORMAT as RECORD_FORMAT
from spades.engine.records import replay, summary, to_record
from spades.engine.rules import PROFILE_OPTIONS, PROFILES, Rules, profile, rules_from_json
from spades.engine.scoring import SideScore

__all__ = [
    "BID",
    "BID_BASE",
    "BIG_JOKER",
    "BLIND_NIL",
    "BUILD",
    "BUILD_NOTE",
    "CHANCE",
    "DEAL",
    "EVENT_TYPES",
    "LITTLE_JOKER",
    "LOOK",
    "NIL",
    "OVER",
    "PLAY",
    "PROFILES",
    "PROFILE_OPTIONS",
    "RECORD_FORMAT",
    "TERMINAL",
    "BagWarning",
    "BidMade",
    "BiddingClosed",
    "CardError",
    "CardPlayed",
    "ContractDecided",
    "Event",
    "HandDealt",
    "HandLog",
    "HandResult",
    "HandScored",
    "HandState",
    "IllegalAction",
    "LookedAtCards",
    "Match",
    "MatchOver",
    "NilDecided",
    "Observation",
    "Phase",
    "RecordError",
    "Rules",
    "RulesError",
    "SideHand",
    "SideScore",
    "SpadesBroken",
    "SpadesError",
    "TimedOut",
    "TrickWon",
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
    "public_voids",
    "replay",
    "rules_from_json",
    "sorted_for_display",
    "suggested_bid",
    "summary",
    "to_record",
    "unseen_cards",
]
