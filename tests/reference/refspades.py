"""Independent reference implementation of the `spades-record/1` replay, for differential tests.

Written only from /work/shared/rules-profiles.md, the seed documents and the record spec.
Plain and slow on purpose: every rule is checked the obvious way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

FORMAT = "spades-record/1"
PRESETS = ("cardems", "cardgames-club", "race400", "game93", "cards4net")

Card = tuple[int, str]  # (rank, suit); jokers are spades of rank 15 (little) and 16 (big)
LJ: Card = (15, "S")
BJ: Card = (16, "S")
NIL = 0
BLIND_NIL = -1  # bids are ints: k >= 1 numeric, 0 Nil, -1 blind Nil

RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
RANKS = {name: rank for rank, name in RANK_NAMES.items()}
RANKS["10"] = 10
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
HARD_FROM = {3: 9, 4: 6, 5: 5, 6: 4}

# Knob values shared by every profile, then each profile's differences.
BASE_KNOBS: dict[str, Any] = {
    "target": 500, "match": "target", "nil": True, "blind_nil": False,
    "bag_limit": 10, "bag_penalty": 100, "bags_reset": False, "bidding": "standard",
    "ten_for_200": False, "jokers": False, "spades_break": "any",
    "failed_nil_tricks_count": False, "turn_timer": None, "timeout_penalty_bags": 1,
}
PROFILE_KNOBS: dict[str, dict[str, Any]] = {
    "cardems": {"failed_nil_tricks_count": True},
    "cardgames-club": {},
    "race400": {"target": 400},
    "game93": {"spades_break": "trump"},
    "cards4net": {"blind_nil": True, "spades_break": "trump", "bags_reset": True},
}
BOOL_KNOBS = ("nil", "blind_nil", "bags_reset", "ten_for_200", "jokers",
              "failed_nil_tricks_count")
ENUM_KNOBS = {"match": ("target", "one-hand"),
              "bidding": ("standard", "mirror", "suicide", "whiz"),
              "spades_break": ("any", "trump")}
# int knobs: name -> (minimum, may be null)
INT_KNOBS = {"players": (3, False), "target": (1, False), "bag_limit": (1, False),
             "bag_penalty": (0, False), "small_contract_bonus": (0, False),
             "hard_contract_from": (0, True), "turn_timer": (1, True),
             "timeout_penalty_bags": (0, False)}


class RecordError(Exception):
    """The record breaks a rule; the message is the whole error text."""


@dataclass(frozen=True)
class Rules:
    preset: str
    players: int
    target: int
    one_hand: bool
    nil: bool
    blind_nil: bool
    bag_limit: int
    bag_penalty: int
    bags_reset: bool
    bidding: str
    ten_for_200: bool
    jokers: bool
    trump_break: bool  # True: spades broken only by trumping; False: by any spade
    failed_nil_count: bool  # failed-nil tricks count toward the side's contract
    small_bonus: int
    hard_from: int | None
    turn_timer: int | None
    timeout_bags: int


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# ----------------------------------------------------------------------------- rules

def parse_rules(raw: object) -> tuple[str, dict[str, Any]]:
    """Return the preset name and the explicitly overridden knobs (validated)."""
    if isinstance(raw, str):
        raw = {"preset": raw}
    if not isinstance(raw, dict):
        raise RecordError("rules: must be a preset name or an object with a preset")
    preset = raw.get("preset")
    if preset not in PRESETS:
        raise RecordError(f"rules: unknown preset {preset!r}")
    overrides: dict[str, Any] = {}
    for name, value in raw.items():
        if name == "preset":
            continue
        if name in BOOL_KNOBS:
            if not isinstance(value, bool):
                raise RecordError(f"rules: {name} must be true or false")
        elif name in ENUM_KNOBS:
            if value not in ENUM_KNOBS[name]:
                raise RecordError(f"rules: {name} must be one of {', '.join(ENUM_KNOBS[name])}")
        elif name in INT_KNOBS:
            low, nullable = INT_KNOBS[name]
            if value is None and nullable:
                pass
            elif not is_int(value) or value < low:
                raise RecordError(f"rules: {name} must be an integer >= {low}"
                                  + (" or null" if nullable else ""))
            if name == "players" and value > 6:
                raise RecordError("rules: players must be 3 to 6")
        else:
            raise RecordError(f"rules: unknown knob {name!r}")
        overrides[name] = value
    return str(preset), overrides


def build_rules(preset: str, overrides: dict[str, Any], players: int) -> Rules:
    knobs = dict(BASE_KNOBS)
    knobs.update(PROFILE_KNOBS[preset])
    knobs.update(overrides)
    if "small_contract_bonus" in overrides:
        small = int(overrides["small_contract_bonus"])
    else:
        small = 20 if preset == "race400" and players in (3, 4) else 0
    if "hard_contract_from" in overrides:
        hard: int | None = overrides["hard_contract_from"]
    else:
        hard = HARD_FROM[players] if preset == "race400" else None
    rules = Rules(
        preset=preset, players=players, target=knobs["target"],
        one_hand=knobs["match"] == "one-hand", nil=knobs["nil"], blind_nil=knobs["blind_nil"],
        bag_limit=knobs["bag_limit"], bag_penalty=knobs["bag_penalty"],
        bags_reset=knobs["bags_reset"], bidding=knobs["bidding"],
        ten_for_200=knobs["ten_for_200"], jokers=knobs["jokers"],
        trump_break=knobs["spades_break"] == "trump",
        failed_nil_count=knobs["failed_nil_tricks_count"], small_bonus=small, hard_from=hard,
        turn_timer=knobs["turn_timer"], timeout_bags=knobs["timeout_penalty_bags"])
    if rules.bidding in ("suicide", "whiz") and not rules.nil:
        raise RecordError(f"rules: {rules.bidding} bidding needs Nil allowed")
    return rules


def parse_teams(raw: object, n: int, preset: str) -> list[list[int]]:
    if raw is None:
        if preset != "race400" and n == 4:
            return [[0, 2], [1, 3]]
        return [[seat] for seat in range(n)]
    if not isinstance(raw, list) or not all(isinstance(side, list) for side in raw):
        raise RecordError("record: teams must be a list of lists of seats")
    teams: list[list[int]] = []
    for side in raw:
        if not all(is_int(seat) for seat in side):
            raise RecordError("record: teams must be a list of lists of seats")
        teams.append([int(seat) for seat in side])
    seats = sorted(seat for side in teams for seat in side)
    if seats != list(range(n)):
        raise RecordError(f"record: teams must use each of the seats 0..{n - 1} exactly once")
    if len(teams) < 2 or len({len(side) for side in teams}) != 1 or len(teams[0]) not in (2, 3):
        raise RecordError("record: teams must be two or more equal sides of 2 or 3 players")
    for side in teams:
        for seat in side:
            if (seat + 1) % n in side:
                raise RecordError(f"record: teammates {seat} and {(seat + 1) % n} sit side by side")
    return teams


# ----------------------------------------------------------------------------- cards

def card_name(card: Card) -> str:
    if card == BJ:
        return "BJ"
    if card == LJ:
        return "LJ"
    return RANK_NAMES[card[0]] + card[1]


def parse_card(raw: object) -> Card | None:
    if not isinstance(raw, str):
        return None
    text = raw.strip().upper()
    if text == "BJ":
        return BJ
    if text == "LJ":
        return LJ
    rank, suit = text[:-1], text[-1:]
    if suit not in SUIT_NAMES or rank not in RANKS:
        return None
    return (RANKS[rank], suit)


def make_deck(players: int, jokers: bool) -> list[Card]:
    deck = [(rank, suit) for suit in "SHDC" for rank in range(2, 15)]
    if jokers:
        deck += [LJ, BJ]
    for two in [(2, "C"), (2, "D"), (2, "H"), (2, "S")][: len(deck) % players]:
        deck.remove(two)
    return deck


def trick_winner(trick: list[tuple[int, Card]]) -> int:
    """Seat that wins a full trick: highest spade (jokers included), else highest of the led suit."""
    led = trick[0][1][1]

    def strength(play: tuple[int, Card]) -> tuple[int, int]:
        rank, suit = play[1]
        return (2 if suit == "S" else 1 if suit == led else 0, rank)

    return max(trick, key=strength)[0]


# ----------------------------------------------------------------------------- bids

def parse_bid(raw: object) -> int | None:
    if is_int(raw):
        return raw if raw >= 0 else None
    if isinstance(raw, str):
        text = raw.strip().lower().replace(" ", "-").replace("_", "-")
        if text == "nil":
            return NIL
        if text == "blind-nil":
            return BLIND_NIL
    return None


def bid_problem(rules: Rules, bid: int, number: int, seat: int, held: list[Card],
                hand_size: int, bids_by_seat: dict[int, int], side: list[int]) -> str | None:
    """Why this bid (the `number`-th of the hand) by `seat` is illegal, or None."""
    spades = sum(1 for card in held if card[1] == "S")
    if bid == BLIND_NIL:
        if not rules.blind_nil or rules.bidding == "mirror":
            return "blind Nil is not allowed"
        if number != 1:
            return "blind Nil is only allowed as the first bid of the hand"
    elif bid > hand_size:
        return f"bid {bid} is more than the {hand_size} cards in hand"
    if rules.bidding == "mirror" and bid != spades:
        return f"mirror bidding: must bid the {spades} spades held" + (" (Nil)" if not spades else "")
    if rules.bidding == "whiz" and bid not in (NIL, BLIND_NIL, spades):
        return f"whiz bidding: must bid Nil or the {spades} spades held"
    if rules.bidding in ("standard", "suicide") and bid == NIL and not rules.nil:
        return "Nil is not allowed"
    if rules.bidding == "suicide":
        mates_bid = [bids_by_seat[m] for m in side if m != seat and m in bids_by_seat]
        mate_nil = any(b <= 0 for b in mates_bid)
        last_of_side = len(mates_bid) == len(side) - 1
        if mate_nil and bid <= 0:
            return "suicide bidding: a teammate already bid Nil, bid a number"
        if last_of_side and not mate_nil and bid > 0:
            return "suicide bidding: no teammate bid Nil, so this bid must be Nil"
    return None


# ----------------------------------------------------------------------------- scoring

def side_hand_result(rules: Rules, bids: list[int], tricks: list[int]) -> tuple[int, int]:
    """Points and new bags of one side for one complete hand, before bag penalties.

    `bids` and `tricks` are parallel lists, one entry per member of the side.
    """
    contract = sum(b for b in bids if b > 0)
    counted = sum(t for b, t in zip(bids, tricks, strict=True) if b > 0 or rules.failed_nil_count)
    value = 200 if rules.ten_for_200 and contract == 10 else 10 * contract
    points = bags = 0
    if counted >= contract:
        over = counted - contract
        points += value + over
        bags += over
        if contract in (1, 2) and over == 0:
            points += rules.small_bonus
        if rules.hard_from is not None and contract > rules.hard_from:
            points += 10 * (contract - rules.hard_from)
    else:
        points -= value
    for b, t in zip(bids, tricks, strict=True):
        if b <= 0:
            nil_value = 200 if b == BLIND_NIL else 100
            points += nil_value if t == 0 else -nil_value
            if not rules.failed_nil_count:
                points += t
                bags += t
    return points, bags


def settle_bags(rules: Rules, bags: int) -> tuple[int, int]:
    """Apply the bag penalty: (points change, bag counter afterwards)."""
    penalties = 0
    while bags >= rules.bag_limit:
        penalties += 1
        bags -= rules.bag_limit
    if rules.bags_reset and penalties:
        bags = 0
    return -rules.bag_penalty * penalties, bags


# ----------------------------------------------------------------------------- replay

def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Check a `spades-record/1` match record; return its result or {"error": ...}."""
    try:
        return _replay(record)
    except RecordError as err:
        return {"error": str(err)}


