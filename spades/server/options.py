"""A table's options: the rules they describe (checked to be storable) and invite codes as
people type them."""

from __future__ import annotations

from typing import Any

from spades.engine import Rules, RulesError, profile
from spades.engine.rules import PROFILE_OPTIONS, PROFILES
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
