"""Match records, format ``spades-record/1`` (see docs/records.md): export and replay.

:func:`replay` checks every step of a record against the rules and returns the
:class:`Match` it describes; a broken record raises :class:`RecordError` whose message says
where (``hand 2, play 17: ...``) and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spades.engine.actions import BLIND_NIL, LOOK, parse_bid
from spades.engine.cards import card_str, parse_card
from spades.engine.errors import RecordError, SpadesError
from spades.engine.events import Event
from spades.engine.match import Match
from spades.engine.phase import BID, DEAL, OVER
from spades.engine.record_format import FORMAT, record_of, rules_json
from spades.engine.rules import Rules, rules_from_json


def to_record(match: Match, **extra: Any) -> dict[str, Any]:
    """The match as a record. ``extra`` fields (``players`` names, ``id``...) are added."""
    return record_of(match.rules, match.log, **extra)


def record_rules(record: Any) -> Rules:
    """The rules a record is played under (its ``rules``, ``teams`` and the number of hands
    in its first deal), its format checked. Raises :class:`RecordError`."""
    if not isinstance(record, Mapping):
        raise RecordError("record: must be a JSON object")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"record: format must be {FORMAT!r}, not {fmt!r}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError('record: "hands" must be a list')
    players = None
    if hands and isinstance(hands[0], Mapping) and isinstance(hands[0].get("deal"), list):
        players = len(hands[0]["deal"])
    try:
        return rules_from_json(record.get("rules"), record.get("teams"), players)
    except SpadesError as exc:
        if players is not None and _fits_without_deal(record):
            # The rules are fine; the first deal has the wrong number of hands.
            raise RecordError(f"hand 1: deal: {players} hands do not fit the rules: {exc}") from None
        raise RecordError(f"rules: {exc}") from None


def replay(record: Any, *, events: bool = False, into: list[Event] | None = None) -> Match:
    """The match a record describes, every step checked. Raises :class:`RecordError`.
    With ``events``, the match has recorded every event of the record in ``match.events``
    (see :mod:`spades.engine.events`); ``into`` is a list that receives them as they
    happen instead, so that the events before a broken step are kept."""
    rules = record_rules(record)
    hands = record["hands"]
    events = events or into is not None
    match: Match | None = None
    for h, hand in enumerate(hands, start=1):
        where = f"hand {h}"
        if not isinstance(hand, Mapping):
            raise RecordError(f"{where}: must be an object with dealer, deal, bids and plays")
        if match is not None and match.phase == OVER:
            raise RecordError(f"{where}: the match was already over")
        if match is not None and match.phase != DEAL:
            raise RecordError(f"hand {h - 1}: the hand is not complete, yet hand {h} follows")
        dealer = hand.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
            raise RecordError(f"{where}: dealer must be a seat from 0 to {rules.players - 1}")
        if match is None:
            match = Match(rules, dealer=dealer, events=events)
            if into is not None:
                match.events = into
        elif dealer != match.dealer:
            raise RecordError(f"{where}: the dealer must be seat {match.dealer} "
                              f"(one seat clockwise of the last), not {dealer}")
        try:
            match.deal(_parse_deal(hand.get("deal"), rules))
        except SpadesError as exc:
            raise RecordError(f"{where}: deal: {exc}") from None
        _replay_hand(match, hand, where)
    if match is None:
        match = Match(rules, events=events)
        if into is not None:
            match.events = into
    return match


def _fits_without_deal(record: Mapping[str, Any]) -> bool:
    try:
        rules_from_json(record.get("rules"), record.get("teams"), None)
    except SpadesError:
        return False
    return True


def _parse_deal(deal: Any, rules: Rules) -> list[int]:
    if not isinstance(deal, list):
        raise SpadesError("must be a list of the cards of each seat")
    masks = []
    for seat, cards in enumerate(deal):
        if not isinstance(cards, list):
            raise SpadesError(f"seat {seat}: must be a list of cards")
        m = 0
        for c in cards:
            try:
                bit = 1 << parse_card(c)
            except SpadesError as exc:
                raise SpadesError(f"seat {seat}: {exc}") from None
            if m & bit:
                raise SpadesError(f"seat {seat}: {card_str(bit.bit_length() - 1)} is listed twice")
            m |= bit
        masks.append(m)
    return masks


def _replay_hand(match: Match, hand: Mapping[str, Any], where: str) -> None:
    bids = hand.get("bids", [])
    plays = hand.get("plays", [])
    if not isinstance(bids, list) or not isinstance(plays, list):
        raise RecordError(f"{where}: bids and plays must be lists")
    timed = _parse_timeouts(hand.get("timeouts", []), where)
    for b, value in enumerate(bids, start=1):
        at = f"{where}, bid {b}"
        if match.phase != BID:
            raise RecordError(f"{at}: all {match.n} players have already bid")
        try:
            action = parse_bid(value)
            if ("bid", b) in timed:
                match.apply_timeout(action)
                continue
            if not match.looked[match.turn] and action != BLIND_NIL:
                match.apply(LOOK)
            match.apply(action)
        except SpadesError as exc:
            raise RecordError(f"{at}: {exc}") from None
    if plays and match.phase == BID:
        raise RecordError(f"{where}, play 1: bidding is not over ({len(bids)} of {match.n} bids)")
    total = match.n * match.hand_size
    for p, value in enumerate(plays, start=1):
        at = f"{where}, play {p}"
        if p > total:
            raise RecordError(f"{at}: the hand has only {total} plays")
        try:
            card = parse_card(value)
            if ("play", p) in timed:
                match.apply_timeout(card)
            else:
                match.apply(card)
        except SpadesError as exc:
            raise RecordError(f"{at}: {exc}") from None


def _parse_timeouts(value: Any, where: str) -> set[tuple[str, int]]:
    out = set()
    if not isinstance(value, list):
        raise RecordError(f'{where}: timeouts must be a list like [{{"bid": 2}}, {{"play": 17}}]')
    for item in value:
        if (not isinstance(item, Mapping) or len(item) != 1
                or next(iter(item)) not in ("bid", "play")
                or not isinstance(next(iter(item.values())), int)):
            raise RecordError(f'{where}: bad timeout {item!r}; use {{"bid": B}} or {{"play": P}}')
        kind, index = next(iter(item.items()))
        out.add((kind, index))
    return out


def summary(match: Match) -> dict[str, Any]:
    """The ``spades replay --json`` line for a replayed match."""
    return {
        "hands": [r.to_json() for r in match.results],
        "scores": list(match.scores),
        "bags": list(match.bags),
        "finished": match.is_over(),
        "winner": match.winner,
    }


__all__ = ["FORMAT", "record_rules", "replay", "rules_json", "summary", "to_record"]
