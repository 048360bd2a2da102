"""The sentences and small blocks of text that ``spades play`` prints (pure functions).

Every event is one plain sentence, so a screen reader reads the game in order; the richer
view only adds colour and a laid-out trick on top of the same sentences.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from spades.bots.hints import compass_names
from spades.engine import (
    Match,
    Observation,
    Rules,
    SpadesError,
    card_name,
    card_str,
    sorted_for_display,
)
from spades.engine.cards import (
    DISPLAY_SUIT_ORDER,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SYMBOLS,
    card_symbol,
)
from spades.present.hand import result_lines as result_lines  # (the hand in detail)
from spades.present.narrate import bid_words
from spades.present.rules import (
    bonus_rules,
    deck_sentence,
    ten_for_200_words,
    winning_rule,
)
from spades.present.rules import forced_bid_sentence as forced_bid_sentence  # (the terminal's)
from spades.present.sheet import (
    and_list,
    bag_warning,
    marked_once,
    seat_name,
    side_name,
    unmarked,
)

COMPASS = ("North", "East", "South", "West")
RED_SUITS = (1, 2)  # diamonds, hearts


def default_names(players: int, human: int, name: str | None = None) -> list[str]:
    """Each seat's name by where it sits, clockwise from North at seat 0 (North, East, South,
    West at four; North, Northeast, Southeast, South, Southwest, Northwest at six...), as the
    hints name them; ``name`` for the human."""
    names = list(compass_names(players))
    if name:
        names[human] = name
    return names


def spoken_time(when: datetime) -> str:
    """A date and time as it reads aloud: "5 December 2026 at 08:58" (not "05 Dec 2026
    08:58", which a screen reader says as "zero five Dec")."""
    return f"{when.day} {when:%B %Y} at {when:%H:%M}"


def read_number(entry: str) -> int | None:
    """``entry`` as a whole number (``3``, ``+3``, ``-1``, digits of any script), or ``None``
    when it is not written as a number. Raises :class:`SpadesError` for number signs that
    are not digits (``²``, ``½``) and for numbers too long to be a bid or a card."""
    t = entry.strip()
    sign = t[:1] if t[:1] in ("+", "-") else ""
    body = t[len(sign):].strip()
    if not body or not any(ch.isnumeric() for ch in body):
        return None
    if not body.isdecimal():
        if all(ch.isnumeric() for ch in body):
            raise SpadesError(f"{short_quote(entry)} is not a number that can be read here: type "
                              "it with the digits 0 to 9")
        return None
    if len(body) > 6:
        raise SpadesError(f"{short_quote(entry)} is far too large to be a bid or a card number")
    n = int(body)
    return -n if sign == "-" else n


def cut_short(entry: str) -> str:
    """``entry`` to be said back to the player, cut to its first 20 characters and ``...``
    (a pasted page is not read out in full)."""
    t = entry.strip()
    return t if len(t) <= 20 else t[:20] + "..."


def short_quote(entry: str) -> str:
    """``entry`` cut short (:func:`cut_short`) and quoted: ``'xxxxxxxxxxxxxxxxxxxx...'``."""
    return repr(cut_short(entry))


#: Bids typed as words ("five", "Five", "zero"): every number a hand can hold.
NUMBER_WORDS: dict[str, int] = {word: n for n, word in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen"))}


def bid_choices(bids: list[int]) -> str:
    """The bids allowed (tricks, 0 for nil), ascending, in words: ``0 to 13, or nil``,
    ``1 to 13``, ``4, or nil`` ("" when none)."""
    numbers = [b for b in bids if b]
    if len(bids) > 2 and bids == list(range(bids[0], bids[-1] + 1)):
        choices = [f"{bids[0]} to {bids[-1]}"]
    else:
        choices = [str(b) for b in numbers]
    if 0 in bids:
        choices.append("nil")
    if len(choices) <= 1:
        return "".join(choices)
    return f"{', '.join(choices[:-1])}, or {choices[-1]}"


def bid_instructions(bids: list[int]) -> str:
    """What to type at a bid prompt, from the bids allowed (tricks, 0 for nil), ascending:
    ``Type a bid: 0 to 13, or nil.``, ``Type a bid: 1 to 13.``, ``Type a bid: 4, or nil.``"""
    return f"Type a bid: {bid_choices(bids)}."


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: Suit symbols as typed (the rich view shows cards as ``3♠``; the outlined ones too, and
#: the emoji variation selector dropped) → the suit letters the card parser reads.
SUIT_INPUT = str.maketrans({"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d",
                            "♣": "c", "♧": "c", "\ufe0f": None, "\ufe0e": None})


def card_label(card: int, *, rich: bool, symbols: bool) -> str:
    """``Q♥`` (coloured in the rich view) or ``QH`` without symbols."""
    text = card_symbol(card) if symbols else card_str(card)
    if rich and card < 52 and SUIT_OF[card] in RED_SUITS:
        return f"\x1b[31m{text}\x1b[0m"
    return text


def _rank_word(card: int) -> str:
    name = card_name(card)
    return name.split(" of ")[0] if " of " in name else name


def hand_plain(hand: int, legal: int = 0, title: str = "Your hand") -> str:
    """``Your hand, 5 cards: hearts: two, queen; spades: ace; clubs: three, nine.``: in
    words, grouped by suit in seed 002's order, as a listener wants to hear it. With
    ``legal``, only those cards are listed."""
    cards = [c for c in sorted_for_display(hand) if not legal or legal >> c & 1]
    if not cards:
        return "Your hand is empty."
    groups: list[str] = []
    for suit in DISPLAY_SUIT_ORDER:
        ranks = [_rank_word(c) for c in cards if SUIT_OF[c] == suit]
        if ranks:
            groups.append(f"{SUIT_NAMES[suit]}: " + ", ".join(ranks))
    return f"{title}, {plural(len(cards), 'card')}: " + "; ".join(groups) + "."


def card_numbers(dealt: int) -> dict[int, int]:
    """The number of each card dealt to a seat: 1, 2, ... in the order the hand is sorted
    when dealt. Numbers stay the same for the whole hand: playing a card does not change
    the others'."""
    return {c: i for i, c in enumerate(sorted_for_display(dealt), start=1)}


def number_ranges(dealt: int, held: int | None = None) -> str:
    """``hearts 1 to 2, spades 3 to 5, diamonds 6, clubs 7 to 13``: the numbers of each suit
    of the cards ``held`` (default: all ``dealt``), which keep their numbers of the deal: a
    suit with a number gone between is said in runs, ``clubs 7 to 9 and 11``; a suit no
    longer held is not named (a resume mid-hand said "clubs 8" of a club played)."""
    numbers = card_numbers(dealt)
    keep = dealt if held is None else held
    parts = []
    for suit in DISPLAY_SUIT_ORDER:
        own = [n for c, n in numbers.items() if SUIT_OF[c] == suit and keep >> c & 1]
        runs: list[list[int]] = []
        for n in own:
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        if runs:
            spans = [str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]
            parts.append(f"{SUIT_NAMES[suit]} {' and '.join(spans)}")
    return ", ".join(parts)


def numbered_cards(dealt: int, hand: int, title: str = "Card numbers") -> str:
    """``Card numbers: 1 four of hearts, 2 queen of hearts, 5 ace of spades.``: the cards
    still held (or those of ``hand`` that may be played, with another ``title``), each with
    its number for this hand."""
    held = [(n, c) for c, n in card_numbers(dealt).items() if hand >> c & 1]
    if not held:
        return "Your hand is empty."
    return f"{title}: " + ", ".join(f"{n} {card_name(c)}" for n, c in held) + "."


#: The column where the richer view's cards of a suit start (``  ♠   5:3♠``): a row too
#: long for the terminal goes on there, under its own cards, not under the suit's sign.
HAND_HANG = 6


def hand_rich(hand: int, legal: int, *, symbols: bool,
              numbers: dict[int, int] | None = None) -> list[str]:
    """One row per suit, each card with its number (``numbers``, else its place in the
    hand); cards you may not play now dimmed."""
    cards = sorted_for_display(hand)
    if not cards:
        return ["Your hand is empty."]
    rows: list[str] = []
    current = -1
    row = ""
    for i, c in enumerate(cards, start=1):
        n = numbers.get(c, i) if numbers else i
        suit = SUIT_OF[c]
        if suit != current:
            if row:
                rows.append(row)
            label = SUIT_SYMBOLS[suit] if symbols else SUIT_NAMES[suit][0].upper()
            if suit in RED_SUITS:
                label = f"\x1b[31m{label}\x1b[0m"
            row, current = f"  {label} ", suit
        text = f"{n}:" + card_label(c, rich=True, symbols=symbols)
        if legal and not legal >> c & 1:
            text = f"\x1b[2m{n}:{card_symbol(c) if symbols else card_str(c)}\x1b[0m"
        row += "  " + text
    rows.append(row)
    return [f"Your hand ({plural(len(cards), 'card')}):", *rows]


def called(obs: Observation, seat: int, names: list[str]) -> str:
    """A seat as the play-by-play names it to the reader of ``obs``: ``you``, ``your
    partner North`` or ``East``."""
    if seat == obs.seat:
        return "you"
    side_of = obs.rules.side_of
    if side_of[seat] == side_of[obs.seat]:
        return f"your partner {names[seat]}"
    return names[seat]


def bids_so_far(obs: Observation, names: list[str]) -> str:
    """The bids of this hand in the order they were made ("your partner North 4, East 3,
    you Nil"; "": none)."""
    n = obs.rules.players
    order = [(obs.dealer + 1 + i) % n for i in range(n)]
    done = [f"{called(obs, s, names)} {bid_words(b, obs.blind[s])}"
            for s in order if (b := obs.bids[s]) is not None]
    return ", ".join(done)


def trick_sentence(obs: Observation, names: list[str]) -> str:
    """The cards played to the open trick and whether spades are broken (seed 002's key);
    the seats named as the play-by-play names them, the first said to have led it (``your
    partner North led the ..., East played the ...``), as the colour view marks it."""
    broken = "Spades are broken." if obs.spades_broken else "Spades are not broken yet."
    if obs.phase == "bid":
        done = bids_so_far(obs, names)
        said = f"bids so far: {done}" if done else "nobody has bid yet"
        return f"Bidding is under way ({said}); no card has been played. {broken}"
    if obs.phase == "deal":  # between hands: the ended hand's spades are told no more
        return "No trick is being played: the next hand is not dealt yet."
    if obs.phase != "play":
        return "No trick is being played: the match is over."
    if not obs.trick:
        leads = "you lead" if obs.leader == obs.seat else f"{called(obs, obs.leader, names)} leads"
        return f"No card has been played to this trick yet; {leads}. {broken}"
    played = ", ".join(f"{called(obs, s, names)} {'led' if i == 0 else 'played'} the "
                       f"{card_name(c)}" for i, (s, c) in enumerate(obs.trick))
    return f"This trick: {played}. {broken}"


def open_trick_sentence(match: Match, names: list[str]) -> str | None:
    """The trick being played, told of everyone by name (``spades show`` of a game stopped
    in the middle of a hand): ``Trick 3 so far: Nora led the two of hearts, Emil played the
    five of hearts; Sofia is to play. Spades are not broken yet.`` None outside the play."""
    if match.phase != "play":
        return None
    obs = match.observation(0)  # (public: the trick, who leads and plays, spades broken)
    number = len(obs.plays) // match.n + 1
    broken = "Spades are broken." if obs.spades_broken else "Spades are not broken yet."
    if not obs.trick:
        return (f"Trick {number}: no card has been played to it yet; {names[obs.leader]} "
                f"leads. {broken}")
    played = ", ".join(f"{names[s]} {'led' if i == 0 else 'played'} the {card_name(c)}"
                       for i, (s, c) in enumerate(obs.trick))
    return (f"Trick {number} so far: {played}; {names[obs.current_player]} is to play. "
            f"{broken}")


def trick_table(obs: Observation, names: list[str], *, symbols: bool,
                width: int | None = None) -> list[str]:
    """The open trick laid out round the table (the richer view), within ``width`` columns
    when given (a terminal's width): at four players North above South, West and East on
    the row between, at least three spaces apart (a long name at West pushes East along);
    where that row does not fit, or at other numbers of players, the seats in order, as
    many to a row as fit. The card that led the trick is marked ``led`` (``West 9♥ led``)."""
    played = dict(obs.trick)
    leader = obs.trick[0][0] if obs.trick else None

    def at(seat: int) -> str:
        label = names[seat]
        if seat in played:
            card = card_label(played[seat], rich=True, symbols=symbols)
            return f"{label} {card} led" if seat == leader else f"{label} {card}"
        if seat == obs.current_player:
            return f"{label} \x1b[1m?\x1b[0m"
        return f"{label} ·"

    gap = 3
    room = width if width and width >= 20 else None
    if obs.rules.players == 4:
        west, east = at(3), at(1)
        middle = max(28, _visible(west) + gap)  # East's column
        if room is not None and middle + _visible(east) > room:
            middle = _visible(west) + gap
        if room is None or middle + _visible(east) <= room:
            pad = " " * min(14, middle // 2)  # North and South over the gap
            return [pad + at(0), west + " " * (middle - _visible(west)) + east, pad + at(2)]
    rows: list[str] = []
    row = ""
    for seat in range(obs.rules.players):
        item = at(seat)
        if row and room is not None and _visible(row) + gap + _visible(item) > room:
            rows.append(row)
            row = ""
        row = row + " " * gap + item if row else item
    return [*rows, row]


def _visible(text: str) -> int:
    import re

    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))


def status_lines(match: Match, names: list[str], me: int | None = None) -> list[str]:
    """Round status: each player's bid and tricks so far, each side's contract (until all
    its players have bid: their bids so far and who has yet to bid) and score.
    Between hands, the hand just played (with its own dealer) and who deals the next.
    Seat ``me`` (the reader's) is told as "you", as the play-by-play tells it; a continued
    record's CPU is "Nora (CPU)" where first named, then "Nora"."""
    rules = match.rules
    name = marked_once(rules, names)

    def called(seat: int) -> str:
        return "you" if seat == me else name(seat)

    deals = "and you deal" if match.dealer == me else f"{name(match.dealer)} to deal"
    if match.phase == "deal" and match.results:  # the dealer has already moved on
        last = match.results[-1]
        lines = [f"Hand {last.number}, {called(last.dealer)} dealt, is over; hand "
                 f"{last.number + 1} is next, {deals}."]
    elif match.phase == "deal":
        lines = [f"Hand 1 is next, {deals}."]
    else:
        lines = [f"Hand {match.hand_number}, {called(match.dealer)} dealt."]
    said = players_sentence(match, names, me, name)
    lines.append(said[0].upper() + said[1:] if said.startswith("you") else said)
    mine = rules.side_of[me] if me is not None else None
    for k, seats in enumerate(rules.sides):
        if len(seats) == 1:
            continue
        who = and_list([name(s) for s in seats])
        if k == mine:  # as the play-by-play and the hand's details name it
            who = f"Your side ({who})"
        waiting = [s for s in seats if match.bids[s] < 0]
        if waiting:  # no contract yet: the bids so far, and who has yet to bid
            done = [f"{called(s)} bid {bid_words(match.bids[s], match.blind[s])}"
                    for s in seats if match.bids[s] >= 0]
            if not done:
                everyone = "neither" if len(seats) == 2 else "nobody"
                lines.append(f"{who}: {everyone} has bid yet.")
                continue
            verb = "have" if waiting == [me] or len(waiting) > 1 else "has"
            lines.append(f"{who}: {and_list(done)}, "
                         f"{and_list([called(s) for s in waiting])} {verb} yet to bid; "
                         "no contract yet.")
            continue
        contract = sum(match.bids[s] for s in seats if match.bids[s] > 0)
        taken = sum(match.tricks[s] for s in seats)
        lines.append(f"{who}: contract {contract}, {plural(taken, 'trick')} taken.")
    lines.append(scores_sentence(match, names, name, me=me))
    return lines


def players_sentence(match: Match, names: list[str], me: int | None = None,
                     name: Callable[[int], str] | None = None) -> str:
    """Each player's bid and tricks so far, uncapitalized ("you bid 4, 0 tricks; West bid
    3, 0 tricks."): seat ``me`` is "you" and its partners "your partner North", as the
    play-by-play names them; ``name`` names the seats (default: a CPU's mark once)."""
    rules = match.rules
    name = name or marked_once(rules, names)
    mine = rules.side_of[me] if me is not None else None
    parts: list[str] = []
    for s in range(rules.players):
        b = match.bids[s]
        if s == me:
            who = "you"
        elif mine is not None and rules.side_of[s] == mine:
            who = f"your partner {name(s)}"
        else:
            who = name(s)
        bid = (("have" if s == me else "has") + " not bid yet" if b < 0
               else f"bid {bid_words(b, match.blind[s])}")
        parts.append(f"{who} {bid}, {plural(match.tricks[s], 'trick')}")
    return "; ".join(parts) + "."


def scores_sentence(match: Match, names: list[str],
                    name: Callable[[int], str] | None = None, me: int | None = None) -> str:
    """Each side's score and bags; ``name`` names the seats (default: a CPU's mark once).
    Told to seat ``me``, its side is "Your side (North and South)", as the hand's details
    name it (a side of one: "You")."""
    rules = match.rules
    name = name or marked_once(rules, names)
    mine = rules.side_of[me] if me is not None else None
    parts = []
    for k, seats in enumerate(rules.sides):
        who = and_list([name(s) for s in seats])
        if k == mine:
            who = f"Your side ({who})" if len(seats) > 1 else "You"
        warn = bag_warning(rules, match.bags[k])
        parts.append(f"{who}: {match.scores[k]} points, "
                     f"{plural(match.bags[k], 'bag')}" + (f" ({warn})" if warn else ""))
    return "Scores: " + "; ".join(parts) + "."


def match_end_reason(match: Match, names: list[str], me: int | None = None) -> str:
    """Why the match ended as it did, after the sentence that says who won: the rule that
    decides it (as ``r`` says it) and every side's final score, highest first, named as the
    play names them (``your side``, ``you``); and a bag penalty of the last hand that cost a
    side the match (without it the side would have had the top score)::

        The first side to reach 500 points with the highest score wins; a tie at the top
        plays on. Final scores: East and West 510, your side 456; your side's bag penalty
        this hand cost it 100 points.
    """
    rules = match.rules
    mine = rules.side_of[me] if me is not None else None
    solo = [len(seats) == 1 for seats in rules.sides]

    def who(k: int) -> str:
        if k == mine:
            return "you" if solo[k] else "your side"
        return and_list([unmarked(seat_name(rules, s, names)) for s in rules.sides[k]])

    order = sorted(range(len(rules.sides)), key=lambda k: -match.scores[k])
    scores = ", ".join(f"{who(k)} {match.scores[k]}" for k in order)
    reason = f"{winning_rule(rules)} Final scores: {scores}"
    last = match.results[-1] if match.results else None
    top = max(match.scores)
    for k in order:
        cost = last.sides[k].penalties * rules.bag_penalty if last else 0
        if not cost or k == match.winner:
            continue
        if match.scores[k] + cost >= top and (rules.one_hand
                                              or match.scores[k] + cost >= rules.target):
            whose = ("your" if solo[k] else "your side's") if k == mine else f"{who(k)}'s"
            it = ("you" if solo[k] else "it") if k == mine else "them"
            reason += f"; {whose} bag penalty this hand cost {it} {cost} points"
    return reason + "."


def rules_lines(rules: Rules, names: list[str]) -> list[str]:
    """The rules of the profile in force, in plain words."""
    hs = rules.hand_size
    lines = [f"Rules: {rules.name}, {rules.players} players, {hs} cards each."]
    deck = deck_sentence(rules)  # the cards taken out of the deck, and the jokers added
    if deck:
        lines.append(deck)
    if rules.jokers:  # which joker is higher, and that they are spades (led, followed, broken)
        lines.append("The jokers are spades: the big joker is the highest trump, then the "
                     "little joker, then the ace of spades.")
    if rules.teams is None:
        lines.append("Everyone plays alone.")
    else:
        sides = " against ".join(side_name(rules, k, names) for k in range(len(rules.sides)))
        lines.append(f"Teams: {sides}; partners' bids add up to one contract.")
    if rules.bidding == "mirror":
        lines.append("Mirror bidding: everyone bids the number of spades held (none: Nil).")
    elif rules.bidding == "whiz":
        lines.append("Whiz bidding: bid Nil or exactly the number of spades you hold.")
    elif rules.bidding == "suicide":
        lines.append("Suicide bidding: one partner of each side bids Nil every hand.")
    low = "Nil (0) or 1" if rules.nil else "1"
    if rules.bidding == "standard":
        lines.append(f"Bids: {low} to {hs}.")
    if rules.nil:
        counts = ("count toward the contract" if rules.failed_nil_tricks_count
                  else "do not count toward the contract; each is 1 point and 1 bag")
        lines.append(f"Nil: +{rules.nil_points} if you take no trick, -{rules.nil_points} "
                     f"otherwise; a failed Nil's tricks {counts}.")
    if rules.blind_nil:
        lines.append(f"Blind Nil: +{rules.blind_nil_points} if you take no trick, "
                     f"-{rules.blind_nil_points} otherwise; only as the first bid of a hand, "
                     "before looking at the cards.")
    else:
        lines.append("Blind Nil is not allowed.")
    lines.append("Follow suit if you can. Spades are trumps and cannot be led until broken, "
                 "unless you hold only spades; they are broken "
                 + ("by any spade played." if rules.spades_break == "any"
                    else "only by a spade played on a trick led in another suit."))
    lines.append("A made contract scores 10 per trick bid and 1 point and 1 bag per extra "
                 "trick; a set contract loses 10 per trick bid"
                 + (f" ({ten})." if (ten := ten_for_200_words(rules)) else "."))
    lines += bonus_rules(rules)
    keep = "drops to 0" if rules.bags_reset else "keeps the remainder"
    lines.append(f"Bags: every {rules.bag_limit} cost {rules.bag_penalty} points, and the "
                 f"counter {keep}.")
    lines.append(winning_rule(rules))
    if rules.turn_timer:
        bags = plural(rules.timeout_penalty_bags, "penalty bag")
        takes = "you take" if rules.teams is None else "your side takes"
        lines.append(f"Turn timer: {rules.turn_timer} seconds; when it runs out the game "
                     f"plays for you and {takes} {bags}.")
    return lines


#: (command, one-key short form, what it does)
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("hand", "h", "your hand, suit by suit"),
    ("numbers", "n", "your cards with their numbers (they stay the same for the whole hand)"),
    ("trick", "t", "the cards played to this trick, and whether spades are broken"),
    ("status", "s", "round status: each player's bid and tricks so far, and the scores"),
    ("sheet", "p", "the score sheet: every hand so far, with bag warnings"),
    ("hint", "i", "a hint from the expert"),
    ("rules", "r", "the rules of this game"),
    ("save", "w", "save the game (every move is already saved as it happens)"),
    ("quit", "q", "stop playing; resume later with: spades play --resume"),
    ("help", "?", "this list"),
)


#: The column where a command's description starts in the help (``  n  numbers your
#: cards...``): a description broken at the terminal's width goes on there, under itself,
#: not under the keys and commands, where its words would read as a command.
HELP_HANG = len("  n  numbers ")


def adapts(level: str | None) -> bool:
    """Whether a CPU of this level learns the seats' habits during a match (``hard``,
    ``expert``, not their ``:noadapt`` forms)."""
    if not level:
        return False
    parts = level.lower().split(":")
    return parts[0] in ("hard", "expert") and "noadapt" not in parts


def help_lines(adapting: bool = True) -> list[str]:
    """The help: each command's line starts with two spaces (to be wrapped at
    :data:`HELP_HANG`), the other lines with none. How to type cards and bids comes first
    and the commands last, next to the prompt that follows (a small terminal scrolled the
    commands away under the rest); with ``adapting`` (a CPU at the table that adapts), what
    the adapting CPUs learn (at a table without one it only took room)."""
    lines = ["To play a card type it like QH, qh, 10h or queen of hearts, or its number: "
             "the cards are numbered 1, 2, 3... in the order your hand is shown when it is "
             "dealt (suit by suit, weakest first), and a card keeps its number until the "
             "hand is over.",
             "To bid type a number, in digits or in words (4 or four), or nil (blind nil "
             "and look where allowed)."]
    if adapting:
        lines.append("The hard and expert CPUs adapt: during a match they learn each seat's "
                     "habits from what has been played in the open (bids over or under what "
                     "the hands were worth, bold Nils, covering a Nil partner, playing high "
                     "when following) and play with them; they never see hidden cards.")
    lines.append("Commands, at any prompt (the word or its one-key short form):")
    lines += [f"  {key}  {word:<7} {what}" for word, key, what in COMMANDS]
    return lines
