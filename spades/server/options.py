"""A table's options: the rules they describe (checked to be storable) and invite codes as
people type them."""

from __future__ import annotations

from typing import Any

from spades.engine import Rules, RulesError, profile
from spades.engine.rules import PROFILE_OPTIONS, PROFILES
from spades.present.words import listing
from spades.server.protocol import TableOptions
from spades.store import StoreError, storable_rules

OVERRIDES = ("target", "one_hand", "bag_limit", "bag_penalty", "blind_nil", "bidding",
             "jokers", "ten_for_200", "turn_timer")
#: Options every table offers, whatever its profile (the length of the match and the timer);
#: the other rules knobs only where the profile's system offers them (``PROFILE_OPTIONS``).
ALWAYS = ("target", "one_hand", "turn_timer")


def build_rules(opts: TableOptions) -> Rules:
    """The rules a table's options describe (raises :class:`RulesError` saying why)."""
    if opts.profile not in PROFILES:
        raise RulesError(f"profile: unknown {opts.profile!r}; choose one of "
                         f"{', '.join(PROFILES)}")
    counts = PROFILES[opts.profile][0]
    knobs: dict[str, Any] = {}
    if opts.players is not None:
        knobs["players"] = opts.players
    for key in OVERRIDES:
        value = getattr(opts, key)
        if value is not None:
            knobs[key] = value
    base = profile(opts.profile, players=knobs.get("players", counts[0] if len(counts) == 1
                                                    else 4))
    offered = PROFILE_OPTIONS.get(opts.profile, ())
    for key in OVERRIDES:
        if (key in knobs and key not in ALWAYS and key not in offered
                and knobs[key] != getattr(base, key)):
            others = ", ".join(k for k in offered if k in OVERRIDES) or "none"
            raise RulesError(f"{key}: {opts.profile} does not offer this option (its rules "
                             f"options: {others})")
    n = base.players
    if opts.teams is not None:
        offers = "teams" in offered
        if opts.teams == 0:
            if base.teams is not None and not offers:
                raise RulesError(f"teams: {opts.profile} is a partnership game")
            knobs["teams"] = None
        else:
            k = opts.teams
            if base.teams is None and not offers:
                raise RulesError(f"teams: {opts.profile} is played solo")
            if n % k or n // k < 2:
                raise RulesError(f"teams: {n} players cannot make {k} teams of two or more")
            knobs["teams"] = tuple(tuple(range(t, n, k)) for t in range(k))
    if opts.first_dealer is not None and opts.first_dealer >= n:
        raise RulesError(f"first_dealer: must be a seat from 0 to {n - 1}")
    return restartable(profile(opts.profile, **knobs))


def restartable(rules: Rules) -> Rules:
    """``rules`` if a restart can build them back from the database, exactly as it will
    (raises :class:`RulesError` saying why not): checked before anything is stored."""
    try:
        return storable_rules(rules)
    except StoreError as exc:
        raise RulesError(f"these rules cannot be kept: {exc}") from None


def invite_code(typed: str) -> str:
    """An invite code as people type it: any case, spaces or dashes between the letters."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())


def changes_said(old: TableOptions, new: TableOptions, rules: Rules) -> str:
    """What an options change did, as the predicate of a sentence ("changed the turn timer
    to 12 seconds and the target score to 300, and made the table private"), the rules'
    value where an option went back to the profile's; "" when nothing changed."""
    changed: list[str] = []  # "changed X to Y" phrases, said together
    other: list[str] = []
    first = None  # where the "changed ..." clause goes among the others

    def to(what: str, value: str) -> None:
        nonlocal first
        if first is None:
            first = len(other)
        changed.append(f"{what} to {value}")

    def onoff(flag: bool, on: str, off: str) -> None:
        other.append(on if flag else off)

    for key in TableOptions.model_fields:
        before, after = getattr(old, key), getattr(new, key)
        if before == after:
            continue
        if key == "name":
            other.append(f"renamed the table {after}" if after else "took the table's name away")
        elif key == "profile":
            to("the rules", after)
        elif key == "players":
            to("the number of players", str(rules.players))
        elif key == "teams":
            k = 0 if rules.teams is None else len(rules.teams)
            other.append(f"made it a game of {k} teams" if k else "made everyone play alone")
        elif key == "target":
            to("the target score", str(rules.target))
        elif key == "one_hand":
            onoff(rules.one_hand, "made it a one-hand match", "made it a full match")
        elif key == "bag_limit":
            to("the bag limit", str(rules.bag_limit))
        elif key == "bag_penalty":
            to("the bag penalty", str(rules.bag_penalty))
        elif key == "blind_nil":
            onoff(rules.blind_nil, "allowed blind nil", "took blind nil away")
        elif key == "bidding":
            to("the bidding", rules.bidding)
        elif key == "jokers":
            onoff(rules.jokers, "added the jokers", "took the jokers out")
        elif key == "ten_for_200":
            onoff(rules.ten_for_200, "made a contract of 10 score 200",
                  "made a contract of 10 score 100")
        elif key == "turn_timer":
            if rules.turn_timer is None:
                other.append("turned the turn timer off")
            else:
                to("the turn timer", f"{rules.turn_timer} seconds")
        elif key == "cpu":
            to("the CPU strength", after)
        elif key == "private":
            onoff(after, "made the table private", "made the table public")
        elif key == "spectators":
            onoff(after, "let spectators watch", "closed the table to spectators")
        elif key == "grace_seconds":
            to("the wait for a dropped player", f"{after} seconds")
        elif key == "first_dealer":
            to("the first dealer", "random" if after is None else f"place {after + 1}")
    if changed:
        other.insert(first or 0, "changed " + listing(changed))
    if not other:
        return "changed nothing"
    if len(other) > 1 and len(changed) > 1:  # "changed A and B, and made ..."
        return ", ".join(other[:-1]) + ", and " + other[-1]
    return listing(other)
