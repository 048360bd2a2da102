"""``spades play``: a match in the terminal against CPU players, saved as it is played."""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spades.cli.checks import db_is_a_folder, missing_db_folder, seconds_or_zero
from spades.engine import PROFILES, Match, Rules, RulesError, profile
from spades.store import AmbiguousId, GameRow, Store, StoreError, default_path, rebuild
from spades.tui import cpu
from spades.tui.console import (
    Console,
    InputClosed,
    print_error,
    supports_rich,
    supports_symbols,
)
from spades.tui.game import TerminalGame
from spades.tui.text import default_names, short_quote, spoken_time

SEAT_WORDS = {"north": 0, "n": 0, "east": 1, "e": 1, "south": 2, "s": 2, "west": 3, "w": 3}


class UsageError(Exception):
    """A bad option: the message says what is wrong and how to fix it."""


def add_db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", default=None,
                   help=f"the games database (default {default_path()}; $SPADES_DB overrides); "
                   "a new database is made only in a folder that exists")


def open_store(args: argparse.Namespace, read_only: bool = False) -> Store:
    """The store at ``--db`` (or the default); a clear message and exit status 1 if it
    cannot be opened. A command that only reads (``read_only``) does not create a database
    file that is not there: it reads an empty store instead. A ``--db`` file in a folder that
    does not exist (a typo) is refused, exit status 2, rather than the folder made, and so
    is one in ``$SPADES_DB``; the default database's folder is made when needed."""
    where = args.db if args.db else default_path()
    local = "://" not in str(where) and str(where) != ":memory:"
    refused = (db_is_a_folder(args.db, args.command) if read_only
               else missing_db_folder(args.db, args.command))
    if refused:
        print_error(refused)
        raise SystemExit(2)
    if read_only and local and not Path(where).expanduser().exists():
        where = ":memory:"
    try:
        return Store.open(where)
    except StoreError as exc:  # a folder that cannot be made, a file that is not a database
        print_error(f"spades {args.command}: {str(exc).splitlines()[0]}")
    except Exception as exc:
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        print_error(f"spades {args.command}: cannot open the database {where}: {reason}")
    raise SystemExit(1)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a match in the terminal against CPU players",
        description="Play Spades against CPU players. With no options you sit South with "
        "North as your partner, cardems rules, intermediate CPUs. Every bid and card is "
        "saved as it is played; spades play --resume continues an unfinished game. Seats "
        "are numbered clockwise from 0 (at four players: 0 North, 1 East, 2 South, 3 West).",
    )
    g = p.add_argument_group("the table")
    g.add_argument("--rules", "--profile", dest="rules", default=None, metavar="PROFILE",
                   help=f"rules profile: {', '.join(PROFILES)} (default cardems)")
    g.add_argument("--players", type=int, metavar="N",
                   help="number of players, 3 to 6 (race400 only; default 4)")
    g.add_argument("--teams", metavar="HOW",
                   help="solo, teams, 2+2, 3+3, 2+2+2, or seats like 0,2/1,3 "
                   "(default: as the profile says)")
    g.add_argument("--solo", action="store_const", const="solo", dest="teams",
                   help="everyone plays alone (same as --teams solo)")
    g.add_argument("--seat", metavar="SEAT",
                   help="your seat: its name (north/east/south/west; at 3, 5 or 6 players "
                   "the compass points such as southeast) or its number (default south; "
                   "seat 0, North, when not four players)")
    g.add_argument("--name", metavar="NAME",
                   help="your name at the table (default: the seat's name; not the name of "
                   "another seat)")
    g.add_argument("--dealer", metavar="SEAT", help="the first dealer (default: drawn at random)")
    g.add_argument("--opener", metavar="SEAT",
                   help="the seat that bids and leads first in the first hand (instead of "
                   "--dealer; the dealer is the seat before it)")
    g.add_argument("--cpu", action="append", default=[], metavar="LEVEL|SEAT=LEVEL",
                   help="CPU strength for every CPU, or for one seat (repeat the option); "
                   f"levels: {', '.join(cpu.known_levels())} (default {cpu.DEFAULT_LEVEL}), "
                   "or cmd:\"PROGRAM ARGS\" for your own bot (docs/bot-protocol.md); hard "
                   "and expert adapt to each seat's habits during a match (docs/bots.md)")
    g.add_argument("--seed", type=int, help="random seed for the deals (default: random)")
    k = p.add_argument_group("rules knobs (override the profile)")
    k.add_argument("--target", type=int, metavar="POINTS", help="points that win the match")
    k.add_argument("--one-hand", action="store_true", default=None,
                   help="a one-hand match: the higher score after one hand wins")
    k.add_argument("--blind-nil", action=argparse.BooleanOptionalAction, default=None,
                   help="allow blind nil as the first bid of a hand (before seeing the cards)")
    k.add_argument("--nil", action=argparse.BooleanOptionalAction, default=None,
                   help="allow nil bids")
    k.add_argument("--jokers", action=argparse.BooleanOptionalAction, default=None,
                   help="add the big and little jokers as the two highest trumps")
    k.add_argument("--bidding", choices=["standard", "mirror", "suicide", "whiz"],
                   help="house bidding variant")
    k.add_argument("--ten-for-200", action=argparse.BooleanOptionalAction, default=None,
                   help="a contract of exactly 10 scores plus or minus 200")
    k.add_argument("--bag-limit", type=int, metavar="N", help="bags that cost a penalty")
    k.add_argument("--bag-penalty", type=int, metavar="POINTS", help="points a bag penalty costs")
    k.add_argument("--timer", type=int, metavar="SECONDS",
                   help="turn timer, 5 to 600 seconds (off by default)")
    k.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="any other rules knob, e.g. --set spades_break=trump "
                   "(see docs/ENGINE_API.md)")
    o = p.add_argument_group("the screen and saved games")
    mode = o.add_mutually_exclusive_group()
    mode.add_argument("--plain", action="store_true",
                      help="line mode: one plain sentence per line, no colour (for screen "
                      "readers and logs)")
    mode.add_argument("--rich", action="store_true",
                      help="colour and the trick laid out, even if the terminal is not detected")
    o.add_argument("--delay", type=seconds_or_zero, default=0.0, metavar="SECONDS",
                   help="pause before each CPU move (default 0)")
    o.add_argument("--no-pause", action="store_true",
                   help="do not wait for Enter between hands")
    o.add_argument("--resume", nargs="?", const="", metavar="GAME",
                   help="continue an unfinished game: GAME is its id (the first letters are "
                   "enough) or last (the one played last); without GAME, choose from the "
                   "list of unfinished games")
    add_db_option(o)
    p.set_defaults(func=run)


