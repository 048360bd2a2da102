"""``spades arena``: pit two bots against each other on duplicate deals."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from types import EllipsisType
from typing import Any

from spades.bots.arena import (
    DealOutcome,
    config_from,
    default_jobs,
    make_player,
    run_arena,
    seat_specs,
    stderr_progress,
)
from spades.bots.arena_results import LoadedResults, ResultsError, ResultsWriter, load_results
from spades.cli.checks import positive_int
from spades.cli.play import UsageError, parse_teams
from spades.engine import PROFILES, SpadesError
from spades.tui.console import print_error


def register(sub: Any) -> None:
    p = sub.add_parser(
        "arena",
        help="compare two CPU players (or external programs) on duplicate deals",
        description="Play every deal twice with the same cards, the two players swapping "
        "seats, and report A's mean points per deal minus B's with a 95% interval, nil "
        "rates, bags per hand and decision times. Specs: random, beginner, intermediate, "
        "expert[:N|:Ss|:Scpu][:noadapt], ismcts[:N|:Ss|:Scpu], allseeing[:N|:Ss|:Scpu] (the expert shown "
        "the real hands, to measure the search's ceiling; arena only) (N deals or iterations per "
        "decision, S seconds of wall time, or S seconds of CPU time: equal time on a busy "
        "machine), a strength (easy, normal, hard, expert; "
        "hard and expert may end :noadapt), a model of a person (human:over, human:under, "
        "human:nilhappy, human:nocover, human:random-bids), cmd:\"PROGRAM ARGS\" or "
        "py:MODULE:OBJECT; "
        "SPEC1/SPEC2 seats SPEC1 in the first and SPEC2 in the second seat of each side "
        "(partnerships and teams of two only). "
        "The expert and hard CPUs adapt: during a match they estimate each other seat's "
        "habits from what has been played in public (its bids against the tricks its hands "
        "were worth once they were played out, how boldly it bids nil and how often it makes "
        "it, whether it trumps over a winning nil partner, whether it plays its highest card "
        "when following), never from hidden cards, and use them when guessing the hidden "
        "hands, when predicting the others' bids and cards in their play-outs, and so in "
        "their own bids, covering or giving up a partner's nil, and bags; :noadapt plays "
        "every other seat as the intermediate level would. See docs/bots.md.",
    )
    p.add_argument("--a", required=True, metavar="SPEC",
                   help="player A, or SPEC1/SPEC2 for the two seats of each A side")
    p.add_argument("--b", required=True, metavar="SPEC",
                   help="player B, or SPEC1/SPEC2 for the two seats of each B side")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    p.add_argument("--rules", default="cardems", choices=sorted(PROFILES),
                   help="rules profile (default cardems)")
    p.add_argument("--players", type=int, default=None, help="players (race400: 3 to 6)")
    p.add_argument("--teams", metavar="HOW", default=None,
                   help="sides: solo, teams, 2+2, 3+3, 2+2+2, or seats like 0,3/1,4/2,5 "
                   "(as for spades play; default: the profile's, solo in race400, partners "
                   "0+2 against 1+3 elsewhere)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--jobs", type=positive_int, default=None,
                   help="processes, 1 or more (default: all cores)")
    p.add_argument("--matches", action="store_true",
                   help="play whole matches instead of single hands")
    p.add_argument("--save", metavar="FILE",
                   help="write every play of every deal as spades-record/1 JSON lines")
    p.add_argument("--results", metavar="FILE",
                   help="resumable run: append one JSON line per finished deal to FILE "
                   "(created with a header naming the run); when FILE already holds deals "
                   "of the same run (same --a, --b, --rules, --players, --teams, --seed, "
                   "--matches) they are not played again and the report covers them, so an "
                   "interrupted run is continued, or extended with a larger --deals, by "
                   "running the same command again. A different run's FILE is refused "
                   "(exit 2); a last line cut short is dropped with a warning. --save only "
                   "gets the deals played in this run")
    p.add_argument("--json", action="store_true",
                   help="end with one JSON object on the last line of output")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print_error("spades arena: --deals must be 1 or more")
        return 2
    for side, side_spec in (("--a", args.a), ("--b", args.b)):
        try:
            specs = seat_specs(side_spec)
        except ValueError as exc:
            print_error(f"spades arena: {side}: {exc}")
            return 2
        for spec in specs:
            try:
                bot = make_player(spec, 0)  # an external program is not started yet
            except ValueError as exc:
                print_error(f"spades arena: {side}: {exc}")
                return 2
            close = getattr(bot, "close", None)
            if close is not None:
                close()
            if spec.startswith("cmd:"):  # refused now, not every deal voided by it
                from spades.bots.external import check_program

                try:
                    check_program(spec[4:])
                except ValueError as exc:
                    print_error(f"spades arena: {side}: {exc}")
                    return 2
    try:
        teams: tuple[tuple[int, ...], ...] | EllipsisType | None = ...  # the profile's
        if args.teams is not None:
            teams = parse_teams(args.teams, args.players or 4)
        cfg = config_from(args.a, args.b, args.rules, args.players, args.deals, args.seed,
                          args.matches, bool(args.save), teams)
    except (SpadesError, ValueError, UsageError) as exc:
        print_error(f"spades arena: {exc}")
        return 2
    jobs = args.jobs or default_jobs()
    loaded: LoadedResults | None = None
    resumed = 0
    if args.results:
        try:
            loaded = load_results(Path(args.results), cfg)
        except ResultsError as exc:
            print_error(f"spades arena: {exc}")
            return 2
        for warning in loaded.warnings:
            print_error(f"spades arena: warning: {warning}")
        resumed = sum(1 for i in loaded.done if i < args.deals)
        beyond = len(loaded.done) - resumed
        if beyond or (resumed and not args.quiet):
            extra = (f"; {beyond} deal{'s' if beyond != 1 else ''} with index {args.deals} "
                     "or more left out of this report" if beyond else "")
            print_error(f"arena: {resumed} of {args.deals} deals taken from {args.results}"
                        f"{extra}")
    progress = None if args.quiet else stderr_progress(args.deals, resumed=resumed)
    # A program that fails voids its deal, and the report lists why: not also the bot's log.
    logging.getLogger("spades.bots.external").addHandler(logging.NullHandler())
    writer: ResultsWriter | None = None
    if loaded is not None:
        try:
            writer = ResultsWriter(loaded, cfg)
        except OSError as exc:
            print_error(f"spades arena: {args.results}: cannot write: {exc.strerror or exc}")
            return 2
    save = None
    if args.save:
        try:
            save = open(args.save, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            if writer is not None:
                writer.close()
            print_error(f"spades arena: {args.save}: cannot write: {exc.strerror or exc}")
            return 2
    try:
        def on_outcome(outcome: DealOutcome) -> None:
            if writer is not None:
                writer.append(outcome)
            if save is not None:
                for record in outcome.records:
                    save.write(json.dumps(record) + "\n")
                save.flush()

        result = run_arena(cfg, jobs=jobs, progress=progress, on_outcome=on_outcome,
                           done=None if loaded is None else loaded.done)
    finally:
        if save is not None:
            save.close()
        if writer is not None:
            writer.close()
    print_report(result)
    if args.json:
        print(json.dumps(result))
    if not result["deals"]:
        reasons = result.get("void_reasons") or ["no deal was played"]
        print_error(f"spades arena: every deal failed ({result['void']} void), so there is no "
                    f"result; the first error: {reasons[0]}")
        return 1
    return 0


def print_report(r: dict[str, Any]) -> None:
    teams = "teams" if r["teams"] else "solo"
    print(f"{r['a']} (A) vs {r['b']} (B): {r['rules']}, {r['players']} players ({teams}), "
          f"{r['deals']} duplicate {'match' if r['mode'] == 'matches' else 'deal'}"
          f"{'' if r['deals'] == 1 else ('es' if r['mode'] == 'matches' else 's')}"
          + (f", {r['void']} void" if r["void"] else ""))
    if r["mean"] is None:
        print("A minus B: no result (no deal was played to the end)")
    else:
        low, high = r["ci95"]
        print(f"A minus B: {r['mean']:+.2f} points per deal, 95% interval "
              f"[{low:+.2f}, {high:+.2f}]")
    if "a_win_share" in r and r["a_win_share"] is not None:
        print(f"A won {100 * r['a_win_share']:.1f}% of {r['matches_played']} matches")
    for key in ("a", "b"):
        s = r["stats"][key]
        nil = "-" if s["nil_bid_rate"] is None else f"{100 * s['nil_bid_rate']:.1f}%"
        made = "-" if s["nil_success"] is None else f"{100 * s['nil_success']:.0f}%"
        bags = "-" if s["bags_per_hand"] is None else f"{s['bags_per_hand']:.2f}"
        print(f"  {key.upper()} {s['spec']}: nil bids {nil} (made {made}), bags per hand "
              f"{bags}, decision median {s['decision_ms_median']:.1f} ms, "
              f"p95 {s['decision_ms_p95']:.1f} ms")
    for key, count in r.get("refused", {}).items():
        if count:
            first = next(why for why in r["refused_examples"] if why[0] == key.upper())
            print(f"  {key.upper()} {r['stats'][key]['spec']}: {count} answer"
                  f"{'s' if count != 1 else ''} refused and asked again; the first: "
                  f"{first[3:]}")
    for why in r.get("void_reasons", []):
        print(f"  void: {why}")