def _count_players(preset: str, overrides: dict[str, Any], hands: list[Any]) -> int:
    if "players" in overrides:
        return int(overrides["players"])
    if not hands:
        return 4
    first = hands[0]
    deal = first.get("deal") if isinstance(first, dict) else None
    if not isinstance(deal, list):
        raise RecordError("hand 1: deal must be a list of hands, one per seat")
    if preset == "race400" and not 3 <= len(deal) <= 6:
        raise RecordError(f"hand 1: deal has {len(deal)} hands; race400 is for 3 to 6 players")
    if preset != "race400" and len(deal) != 4:
        raise RecordError(f"hand 1: deal has {len(deal)} hands; {preset} is for 4 players")
    return len(deal)


def _check_deal(h: int, raw: object, rules: Rules, deck: list[Card]) -> list[list[Card]]:
    n = rules.players
    size = len(deck) // n
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(f"hand {h}: deal must list {n} hands, one per seat")
    seen: set[Card] = set()
    held: list[list[Card]] = []
    for seat, cards in enumerate(raw):
        if not isinstance(cards, list) or len(cards) != size:
            raise RecordError(f"hand {h}: seat {seat} must be dealt {size} cards")
        held.append([])
        for text in cards:
            card = parse_card(text)
            if card is None:
                raise RecordError(f"hand {h}: seat {seat}: cannot parse card {text!r}")
            if card not in deck:
                raise RecordError(f"hand {h}: card {card_name(card)} is not in the deck")
            if card in seen:
                raise RecordError(f"hand {h}: card {card_name(card)} is dealt twice")
            seen.add(card)
            held[seat].append(card)
    return held