# Options -> a new game --------------------------------------------------------------------


def parse_seat(text: str, players: int, what: str) -> int:
    """A seat as typed: its number, or its name (``north``, ``southeast``...; at four
    players also ``n``, ``e``, ``s``, ``w``)."""
    t = text.strip().lower()
    if players == 4 and t in SEAT_WORDS:
        return SEAT_WORDS[t]
    words = [name.lower() for name in default_names(players, 0)]
    if t in words:
        return words.index(t)
    if t.isdecimal() and 0 <= int(t) < players:
        return int(t)
    raise UsageError(f"{what}: {text!r} is not a seat; use {', '.join(words)} or a number "
                     f"from 0 to {players - 1}")


def parse_teams(text: str, players: int) -> tuple[tuple[int, ...], ...] | None:
    t = text.strip().lower()
    if t == "solo":
        return None
    shapes = {
        ("teams", 4): ((0, 2), (1, 3)), ("2+2", 4): ((0, 2), (1, 3)),
        ("teams", 6): ((0, 2, 4), (1, 3, 5)), ("3+3", 6): ((0, 2, 4), (1, 3, 5)),
        ("2+2+2", 6): ((0, 3), (1, 4), (2, 5)),
    }
    if (t, players) in shapes:
        return shapes[(t, players)]
    if t in ("teams", "2+2", "3+3", "2+2+2"):
        raise UsageError(f"--teams {text}: not possible with {players} players (teams are "
                         "2+2 at four players, 3+3 or 2+2+2 at six)")
    try:
        return tuple(tuple(int(s) for s in side.split(",")) for side in t.split("/"))
    except ValueError:
        raise UsageError(f"--teams {text!r}: use solo, teams, 2+2, 3+3, 2+2+2 or seats like "
                         "0,2/1,3") from None


