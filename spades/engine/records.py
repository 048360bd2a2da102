"""Match records, format ``spades-record/1`` (see docs/records.md): export and replay.

:func:`replay` checks every step of a record against the rules and returns the
:class:`Match` it describes; a broken record raises :class:`RecordError` whose message says
where (``hand 2, play 17: ...``) and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from difflib import get_close_matches
from os import PathLike
from typing import Any

from spades.engine.actions import BLIND_NIL, LOOK, parse_bid
from spades.engine.cards import card_str, parse_card
from spades.engine.errors import RecordError, SpadesError, check_flag
from spades.engine.events import Event
from spades.engine.match import Match
from spades.engine.phase import BID, DEAL, OVER
from spades.engine.record_format import FORMAT, record_of, rules_json
from spades.engine.rules import Rules, rules_from_json, shown

#: Error messages longer than this are cut (a record's text may be echoed in them).
MAX_MESSAGE = 500


def to_record(match: Match, **extra: Any) -> dict[str, Any]:
    """The match as a record, as :meth:`Match.to_record`. ``extra`` fields (``id``,
    ``names``...) are added."""
    if not isinstance(match, Match):
        raise TypeError(f"to_record takes a Match, not {shown(match)}")
    return record_of(match.rules, match.log, **extra)


def record_rules(record: Any) -> Rules:
    """The rules a record is played under (its ``rules``, ``teams`` and the number of hands
    in its first deal), its format checked. Raises :class:`RecordError`."""
    if not isinstance(record, Mapping):
        raise RecordError(f"record: must be a JSON object, not {shown(record)}"
                          f"{_unparsed(record)}")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"record: format must be {FORMAT!r}, not {shown(fmt)}")
    missing = [f'"{field}"' for field in ("rules", "hands") if field not in record]
    if missing:  # said as missing, not as "not null": nothing in the file says null
        raise RecordError(f"record: {' and '.join(missing)} "
                          f"{'is' if len(missing) == 1 else 'are'} missing: a record gives its "
                          'rules (a profile name such as "cardems", or an object) and its hands '
                          "(a list, [] before the first deal)")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError(f'record: "hands" must be a list, not {shown(hands)}')
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


def _unparsed(record: object) -> str:
    """Advice for a record given as a file or as the text of one (a file name, JSON text,
    bytes, a path, an open file), which no JSON value in a record file is; else ""."""
    text = record.strip() if isinstance(record, str) else ""
    if (text.startswith("{") or text.endswith((".json", ".jsonl"))
            or isinstance(record, (bytes, bytearray, PathLike)) or hasattr(record, "read")):
        return " (replay takes the record parsed: json.load(file) or json.loads(text))"
    return ""


def replay(record: Any, *, events: bool = False, into: list[Event] | None = None) -> Match:
    """The match a record describes, every step checked.

    Any JSON value either replays or raises :class:`RecordError`, whose one-line message
    starts with where (``record:``, ``rules:``, ``hand 2:``, ``hand 2, play 17:``) and says
    why; nothing else is raised. With ``events``, the match has recorded every event of the
    record in ``match.events`` (see :mod:`spades.engine.events`); ``into`` is a list that
    receives them as they happen instead, so that the events before a broken step are
    kept. ``events`` that is not ``True`` or ``False``, or ``into`` that is not a list (or
    None), is a ``TypeError`` naming it."""
    check_flag("events", events)
    if into is not None and not isinstance(into, list):
        raise TypeError(f"into must be a list (the events are appended to it) or None, "
                        f"not {into!r}"[:200])
    try:
        return _replay(record, events, into)
    except RecordError as exc:
        message = " ".join(str(exc).split())  # one line, whatever the record held
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE - 3] + "..."
        raise RecordError(message) from None


def _replay(record: Any, events: bool, into: list[Event] | None) -> Match:
    rules = record_rules(record)
    hands = record["hands"]
    events = events or into is not None
    match: Match | None = None
    for h, hand in enumerate(hands, start=1):
        where = f"hand {h}"
        if not isinstance(hand, Mapping):
            raise RecordError(f"{where}: must be an object with dealer, deal, bids and plays, "
                              f"not {shown(hand)}")
        if match is not None and match.phase == OVER:
            raise RecordError(f"{where}: the match was already over")
        if match is not None and match.phase != DEAL:
            raise RecordError(f"hand {h - 1}: the hand is not complete, yet hand {h} follows")
        unknown = [k for k in hand if k not in HAND_FIELDS]
        if unknown:
            raise RecordError(f"{where}: {_unknown_field(unknown[0])}")
        missing = [f'"{field}"' for field in ("dealer", "deal") if field not in hand]
        if missing:  # (said as missing, not as "not null", like the record's own fields)
            raise RecordError(f"{where}: {' and '.join(missing)} "
                              f"{'is' if len(missing) == 1 else 'are'} missing: a hand gives "
                              "its dealer's seat and its deal (the cards of each seat)")
        dealer = hand.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
            raise RecordError(f"{where}: dealer must be a seat from 0 to {rules.players - 1}, "
                              f"not {shown(dealer)}")
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


#: The fields of a hand (docs/records.md); any other is refused, so that a misspelt one
#: ("timeout") is not replayed as if it were absent, giving another score.
HAND_FIELDS = ("dealer", "deal", "bids", "plays", "timeouts", "looked")


def _unknown_field(key: object) -> str:
    near = get_close_matches(key, HAND_FIELDS, n=1) if isinstance(key, str) else []
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return (f"{shown(key)}: unknown field{hint}; a hand has {', '.join(HAND_FIELDS[:-1])} "
            f"and {HAND_FIELDS[-1]}")


def _fits_without_deal(record: Mapping[str, Any]) -> bool:
    try:
        rules_from_json(record.get("rules"), record.get("teams"), None)
    except SpadesError:
        return False
    return True


def _parse_deal(deal: Any, rules: Rules) -> list[int]:
    if not isinstance(deal, list):
        raise SpadesError(f"must be a list of the cards of each seat, not {shown(deal)}")
    masks = []
    for seat, cards in enumerate(deal):
        if not isinstance(cards, list):
            raise SpadesError(f"seat {seat}: must be a list of cards, not {shown(cards)}")
        m = 0
        for c in cards:
            if not isinstance(c, str):
                raise SpadesError(f"seat {seat}: a card must be text like 'AS', not {shown(c)}")
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
        raise RecordError(f"{where}: bids and plays must be lists, not "
                          f"{shown(bids if not isinstance(bids, list) else plays)}")
    timed = _parse_timeouts(hand.get("timeouts", []), where, len(bids), len(plays))
    for b, value in enumerate(bids, start=1):
        at = f"{where}, bid {b}"
        if match.phase != BID:
            raise RecordError(f"{at}: all {match.n} players have already bid")
        try:
            action = _parse_bid(value)
            if ("bid", b) in timed:
                match.apply_timeout(action)
                continue
            if not match.looked[match.turn] and action != BLIND_NIL:
                match.apply(LOOK)
            match.apply(action)
        except SpadesError as exc:
            raise RecordError(f"{at}: {exc}") from None
    looked = hand.get("looked", False)
    if looked is not False:
        if looked is not True:
            raise RecordError(f"{where}: looked must be true or false, not {shown(looked)}")
        if plays or match.phase != BID or match.looked[match.turn]:
            raise RecordError(f"{where}: looked: only a hand cut where the seat to bid has "
                              "looked at its cards, before its bid, may say so")
        match.apply(LOOK)
    if plays and match.phase == BID:
        raise RecordError(f"{where}, play 1: bidding is not over ({len(bids)} of {match.n} bids)")
    total = match.n * match.hand_size
    for p, value in enumerate(plays, start=1):
        at = f"{where}, play {p}"
        if p > total:
            raise RecordError(f"{at}: the hand has only {total} plays")
        try:
            if not isinstance(value, str):
                raise SpadesError(f"a card must be text like 'AS', not {shown(value)}")
            card = parse_card(value)
            if ("play", p) in timed:
                match.apply_timeout(card)
            else:
                match.apply(card)
        except SpadesError as exc:
            raise RecordError(f"{at}: {exc}") from None


def _parse_bid(value: Any) -> int:
    if not isinstance(value, (int, str)):
        raise SpadesError(f"{shown(value)} is not a bid: use a number, 'nil' or 'blind-nil'")
    try:
        return parse_bid(value)
    except SpadesError:
        raise
    except ValueError:  # text of digits that int() refuses (too long, not ASCII)
        raise SpadesError(f"{shown(value)} is not a bid: use a number, 'nil' or 'blind-nil'") \
            from None


def _parse_timeouts(value: Any, where: str, bids: int, plays: int) -> set[tuple[str, int]]:
    """The hand's timeouts as ``("bid", B)`` and ``("play", P)``, each naming one of the
    hand's ``bids`` or ``plays`` (counted from 1), once."""
    out: set[tuple[str, int]] = set()
    if not isinstance(value, list):
        raise RecordError(f'{where}: timeouts must be a list like [{{"bid": 2}}, {{"play": 17}}], '
                          f'not {shown(value)}')
    for item in value:
        index = next(iter(item.values())) if isinstance(item, Mapping) and len(item) == 1 else None
        if (not isinstance(item, Mapping) or len(item) != 1
                or next(iter(item)) not in ("bid", "play")
                or not isinstance(index, int) or isinstance(index, bool)):
            raise RecordError(f'{where}: bad timeout {shown(item)}; use {{"bid": B}} or '
                              f'{{"play": P}}')
        kind = next(iter(item))
        count = bids if kind == "bid" else plays
        if not 1 <= index <= count:
            raise RecordError(f'{where}: timeout {{"{kind}": {index}}}: the hand has no {kind} '
                              f"{index} (its {kind}s are 1 to {count})" if count else
                              f'{where}: timeout {{"{kind}": {index}}}: the hand has no {kind}s')
        if (kind, index) in out:
            raise RecordError(f'{where}: timeout {{"{kind}": {index}}} is listed twice')
        out.add((kind, index))
    return out


def record_names(record: Mapping[str, Any], players: int) -> list[str]:
    """The players' names a record gives (``names``, or ``players`` as the arena writes
    them), one per seat: printable text cut to 24 characters, ``""`` where there is none.
    Names are not checked: anything else in those fields is ignored."""
    given = record.get("names") or record.get("players")
    if not isinstance(given, list):
        given = []
    out = []
    for seat in range(players):
        name = given[seat] if seat < len(given) else None
        text = "".join(ch for ch in name[:200] if ch.isprintable()) if isinstance(name, str) else ""
        out.append(" ".join(text.split())[:24])
    return out


def summary(match: Match) -> dict[str, Any]:
    """The ``spades replay --json`` line for a replayed match."""
    if not isinstance(match, Match):
        what = f"a {type(match).__name__}" if isinstance(match, Mapping) else shown(match)
        raise TypeError(f"summary takes a Match (replay(record) gives one), not {what}")
    return {
        "hands": [r.to_json() for r in match.results],
        "scores": list(match.scores),
        "bags": list(match.bags),
        "finished": match.is_over(),
        "winner": match.winner,
    }


__all__ = ["FORMAT", "record_names", "record_rules", "replay", "rules_json", "summary",
           "to_record"]