def _check_timeouts(h: int, raw: object, rules: Rules, nbids: int,
                    nplays: int) -> tuple[set[int], set[int]]:
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise RecordError(f"hand {h}: timeouts must be a list")
    if raw and rules.turn_timer is None:
        raise RecordError(f"hand {h}: timeouts recorded but the turn timer is off")
    found: dict[str, set[int]] = {"bid": set(), "play": set()}
    limits = {"bid": nbids, "play": nplays}
    for entry in raw:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise RecordError(f"hand {h}: each timeout must be {{\"bid\": B}} or {{\"play\": P}}")
        kind, index = next(iter(entry.items()))
        if kind not in found or not is_int(index) or index < 1:
            raise RecordError(f"hand {h}: each timeout must be {{\"bid\": B}} or {{\"play\": P}}")
        if index > limits[kind]:
            raise RecordError(f"hand {h}: timeout on {kind} {index}, which was not made")
        if index in found[kind]:
            raise RecordError(f"hand {h}: timeout on {kind} {index} listed twice")
        found[kind].add(index)
    return found["bid"], found["play"]


def _time_out(rules: Rules, side: int, scores: list[int], bags: list[int],
              points: list[int]) -> None:
    """A move made on timeout: penalty bags at once, and the bag penalty if reached."""
    bags[side] += rules.timeout_bags
    penalty, bags[side] = settle_bags(rules, bags[side])
    scores[side] += penalty
    points[side] += penalty