def parse_knob(text: str) -> tuple[str, Any]:
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise UsageError(f"--set {text!r}: write KNOB=VALUE, like spades_break=trump")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip().replace("-", "_"), value


def build_rules(args: argparse.Namespace) -> Rules:
    overrides: dict[str, Any] = {}
    if args.players is not None:
        overrides["players"] = args.players
    players = args.players or 4
    if args.teams is not None:
        overrides["teams"] = parse_teams(args.teams, players)
    for knob, attr in (("target", "target"), ("one_hand", "one_hand"),
                       ("blind_nil", "blind_nil"), ("nil", "nil"), ("jokers", "jokers"),
                       ("bidding", "bidding"), ("ten_for_200", "ten_for_200"),
                       ("bag_limit", "bag_limit"), ("bag_penalty", "bag_penalty"),
                       ("turn_timer", "timer")):
        value = getattr(args, attr)
        if value is not None:
            overrides[knob] = value
    if overrides.get("bidding") == "mirror" and "blind_nil" not in overrides:
        overrides["blind_nil"] = False  # mirror bidding has no blind nil
    for item in args.set:
        knob, value = parse_knob(item)
        if knob == "teams" and isinstance(value, list):
            value = tuple(tuple(s) for s in value)
        overrides[knob] = value
    try:
        return profile(args.rules or "cardems", **overrides)
    except RulesError as exc:
        msg = str(exc)
        if msg.startswith("players:") and "race400" not in msg:
            msg += " (race400 is played by 3 to 6)"
        knob, _, why = msg.partition(": ")
        given = {"teams": args.teams, "players": args.players, "turn_timer": args.timer,
                 **{k: getattr(args, k) for k in ("target", "bag_limit", "bag_penalty",
                                                  "bidding", "blind_nil", "nil", "jokers",
                                                  "ten_for_200", "one_hand")}}
        value = given.get(knob)
        if value is not None and not any(i.startswith(f"{knob}=") for i in args.set):
            # said by the option as typed: "--timer: ..., not 3" (not "turn_timer: ..."),
            # "--bidding suicide: ..." (not "bidding: ..."), "--no-nil: ..."
            option = "--timer" if knob == "turn_timer" else "--" + knob.replace("_", "-")
            if value is False:
                option = "--no-" + option[2:]
            elif knob == "bidding":
                option += f" {value}"
            why = why.replace("off (null) or ", "off or ")
            if knob == "teams" and ", got " in why:
                why = why.rpartition(", got ")[0] + f", not {args.teams}"
            if knob == "turn_timer":  # no timer is --timer left out ("off" is no SECONDS)
                why = why.replace("must be off or ", "must be ")
            msg = f"{option}: {why}"
        else:  # a knob set with --set: said as typed ("--set spades_break=maybe: ...")
            typed = next((i for i in args.set if parse_knob(i)[0] == knob), None)
            if typed is not None:
                msg = f"--set {typed}: {why}"
        raise UsageError(msg) from None


