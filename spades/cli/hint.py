"""``spades hint``: suggest a bid or a card, with a one-line reason."""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from spades.bots.hints import HINT_WORLDS, hint
from spades.cli.checks import positive_int
from spades.cli.play import UsageError, parse_seat
from spades.cli.replay import read_input, read_records
from spades.engine import (
    LOOK,
    PROFILES,
    Match,
    RecordError,
    Rules,
    SpadesError,
    card_str,
    card_symbol,
    cards_of,
    parse_card,
    profile,
    replay,
    sorted_for_display,
)
from spades.tui.console import print_error
from spades.tui.text import default_names


def register(sub: Any) -> None:
    p = sub.add_parser(
        "hint",
        help="suggest a bid or a card for a seat, with the reason",
        description="Suggest what a seat should do, with a one-line reason. Either give a "
        "match record (spades-record/1; the last one of a JSON Lines file), possibly "
        "unfinished, and get a hint for the seat whose turn it is at its end; or give "
        "--hand to get a bid for a fresh hand of your own (the other cards are dealt at "
        "random).",
        epilog="examples: spades hint saved.json --seat 2;  "
        "spades hint --hand 'AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C 3C'",
    )
    p.add_argument("record", nargs="?", metavar="RECORD",
                   help="record file, or - for standard input")
    p.add_argument("--seat", default=None,
                   help="the seat to advise: its name (north, east...; at 3, 5 or 6 players "
                   "the compass points such as southeast) or its number, as for spades play "
                   "(default: the seat to act; with --hand, 0)")
    p.add_argument("--hand", metavar="CARDS",
                   help="your cards, like 'AS KH 10D 2C ...': a bid hint as the first bidder")
    p.add_argument("--rules", default=None, choices=sorted(PROFILES),
                   help="rules profile for --hand (default cardems)")
    p.add_argument("--players", type=int, default=None, help="players for --hand")
    p.add_argument("--seed", type=int, default=None,
                   help="deal of the other cards for --hand (default 1)")
    p.add_argument("--worlds", type=positive_int, default=HINT_WORLDS,
                   help=f"sampled deals to think with, 1 or more (default {HINT_WORLDS})")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object: {"seat", "action", "reason"}')
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print_error(f"spades hint: {message}")
    return 2


def run(args: argparse.Namespace) -> int:
    if (args.record is None) == (args.hand is None):
        return _fail("give a RECORD file or --hand CARDS (one of the two)")
    if args.record is not None:  # (they were ignored: the record's own rules were used)
        given = [name for name, value in (("--rules", args.rules), ("--players", args.players),
                                          ("--seed", args.seed)) if value is not None]
        if given:
            return _fail(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} for "
                         "--hand only: a record holds its own rules and cards")
    try:
        match = _from_hand(args) if args.hand is not None else _from_record(args.record)
        seat = (match.current_player if args.seat is None
                else parse_seat(args.seat, match.n, "--seat"))
    except OSError as exc:
        return _fail(f"cannot read {args.record}: {exc.strerror or exc}")
    except RecordError as exc:  # which file, as spades import says it
        return _fail(f"{args.record}: {exc}")
    except (SpadesError, UsageError) as exc:
        return _fail(str(exc))
    if match.current_player < 0:  # (with or without --seat)
        return _fail("nobody is to act at the end of this record "
                     f"(the {'match is over' if match.is_over() else 'next hand is not dealt'})")
    if match.current_player != seat:
        names = default_names(match.n, 0)
        return _fail(f"it is {names[match.current_player]}'s turn (seat "
                     f"{match.current_player}), not {names[seat]}'s (seat {seat}): leave out "
                     "--seat for the seat to act")
    obs = match.observation(seat)
    h = hint(obs, worlds=args.worlds)
    if args.json:
        print(json.dumps({"seat": seat, **h.to_json()}))
        return 0
    who = f"{default_names(match.n, 0)[seat]} (seat {seat})"
    if obs.hand is None:  # the cards are unseen until it looks or bids blind nil
        print(f"{who} has not looked at its cards (it may bid blind nil)")
    else:
        cards = " ".join(card_symbol(c) for c in sorted_for_display(obs.hand))
        print(f"{who} holds {cards}")
    # The reason names the action ("Bid 2: ...", "Play the nine of diamonds: ..."); the
    # record's spelling follows for scripts that read the text.
    print(f"Hint: {h.reason} [{h.action_str}]")
    return 0


def _from_record(path: str) -> Match:
    records = read_records(read_input(path, "hint"))
    last = records[-1]
    if isinstance(last, RecordError):
        raise last
    return replay(last)


def _from_hand(args: argparse.Namespace) -> Match:
    kwargs: dict[str, Any] = {}
    if args.players is not None:
        kwargs["players"] = args.players
    rules = profile(args.rules or "cardems", **kwargs)
    seat = parse_seat(args.seat, rules.players, "--seat") if args.seat is not None else 0
    mine = 0
    for word in args.hand.replace(",", " ").split():
        c = parse_card(word)
        if mine >> c & 1:
            raise SpadesError(f"{word} is listed twice")
        mine |= 1 << c
    if mine & ~rules.deck:
        raise SpadesError("a card of --hand is not in this deck: " + _not_in_deck(rules, mine))
    if mine.bit_count() != rules.hand_size:
        raise SpadesError(f"--hand needs {rules.hand_size} cards, not {mine.bit_count()}")
    rest = [c for c in range(54) if rules.deck >> c & 1 and not mine >> c & 1]
    random.Random(1 if args.seed is None else args.seed).shuffle(rest)
    hands = []
    size = rules.hand_size
    others = iter(range(rules.players - 1))
    for s in range(rules.players):
        if s == seat:
            hands.append(mine)
        else:
            k = next(others)
            m = 0
            for c in rest[k * size:(k + 1) * size]:
                m |= 1 << c
            hands.append(m)
    match = Match(rules, dealer=(seat - 1) % rules.players)
    match.deal(hands)
    if LOOK in match.legal_actions():
        match.apply(LOOK)
    return match


def _not_in_deck(rules: Rules, hand: int) -> str:
    """The cards of ``hand`` that are not in the deck of ``rules``, and why:
    ``2S (the race400 deck for 6 players has no 2C, 2D, 2H or 2S: twos are taken out...)``."""
    jokers = (1 << 52) | (1 << 53)
    outside = [card_str(c) for c in cards_of(hand & ~rules.deck)]
    twos = [card_str(c) for c in cards_of(~rules.deck & ((1 << 52) - 1))]  # 2C, 2D, 2H, 2S
    gaps = []  # why, for the kinds of card the hand has
    if hand & jokers & ~rules.deck:
        gaps.append("jokers")
    if hand & ~rules.deck & ~jokers:
        listed = twos[0] if len(twos) == 1 else ", ".join(twos[:-1]) + " or " + twos[-1]
        gaps.append(f"{listed}: twos are taken out, 2C first, so that the {rules.players} "
                    f"players get {rules.hand_size} cards each")
    deck = f"the {rules.name} deck"
    if len(PROFILES[rules.name][0]) > 1:  # a profile for several table sizes
        deck += f" for {rules.players} players"
    return f"{', '.join(outside)} ({deck} has no {', and no '.join(gaps)})"
