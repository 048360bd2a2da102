"""Duplicate-deal evaluation of two bot specs (``spades arena``; see docs/bots.md).

Each deal is played twice with the same cards and dealer. The sides of the table are
labelled alternately A, B, A, B... by side number in the first play and the other way round
in the second, so every side's cards are played once by A and once by B. A deal's score is
the mean over sides of (the side's points when A held its cards − its points when B did).
With two sides that is the mean of (A's points − B's points) over the two plays.

A spec ``SPEC1/SPEC2`` gives the two seats of each of its sides different players: the
first seat of the side (in seat order) ``SPEC1``, the second ``SPEC2``. It needs sides of
two seats (partnerships, or six players in three teams of two).
"""

from __future__ import annotations

import math
import operator
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import EllipsisType
from typing import Any

from spades.bots import make_bot, not_a_spec
from spades.bots.base import Bot
from spades.engine import Match, Rules, profile
from spades.engine.actions import whole_number
from spades.engine.errors import check_flag

#: Hands after which a match in --matches mode is stopped as unfinished.
MAX_HANDS = 80
#: The all-seeing expert, for measuring the ceiling of the expert's search only.
ALLSEEING = "allseeing"


class BotFailure(Exception):
    """A bot could not go on (an external program died); the deal is void."""


@dataclass
class SideStats:
    """Counts for one label (A or B) over a run."""

    bids: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    side_hands: int = 0
    new_bags: int = 0
    points: int = 0
    wins: float = 0.0
    matches: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: SideStats) -> None:
        self.bids += other.bids
        self.nil_bids += other.nil_bids
        self.nil_made += other.nil_made
        self.side_hands += other.side_hands
        self.new_bags += other.new_bags
        self.points += other.points
        self.wins += other.wins
        self.matches += other.matches
        self.times.extend(other.times)

    def summary(self, spec: str) -> dict[str, Any]:
        times = sorted(self.times)
        return {
            "spec": spec,
            "nil_bid_rate": _ratio(self.nil_bids, self.bids),
            "nil_success": _ratio(self.nil_made, self.nil_bids),
            "bags_per_hand": _ratio(self.new_bags, self.side_hands),
            "decisions": len(times),
            "decision_ms_median": round(1000 * _quantile(times, 0.5), 2),
            "decision_ms_p95": round(1000 * _quantile(times, 0.95), 2),
        }


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    i = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[i]


@dataclass
class DealOutcome:
    """One duplicate deal: its score for A (``diff``) or void, the stats, the records."""

    index: int
    diff: float | None
    stats: dict[str, SideStats]
    records: list[dict[str, Any]]
    error: str | None = None
    #: Answers of external programs refused and asked again in a play that went on, as
    #: (label "a" or "b", what was refused and where); not kept by --results files.
    refused: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class ArenaConfig:
    """What :func:`run_arena` plays, as ``spades arena`` takes it: side ``a``'s and side
    ``b``'s players (bot specs: ``"expert"``, ``"cmd:python3 bot.py"``, ``"py:my_bots:MyBot"``,
    or ``"SPEC1/SPEC2"`` for the two seats of a side), the ``rules``
    (``profile("cardems")``), the number of duplicate ``deals`` (each played twice, the
    sides swapping seats), the ``seed``, ``matches`` (each play a whole match from the
    deal's seed instead of one hand) and ``save_records`` (each :class:`DealOutcome` that
    ``run_arena`` gives ``on_outcome`` holds both plays' records, as ``--save`` writes
    them)."""

    a: str
    b: str
    rules: Rules
    deals: int
    seed: int = 1
    matches: bool = False
    save_records: bool = False

    def __post_init__(self) -> None:
        """Refuse at once, by name, what ``spades arena`` refuses: rules that are not a
        :class:`Rules`, a spec that is not text or a mixed spec on sides not of two seats, a
        spec of no player (an unknown level, a bad budget, a ``py:`` object that cannot be
        loaded, a ``cmd:`` program that cannot be run),
        fewer than one deal, a seed that is not a whole number (one of another integer type,
        numpy's, is kept as that int), a flag (``matches``, ``save_records``) that is not
        ``True`` or ``False``."""
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a Rules, like profile('cardems'), "
                            f"not {self.rules!r}"[:200])
        for name in ("a", "b"):
            spec = getattr(self, name)
            if not isinstance(spec, str):
                raise TypeError(f"{name}: " + not_a_spec(spec, "a bot spec is text like 'expert'"))
            try:
                check_specs(spec, self.rules)
                for part in seat_specs(spec):
                    check_player(part)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"deals must be a whole number 1 or more, not {self.deals!r}"[:200])
        seed = whole_number(self.seed)
        if seed is None:
            raise TypeError(f"seed must be a whole number, not {self.seed!r}"[:200])
        object.__setattr__(self, "seed", seed)  # (frozen) an int, as the summary writes it
        check_flag("matches", self.matches)
        check_flag("save_records", self.save_records)