def build_levels(args: argparse.Namespace, players: int, human: int) -> list[str | None]:
    levels: list[str | None] = [cpu.DEFAULT_LEVEL] * players
    known = cpu.known_levels()
    for item in args.cpu:
        if "=cmd:" in item or item.startswith("cmd:"):  # an external program (bot protocol)
            seat_text, eq, level = item.partition("=") if "=cmd:" in item else ("", "", item)
            level = level.strip()
        else:
            seat_text, eq, level = item.rpartition("=")
            level = level.strip().lower()
        if level not in known and not level.startswith("cmd:"):
            raise UsageError(f"--cpu {item!r}: unknown CPU level {level!r}; choose one of "
                             f"{', '.join(known)}")
        if level.startswith("cmd:"):
            from spades.bots.external import check_program

            try:
                check_program(level[4:])  # the command and its program; started later
            except ValueError as exc:
                raise UsageError(f"--cpu {item!r}: {exc}") from None
        if eq:
            seat = parse_seat(seat_text, players, f"--cpu {item}")
            if seat == human:
                raise UsageError(f"--cpu {item!r}: that is your seat")
            levels[seat] = level
        else:
            levels = [level] * players
    levels[human] = None
    return levels


def check_name(name: str | None, players: int, human: int) -> str | None:
    """``--name``: printable, at most 40 characters, and not another seat's name."""
    if name is None or not name.strip():
        return None
    name = " ".join(name.split())
    if not name.isprintable():
        raise UsageError(f"--name {name!r}: use letters, digits and spaces only")
    if len(name) > 40:
        raise UsageError(f"--name: at most 40 characters, not {len(name)}")
    others = default_names(players, human)
    for seat, other in enumerate(others):
        if seat != human and other.casefold() == name.casefold():
            raise UsageError(f"--name {name}: that is the name of another seat at this table "
                             f"(seat {seat}); choose another name, or sit there with "
                             f"--seat {other.lower()}")
    return name


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game as its options set it up, checked before anything is stored."""

    rules: Rules
    seats: list[dict[str, Any]]
    dealer: int
    options: dict[str, Any]


def new_game(args: argparse.Namespace, store: Store,
             plan: NewGame | None = None) -> tuple[GameRow, Match]:
    """The new game the options ask for (``plan``: as :func:`plan_game` made it), stored."""
    plan = plan if plan is not None else plan_game(args)
    gid = store.create_game("terminal", plan.rules, seats=plan.seats,
                            first_dealer=plan.dealer, options=plan.options)
    return store.game(gid), Match(plan.rules, dealer=plan.dealer)


def plan_game(args: argparse.Namespace) -> NewGame:
    """The options for a new game, checked (:class:`UsageError`) before the database is
    opened, so a refused option makes no database file."""
    rules = build_rules(args)
    n = rules.players
    human = parse_seat(args.seat, n, "--seat") if args.seat else (2 if n == 4 else 0)
    levels = build_levels(args, n, human)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.dealer and args.opener:
        raise UsageError("give --dealer or --opener, not both")
    if args.dealer:
        dealer = parse_seat(args.dealer, n, "--dealer")
    elif args.opener:
        dealer = (parse_seat(args.opener, n, "--opener") - 1) % n
    else:
        dealer = random.Random(f"{seed}:dealer").randrange(n)
    names = default_names(n, human, check_name(args.name, n, human))
    seats = [{"name": names[s], "cpu": levels[s], "user_id": None} for s in range(n)]
    options = {"human": human, "seed": seed}
    return NewGame(rules, seats, dealer, options)


# Resuming ---------------------------------------------------------------------------------


def unfinished_state(match: Match) -> str:
    """An unfinished match's state as ``spades history`` and ``spades import`` say it, in the
    words of ``spades play --resume``'s list: ``unfinished, hand 3`` while a hand is under
    way, ``unfinished, after hand 2`` between hands (it said ``hand 2``, a hand that is over,
    though the list to resume said ``after hand 2``), ``unfinished, not dealt yet``."""
    if match.phase == "deal":
        return "unfinished, " + (f"after hand {match.hand_number}" if match.hand_number
                                 else "not dealt yet")
    return f"unfinished, hand {match.hand_number}"


def human_seat(game: GameRow) -> int:
    default = 2 if game.rules.players == 4 else 0
    value = game.options.get("human", default)
    return int(value) if isinstance(value, int) else default


def outcome(game: GameRow, match: Match) -> str:
    """``won``, ``lost``, ``draw`` or ``unfinished``, from the human's side."""
    if not match.is_over():
        return "unfinished"
    if match.winner is None:
        return "draw"
    return "won" if match.winner == match.rules.side_of[human_seat(game)] else "lost"


