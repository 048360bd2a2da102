"""One fixed action space and a fixed-size observation vector, shared by every interface.

Actions (``NUM_ACTIONS`` = 74, the same for every profile and player count):

* ``0 .. 53``: play that card (``suit * 13 + rank``, 52 little joker, 53 big joker), as in
  :mod:`spades.engine.cards`;
* ``54 + n`` for ``n`` in ``0 .. 17``: bid ``n`` tricks (``54`` is Nil);
* ``72``: bid Blind Nil; ``73``: look at the cards instead.

The observation of a seat is a ``float32`` vector of ``64 + 136 * N`` numbers for ``N``
players (608 for four). Seats in it are *relative*: block ``r`` is the seat ``r`` places to
the observer's left (``r = 0`` is the observer). See docs/learn.md for the layout, which
:func:`layout` also returns.

Only numpy is needed here; the engine stays free of it.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from spades.engine import Match, Observation, Rules, RulesError
from spades.engine.actions import BID_BASE, BLIND_NIL, LOOK
from spades.engine.cards import SUIT_OF
from spades.engine.match import BID, OVER, PLAY

NUM_CARDS = 54
MAX_BID = 17
BID_OFFSET = 54
BLIND_NIL_ACTION = BID_OFFSET + MAX_BID + 1  # 72
LOOK_ACTION = BLIND_NIL_ACTION + 1  # 73
NUM_ACTIONS = LOOK_ACTION + 1  # 74

#: Scores are divided by this and clipped to ``±SCORE_CLIP`` in the vector.
SCORE_UNIT = 100.0
SCORE_CLIP = 20.0
BID_FIELDS = MAX_BID + 3  # one-hot 0..17, blind, has bid
FLAGS = 6

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def check_fits(rules: Rules) -> None:
    """Refuse rules whose hands hold more cards than the action space bids (``MAX_BID``):
    only three players with jokers (18 cards each). A :class:`RulesError` (a ``ValueError``)
    naming the knob, when an environment or game is built."""
    if rules.hand_size > MAX_BID:
        raise RulesError(
            f"jokers: {rules.players} players with jokers hold {rules.hand_size} cards each, "
            f"and spades.learn's fixed action space bids 0 to {MAX_BID} only: play "
            f"{rules.players} players without jokers, or 4 to 6 players with them")


def as_action(action: object) -> int:
    """``action`` as a Python int if it is a whole number: an ``int`` or a numpy integer
    (anything ``operator.index`` takes), never a bool. Floats (even ``55.0``), strings and
    the rest raise ``TypeError`` saying what an action is; the range is not checked here."""
    if isinstance(action, bool | np.bool_):
        raise TypeError(f"an action is a whole number 0 to {NUM_ACTIONS - 1}, not a bool")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"an action is a whole number 0 to {NUM_ACTIONS - 1} (an int or a numpy "
                        f"integer), not a {type(action).__name__}") from None


def to_engine(action: int) -> int:
    """An action of the fixed space as the engine's action id (``TypeError`` if it is not a
    whole number, see :func:`as_action`; ``ValueError`` if it is outside the space)."""
    action = as_action(action)
    if 0 <= action < NUM_CARDS:
        return action
    if BID_OFFSET <= action <= BID_OFFSET + MAX_BID:
        return BID_BASE + action - BID_OFFSET
    if action == BLIND_NIL_ACTION:
        return BLIND_NIL
    if action == LOOK_ACTION:
        return LOOK
    raise ValueError(f"action {action!r} is outside the action space 0 to {NUM_ACTIONS - 1}")


def from_engine(action: int) -> int:
    """The engine's action id as an action of the fixed space (``TypeError`` if it is not
    a whole number, ``ValueError`` if the space has no place for it)."""
    if type(action) is not int:
        try:
            action = as_action(action)
        except TypeError:
            raise TypeError(f"an engine action is a whole number (a card 0 to 53, a bid "
                            f"{BID_BASE} to {BID_BASE + MAX_BID}, {BLIND_NIL} blind nil or "
                            f"{LOOK} look), not a {type(action).__name__}") from None
    if 0 <= action < NUM_CARDS:
        return action
    if BID_BASE <= action <= BID_BASE + MAX_BID:
        return BID_OFFSET + action - BID_BASE
    if action == BLIND_NIL:
        return BLIND_NIL_ACTION
    if action == LOOK:
        return LOOK_ACTION
    raise ValueError(f"engine action {action!r} has no place in the fixed action space")


def vector_size(players: int) -> int:
    return NUM_CARDS + 4 + FLAGS + _per_seat() * players


def _per_seat() -> int:
    # played + trick + bids + tricks, cards left, mine, dealer, leader, to act, score, bags
    return 2 * NUM_CARDS + BID_FIELDS + 8


def layout(players: int) -> list[tuple[str, int, int]]:
    """``(name, start, length)`` of every block of the vector, in order, for 3 to 6
    ``players`` (anything else: ``ValueError``)."""
    if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
        raise ValueError(f"players: a whole number 3 to 6, not {players!r}"[:200])
    n = players
    blocks = [
        ("hand", NUM_CARDS),
        ("played", NUM_CARDS * n),
        ("trick", NUM_CARDS * n),
        ("led_suit", 4),
        ("bids", BID_FIELDS * n),
        ("tricks", n),
        ("cards_left", n),
        ("my_side", n),
        ("dealer", n),
        ("leader", n),
        ("to_act", n),
        ("score", n),
        ("bags", n),
        ("flags", FLAGS),
    ]
    out = []
    start = 0
    for name, length in blocks:
        out.append((name, start, length))
        start += length
    return out


def bounds(players: int) -> tuple[Vector, Vector]:
    """Low and high of every number of the vector (scores may be negative)."""
    size = vector_size(players)
    low = np.zeros(size, np.float32)
    high = np.ones(size, np.float32)
    for name, start, length in layout(players):
        if name == "score":
            low[start:start + length] = -SCORE_CLIP
            high[start:start + length] = SCORE_CLIP
    return low, high


def seat_plays(match: Match) -> list[tuple[int, int]]:
    """``(seat, card)`` of every card played in the current hand, in order."""
    if not match.log or match.phase not in (BID, PLAY):
        return []
    n = match.n
    leader = (match.log[-1].dealer + 1) % n
    out: list[tuple[int, int]] = []
    winners = match.trick_winners
    count = 0
    for a in match.log[-1].actions:
        if a >= BID_BASE:
            continue
        out.append(((leader + count) % n, a))
        count += 1
        if count == n:
            leader = winners[len(out) // n - 1]
            count = 0
    return out


def played_by_seat(match: Match) -> list[int]:
    """Card mask per seat of the cards it has played this hand."""
    masks = [0] * match.n
    for seat, card in seat_plays(match):
        masks[seat] |= 1 << card
    return masks


_BITS = 56  # 7 bytes per card mask


def _unpack(masks: Sequence[int]) -> npt.NDArray[np.uint8]:
    raw = b"".join(m.to_bytes(7, "little") for m in masks)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
    return bits.reshape(len(masks), _BITS)[:, :NUM_CARDS].ravel()


_ORDERS: dict[tuple[int, int], tuple[list[int], list[int]]] = {}


def _orders(n: int, seat: int) -> tuple[list[int], list[int]]:
    """Seats in relative order from ``seat``, and each seat's relative position."""
    key = (n, seat)
    if key not in _ORDERS:
        _ORDERS[key] = ([(seat + r) % n for r in range(n)], [(s - seat) % n for s in range(n)])
    return _ORDERS[key]