def seat_specs(spec: str) -> tuple[str, ...]:
    """The players of a side spec: ``("expert",)``, or ``("human:over", "expert")`` for
    ``human:over/expert``. A spec starting ``cmd:`` is one external program whole (its
    command may hold slashes); after a slash the second player may be one."""
    if spec.startswith("cmd:") or "/" not in spec:
        return (spec,)
    first, _, second = spec.partition("/")
    if not first or not second:
        raise ValueError(f"{spec!r}: a mixed side is SPEC1/SPEC2, two players")
    if "/" in second and not second.startswith("cmd:"):
        raise ValueError(f"{spec!r}: a mixed side has two players, SPEC1/SPEC2")
    return (first, second)


def check_player(spec: str) -> None:
    """Refuse (``ValueError``) the spec of one seat that gives no player: what
    :func:`make_player` refuses, and a ``cmd:`` program that cannot be started (checked,
    not started: it starts on its first decision)."""
    bot = make_player(spec, 0)
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    if spec.startswith("cmd:"):
        from spades.bots.external import check_program

        check_program(spec[4:])


def check_specs(spec: str, rules: Rules) -> None:
    """Refuse a mixed side spec on a table whose sides are not of two seats."""
    parts = seat_specs(spec)
    if len(parts) == 1:
        return
    sizes = {len(side) for side in rules.sides}
    if sizes != {2}:
        kind = "one seat (solo)" if sizes == {1} else f"{', '.join(map(str, sorted(sizes)))} seats"
        raise ValueError(f"{spec!r}: SPEC1/SPEC2 gives the two seats of a side different "
                         f"players, but the sides of this table have {kind}")


def spec_at(spec: str, rules: Rules, seat: int) -> str:
    """The player of ``seat`` for its side's spec (the seat's place in its side for a
    mixed spec)."""
    parts = seat_specs(spec)
    if len(parts) == 1:
        return parts[0]
    side = sorted(rules.sides[rules.side_of[seat]])
    return parts[side.index(seat)]


def make_player(spec: str, seed: int) -> Bot:
    """A bot for the arena: :func:`make_bot`'s specs, and ``allseeing[:budget]``, the expert
    whose sampled deals are the real hands (for measurement only: it is never offered to
    players, and only the arena shows it the hands)."""
    level, _, budget = spec.partition(":")
    if level == ALLSEEING:
        from spades.bots import parse_budget
        from spades.bots.expert import AllSeeingBot

        return AllSeeingBot(seed, **parse_budget(budget, "worlds"))
    return make_bot(spec, seed=seed)


def labels_for(nsides: int, swap: bool) -> list[str]:
    """``["a", "b", "a", ...]`` by side number, or the other way round."""
    out = ["a" if k % 2 == 0 else "b" for k in range(nsides)]
    if swap:
        out = ["b" if x == "a" else "a" for x in out]
    return out


