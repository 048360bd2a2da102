"""Scoring a hand, side by side. Pure functions of the rules and the hand's results."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from spades.engine._pickling import by_fields
from spades.engine.actions import whole_number
from spades.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class SideScore:
    """How one side scored one hand (before the bag penalty is added in)."""

    contract: int
    contract_tricks: int
    made: bool
    contract_points: int
    bonus_points: int
    nil_points: int
    new_bags: int
    penalties: int  # number of bag penalties paid at the end of the hand
    points: int  # everything together, bag penalties included
    overtricks: int = 0  # tricks above a made contract (in ``contract_points``)
    loose_tricks: int = 0  # failed-nil tricks outside the contract: +1 point and 1 bag each
    blind_nil_points: int = 0  # the part of ``nil_points`` that blind nil bids scored

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        """Pickle and copy by calling the class (compiled, the default cannot rebuild a
        frozen dataclass: see :mod:`spades.engine._pickling`)."""
        return by_fields(self)


def apply_bags(rules: Rules, bags: int) -> tuple[int, int]:
    """Settle a bag counter: ``(bags left, penalties paid)``."""
    if bags < rules.bag_limit:
        return bags, 0
    penalties = bags // rules.bag_limit
    return (0 if rules.bags_reset else bags % rules.bag_limit), penalties


def bags_to_warn(rules: Rules, bags: int) -> int:
    """Seed 004's warning "within three bags of the next penalty": how many bags are left
    before it (1 to 3), or 0 when there is nothing to warn of. A side with no bags is not
    warned, even when the limit is 3 or less: it would be warned every hand; nor is any side
    when a penalty costs nothing."""
    left = rules.bag_limit - bags
    return left if bags > 0 and rules.bag_penalty > 0 and 0 < left <= 3 else 0


def _no_entry(seat: int, bids: Sequence[int], blind: Sequence[bool],
              tricks: Sequence[int]) -> str:
    """Why ``score_side`` cannot score ``seat``: a list without its entry."""
    short = ", ".join(f"{len(v)} {name}" for name, v in
                      (("bids", bids), ("blind", blind), ("tricks", tricks))
                      if not 0 <= seat < len(v))
    return (f"seat {seat}: bids, blind and tricks are by seat (bids[s] for seat s), and "
            f"{short} hold no entry for it"[:200])


def score_side(
    rules: Rules,
    seats: Sequence[int],
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags_before: object,
) -> tuple[SideScore, int]:
    """Score one side's hand: its ``seats``, and ``bids``, ``blind`` and ``tricks`` by seat
    (``bids[s]`` is seat ``s``'s bid, 0 for Nil). Returns the score and the side's bag
    counter after the hand (penalties already settled). Rules that are not a
    :class:`Rules`, seats that are no list of seats, lists without an entry for one of the
    seats, or ``bags_before`` that is no whole number, are refused by name.
    (``bags_before`` is typed ``object`` so that the compiled build says so too; the
    engine's own hands call :func:`score_side_int`.)"""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, like profile('cardems'), not {rules!r}"[:200])
    given: object = seats  # (typed as given: compiled, a narrowed name is cast)
    side: list[int] = []
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise TypeError(f"seats must be the side's seats, like [0, 2], not {given!r}"[:200])
    for seat in given:
        number = whole_number(seat)
        if number is None:
            raise TypeError(f"seats must be the side's seats, like [0, 2], not {given!r}"[:200])
        side.append(number)
    for values in (bids, blind, tricks):
        shown: object = values
        if isinstance(shown, (str, bytes)) or not isinstance(shown, Sequence):
            raise TypeError(f"bids, blind and tricks must be lists by seat, like [3, 1, 3, "
                            f"1], not {shown!r}"[:200])
        for s in side:
            if not 0 <= s < len(values):
                raise ValueError(_no_entry(s, bids, blind, tricks))
    bags = whole_number(bags_before)
    if bags is None:
        raise TypeError(f"bags_before must be a whole number (the side's bags before the "
                        f"hand), not {bags_before!r}"[:200])
    return score_side_int(rules, side, bids, blind, tricks, bags)


def nil_score(rules: Rules, blind: bool, tricks: int) -> int:
    """What one Nil bid scores (a Blind Nil with ``blind``): its worth if its bidder took no
    trick (``tricks``), else that much off."""
    worth = rules.blind_nil_points if blind else rules.nil_points
    return worth if tricks == 0 else -worth


def score_side_int(
    rules: Rules,
    seats: Sequence[int],
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags_before: int,
) -> tuple[SideScore, int]:
    """:func:`score_side` without checking its arguments: the engine's own hands, scored
    at the end of every hand and of every play-out of the search."""
    contract = 0
    contract_tricks = 0
    nil_points = 0
    blind_nil_points = 0  # the blind nil bids' share of nil_points
    loose_tricks = 0  # failed-nil tricks that do not count toward the contract
    for s in seats:
        if bids[s] > 0:
            contract += bids[s]
            contract_tricks += tricks[s]
            continue
        points = nil_score(rules, blind[s], tricks[s])
        nil_points += points
        if blind[s]:
            blind_nil_points += points
        if rules.failed_nil_tricks_count:
            contract_tricks += tricks[s]
        else:
            loose_tricks += tricks[s]
    made = contract_tricks >= contract
    base = 20 * contract if rules.ten_for_200 and contract == 10 else 10 * contract
    bonus = 0
    new_bags = loose_tricks
    over = 0
    if made:
        over = contract_tricks - contract
        contract_points = base + over
        new_bags += over
        if contract in (1, 2) and over == 0:
            bonus += rules.small_contract_bonus
        if rules.hard_contract_from is not None and contract > rules.hard_contract_from:
            bonus += 10 * (contract - rules.hard_contract_from)
    else:
        contract_points = -base
    bags, penalties = apply_bags(rules, bags_before + new_bags)
    points = contract_points + bonus + nil_points + loose_tricks - penalties * rules.bag_penalty
    score = SideScore(
        contract=contract,
        contract_tricks=contract_tricks,
        made=made,
        contract_points=contract_points,
        bonus_points=bonus,
        nil_points=nil_points,
        new_bags=new_bags,
        penalties=penalties,
        points=points,
        overtricks=over,
        loose_tricks=loose_tricks,
        blind_nil_points=blind_nil_points,
    )
    return score, bags


def winner(rules: Rules, scores: Sequence[int], hands_played: object) -> tuple[bool, int | None]:
    """``(finished, winning side or None)`` after a hand has been scored.

    The side with the unique highest score wins once it reaches the target; a tie at the
    top plays on. A one-hand match ends after its hand, and equal top scores draw.
    Rules that are not a :class:`Rules`, ``scores`` that are not one whole number per side,
    or ``hands_played`` that is no whole number 0 or more, are refused by name.
    (``hands_played`` is typed ``object`` so that the compiled build says so too.)
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, like profile('cardems'), not {rules!r}"[:200])
    given: object = scores  # (typed as given: compiled, a narrowed name is cast)
    if isinstance(given, (str, bytes)) or not isinstance(given, Sequence) or any(
            whole_number(v) is None for v in given):
        raise TypeError(f"scores must be a whole number per side, like [120, 85], "
                        f"not {given!r}"[:200])
    if len(given) != len(rules.sides):
        raise ValueError(f"scores: {len(rules.sides)} sides need {len(rules.sides)} scores, "
                         f"not {len(given)}")
    played = whole_number(hands_played)
    if played is None or played < 0:
        error = TypeError if played is None else ValueError
        raise error(f"hands_played must be a whole number 0 or more, "
                    f"not {hands_played!r}"[:200])
    top = max(scores)
    leaders = [k for k, v in enumerate(scores) if v == top]
    if rules.one_hand:
        return True, (leaders[0] if len(leaders) == 1 else None)
    if top >= rules.target and len(leaders) == 1:
        return True, leaders[0]
    return False, None