def describe_game(game: GameRow, match: Match, state: str | None = None) -> str:
    """``1a2b3c4d, 2 Jun 2026 14:05, cardems, hand 3: North & South 120 to East & West 80``."""
    from spades.present.sheet import side_name

    names = seat_names(game)
    rules = match.rules
    scores = " to ".join(f"{side_name(rules, k, names)} {match.scores[k]}"
                         for k in range(len(rules.sides)))
    when = spoken_time(game.updated_at.astimezone())
    if state is None:
        if match.phase == "over":
            state = "finished"
        elif match.phase == "deal":
            state = f"after hand {match.hand_number}" if match.hand_number else "not dealt yet"
        else:
            state = f"hand {match.hand_number}"
    return f"{game.id[:8]}, {when}, {rules.name}, {state}: {scores}"


def seat_names(game: GameRow) -> list[str]:
    """The names stored with the game; a seat without one (or with the ``Seat N`` that
    older versions gave at 3, 5 or 6 players) is named by where it sits."""
    n = game.rules.players
    base = default_names(n, 0)
    names = []
    for i in range(n):
        stored = game.seats[i].get("name") if i < len(game.seats) else None
        if not stored or (n != 4 and stored == f"Seat {i}"):
            stored = base[i]
        names.append(str(stored))
    return names


def is_last(key: str | None) -> bool:
    """Whether GAME is ``last`` (the game played last): in any case, as ids are taken."""
    return key is not None and key.strip().lower() == "last"


def find_game(store: Store, key: str, command: str) -> GameRow:
    """The game ``key`` names (its id, or the id's first letters). First letters that begin
    several games' ids are refused with those games listed (up to five, the most recently
    played first) and how to choose: ``command`` (``spades show``) and an id to give it."""
    try:
        return store.find_game(key)
    except AmbiguousId as exc:
        raise StoreError(ambiguous_message(store, exc, command)) from None


def ambiguous_message(store: Store, exc: AmbiguousId, command: str) -> str:
    """``'2' begins the ids of 3 games:`` and a line for each (as spades history lists
    them), then how to choose one."""
    n = len(exc.ids)
    lines = [f"{short_quote(exc.prefix)} begins the ids of more than {n} games; the {n} "
             "played last:" if exc.more else
             f"{short_quote(exc.prefix)} begins the ids of {n} games:"]
    for gid in exc.ids:
        try:
            game, match = store.load_match(gid)
        except StoreError as err:
            lines.append(f"  {gid[:8]}: cannot be read: {str(err).removeprefix(f'game {gid}: ')}")
            continue
        mark = ("" if game.kind == "terminal" else " (imported)" if is_local(game)
                else " (of the game server)")
        state = outcome(game, match)  # (as spades history says it)
        if state == "unfinished":
            state = unfinished_state(match)
        elif not is_local(game):  # a server's table: no one side is "yours"
            state = "finished"
        lines.append(f"  {describe_game(game, match, state)}{mark}")
    lines.append(f"Type more of the id to choose one, such as {command} {exc.ids[0][:8]}"
                 + (" (spades history lists the others)" if exc.more else "") + ".")
    return "\n".join(lines)


