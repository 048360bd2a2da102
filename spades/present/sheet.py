"""The score sheet as text: every hand's bids, tricks, points, bags and totals (used by
`spades replay`, `spades show`, the terminal game and the server)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spades.engine import HandResult, Match
from spades.engine.actions import BID_BASE, BLIND_NIL, LOOK
from spades.engine.hands import HandLog
from spades.engine.rules import Rules
from spades.engine.scoring import bags_to_warn
from spades.present.rules import bonus_note, ten_for_200_note

SEAT_NAMES_4 = ("North", "East", "South", "West")


def check_names(names: object) -> None:
    """``names`` must be None or a list (or tuple) of names by seat: one text is a
    ``TypeError`` (its letters would name the seats), and so is anything else."""
    if isinstance(names, str):  # (its letters would name the seats)
        raise TypeError(f"names: a list of names by seat, like ['Ann', 'Bob', 'Cy', 'Di'], "
                        f"not the text {names!r}"[:200])
    if names is not None and not isinstance(names, Sequence):
        raise TypeError(f"names: a list of names by seat, like ['Ann', 'Bob', 'Cy', 'Di'], "
                        f"not {names!r}"[:200])


def seat_name(rules: Rules, seat: int, names: list[str] | None = None) -> str:
    """A seat as the text names it: its name from ``names`` (a list by seat; a missing or
    empty one is left out), else North, East, South or West at four players and ``Seat N``
    otherwise. A seat not at the table is a ``ValueError``, ``names`` given as one text a
    ``TypeError``."""
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise ValueError(f"seat: a seat from 0 to {rules.players - 1}, not {seat!r}"[:200])
    check_names(names)
    if names and seat < len(names) and names[seat]:
        return names[seat]
    if rules.players == 4:
        return SEAT_NAMES_4[seat]
    return f"Seat {seat}"


def and_list(words: list[str]) -> str:
    """``North and South``; ``A, B and C``: in words, as a screen reader says them (not
    "North & South", read "North ampersand South" or not at all)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def side_name(rules: Rules, side: int, names: list[str] | None = None) -> str:
    """A side's seats by name: ``North and South`` (a side the rules do not have: a
    ``ValueError``)."""
    if type(side) is not int or not 0 <= side < len(rules.sides):
        raise ValueError(f"side: a side from 0 to {len(rules.sides) - 1}, not {side!r}"[:200])
    return and_list([seat_name(rules, s, names) for s in rules.sides[side]])


#: The mark the server gives a continued record's CPUs ("Nora (CPU)"), kept in its record.
CPU_MARK = "(CPU)"


def unmarked(name: str) -> str:
    """``name`` without its CPU mark: ``Nora (CPU)`` → ``Nora`` (said once is enough)."""
    if name.endswith(CPU_MARK) and name[:-len(CPU_MARK)].strip():
        return name[:-len(CPU_MARK)].rstrip()
    return name


def marked_once(rules: Rules, names: list[str] | None = None) -> Callable[[int], str]:
    """Seat names for one block of text (a score sheet, a hand's summary, a status): a
    continued record's CPU is "Nora (CPU)" the first time the block names it, then "Nora"
    (the mark said once is enough; not in every line)."""
    said: set[int] = set()

    def name(seat: int) -> str:
        full = seat_name(rules, seat, names)
        if seat in said:
            return unmarked(full)
        said.add(seat)
        return full

    return name


