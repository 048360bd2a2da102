"""Saved games: ``spades export``, ``spades import``, ``spades history``, ``spades show``
and ``spades stats``. Every command takes ``--db PATH``."""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
from typing import Any

from spades.cli.play import (
    add_db_option,
    describe_game,
    find_game,
    human_seat,
    is_last,
    is_local,
    open_store,
    outcome,
    seat_names,
    unfinished_state,
)
from spades.cli.replay import read_input, read_records
from spades.engine import Match, RecordError, RulesError, SpadesError, profile, replay
from spades.engine.rules import shown
from spades.present.sheet import look_note, score_sheet, side_name, unmarked
from spades.stats import Stats, compute
from spades.store import GameRow, Store, StoreError, record_of
from spades.tui import cpu, text
from spades.tui.console import print_error, print_wrapped
from spades.tui.text import spoken_time

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    p = sub.add_parser("export", help="write a saved game as a match record (spades-record/1)",
                       description="Write a saved game, finished or not, as a spades-record/1 "
                       "JSON record: to FILE (one that exists is replaced only with --force), or to "
                       "standard output.")
    p.add_argument("game", metavar="GAME", help="the game's id (the first letters are "
                   "enough, as spades history shows them), or 'last'")
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="where to write (default, or -: stdout); a file that exists is not "
                   "replaced without --force")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    add_db_option(p)
    p.set_defaults(func=run_export, late_positionals=("file",))

    p = sub.add_parser("import", help="load a match record as a game to review or continue",
                       description="Load a spades-record/1 record (finished or not), checking "
                       "every step, as a saved game: review it with spades show, continue it "
                       "with spades play --resume.")
    p.add_argument("file", metavar="FILE", help="record file (JSON, or JSON Lines), - for stdin")
    p.add_argument("--seat", metavar="SEAT", help="your seat in the game (default: as the "
                   "record says, else south, or seat 0 when not four players)")
    add_db_option(p)
    p.set_defaults(func=run_import)

    p = sub.add_parser("history", help="list past and unfinished games with their result",
                       description="List the games played in the terminal and imported ones, "
                       "most recent first: each with its id (spades show and spades play "
                       "--resume take its first letters), when it was last played, its rules, "
                       "its result from your side (won, lost, draw, or unfinished and the hand "
                       "it stopped in) and the scores.")
    p.add_argument("--limit", type=int, default=30, metavar="N",
                   help="how many games, most recent first (default 30)")
    add_db_option(p)
    p.set_defaults(func=run_history)

    p = sub.add_parser("show", help="print a saved game's score sheet",
                       description="Print a saved game's score sheet, and for an unfinished "
                       "game where its hand stands.")
    p.add_argument("game", metavar="GAME", help="the game's id (or its first letters), or 'last'")
    add_db_option(p)
    p.set_defaults(func=run_show)

    p = sub.add_parser("stats", help="your statistics, per rules profile",
                       description="Matches and hands played and won, average points per "
                       "hand, bids made and set, nil and blind nil tried and made, bags and bag "
                       "penalties: over the games played in the terminal (and imported ones), "
                       "an unfinished game's hands so far included (Matches counts finished "
                       "ones only).")
    p.add_argument("--rules", metavar="PROFILE", help="only this rules profile (or custom: "
                   "the games of no profile, such as imported records with custom rules)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_db_option(p)
    p.set_defaults(func=run_stats)


def _fail(command: str, message: str, status: int = 1) -> int:
    print_error(f"spades {command}: {message}")
    return status


def local_games(store: Store, limit: int,
                unreadable: list[tuple[str, StoreError]] | None = None) -> list[GameRow]:
    """Games played in this terminal and imported ones (not server tables), newest first;
    those whose row cannot be read go to ``unreadable`` when it is given."""
    games = store.list_games(kind="terminal", limit=limit, unreadable=unreadable)
    # imports, newest first, until ``limit`` of them are local: records uploaded to the game
    # server (if it shares the database) are not the terminal player's, and may be many
    imported: list[GameRow] = []
    batch, offset = max(limit, 100), 0
    while len(imported) < limit:
        bad: list[tuple[str, StoreError]] = []
        page = store.list_games(kind="import", limit=batch, offset=offset, unreadable=bad)
        imported += [g for g in page if is_local(g)]
        if unreadable is not None:
            unreadable += bad
        else:
            for _, exc in bad:
                log.warning("skipping an unreadable game: %s", exc)
        if len(page) + len(bad) < batch:
            break  # the last of them
        offset += batch
    return sorted(games + imported, key=lambda g: g.updated_at, reverse=True)[:limit]


def why_unreadable(game_id: str, exc: StoreError) -> str:
    """Why a game cannot be read, without the game's id that the store's message starts
    with (the caller names the game)."""
    return str(exc).removeprefix(f"game {game_id}: ")


def find(store: Store, key: str, command: str) -> GameRow:
    """The game GAME names for ``command`` (``spades show``): ``last`` (in any case), its
    id, or the id's first letters (several games' are refused, naming them)."""
    if is_last(key):
        games = local_games(store, 1)
        if not games:
            raise StoreError("there are no saved games yet; play one with: spades play")
        return games[0]
    return find_game(store, key, command)


# export / import --------------------------------------------------------------------------


def export_record(game: GameRow, match: Match) -> dict[str, Any]:
    record = record_of(game, match)
    if is_local(game):  # a server's table (a shared database) has people, not one "you"
        record["human"] = human_seat(game)
    record["cpu"] = [s.get("cpu") for s in game.seats]
    return record


def run_export(args: argparse.Namespace) -> int:
    try:
        store = open_store(args, read_only=True)
        game = find(store, args.game, "spades export")
        # A game whose stored moves stop fitting (a damaged database) is written as far as
        # they fit, and said so: what can be read of it is not lost with the rest.
        _, match, damage, left_out = store.load_readable(game.id)
    except StoreError as exc:
        return _fail("export", str(exc))
    status = 0
    if damage is not None:
        status = _fail("export", f"game {game.id[:8]} cannot be read whole: {damage}; the "
                       f"record holds the moves stored before it ({where_it_stops(match)}), "
                       f"the {left_out} stored event{'s' if left_out != 1 else ''} from "
                       "there on are left out")
    data = json.dumps(export_record(game, match), ensure_ascii=False) + "\n"
    if args.file is None or args.file == "-":
        sys.stdout.write(data)
        return status
    if os.path.isdir(args.file):
        return _fail("export", f"cannot write {args.file}: it is a folder")
    try:  # "x": a file that exists (even one made meanwhile) is not replaced unless asked
        with open(args.file, "w" if args.force else "x", encoding="utf-8") as f:
            f.write(data)
    except FileExistsError:
        return _fail("export", f"{args.file} exists; use --force to replace it")
    except OSError as exc:
        return _fail("export", f"cannot write {args.file}: {exc.strerror}")
    print_error(f"Wrote game {game.id[:8]} ({'finished' if match.is_over() else 'unfinished'}"
                f"{', as far as it can be read' if damage is not None else ''}) to {args.file}.")
    return status


def where_it_stops(match: Match) -> str:
    """Where a match stands, in words: ``not dealt yet``, ``after hand 2``, ``hand 3, after
    5 bids and plays``."""
    if not match.log:
        return "not dealt yet"
    if match.phase in ("deal", "over"):
        return f"after hand {match.hand_number}"
    done = len(match.log[-1].actions)
    return (f"hand {match.hand_number}, after {done} bid{'s' if done != 1 else ''} and "
            f"play{'s' if done != 1 else ''}" if done else f"hand {match.hand_number}, as dealt")


def run_import(args: argparse.Namespace) -> int:
    if args.seat is not None and not _seat_at_some_table(args.seat):
        return _fail("import", f"--seat: {args.seat!r} is not a seat at any table: use a "
                     "seat's name (north, east, south, west; southeast and so on at 3, 5 or "
                     "6 players) or a number from 0 to 5", 2)
    raw: str | bytes
    try:  # a line that is not UTF-8 is that line's error
        raw = read_input(args.file, "import")
    except OSError as exc:  # exit status 2, as for spades replay and spades hint
        return _fail("import", f"cannot read {args.file}: {exc.strerror}", 2)
    records = read_records(raw)
    store = open_store(args)
    status = 0
    for i, record in enumerate(records, start=1):
        where = f"record {i}: " if len(records) > 1 else ""
        try:
            if isinstance(record, RecordError):
                raise record
            match = replay(record)
            notes: list[str] = []
            gid = import_match(store, record, match, args.seat, notes)
        except (SpadesError, StoreError) as exc:
            status = 1
            print_error(f"spades import: {where}{args.file}: {exc}")
            continue
        state = "finished" if match.is_over() else unfinished_state(match)
        print(f"{where}Imported as game {gid[:8]} ({state}). Review it with: spades show "
              f"{gid[:8]}" + ("" if match.is_over() else
                              f"; continue it with: spades play --resume {gid[:8]}"))
        for note in notes:
            print_error(f"spades import: {where}{args.file}: {note}")
    return status


def _seat_at_some_table(seat: str) -> bool:
    """Whether ``seat`` names a seat at a table of some size (3 to 6 seats); which one fits
    depends on each record's table, so that is checked record by record."""
    from spades.cli.play import UsageError, parse_seat

    for players in range(3, 7):
        try:
            parse_seat(seat, players, "--seat")
            return True
        except UsageError:
            pass
    return False


def _seat_of(value: Any, players: int) -> int | None:
    """A record's ``human``: a seat's number, or its name as ``--seat`` takes it; None when
    it names no seat of this table."""
    from spades.cli.play import UsageError, parse_seat

    if isinstance(value, int) and not isinstance(value, bool):
        return value if 0 <= value < players else None
    if isinstance(value, str):
        try:
            return parse_seat(value, players, "human")
        except UsageError:
            return None
    return None


def import_match(store: Store, record: dict[str, Any], match: Match, seat: str | None,
                 notes: list[str] | None = None) -> str:
    """Store a replayed record as a game. Your seat is ``seat`` (``--seat``), else the
    record's ``human`` (a seat's number, or its name as ``--seat`` takes it), else South (seat
    0 when not four players); a ``human`` that is no seat here is said in ``notes``."""
    from spades.cli.play import UsageError, parse_seat

    n = match.n
    default = 2 if n == 4 else 0
    human = default
    if seat is not None:
        try:
            human = parse_seat(seat, n, "--seat")
        except UsageError as exc:
            raise SpadesError(str(exc)) from None
    elif record.get("human") is not None:
        found = _seat_of(record["human"], n)
        if found is not None:
            human = found
        elif notes is not None:
            notes.append(f"human: {shown(record['human'])} is not a seat at this table (a "
                         f"number from 0 to {n - 1}, or a seat's name); you sit "
                         f"{text.default_names(n, 0)[default]}: give --seat to choose")
    elif notes is not None:  # a record from the server or the arena: nobody is "you" there
        notes.append(f"the record does not say which seat is yours (no human); you sit "
                     f"{text.default_names(n, 0)[default]}, and your statistics count that "
                     "seat: give --seat to choose")
    names = record.get("names")
    base = text.default_names(n, human)
    levels = record.get("cpu")
    seats = []
    for s in range(n):
        name = names[s] if isinstance(names, list) and s < len(names) and names[s] else base[s]
        level = levels[s] if isinstance(levels, list) and s < len(levels) else None
        if s != human and level not in cpu.known_levels():
            level = cpu.DEFAULT_LEVEL
        seats.append({"name": str(name), "cpu": None if s == human else level,
                      "user_id": None})
    options = {"human": human, "seed": random.SystemRandom().randrange(2**31),
               "source_id": record.get("id")}
    return store.save_record(match, kind="import", seats=seats, options=options)


# history / show ---------------------------------------------------------------------------


def run_history(args: argparse.Namespace) -> int:
    if args.limit < 1:
        return _fail("history", "--limit must be 1 or more", 2)
    store = open_store(args, read_only=True)
    unreadable: list[tuple[str, StoreError]] = []
    games = local_games(store, args.limit, unreadable)
    if not games and not unreadable:
        print_wrapped("No saved games yet. Play one with: spades play")
        return 0
    print_wrapped("Games, most recent first:")
    for game in games:
        try:
            _, match = store.load_match(game.id)
        except StoreError as exc:
            print_wrapped(f"  {game.id[:8]}: cannot be read: {exc}")
            continue
        state = outcome(game, match)
        if state == "unfinished":
            state = unfinished_state(match)
        kind = " (imported)" if game.kind == "import" else ""
        print_wrapped(f"  {describe_game(game, match, state)}{kind}")
    for gid, error in unreadable:  # (their dates may be unreadable too: listed last)
        print_wrapped(f"  {gid[:8]}: cannot be read: {why_unreadable(gid, error)}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        store = open_store(args, read_only=True)
        game = find(store, args.game, "spades show")
        _, match = store.load_match(game.id)
    except StoreError as exc:
        return _fail("show", str(exc))
    names = seat_names(game)
    me = human_seat(game)
    when = spoken_time(game.created_at.astimezone())
    # Where you sat (by the compass, as the game named it: North, Southeast... at three
    # players, not "Seat 0"), and the name you played under.
    place = text.default_names(match.n, me)[me]
    sat = place if names[me] == place else f"{place} as {names[me]}"
    if is_local(game):
        print_wrapped(f"Game {game.id[:8]}, started {when}; you sat {sat}. "
              f"Result: {outcome(game, match)}.")
    else:  # a server's table, or a record uploaded to it: people, not one "you" (as export)
        what = ("a record uploaded to the game server (spades serve) for review"
                if game.kind == "import" else "a table of the game server (spades serve)")
        print_wrapped(f"Game {game.id[:8]}, started {when}: {what}. "
              f"Result: {'finished' if match.is_over() else 'unfinished'}.")
    # (who looked before bidding: not Blind Nil)
    print_wrapped(score_sheet(match, names, looks=True), sheet=True)
    if match.phase in ("bid", "play"):
        plain = [unmarked(n) for n in names]
        for line in text.status_lines(match, plain)[:-1]:  # (marked above)
            print_wrapped(line)
        if match.log and (note := look_note(match.rules, match.log[-1], plain.__getitem__)):
            print_wrapped(note)  # the hand it stopped in: looked, Blind Nil, or not yet
        trick = text.open_trick_sentence(match, plain)  # the cards of the trick it stopped in
        if trick is not None:
            print_wrapped(trick)
    return 0


# stats ------------------------------------------------------------------------------------


def played_games(store: Store) -> list[tuple[Match, int]]:
    """Every terminal game, and imported games not copies of a game already here: the same
    match counts once, however many copies of it are stored (the export of a game here
    imported again, a record imported twice, a game that went through the server and came
    back under another id: the same rules, deals, bids and plays). A copy continued further
    than the game it copies, or a game continued after its export, is the same match played
    on: the one furthest along counts, and the shorter, whose moves all begin it, does not
    (before, an imported game continued to its end was left out as a copy of the unfinished
    game it was exported from, and that game's first hands counted instead). Of equal
    matches the first counts: a terminal game before any import, then the import made
    first. Copies that went on in different ways both count."""
    unreadable: list[tuple[str, StoreError]] = []
    terminal = store.list_games(kind="terminal", limit=1_000_000, unreadable=unreadable)
    imports = [g for g in reversed(store.list_games(kind="import", limit=1_000_000,
                                                    unreadable=unreadable))
               if is_local(g)]  # oldest first
    loaded: list[tuple[tuple[str, ...], Match, int]] = []
    for g in terminal + imports:
        try:
            _, match = store.load_match(g.id)
        except StoreError as exc:
            unreadable.append((g.id, exc))
            continue
        loaded.append((_match_moves(match), match, human_seat(g)))
    for gid, error in unreadable:  # said, not counted in silence
        print_error(f"spades stats: game {gid[:8]} cannot be read ({why_unreadable(gid, error)}); it "
                    "is left out of the statistics")
    # In the order of their moves, a match whose moves begin another's comes just before the
    # first of those that continue it (a stable sort: equal ones keep their order).
    order = sorted(range(len(loaded)), key=lambda i: loaded[i][0])
    counted: set[int] = set()
    for k, i in enumerate(order):
        moves = loaded[i][0]
        if k > 0 and loaded[order[k - 1]][0] == moves:
            continue  # a copy of the one before
        following = next((loaded[j][0] for j in order[k + 1:] if loaded[j][0] != moves), None)
        if following is not None and following[:len(moves)] == moves:
            continue  # continued further by another copy
        counted.add(i)
    return [(match, seat) for i, (_, match, seat) in enumerate(loaded) if i in counted]


def _match_moves(match: Match) -> tuple[str, ...]:
    """What makes two stored games the same match, as a sequence that a match continued
    further extends: its rules and teams, then each hand's dealer and deal, bids and plays
    (each marked when the turn timer made it), not its id, names or dates."""
    record = match.to_record()
    moves = [json.dumps([record.get("rules"), record.get("teams")], sort_keys=True)]
    for hand in record.get("hands", []):
        moves.append(json.dumps([hand["dealer"], [sorted(cards) for cards in hand["deal"]]]))
        timed = {(k, n) for t in hand.get("timeouts", []) for k, n in t.items()}
        for n, bid in enumerate(hand.get("bids", []), 1):
            moves.append(json.dumps(["bid", bid, ("bid", n) in timed]))
        for n, card in enumerate(hand.get("plays", []), 1):
            moves.append(json.dumps(["play", card, ("play", n) in timed]))
    return tuple(moves)


STAT_LINES: tuple[tuple[str, str], ...] = (
    ("Matches", "{matches_played} played, {matches_won} won, {matches_drawn} drawn"),
    ("Hands", "{hands_played} played, {hands_won} won, {average_said}"),
    # Whose they are: the side's contract and bags, your own nils (as spades.stats counts).
    ("Bids", "{bids_made} made, {bids_set} set (your side's contracts)"),
    ("Nil", "{nil_tried} tried, {nil_made} made; blind nil {blind_nil_tried} tried, "
            "{blind_nil_made} made (your own bids)"),
    ("Bags", "{bags} taken, {bag_penalties_said} (your side's)"),
)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def counted_line(stats: Stats, unfinished: tuple[int, int] = (0, 0)) -> str:
    """What the lines above count, said plainly: the finished matches, and the hands scored
    so far of the unfinished ones, ``unfinished`` = (matches, their hands), which the page's
    statistics (a server's finished matches only) leave out: ``Counted: 2 finished matches
    and 1 unfinished one, whose 3 hands so far are in Hands, Bids, Nil and Bags (Matches
    counts finished ones only).``"""
    done = _count(stats.matches_played, "finished match", "finished matches")
    matches, hands = unfinished
    if not matches:
        return f"  Counted: {done}, no unfinished one."
    if not hands:  # ("whose 0 hands so far are in Hands" said nothing they add)
        return (f"  Counted: {done} and {_count(matches, 'unfinished one', 'unfinished ones')}, "
                f"{'which has' if matches == 1 else 'which have'} no hand scored yet "
                "(Matches counts finished ones only).")
    return (f"  Counted: {done} and {_count(matches, 'unfinished one', 'unfinished ones')}, "
            f"whose {_count(hands, 'hand', 'hands')} so far "
            f"{'is' if hands == 1 else 'are'} in Hands, Bids, Nil and Bags (Matches counts "
            "finished ones only).")


def stats_lines(title: str, stats: Stats, unfinished: tuple[int, int] = (0, 0)) -> list[str]:
    """A profile's statistics as ``spades stats`` says them; ``unfinished``: how many of
    the matches counted are not finished, and their hands so far (which are counted)."""
    data = stats.to_json()
    data["average_points"] = stats.average_points
    # (no hand scored yet, as in a profile of unfinished games alone: no average, not 0.0)
    data["average_said"] = (f"{stats.average_points:.1f} points a hand on average"
                            if stats.hands_played else "no average yet")
    penalties = data["bag_penalties"]  # "1 bag penalty", not "1 bag penalties"
    data["bag_penalties_said"] = f"{penalties} bag penalt{'y' if penalties == 1 else 'ies'}"
    return ([title] + [f"  {label}: {fmt.format(**data)}." for label, fmt in STAT_LINES]
            + [counted_line(stats, unfinished)])


def run_stats(args: argparse.Namespace) -> int:
    if args.rules and args.rules != "custom":  # (custom: the games of no profile, as listed)
        try:
            profile(args.rules)  # the same refusal as spades play --rules
        except RulesError as exc:
            return _fail("stats", str(exc), 2)
    store = open_store(args, read_only=True)
    pairs = played_games(store)
    if args.rules:
        pairs = [(m, s) for m, s in pairs if m.rules.name == args.rules]
    book = compute(pairs)
    # Unfinished games count too, their hands so far (the server's page counts finished
    # matches only): how many, per profile, so that the lines and the JSON say so.
    unfinished: dict[str, tuple[int, int]] = {}
    for m, _ in pairs:
        if not m.is_over():
            count, hands = unfinished.get(m.rules.name, (0, 0))
            unfinished[m.rules.name] = (count + 1, hands + len(m.results))
    every = (sum(u[0] for u in unfinished.values()), sum(u[1] for u in unfinished.values()))
    if args.json:  # (the totals above count the hands of the unfinished ones too)
        data = book.to_json()
        data["total"].update(matches_unfinished=every[0], hands_unfinished=every[1])
        for name, stats in data["by_profile"].items():
            count, hands = unfinished.get(name, (0, 0))
            stats.update(matches_unfinished=count, hands_unfinished=hands)
        print(json.dumps(data))
        return 0
    if not book.by_profile:
        which = f" under {args.rules} rules" if args.rules else ""
        print_wrapped(f"No games played yet{which}. Play one with: spades play")
        return 0
    lines: list[str] = []
    for name, stats in sorted(book.by_profile.items()):
        lines += stats_lines(f"{name} rules:", stats, unfinished.get(name, (0, 0)))
    if len(book.by_profile) > 1:
        lines += stats_lines("All rules together:", book.total, every)
    print_wrapped("\n".join(lines))
    return 0


__all__ = ["export_record", "import_match", "played_games", "side_name"]