def is_local(game: GameRow) -> bool:
    """Whether a stored game is one of this terminal's: played here, or loaded by ``spades
    import``. The game server may share the database (both default to the same file): its
    tables and the records uploaded to it for review are not the terminal player's."""
    return game.kind == "terminal" or (game.kind == "import"
                                       and game.options.get("uploader") is None)


def unfinished(store: Store, unreadable: list[tuple[str, StoreError]] | None = None
               ) -> list[GameRow]:
    """The unfinished local games, most recent first (rows that cannot be read go to
    ``unreadable`` when it is given)."""
    games = (store.list_games(kind="terminal", status="active", limit=1000,
                              unreadable=unreadable)
             + store.list_games(kind="import", status="active", limit=1000,
                                unreadable=unreadable))
    return sorted((g for g in games if is_local(g)), key=lambda g: g.updated_at, reverse=True)


def pick_game(args: argparse.Namespace, store: Store, console: Console) -> GameRow | None:
    """The game that ``--resume [GAME]`` names: an id (or its first letters), ``last`` (the
    most recently played unfinished game), or, without GAME, one chosen from the list of
    unfinished games (the only one is taken at once). Games that cannot be read are left out
    of the list with a note, so one damaged game does not stop the others from being resumed.
    """
    if args.resume and not is_last(args.resume):
        game = find_game(store, args.resume, "spades play --resume")
        if not is_local(game):  # its moves are the server's to store: two writers would clash
            what = "table" if game.kind == "table" else "record"
            raise UsageError(f"game {game.id[:8]} is a {what} of the game server (spades "
                             "serve), which shares this database, not a game of this "
                             "terminal: play it in the browser, or load its record with "
                             f"spades export {game.id[:8]} FILE and spades import FILE")
        if game.status != "active":
            raise UsageError(f"game {game.id[:8]} is {game.status}, not unfinished; "
                             f"see it with spades show {game.id[:8]}")
        return game
    readable: list[tuple[GameRow, Match]] = []
    unreadable: list[tuple[str, StoreError]] = []
    games = unfinished(store, unreadable)
    for gid, error in unreadable:  # its row: nothing of it can be read, not even its moves
        why = str(error).removeprefix(f"game {gid}: ")
        console.say(f"Game {gid[:8]} cannot be read ({why}); it is left out.")
    for g in games:
        try:
            _, m = store.load_match(g.id)
        except StoreError as exc:
            console.say(f"Game {g.id[:8]} cannot be read ({exc}); it is left out. "
                        f"spades export {g.id[:8]} writes the moves stored before that one "
                        "as a record, which spades import loads to continue.")
            continue
        readable.append((g, m))
    if not readable:
        console.say("There is no unfinished game to resume. Start one with: spades play")
        return None
    if is_last(args.resume):
        return readable[0][0]
    console.say("Unfinished games, most recent first:")
    for i, (g, m) in enumerate(readable, start=1):
        # as spades history marks them: an imported copy and its original look alike
        head = f"  {i}. "  # a game's line goes on under its text, not under its number
        console.say(head + describe_game(g, m) + (" (imported)" if g.kind == "import" else ""),
                    hang=len(head))
    if len(readable) == 1:
        console.say("Continuing the only one.")
        return readable[0][0]
    while True:
        try:
            line = console.ask(f"Which game? Type its number, 1 to {len(readable)}, or its "
                               "id (Enter for 1, q to quit): ")
        except (InputClosed, KeyboardInterrupt):
            console.say("")  # Ctrl-D and Ctrl-C leave the cursor on the prompt's line
            console.say("Nothing resumed.")
            raise
        t = (line or "").strip().lower()
        if t in ("q", "quit"):
            console.say("Nothing resumed.")
            return None
        if not t:
            return readable[0][0]
        if t.isdecimal() and 1 <= int(t) <= len(readable):
            return readable[int(t) - 1][0]
        # the id the list shows (or its first letters), as spades play --resume GAME takes it
        found = [g for g, _ in readable if g.id.lower().startswith(t)]
        if len(found) == 1:
            return found[0]
        if found:
            console.say(f"{short_quote(t)} begins the ids of {len(found)} of these games: "
                        "type more of the id, or the game's number.")
            continue
        console.say(f"{short_quote(t)} is not one of the numbers 1 to {len(readable)}, nor "
                    "the start of one of these games' ids.")