def bag_warning(rules: Rules, bags: int) -> str:
    """Seed 004's warning within three bags of the next penalty ('' when not close; see
    :func:`spades.engine.scoring.bags_to_warn`); ``bags`` is a side's bag count (a whole
    number, else ``TypeError``; so are rules that are not a :class:`Rules`)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, like profile('cardems'), not {rules!r}"[:200])
    if isinstance(bags, bool) or not isinstance(bags, int):
        raise TypeError(f"bags: a side's bag count (a whole number), not {bags!r}"[:200])
    if left := bags_to_warn(rules, bags):
        return f"{left} bag{'s' if left > 1 else ''} from a penalty"
    return ""


def bid_words(bid: int, blind: bool = False) -> str:
    """A bid as it is said: ``Nil``, ``Blind Nil`` (capitalised, as the page names them on
    its buttons and cards) or the number."""
    if blind:
        return "Blind Nil"
    return "Nil" if bid == 0 else str(bid)


def points_parts(rules: Rules, result: HandResult, side: int) -> list[str]:
    """What a side's points for a hand are made of, as the end of the hand tells them
    (``contract +70``, ``overtricks +3``, ``Blind Nil -200``, ``bag penalty -100``, ``bonus
    +20 for a contract of 1 or 2 made exactly``...): the parts that are not zero; they add
    up to the hand's points."""
    s = result.sides[side]
    parts = [f"contract {s.contract_points - s.overtricks:+d}"] if s.contract else []
    # each Nil apart: two on a side, one made and one broken, are not "nothing"
    nils = [(p, bid_words(0, blind=b)) for b in (False, True)
            for p in result.nil_bids(rules, side, blind=b)]
    for points, label in ((s.overtricks, "overtricks"), *nils,
                          (s.bonus_points, "bonus"),
                          (s.loose_tricks, "failed-Nil tricks"),
                          (-s.penalties * rules.bag_penalty, "bag penalty"),
                          (result.points[side] - s.points, "timer penalty")):
        if points:
            why = bonus_note(rules, s.contract) if label == "bonus" else ""
            parts.append(f"{label} {points:+d}" + (f" {why}" if why else ""))
    return parts


def points_detail(rules: Rules, result: HandResult, side: int) -> str:
    """What the score sheet says in brackets after a side's points for a hand ('' when it
    says nothing): the points' parts when more than the contract and its overtricks (which
    the bids and tricks show) make them, so a Nil, a bonus or a bag penalty is not hidden in
    the sum: ``contract +70, ..., bag penalty -100``, ``contract +40, bonus +20 for a
    contract of 1 or 2 made exactly``; and the 10-for-200 rule where it scored the
    contract: ``10 for 200, set``, ``10 for 200, set: contract -200, bag penalty -100``.
    The terminal's sheet and the page's (the server's ``sheet``, ``parts_text``) say it."""
    parts = points_parts(rules, result, side)
    plain = all(p.startswith(("contract ", "overtricks ")) for p in parts)
    s = result.sides[side]
    ten = ten_for_200_note(rules, s.contract, s.made)
    said = ", ".join(parts)
    return f"{ten}: {said}" if ten and not plain else ten if ten else "" if plain else said


def look_note(rules: Rules, log: HandLog, name: Callable[[int], str]) -> str:
    """Whether the first bidder of a hand where blind nil was open to it looked at its cards
    (a bid made after looking) or bid Blind Nil unseen, as a sentence; '' where the rules
    have no blind nil. The record holds it: a look is the LOOK before that seat's bid (a
    record written without it gets it back on replay, docs/records.md), and the hand's
    ``looked`` in a hand cut between the look and the bid."""
    if not rules.blind_nil:
        return ""
    first = name((log.dealer + 1) % rules.players)
    bids = [(n, a) for n, a in enumerate(log.actions) if BID_BASE <= a <= BLIND_NIL]
    bid = bids[0][1] if bids else None
    if bid == BLIND_NIL:
        return f"{first} bid Blind Nil without looking at the cards."
    if LOOK not in log.actions:
        if bid is None:  # no bid yet: the choice is still open
            return f"{first} has not looked at the cards yet: Blind Nil is still open."
        # a bid the turn timer made for a seat that had not looked: the timer looked for it,
        # within that one move (no look of its own is logged)
        timer = " (the turn timer showed them)"
    else:
        timer = (" (the turn timer showed them)" if log.actions.index(LOOK) in log.timeouts
                 else "")
    if bid is None:
        return (f"{first} looked at the cards{timer} and has yet to bid: too late for "
                "Blind Nil.")
    return (f"{first} looked at the cards{timer} before bidding "
            f"{bid_words(bid - BID_BASE)}, so not Blind Nil.")


def score_sheet(match: Match, names: list[str] | None = None, *, looks: bool = False) -> str:
    """A plain-text score sheet, one line per hand and side, then the totals. Its words are
    read aloud as they are written: "Score sheet: cardems, ..." (not an em dash), "North and
    South" (not "&"); a continued record's CPU is "Nora (CPU)" where its side is first
    named, then "Nora" (not in every hand). With ``looks``, a hand where blind nil was open
    says after its bids whether the first bidder looked at the cards first (see
    :func:`look_note`), as ``spades show`` does."""
    if not isinstance(match, Match):
        raise TypeError(f"score_sheet takes a Match (replay(record) gives one), "
                        f"not a {type(match).__name__}")
    return SheetWriter(match.rules, names, looks=looks).text(match)


