"""A scored hand in sentences, part by part and side by side: the terminal's "Hand N in
detail" (``spades play``) and the page's summary of the hand (the server's ``hand_scored``
event, ``details``) say the same words."""

from __future__ import annotations

from spades.engine import HandResult
from spades.engine.rules import Rules
from spades.present.rules import bonus_words, ten_for_200_words
from spades.present.sheet import (
    and_list,
    bag_warning,
    bid_words,
    marked_once,
    seat_name,
    unmarked,
)
from spades.present.words import plural


def side_lines(result: HandResult, rules: Rules, names: list[str],
               me: int | None = None) -> list[list[str]]:
    """For each side of a scored hand its sentences, one a line: its contract (made or set;
    "(10 for 200: ...)" where that rule scored it), overtricks, Nils, bonus (and which one),
    timer penalty bags, bag penalty, then last its points for the hand, new score and bags.
    A continued record's CPU is "Nora (CPU)" where first named, then "Nora".

    Told to seat ``me``, that seat's side is named as the play-by-play names it: "Your side
    (North and South)" where first named, then "Your side" (a side of one: "You"); its Nils
    are "Your Nil" and "Your partner North's Nil"."""
    name = marked_once(rules, names)
    mine = rules.side_of[me] if me is not None else None

    def whose(seat: int) -> str:
        if seat == me:
            return "Your"
        if mine is not None and rules.side_of[seat] == mine:
            return f"Your partner {name(seat)}'s"
        return f"{name(seat)}'s"

    out: list[list[str]] = []
    for k, seats in enumerate(rules.sides):
        lines: list[str] = []
        out.append(lines)
        side = result.sides[k]
        if k != mine:
            who = and_list([name(s) for s in seats])
        elif len(seats) > 1:
            who = f"Your side ({and_list([name(s) for s in seats])})"
        else:
            who = "You"
        if side.contract > 0:
            took = f"{who} bid {side.contract} and took {side.contract_tricks}"
            # the rule that makes a contract of 10 worth 200, said where it scores
            why = f" ({ten})" if side.contract == 10 and (ten := ten_for_200_words(rules)) else ""
            if side.made:
                over = side.contract_tricks - side.contract
                lines.append(f"{took}: contract made, {side.contract_points - over:+d}{why}.")
                if over:
                    lines.append(f"{plural(over, 'overtrick')}: {over:+d} and "
                                 f"{plural(over, 'bag')}.")
            else:
                lines.append(f"{took}: contract set, {side.contract_points:+d}{why}.")
        for s in seats:
            if result.bids[s] != 0:
                continue
            kind = bid_words(0, result.blind[s])
            worth = rules.blind_nil_points if result.blind[s] else rules.nil_points
            taken = result.tricks[s]
            if taken == 0:
                lines.append(f"{whose(s)} {kind} made: {worth:+d}.")
            elif rules.failed_nil_tricks_count:
                lines.append(f"{whose(s)} {kind} broken with {plural(taken, 'trick')}: "
                             f"{-worth:+d}; the tricks count toward the contract.")
            else:
                lines.append(f"{whose(s)} {kind} broken with {plural(taken, 'trick')}: "
                             f"{-worth:+d}, and {taken:+d} and {plural(taken, 'bag')} for "
                             "the tricks.")
        if side.bonus_points:
            which = bonus_words(rules, side.contract)  # the rule that earns it, as r says it
            lines.append(f"Bonus: {side.bonus_points:+d}" + (f" {which}." if which else "."))
        timer_points = result.points[k] - side.points  # a bag penalty the timer's bags caused
        if result.timeout_bags[k] or timer_points:
            cost = f", which cost {timer_points:+d}" if timer_points else ""
            lines.append(f"Turn timer: {plural(result.timeout_bags[k], 'penalty bag')}{cost}.")
        if side.penalties:
            count = side.penalties * rules.bag_limit
            lines.append(f"Bag penalty: {count} bags cost {-side.penalties * rules.bag_penalty:+d}.")
        if k == mine:  # named above
            again = "Your side" if len(seats) > 1 else "You"
        else:
            again = and_list([name(s) for s in seats])  # (its CPUs' marks said above)
        lines.append(f"{again}: {result.points[k]:+d} this hand, {result.scores[k]} in all, "
                     f"{plural(result.bags[k], 'bag')}.")
    return out


def result_lines(result: HandResult, rules: Rules, names: list[str],
                 me: int | None = None) -> list[str]:
    """The hand summary, one sentence per line: "Hand N is over.", each side's
    :func:`side_lines`, then the warnings within three bags of a penalty (``me`` as
    there)."""
    lines = [f"Hand {result.number} is over."]
    for part in side_lines(result, rules, names, me):
        lines += part
    mine = rules.side_of[me] if me is not None else None

    def name(seat: int) -> str:  # (a CPU's mark was said above)
        return unmarked(seat_name(rules, seat, names))

    for k in range(len(rules.sides)):
        warn = bag_warning(rules, result.bags[k])
        if not warn:
            continue
        if k == mine:
            subject = "your side is" if len(rules.sides[k]) > 1 else "you are"
        else:
            subject = (f"{and_list([name(s) for s in rules.sides[k]])} "
                       f"{'are' if len(rules.sides[k]) > 1 else 'is'}")
        lines.append(f"Warning: {subject} {warn}.")
    return lines


def hand_details(result: HandResult, rules: Rules, names: list[str],
                 me: int | None = None) -> list[list[str]]:
    """For each side what its points for the hand are made of, in the terminal's words
    (:func:`side_lines` without their last sentence, the points, score and bags, which the
    page's summary shows in figures): what the server's ``hand_scored`` event sends the
    page as ``details``."""
    return [lines[:-1] for lines in side_lines(result, rules, names, me)]


__all__ = ["hand_details", "result_lines", "side_lines"]