def load_game(store: Store, game_id: str) -> tuple[GameRow, Match, int]:
    """A saved game, its match rebuilt from the stored moves (each checked again:
    :class:`StoreError` naming the move that does not fit) and the number of the last of
    them: the moves are read once, so the match and the number the next move is stored at
    agree even when another session is playing the game at the same time."""
    game = store.game(game_id)
    rows = store.events(game_id)
    match = rebuild(game.rules, game.first_dealer or 0, rows)
    return game, match, rows[-1].seq if rows else 0


# Running ----------------------------------------------------------------------------------


#: The options that set a new game's rules: a resumed game keeps the rules it has.
RULES_OPTIONS = ("rules", "players", "teams", "target", "one_hand", "blind_nil", "nil",
                 "jokers", "bidding", "ten_for_200", "bag_limit", "bag_penalty", "timer")


def new_game_options(args: argparse.Namespace, rules: bool = False) -> list[str]:
    """The options given that only matter when a new game starts (with ``rules``, only
    those that set its rules)."""
    given = []
    attrs = RULES_OPTIONS if rules else ("seat", "name", "dealer", "opener", "seed")
    for attr in attrs:
        if getattr(args, attr) is not None:
            given.append("--" + attr.replace("_", "-"))
    if args.set and rules:
        given.append("--set")
    if args.cpu and not rules:
        given.append("--cpu")
    return given


def make_console(args: argparse.Namespace) -> Console:
    rich = args.rich or (not args.plain and supports_rich(sys.stdout))
    return Console(rich=rich, symbols=supports_symbols(sys.stdout))


def run(args: argparse.Namespace) -> int:
    # A program that fails is told once, by the table (not also by the bot's log).
    logging.getLogger("spades.bots.external").addHandler(logging.NullHandler())
    if args.resume is not None and new_game_options(args, rules=True):
        print_error(f"spades play: {', '.join(new_game_options(args, rules=True))}: a resumed game "
                    "keeps the rules it was started with; leave these options out to resume it, "
                    "or start a new game without --resume")
        return 2
    plan = None
    if args.resume is None:
        try:
            plan = plan_game(args)
        except UsageError as exc:
            print_error(f"spades play: {exc}")
            return 2
    store = open_store(args)
    console = make_console(args)
    resume_hint = "spades play --resume" + (f" --db {args.db}" if args.db else "")
    if args.resume is not None and new_game_options(args):
        console.say("Resuming: the options for a new game ("
                    + ", ".join(new_game_options(args)) + ") are not used.")
    try:
        if args.resume is not None:
            try:
                game = pick_game(args, store, console)
            except KeyboardInterrupt:  # told "Nothing resumed." already
                return 130
            if game is None:
                return 0 if args.resume == "" else 1
            game, match, stored = load_game(store, game.id)
            resumed = True
        else:
            game, match = new_game(args, store, plan)
            stored = 0
            resumed = False
    except (UsageError, StoreError) as exc:
        print_error(f"spades play: {exc}")
        return 2 if isinstance(exc, UsageError) else 1
    except InputClosed:
        return 0
    names = seat_names(game)
    human = int(game.options.get("human", 2 if match.n == 4 else 0))
    levels: list[str | None] = []
    for s, seat in enumerate(game.seats):
        level = seat.get("cpu")
        levels.append(None if s == human else str(level or cpu.DEFAULT_LEVEL))
    seed = int(game.options.get("seed", 0))
    session = TerminalGame(store, game.id, match, console, names=names, human=human,
                           levels=levels, seed=seed, delay=args.delay,
                           pause=not args.no_pause, resume_hint=resume_hint, seq=stored,
                           options=dict(game.options))
    intro(session, game, resumed)
    try:
        return session.run()
    finally:
        store.close()