def deal_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def play_deal(cfg: ArenaConfig, index: int) -> DealOutcome:
    """Both plays of deal ``index``."""
    rules = cfg.rules
    nsides = len(rules.sides)
    dseed = deal_seed(cfg.seed, index)
    points: list[list[int]] = []
    stats = {"a": SideStats(), "b": SideStats()}
    records: list[dict[str, Any]] = []
    refused: list[tuple[str, str]] = []
    try:
        for play in (0, 1):
            labels = labels_for(nsides, swap=play == 1)
            match, play_stats = play_once(cfg, dseed, labels, play, refused)
            points.append(list(match.scores))
            for key in ("a", "b"):
                stats[key].add(play_stats[key])
            if cfg.save_records:
                names = [f"{labels[rules.side_of[s]].upper()}:" + spec_at(
                    cfg.a if labels[rules.side_of[s]] == "a" else cfg.b, rules, s)
                         for s in range(rules.players)]
                records.append(match.to_record(
                    names=names, players=names,
                    arena={"deal": index, "play": play, "seed": dseed}))
    except BotFailure as exc:
        return DealOutcome(index, None, {"a": SideStats(), "b": SideStats()}, [], str(exc))
    first = labels_for(nsides, swap=False)
    total = 0.0
    for k in range(nsides):
        a_play, b_play = (0, 1) if first[k] == "a" else (1, 0)
        total += points[a_play][k] - points[b_play][k]
    return DealOutcome(index, total / nsides, stats, records, refused=refused)


def play_once(cfg: ArenaConfig, dseed: int, labels: list[str], play: int,
              refused: list[tuple[str, str]] | None = None
              ) -> tuple[Match, dict[str, SideStats]]:
    """One play of a deal (one hand, or a whole match with ``cfg.matches``). ``refused``
    gets the external programs' refused answers, by label, when the play ends."""
    from spades.bots.external import ExternalBotError

    rules = cfg.rules
    match = Match.new(rules, dseed)
    bots: list[Bot] = []
    specs: list[str] = []
    for seat in range(rules.players):
        label = labels[rules.side_of[seat]]
        spec = spec_at(cfg.a if label == "a" else cfg.b, rules, seat)
        specs.append(spec)
        bots.append(make_player(spec, seed=dseed * 8 + seat))
    stats = {"a": SideStats(), "b": SideStats()}
    clock = time.perf_counter
    # (which deal of the run, as --results numbers it, its seed, and which of its two
    # plays; an external program's error names the program, the seat and the decision)
    where = f"deal {dseed - deal_seed(cfg.seed, 0)} (seed {dseed}), play {play + 1} of 2"
    try:
        while not match.is_over():
            if not cfg.matches and match.results:
                break
            if cfg.matches and len(match.results) >= MAX_HANDS:
                break
            seat = match.current_player
            obs = match.observation(seat)
            see = getattr(bots[seat], "see", None)
            if see is not None:  # the all-seeing expert (measurement only)
                see(tuple(match.hands))
            t0 = clock()
            if specs[seat].startswith("py:"):  # your own code: its failure voids the deal
                action = _python_act(bots[seat], obs, specs[seat])
            else:
                action = bots[seat].act(obs)
            stats[labels[rules.side_of[seat]]].times.append(clock() - t0)
            match.apply(action)
    except (ExternalBotError, PythonBotError) as exc:
        raise BotFailure(f"{where}: {exc}") from None
    finally:
        for seat, bot in enumerate(bots):
            problems = getattr(bot, "problems", None)
            if refused is not None and isinstance(problems, list):
                refused.extend((labels[rules.side_of[seat]], f"{where}: {p}")
                               for p in problems)

            close = getattr(bot, "close", None)
            if close is not None:
                close()
    for result in match.results:
        for k, seats in enumerate(rules.sides):
            st = stats[labels[k]]
            st.side_hands += 1
            st.new_bags += result.sides[k].new_bags
            st.points += result.points[k]
            for s in seats:
                st.bids += 1
                if result.bids[s] == 0:
                    st.nil_bids += 1
                    st.nil_made += result.tricks[s] == 0
    if cfg.matches:
        for key in ("a", "b"):
            stats[key].matches += 1
        if match.winner is None:
            stats["a"].wins += 0.5
            stats["b"].wins += 0.5
        else:
            stats[labels[match.winner]].wins += 1
    return match, stats


class PythonBotError(Exception):
    """A ``py:`` bot raised an error or chose an action that is not legal."""