def _card_bits(masks: Sequence[int], count: int) -> npt.NDArray[np.uint8]:
    """The masks laid end to end, ``NUM_CARDS`` bits each, as 0/1 bytes."""
    big = 0
    shift = 0
    for m in masks:
        big |= m << shift
        shift += NUM_CARDS
    raw = big.to_bytes((shift + 7) // 8, "little")
    return np.unpackbits(np.frombuffer(raw, np.uint8), count=count, bitorder="little")


def encode(match: Match, seat: int, played_by: Sequence[int] | None = None) -> Vector:
    """The observation vector of ``seat`` (see the module docstring and docs/learn.md).

    ``played_by`` (cards played per seat this hand) may be passed when the caller keeps it;
    otherwise it is worked out from the match's log. ``match`` that is not a
    :class:`Match` is a ``TypeError``, ``seat`` that is not one of its seats a
    ``ValueError``.
    """
    if not isinstance(match, Match):
        name = type(match).__name__
        raise TypeError(f"encode takes a Match (encode_observation takes an Observation), "
                        f"not {'an' if name[:1] in 'AEIOU' else 'a'} {name}")
    n = match.n
    if type(seat) is not int or not 0 <= seat < n:  # (a numpy integer is that int)
        try:
            index = as_action(seat)
        except TypeError:
            index = -1
        if not 0 <= index < n:
            raise ValueError(f"seat: a seat from 0 to {n - 1}, not {seat!r}"[:200])
        seat = index
    phase = match.phase
    live = phase in (BID, PLAY)
    if played_by is None:
        played_by = played_by_seat(match)
    order, rel = _orders(n, seat)
    masks = [match.hands[seat] if live and match.looked[seat] else 0]
    if live:
        masks += [played_by[s] for s in order]
    else:
        masks += [0] * n
    trick_by = [0] * n
    led = -1
    if phase == PLAY and match.trick:
        leader = match.leader
        for i, card in enumerate(match.trick):
            trick_by[(leader + i) % n] = 1 << card
        led = match.led
    masks += [trick_by[s] for s in order]
    count = NUM_CARDS * (2 * n + 1)
    tail = [0.0] * (4 + BID_FIELDS * n + 8 * n + FLAGS)
    if led >= 0:
        tail[led] = 1.0
    side_of = match.side_of
    if live:
        bids = match.bids
        blind = match.blind
        at = 4
        for s in order:
            b = bids[s]
            if b >= 0:
                tail[at + b] = 1.0
                if blind[s]:
                    tail[at + MAX_BID + 1] = 1.0
                tail[at + MAX_BID + 2] = 1.0
            at += BID_FIELDS
    base = 4 + BID_FIELDS * n
    mine = side_of[seat]
    scores = match.scores
    bags = match.bags
    limit = match.rules.bag_limit
    size = match.hand_size
    hands = match.hands
    tricks = match.tricks
    for r, s in enumerate(order):
        k = side_of[s]
        if live:
            tail[base + r] = tricks[s] / size
            tail[base + n + r] = hands[s].bit_count() / size
        if k == mine:
            tail[base + 2 * n + r] = 1.0
        score = scores[k] / SCORE_UNIT
        tail[base + 6 * n + r] = (score if -SCORE_CLIP <= score <= SCORE_CLIP
                                  else SCORE_CLIP if score > 0 else -SCORE_CLIP)
        bag = bags[k] / limit
        tail[base + 7 * n + r] = bag if bag < 1.0 else 1.0
    tail[base + 3 * n + rel[match.dealer]] = 1.0
    flags = base + 8 * n
    if phase == PLAY:
        tail[base + 4 * n + rel[match.leader]] = 1.0
        tail[flags + 2] = 1.0
    elif phase == BID:
        tail[flags + 1] = 1.0
    elif phase == OVER:
        tail[flags + 3] = 1.0
    if live:
        tail[base + 5 * n + rel[match.turn]] = 1.0
        if match.broken:
            tail[flags] = 1.0
        if not match.looked[seat]:
            tail[flags + 4] = 1.0
    number = match.hand_number / 20.0
    tail[flags + 5] = number if number < 1.0 else 1.0
    out = np.empty(count + len(tail), np.float32)
    out[:count] = _card_bits(masks, count)
    out[count:] = tail
    return out


_MASKS: dict[int | tuple[int, ...], Mask] = {}


def _cached_mask(key: int | tuple[int, ...]) -> Mask:
    mask = _MASKS.get(key)
    if mask is None:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if isinstance(key, int):
            raw = key.to_bytes(7, "little")
            mask[:NUM_CARDS] = np.unpackbits(np.frombuffer(raw, np.uint8), count=NUM_CARDS,
                                             bitorder="little")
        else:
            for a in key:
                mask[from_engine(a)] = 1
        if len(_MASKS) > 100_000:
            _MASKS.clear()
        _MASKS[key] = mask
    return mask.copy()


def action_mask(match: Match, seat: int) -> Mask:
    """1 for every action ``seat`` may take now (all 0 when it is not its turn)."""
    if match.current_player != seat:
        return np.zeros(NUM_ACTIONS, np.int8)
    if match.phase == PLAY:
        return _cached_mask(match.legal_cards_mask())
    return _cached_mask(match.legal_actions())


def legal_actions(match: Match) -> list[int]:
    """The legal actions of the player to act, in the fixed space, ascending."""
    return [from_engine(a) for a in match.legal_actions()]


def encode_observation(obs: Observation) -> Vector:
    """The same vector as :func:`encode`, from a seat's :class:`Observation` (what a bot is
    given), so a policy trained in the environments can play through a bot spec.
    Anything else is a ``TypeError`` (``encode(match, seat)`` takes a match)."""
    if not isinstance(obs, Observation):
        raise TypeError(f"encode_observation takes an Observation (match.observation(seat); "
                        f"encode(match, seat) takes a Match), not a {type(obs).__name__}")
    rules = obs.rules
    n = rules.players
    seat = obs.seat
    order = [(seat + r) % n for r in range(n)]
    rel = [(s - seat) % n for s in range(n)]
    live = obs.phase == BID or obs.phase == PLAY
    played_by = [0] * n
    for s, card in obs.plays:
        played_by[s] |= 1 << card
    trick_by = [0] * n
    for s, card in obs.trick:
        trick_by[s] = 1 << card
    masks = [obs.hand or 0 if live else 0]
    masks.extend(played_by[s] if live else 0 for s in order)
    masks.extend(trick_by[s] for s in order)
    cards = _unpack(masks)
    size = rules.hand_size
    tail: list[float] = [0.0] * (4 + BID_FIELDS * n + 8 * n + FLAGS)
    if obs.phase == PLAY and obs.trick:
        tail[SUIT_OF[obs.trick[0][1]]] = 1.0
    base = 4
    if live:
        for r, s in enumerate(order):
            b = obs.bids[s]
            if b is not None:
                at = base + BID_FIELDS * r
                tail[at + b] = 1.0
                if obs.blind[s]:
                    tail[at + MAX_BID + 1] = 1.0
                tail[at + MAX_BID + 2] = 1.0
    base += BID_FIELDS * n
    side_of = rules.side_of
    mine = side_of[seat]
    for r, s in enumerate(order):
        k = side_of[s]
        if live:
            tail[base + r] = obs.tricks[s] / size
            tail[base + n + r] = obs.hand_sizes[s] / size
        tail[base + 2 * n + r] = 1.0 if k == mine else 0.0
        tail[base + 6 * n + r] = max(-SCORE_CLIP, min(SCORE_CLIP, obs.scores[k] / SCORE_UNIT))
        tail[base + 7 * n + r] = min(1.0, obs.bags[k] / rules.bag_limit)
    tail[base + 3 * n + rel[obs.dealer]] = 1.0
    if obs.phase == PLAY:
        tail[base + 4 * n + rel[obs.leader]] = 1.0
    if live and obs.current_player >= 0:
        tail[base + 5 * n + rel[obs.current_player]] = 1.0
    base += 8 * n
    tail[base] = 1.0 if live and obs.spades_broken else 0.0
    tail[base + 1] = 1.0 if obs.phase == BID else 0.0
    tail[base + 2] = 1.0 if obs.phase == PLAY else 0.0
    tail[base + 3] = 1.0 if obs.phase == OVER else 0.0
    tail[base + 4] = 1.0 if live and obs.hand is None else 0.0
    tail[base + 5] = min(1.0, obs.hand_number / 20.0)
    out = np.empty(vector_size(n), np.float32)
    k = len(cards)
    out[:k] = cards
    out[k:] = tail
    return out


def observation_mask(obs: Observation) -> Mask:
    """The action mask of a seat's :class:`Observation` (its legal actions)."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for a in obs.legal_actions:
        mask[from_engine(a)] = 1
    return mask