def _replay(record: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise RecordError("record: must be an object")
    if "format" in record and record["format"] != FORMAT:
        raise RecordError(f"record: format must be {FORMAT!r}")
    if "rules" not in record:
        raise RecordError("rules: missing")
    preset, overrides = parse_rules(record["rules"])
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("record: hands must be a list")
    n = _count_players(preset, overrides, hands)
    rules = build_rules(preset, overrides, n)
    teams = parse_teams(record.get("teams"), n, preset)
    if rules.bidding == "suicide" and len(teams[0]) < 2:
        raise RecordError("rules: suicide bidding needs teams")
    side_of = {seat: k for k, side in enumerate(teams) for seat in side}
    deck = make_deck(n, rules.jokers)
    hand_size = len(deck) // n
    nsides = len(teams)

    scores = [0] * nsides
    bags = [0] * nsides
    finished = False
    winner: int | None = None
    results: list[dict[str, Any]] = []
    prev_dealer: int | None = None

    for h, hand in enumerate(hands, 1):
        if finished:
            raise RecordError(f"hand {h}: the match is already over")
        if not isinstance(hand, dict):
            raise RecordError(f"hand {h}: must be an object")
        dealer = hand.get("dealer")
        if not is_int(dealer) or not 0 <= dealer < n:
            raise RecordError(f"hand {h}: dealer must be a seat from 0 to {n - 1}")
        if prev_dealer is not None and dealer != (prev_dealer + 1) % n:
            raise RecordError(f"hand {h}: dealer must be seat {(prev_dealer + 1) % n}")
        prev_dealer = dealer
        held = _check_deal(h, hand.get("deal"), rules, deck)
        bids_raw = hand.get("bids", [])
        plays_raw = hand.get("plays", [])
        if not isinstance(bids_raw, list) or not isinstance(plays_raw, list):
            raise RecordError(f"hand {h}: bids and plays must be lists")
        timed_bids, timed_plays = _check_timeouts(h, hand.get("timeouts"), rules,
                                                  len(bids_raw), len(plays_raw))
        points = [0] * nsides

        # bidding
        bid_of: dict[int, int] = {}
        for b, raw in enumerate(bids_raw, 1):
            where = f"hand {h}, bid {b}"
            if b > n:
                raise RecordError(f"{where}: every player has already bid")
            seat = (dealer + b) % n
            bid = parse_bid(raw)
            if bid is None:
                raise RecordError(f"{where}: cannot parse bid {raw!r}")
            why = bid_problem(rules, bid, b, seat, held[seat], hand_size, bid_of,
                              teams[side_of[seat]])
            if why is not None:
                raise RecordError(f"{where}: seat {seat}: {why}")
            bid_of[seat] = bid
            if b in timed_bids:
                _time_out(rules, side_of[seat], scores, bags, points)

        # play
        tricks = [0] * n
        leader = (dealer + 1) % n
        trick: list[tuple[int, Card]] = []
        broken = False
        for p, raw in enumerate(plays_raw, 1):
            where = f"hand {h}, play {p}"
            if len(bid_of) < n:
                raise RecordError(f"{where}: bidding is not finished")
            if p > hand_size * n:
                raise RecordError(f"{where}: all {hand_size} tricks have been played")
            seat = (leader + len(trick)) % n
            card = parse_card(raw)
            if card is None:
                raise RecordError(f"{where}: cannot parse card {raw!r}")
            if card not in held[seat]:
                raise RecordError(f"{where}: seat {seat} does not hold {card_name(card)}")
            suit = card[1]
            if trick:
                led = trick[0][1][1]
                if suit != led and any(c[1] == led for c in held[seat]):
                    raise RecordError(f"{where}: seat {seat} must follow {SUIT_NAMES[led]}")
            elif suit == "S" and not broken and any(c[1] != "S" for c in held[seat]):
                raise RecordError(f"{where}: seat {seat} may not lead a spade before "
                                  "spades are broken")
            held[seat].remove(card)
            trick.append((seat, card))
            if suit == "S" and (not rules.trump_break or trick[0][1][1] != "S"):
                broken = True
            if p in timed_plays:
                _time_out(rules, side_of[seat], scores, bags, points)
            if len(trick) == n:
                leader = trick_winner(trick)
                tricks[leader] += 1
                trick = []

        if len(bid_of) < n or len(plays_raw) < hand_size * n:
            if h < len(hands):
                raise RecordError(f"hand {h}: incomplete, but it is not the last hand")
            break

        # scoring
        for k, side in enumerate(teams):
            gained, new_bags = side_hand_result(rules, [bid_of[s] for s in side],
                                                [tricks[s] for s in side])
            penalty, bags[k] = settle_bags(rules, bags[k] + new_bags)
            points[k] += gained + penalty
            scores[k] += gained + penalty
        results.append({"tricks": tricks, "points": points, "scores": list(scores),
                        "bags": list(bags)})
        top = max(scores)
        unique = scores.count(top) == 1
        if rules.one_hand:
            finished = True
            winner = scores.index(top) if unique else None
        elif unique and top >= rules.target:
            finished = True
            winner = scores.index(top)

    return {"hands": results, "scores": scores, "bags": bags, "finished": finished,
            "winner": winner}