def _python_act(bot: Bot, obs: Any, spec: str) -> int:
    """``bot.act(obs)`` as a plain int. An integer of another type (numpy's ``int64``, or
    anything with ``__index__``) is that int; anything else (a float, a bool, text) is
    refused like an action that is not legal, even when it equals one (``64.0 == 64``)."""
    try:
        given = bot.act(obs)
    except Exception as exc:
        raise PythonBotError(f"{spec}: act raised {type(exc).__name__}: {exc}") from None
    action = _whole_number(given)
    if action is None or action not in obs.legal_actions:
        kind = "" if action is not None else f" ({type(given).__name__}, not an int)"
        raise PythonBotError(f"{spec}: act gave {given!r}, not one of obs.legal_actions{kind}")
    return action


def _whole_number(value: object) -> int | None:
    """``value`` as an int if it is of an integer type (not a bool), else ``None``."""
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):  # numpy's too
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _leave_ctrl_c() -> None:
    """A worker's start: Ctrl-C, which the terminal sends to every process of the run, is
    the arena's to handle (it ends the pool); a worker that took it began a traceback. It
    is caught and dropped, not ignored (``SIG_IGN``): an ignored signal stays ignored in the
    programs a worker starts, and external bots (``cmd:``) outlived a Ctrl-C."""
    import signal

    signal.signal(signal.SIGINT, _drop_signal)


def _drop_signal(signum: int, frame: object) -> None:
    """A signal handler that does nothing (reset to the default in a program started
    from here, as ``SIG_IGN`` is not)."""


def _run_task(args: tuple[ArenaConfig, int]) -> DealOutcome:
    return play_deal(*args)