def cpu_sentence(levels: list[str | None], names: list[str], me: int) -> str:
    """Which seat the CPU plays at which level: ``CPU level: intermediate.`` when all play
    at one level, else the seats grouped by level, ``CPU players: West cmd:bot, North and
    East intermediate.``"""
    from spades.present.words import listing

    seats: dict[str, list[str]] = {}
    for seat, level in enumerate(levels):
        if level and seat != me:
            seats.setdefault(level, []).append(names[seat])
    if len(seats) <= 1:
        return f"CPU level: {', '.join(seats)}."
    return "CPU players: " + ", ".join(f"{listing(who)} {level}"
                                       for level, who in sorted(seats.items())) + "."


def intro(session: TerminalGame, game: GameRow, resumed: bool) -> None:
    """Who plays where and at what level, and on a resume the scores; a continued record's
    CPU is "Nora (CPU)" where first named, then "Nora", as in the play that follows."""
    from spades.present.sheet import and_list, marked_once
    from spades.tui import text

    m = session.match
    rules = m.rules
    name = marked_once(rules, session.names)
    plain = session.plain
    me = session.human
    say = session.say
    if resumed:
        if m.phase == "deal":  # between hands: the next one is dealt first
            where = f"hand {m.hand_number + 1} is next" + (
                f" (hand {m.hand_number} is over)" if m.hand_number else "")
        else:
            where = f"in hand {m.hand_number}"
        say(f"Resuming game {game.id[:8]}: {where}.")  # (the rules: the next line)
    goal = "a one-hand match" if rules.one_hand else f"to {rules.target} points"
    if rules.teams is None:
        say(f"Spades, {rules.name} rules, {rules.players} players each on their own, {goal}.")
    else:
        sides = " against ".join(and_list([name(s) for s in seats]) for seats in rules.sides)
        say(f"Spades, {rules.name} rules: {sides}, {goal}.")
    places = text.default_names(rules.players, me)
    # the players named otherwise than their seats (--name, a record's names): where they sit
    named = [s for s in range(rules.players) if s != me and plain[s] != places[s]]
    mates = [s for s in rules.sides[rules.side_of[me]] if s != me]
    partner = ""
    if len(mates) == 1 and mates[0] in named:
        partner = f"; your partner {name(mates[0])} sits {places[mates[0]]}"
        named.remove(mates[0])
    elif mates:
        partner = f"; your partner{'s are' if len(mates) > 1 else ' is'} " + " and ".join(
            name(s) for s in mates)
    if named:  # "Emil sits East and Walt sits West" (not "Walt West", said as one name)
        partner += "; " + and_list([f"{name(s)} sits {places[s]}" for s in named])
    you = name(me)
    if plain[me] != places[me]:  # --name (or a record's name): where you sit
        you += f" and sit {places[me]}"
    several = len({lv for s, lv in enumerate(session.levels) if lv and s != me}) > 1
    levels = cpu_sentence(session.levels, [name(s) if several else plain[s]
                                           for s in range(rules.players)], me)
    say(f"You are {you}{partner}. {levels}")
    if rules.turn_timer:
        say(f"Turn timer: {rules.turn_timer} seconds a turn.")
    if not resumed:
        say(f"Game {game.id[:8]} is saved as you play. Type ? for the commands.")
    else:
        say(text.scores_sentence(m, session.names, name, me=me))  # (marks not said: solo)
        if m.phase == "play":  # the bids were told before the game stopped: again here
            say("This hand so far: " + text.players_sentence(m, plain, me=me))
        if m.phase in ("bid", "play") and m.current_player != me:
            say(text.trick_sentence(m.observation(me), plain))