class SheetWriter:
    """:func:`score_sheet` written hand by hand: the lines of the hands written before are
    kept, so that the sheet of a match going on, made again after each scored hand, costs
    only the new hand's lines and the totals (the whole sheet of a match of 1,600 hands took
    80 ms). For one match's ``rules`` and ``names``; :meth:`text` takes the match as it
    is now, with at least the hands it was given before."""

    def __init__(self, rules: Rules, names: list[str] | None = None, *,
                 looks: bool = False) -> None:
        check_names(names)
        self.rules = rules
        self.names = names
        self.looks = looks
        self._name = marked_once(rules, names)  # a CPU's mark where it is first named
        self._hands: list[str] = []  # each written hand's lines

    def _side(self, k: int, name: Callable[[int], str]) -> str:
        return and_list([name(s) for s in self.rules.sides[k]])

    def _hand(self, match: Match, r: HandResult) -> str:
        rules, names, name = self.rules, self.names, self._name
        dealer = unmarked(seat_name(rules, r.dealer, names))  # (its mark with its side's)
        lines = [f"Hand {r.number} (dealer {dealer}):"]
        for k, seats in enumerate(rules.sides):
            who = self._side(k, name)
            bids = ", ".join(  # (a side of one seat is named once: "Ann: bid 4 took 4")
                (f"{name(s)} " if len(seats) > 1 else "") + "bid "
                + bid_words(r.bids[s], r.blind[s])
                + f" took {r.tricks[s]}"
                for s in seats
            )
            detail = points_detail(rules, r, k)
            lines.append(
                f"  {who}: {bids}; points {r.points[k]:+d}"
                + (f" ({detail})" if detail else "") + ", "
                f"total {r.scores[k]}, bags {r.bags[k]}"
            )
        if self.looks and 0 < r.number <= len(match.log) and (
                note := look_note(rules, match.log[r.number - 1], name)):
            lines.append(f"  {note}")
        return "\n".join(lines)

    def text(self, match: Match) -> str:
        """The sheet of ``match`` now."""
        rules = self.rules
        if len(match.results) < len(self._hands):
            raise ValueError(f"the match has {len(match.results)} scored hands, fewer than "
                             f"the {len(self._hands)} this sheet has written")
        for r in match.results[len(self._hands):]:
            self._hands.append(self._hand(match, r))
        head = (f"Score sheet: {rules.name}, {rules.players} players, "
                + ("one-hand match" if rules.one_hand else f"target {rules.target}"))
        lines = [head, *self._hands] if self._hands else [head, "No hand has been scored yet."]
        # the totals name the seats as the lines after the hands would (each seat is named
        # in every hand: its mark was said in the first)
        name = marked_once(rules, self.names)
        if self._hands:
            for s in range(rules.players):
                name(s)

        def side(k: int) -> str:
            return self._side(k, name)

        lines.append("Totals: " + "; ".join(
            f"{side(k)} {match.scores[k]} ({match.bags[k]} "
            + ("bag" if match.bags[k] == 1 else "bags")
            + (f", {w}" if (w := bag_warning(rules, match.bags[k])) else "") + ")"
            for k in range(len(rules.sides))
        ))
        if match.is_over():
            if match.winner is None:
                top = max(match.scores)
                tied = [k for k in range(len(rules.sides)) if match.scores[k] == top]
                if len(rules.sides) > 2 and all(len(rules.sides[k]) == 1 for k in tied):
                    # who drew, when some side did not: "Southeast and Southwest tie"
                    said = and_list([side(k) for k in tied])
                    lines.append(f"The match is a draw: {said} tie at {top} points.")
                elif len(rules.sides) > 2:  # sides of partners, told apart by "with" (not
                    # "Seat 0 and Seat 3 and Seat 1 and Seat 4 tie", which hides who is with
                    # whom)
                    others = " and with ".join(side(k) for k in tied[1:])
                    lines.append(f"The match is a draw: {side(tied[0])} tie with {others} at "
                                 f"{top} points.")
                else:
                    lines.append("The match is a draw.")
            else:
                lines.append(f"Winner: {side(match.winner)}.")
        else:
            lines.append("The match is not finished.")
        return "\n".join(lines)