def run_arena(cfg: ArenaConfig, jobs: int = 1,
              progress: Callable[[int, list[float], int], None] | None = None,
              on_outcome: Callable[[DealOutcome], None] | None = None,
              done: Mapping[int, DealOutcome] | None = None) -> dict[str, Any]:
    """Play every deal (in ``jobs`` processes) and return the summary dictionary.

    ``done`` holds deals already finished (by index, from a results file): those of them
    in ``range(cfg.deals)`` are not played again but counted in the summary (and in
    ``progress``) as if they had been; ``on_outcome`` is only called for deals played
    now. The summary is over the deals in index order, whatever order they finish in.
    ``jobs`` that is not a whole number 1 or more is a ``ValueError``, as ``--jobs`` is (one
    of any integer type, numpy's, is that int); ``cfg`` that is not an
    :class:`ArenaConfig` is a ``TypeError``."""
    if not isinstance(cfg, ArenaConfig):
        what = repr(cfg)[:80] if isinstance(cfg, str) else f"a {type(cfg).__name__}"
        raise TypeError("run_arena takes an ArenaConfig, like ArenaConfig(a='expert', "
                        "b='beginner', rules=profile('cardems'), deals=10, seed=1), "
                        f"not {what}")
    processes = whole_number(jobs)
    if processes is None or processes < 1:
        raise ValueError(f"jobs must be a whole number 1 or more, not {jobs!r}"[:200])
    jobs = processes
    earlier = {i: o for i, o in (done or {}).items() if 0 <= i < cfg.deals}
    tasks = [(cfg, i) for i in range(cfg.deals) if i not in earlier]
    arrived: list[float] = []
    diff_at: dict[int, float] = {}
    void_at: dict[int, str] = {}
    refused_at: dict[int, list[tuple[str, str]]] = {}
    stats = {"a": SideStats(), "b": SideStats()}
    start = time.perf_counter()

    def outcomes() -> Iterator[DealOutcome]:
        if not tasks:
            return
        if jobs <= 1:
            for t in tasks:
                yield _run_task(t)
            return
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs, _leave_ctrl_c) as pool:
            yield from pool.imap_unordered(_run_task, tasks)

    def count(outcome: DealOutcome) -> None:
        if outcome.diff is None:
            void_at[outcome.index] = outcome.error or "void"
        else:
            diff_at[outcome.index] = outcome.diff
            if outcome.refused:
                refused_at[outcome.index] = outcome.refused
            arrived.append(outcome.diff)
            for key in ("a", "b"):
                stats[key].add(outcome.stats[key])

    for index in sorted(earlier):
        count(earlier[index])
    finished = len(earlier)
    if progress is not None and earlier:
        progress(finished, arrived, len(void_at))
    for outcome in outcomes():
        finished += 1
        count(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
        if progress is not None:
            progress(finished, arrived, len(void_at))
    diffs = [diff_at[i] for i in sorted(diff_at)]
    voids = [void_at[i] for i in sorted(void_at)]
    elapsed = time.perf_counter() - start
    mean, low, high = mean_ci(diffs)
    result: dict[str, Any] = {
        "a": cfg.a,
        "b": cfg.b,
        "rules": cfg.rules.name,
        "players": cfg.rules.players,
        "teams": cfg.rules.teams is not None,
        "a_seats": list(seat_specs(cfg.a)),
        "b_seats": list(seat_specs(cfg.b)),
        "mode": "matches" if cfg.matches else "hands",
        "seed": cfg.seed,
        "deals": len(diffs),
        "void": len(voids),
        "mean": round(mean, 3) if diffs else None,  # no deal played: no result
        "ci95": [round(low, 3), round(high, 3)] if diffs else None,
        "seconds": round(elapsed, 1),
        "resumed": len(earlier),
        "stats": {"a": stats["a"].summary(cfg.a), "b": stats["b"].summary(cfg.b)},
    }
    if cfg.matches:
        games = stats["a"].matches
        result["a_win_share"] = _ratio(stats["a"].wins, games)
        result["matches_played"] = games
    if voids:
        result["void_reasons"] = voids[:10]
    refused = [item for i in sorted(refused_at) for item in refused_at[i]]
    if refused:  # answers refused then given again: the deal went on, the program is wrong
        result["refused"] = {key: sum(1 for k, _ in refused if k == key) for key in ("a", "b")}
        result["refused_examples"] = [f"{k.upper()}: {why}" for k, why in refused[:10]]
    return result


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval of the mean."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def default_jobs() -> int:
    return os.cpu_count() or 1


def stderr_progress(total: int, every: float = 5.0,
                    resumed: int = 0) -> Callable[[int, list[float], int], None]:
    """A progress printer for standard error (at most one line per ``every`` seconds).
    ``resumed`` deals were taken from a results file: counted as done, not in the rate."""
    start = time.perf_counter()
    last = [0.0]

    def show(done: int, diffs: list[float], voids: int) -> None:
        now = time.perf_counter()
        if done < total and now - last[0] < every:
            return
        last[0] = now
        mean, low, high = mean_ci(diffs)
        rate = (done - resumed) / max(now - start, 1e-9)
        eta = (total - done) / rate if rate else 0.0
        left = f"{eta / 60:.1f} min" if rate or done >= total else "-"
        void = f", {voids} void" if voids else ""
        earlier = f" ({resumed} from the results file)" if resumed else ""
        figure = f"mean {mean:+.1f} [{low:+.1f}, {high:+.1f}]" if diffs else "no result yet"
        print(f"arena: {done}/{total} deals{earlier}, {figure}{void}, {rate:.2f} deals/s, "
              f"ETA {left}", file=sys.stderr, flush=True)

    return show


def config_from(a: str, b: str, rules_name: str, players: int | None, deals: int, seed: int,
                matches: bool, save: bool,
                teams: tuple[tuple[int, ...], ...] | EllipsisType | None = ...) -> ArenaConfig:
    """The arena's configuration; ``teams`` ``...`` (not given) keeps the profile's sides,
    ``None`` is solo (``--teams solo``, as for ``spades play``)."""
    kwargs: dict[str, Any] = {}
    if players is not None:
        kwargs["players"] = players
    if teams is not ...:
        kwargs["teams"] = teams
    rules = profile(rules_name, **kwargs)
    check_specs(a, rules)
    check_specs(b, rules)
    return ArenaConfig(a=a, b=b, rules=rules, deals=deals, seed=seed, matches=matches,
                       save_records=save)
