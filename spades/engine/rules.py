"""The rules of a match: one frozen object whose fields are the knobs of every profile.

A profile (``cardems``, ``cardgames-club``, ``race400``, ``game93``, ``cards4net``) is only
a set of values for these knobs; :func:`profile` builds one, with overrides. Impossible
combinations are refused when the object is built, with a :class:`RulesError` that names
the knob.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from spades.engine.actions import whole_number
from spades.engine.cards import deck_mask
from spades.engine.errors import RulesError, check_flag

Bidding = Literal["standard", "mirror", "suicide", "whiz"]
SpadesBreak = Literal["any", "trump"]
Teams = tuple[tuple[int, ...], ...]

BIDDING_STYLES: tuple[Bidding, ...] = ("standard", "mirror", "suicide", "whiz")


def shown(value: object, width: int = 40) -> str:
    """A short one-line description of any value, for error messages: bounded in length,
    never recursive (a list nested 1,000 deep is just "a list"), safe to print."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 128 else "a number too large to be one"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if len(value) <= width:
            return repr(value)
        return f"{value[:width]!r}... ({len(value)} characters)"
    if isinstance(value, Mapping):
        if len(value) <= 4 and all(isinstance(k, str) and _is_scalar(v) for k, v in value.items()):
            text = "{" + ", ".join(f"{shown(k, 16)}: {shown(v, 16)}" for k, v in value.items()) + "}"
            if len(text) <= 2 * width:
                return text
        return f"an object of {len(value)} key{'' if len(value) == 1 else 's'}"
    if isinstance(value, (list, tuple)):
        if len(value) <= 8 and all(_is_scalar(v) for v in value):
            text = "[" + ", ".join(shown(v, 16) for v in value) + "]"
            if len(text) <= 2 * width:
                return text
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    return f"a {type(value).__name__}"


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every rule of a match. Build with :func:`profile`, or directly for a custom game."""

    #: The profile these values came from (``custom`` when built by hand).
    name: str = "custom"
    #: Number of seats, 3 to 6.
    players: int = 4
    #: Seats of each side (``((0, 2), (1, 3))``), or ``None`` when every player plays alone.
    teams: Teams | None = ((0, 2), (1, 3))
    #: Big and little joker added as the two highest trumps.
    jokers: bool = False
    #: A bid of 0 (Nil) is allowed.
    nil: bool = True
    #: Blind Nil may be bid as the first bid of a hand, before looking at the cards.
    blind_nil: bool = False
    nil_points: int = 100
    blind_nil_points: int = 200
    #: ``standard`` or a house variant of seed 004: ``mirror``, ``suicide``, ``whiz``.
    bidding: Bidding = "standard"
    #: ``any``: broken by any spade played; ``trump``: only by a spade played on another suit.
    spades_break: SpadesBreak = "any"
    #: A failed Nil bidder's tricks count toward the side's contract (else +1 point, 1 bag each).
    failed_nil_tricks_count: bool = False
    bag_limit: int = 10
    bag_penalty: int = 100
    #: After a bag penalty the counter drops to 0 (else it keeps the remainder).
    bags_reset: bool = False
    #: Points for a contract of exactly 1 or 2 made with no overtrick.
    small_contract_bonus: int = 0
    #: +10 per bid trick above this number when the contract is made; ``None``: no bonus.
    hard_contract_from: int | None = None
    #: A side contract of exactly 10 scores ±200 instead of ±100.
    ten_for_200: bool = False
    #: Score that wins (the unique highest score at or above it, after each hand).
    target: int = 500
    #: The match is a single hand; the higher score wins, equal scores draw.
    one_hand: bool = False
    #: Seconds per turn, or ``None`` for no timer.
    turn_timer: int | None = None
    #: Bags given to a side whose player lets the turn timer run out.
    timeout_penalty_bags: int = 1

    def __post_init__(self) -> None:
        for knob in _WHOLE_KNOBS:  # a whole number of another integer type (numpy's): that int
            value = getattr(self, knob)
            if type(value) is not int and value is not None:
                number = whole_number(value)
                if number is not None:
                    object.__setattr__(self, knob, number)
        for knob in _FLAG_KNOBS:  # numpy's bool (from an array of settings): that bool
            value = getattr(self, knob)
            if type(value).__name__ in ("bool", "bool_") and type(value).__module__ == "numpy":
                object.__setattr__(self, knob, bool(value))
        if self.teams is not None and not (
                isinstance(self.teams, tuple) and all(isinstance(t, tuple) for t in self.teams)):
            # Lists of seats, as profile() and records take them: frozen, so set it here.
            object.__setattr__(self, "teams", _teams_tuple(self.teams))
        _validate(self)

    # Derived values -------------------------------------------------------------------

    @property
    def deck(self) -> int:
        """Bitmask of the cards in play."""
        return deck_mask(self.players, self.jokers)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (13 with four players and no jokers)."""
        return self.deck.bit_count() // self.players

    @property
    def sides(self) -> Teams:
        """Seats of each side; a solo game has one side per seat."""
        if self.teams is None:
            return tuple((s,) for s in range(self.players))
        return self.teams

    @property
    def side_of(self) -> tuple[int, ...]:
        """Side index of each seat."""
        out = [0] * self.players
        for k, seats in enumerate(self.sides):
            for s in seats:
                out[s] = k
        return tuple(out)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed (validated again). As with :func:`profile`,
        choosing ``bidding="mirror"`` turns blind nil off unless ``blind_nil`` is given too.

        A profile's rules given another number of players that the profile is played by
        are that profile's for the new number, with every knob that differs from the
        profile's kept (as :meth:`to_json` writes them) and the changes on top:
        ``profile("race400", target=300).replace(players=6) == profile("race400",
        players=6, target=300)``, so the knobs the profile derives from the number of
        players (race400's ``hard_contract_from``) are the new number's.

        >>> profile("race400").replace(players=6) == profile("race400", players=6)
        True
        """
        for key in changes:
            if key not in _KNOBS:
                raise RulesError(_not_a_knob(key))
        if "players" in changes and changes["players"] != self.players:
            entry = PROFILES.get(self.name)
            base = profile_base(self)
            new = whole_number(changes["players"])
            if entry is not None and base is not None and new in entry[0]:
                kept = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                        if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)}
                return profile(self.name, **{**kept, **changes})
        if changes.get("bidding") == "mirror" and "blind_nil" not in changes:
            changes["blind_nil"] = False  # choosing Mirror turns blind nil off, as in profile()
        return dataclasses.replace(self, **changes)

    # JSON -----------------------------------------------------------------------------

    def to_json(self, *, teams: bool = False) -> dict[str, Any]:
        """``{"preset": name, ...knobs that differ from the preset}``; see docs/records.md.

        The teams are left out (a record writes them beside the rules) unless ``teams``:
        then they are written too where they differ from the preset's (always for
        ``custom``), so that ``rules_from_json(rules.to_json(teams=True)) == rules``.

        Rules named after no profile (``Rules(name="mine")``), or after a profile that is
        not played by this many players, are written as ``"preset": "custom"`` with every
        knob and their ``"name"``, so the name comes back too."""
        check_flag("teams", teams)
        base = profile_base(self)
        out: dict[str, Any] = {"preset": "custom" if base is None else self.name}
        if base is None and self.name != "custom":
            out["name"] = self.name
        if self.players != 4 or base is None:
            out["players"] = self.players
        if teams and (base is None or self.teams != base.teams):
            out["teams"] = None if self.teams is None else [list(side) for side in self.teams]
        for f in dataclasses.fields(self):
            if f.name in ("name", "players", "teams"):
                continue
            value = getattr(self, f.name)
            if base is None or value != getattr(base, f.name):
                if f.name == "one_hand":
                    out["match"] = "one-hand" if value else "target"
                else:
                    out[f.name] = value
        return out


def profile_base(rules: Rules) -> Rules | None:
    """The profile ``rules`` are written against (its name's, for its number of players),
    or ``None`` when they are written in full (``custom``, a name of no profile, or a
    profile not played by that many players)."""
    entry = PROFILES.get(rules.name)
    if entry is None or rules.players not in entry[0]:
        return None
    return profile(rules.name, players=rules.players)


def _validate(r: Rules) -> None:
    def bad(knob: str, why: str) -> RulesError:
        return RulesError(f"{knob}: {why}")

    if not isinstance(r.name, str) or not r.name:
        raise bad("name", f"must be some text, not {r.name!r}")
    if not isinstance(r.players, int) or isinstance(r.players, bool) or not 3 <= r.players <= 6:
        raise bad("players", f"must be 3 to 6, not {r.players!r}")
    for knob in ("nil_points", "blind_nil_points", "bag_penalty", "small_contract_bonus",
                 "timeout_penalty_bags"):
        v = getattr(r, knob)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise bad(knob, f"must be a whole number 0 or more, not {v!r}")
    for knob in _FLAG_KNOBS:
        if not isinstance(getattr(r, knob), bool):
            raise bad(knob, f"must be true or false, not {getattr(r, knob)!r}")
    if not isinstance(r.bag_limit, int) or isinstance(r.bag_limit, bool) or r.bag_limit < 1:
        raise bad("bag_limit", f"must be a whole number 1 or more, not {r.bag_limit!r}")
    if not isinstance(r.target, int) or isinstance(r.target, bool) or r.target < 1:
        raise bad("target", f"must be a whole number 1 or more, not {r.target!r}")
    if r.bidding not in BIDDING_STYLES:
        raise bad("bidding", f"must be one of {', '.join(BIDDING_STYLES)}, not {r.bidding!r}")
    if r.spades_break not in ("any", "trump"):
        raise bad("spades_break", f"must be 'any' or 'trump', not {r.spades_break!r}")
    if r.turn_timer is not None and (
        not isinstance(r.turn_timer, int) or isinstance(r.turn_timer, bool)
        or not 5 <= r.turn_timer <= 600
    ):
        raise bad("turn_timer", f"must be off (null) or a whole number of seconds, 5 to 600, "
                                f"not {r.turn_timer!r}")
    hand_size = deck_mask(r.players, r.jokers).bit_count() // r.players
    if r.hard_contract_from is not None and (
        not isinstance(r.hard_contract_from, int) or not 0 <= r.hard_contract_from < hand_size
    ):
        raise bad("hard_contract_from", f"must be null or 0 to {hand_size - 1}, "
                  f"not {r.hard_contract_from!r}")
    if r.teams is not None:
        _validate_teams(r.teams, r.players)
    if r.bidding == "suicide" and r.teams is None:
        raise bad("bidding", "suicide needs teams: one partner of each side bids Nil")
    if r.bidding != "standard" and not r.nil:
        raise bad("bidding", f"{r.bidding} bidding needs Nil to be allowed")
    if r.bidding == "mirror" and r.blind_nil:
        raise bad("blind_nil", "mirror bidding has no blind nil")
    if r.blind_nil and not r.nil:
        raise bad("blind_nil", "blind nil needs Nil to be allowed")


def _validate_teams(teams: Teams, players: int) -> None:
    def bad(why: str) -> RulesError:
        return RulesError(f"teams: {why}")

    if not isinstance(teams, tuple) or len(teams) < 2:
        raise bad("there must be at least two sides")
    seats = [s for side in teams for s in side]
    if sorted(seats) != list(range(players)):
        why = f"every seat 0 to {players - 1} must be on exactly one side, got {list(map(list, teams))}"
        if sorted(seats) == list(range(len(seats))):  # the seating of another count (a default)
            why += (f": those are teams of {len(seats)} players; give the teams of {players} "
                    "(teams=None: everyone alone)")
        raise bad(why)
    sizes = {len(side) for side in teams}
    if len(sizes) != 1 or sizes.pop() < 2:
        raise bad("sides must be of equal size, two or more players each")
    for side in teams:
        for s in side:
            if (s + 1) % players in side:
                raise bad(f"seats {s} and {(s + 1) % players} are teammates sitting side by side")


# Profiles ---------------------------------------------------------------------------------

_RACE400_HARD_FROM = {3: 9, 4: 6, 5: 5, 6: 4}


def _cardems(players: int) -> dict[str, Any]:
    return {"failed_nil_tricks_count": True}


def _cardgames_club(players: int) -> dict[str, Any]:
    return {}


def _race400(players: int) -> dict[str, Any]:
    return {
        "teams": None,
        "target": 400,
        "small_contract_bonus": 20 if players <= 4 else 0,
        "hard_contract_from": _RACE400_HARD_FROM[players],
    }


def _game93(players: int) -> dict[str, Any]:
    return {"spades_break": "trump"}


def _cards4net(players: int) -> dict[str, Any]:
    return {"blind_nil": True, "spades_break": "trump", "bags_reset": True}


#: Profile name → (allowed player counts, knob values).
PROFILES = {
    "cardems": ((4,), _cardems),
    "cardgames-club": ((4,), _cardgames_club),
    "race400": ((3, 4, 5, 6), _race400),
    "game93": ((4,), _game93),
    "cards4net": ((4,), _cards4net),
}

#: Knobs each seed system offers its players as options (the rest may still be overridden).
PROFILE_OPTIONS: dict[str, tuple[str, ...]] = {
    "cardems": (),
    "cardgames-club": (),
    "race400": ("players", "teams", "target", "turn_timer"),
    "game93": ("one_hand", "target"),
    "cards4net": ("target", "blind_nil", "bag_limit", "bag_penalty", "jokers", "ten_for_200",
                  "bidding"),
}

_KNOBS = {f.name for f in dataclasses.fields(Rules)} - {"name"}
#: The knobs that are whole numbers (or ``None``).
_FLAG_KNOBS = ("jokers", "nil", "blind_nil", "failed_nil_tricks_count", "bags_reset",
               "ten_for_200", "one_hand")
_WHOLE_KNOBS = ("players", "nil_points", "blind_nil_points", "bag_limit", "bag_penalty",
                "small_contract_bonus", "hard_contract_from", "target", "turn_timer",
                "timeout_penalty_bags")


def _not_a_knob(key: str) -> str:
    """Why ``key`` cannot be given as a knob: ``name`` is the rules' own name (a profile's
    rules keep theirs), anything else no knob at all."""
    if key == "name":
        return ("name: the rules' own name, not a knob: a profile's rules keep the profile's; "
                "rules of your own are Rules(name='mine', ...knobs)")
    return f"{key}: unknown rules knob; known: {', '.join(sorted(_KNOBS))}"[:500]


def profile(name: str = "", /, **overrides: Any) -> Rules:
    """The rules of a named profile, with knob overrides (validated). Choosing
    ``bidding="mirror"`` turns blind nil off unless ``blind_nil`` is given too. The name
    comes first, by position: ``profile(name="cardems")`` is refused with that advice.

    >>> profile("race400", players=3).hand_size
    17
    """
    if isinstance(name, Rules):
        raise RulesError(f"profile takes a profile's name, and these are already Rules "
                         f"({name.name}): rules.replace(**knobs) changes them")
    if not isinstance(name, str):  # (a record's preset is text by then: Python's words)
        given = repr(name) if name is None or isinstance(name, bool) else shown(name)
        raise RulesError(f"a rules profile is named by text, one of {', '.join(PROFILES)}; "
                         f"not {given}")
    if not name:  # profile() or profile(name="cardems"): Python's words named no profile
        given = overrides.get("name")
        if isinstance(given, str) and given in PROFILES:
            raise RulesError(f"profile takes the profile's name first, by position: "
                             f"profile({given!r}), not profile(name={given!r})")
        raise RulesError(f"profile takes a profile's name first, like profile('cardems'): "
                         f"one of {', '.join(PROFILES)}")
    if name not in PROFILES:
        if name == "custom":  # a record's "preset": "custom" is no profile
            raise RulesError("'custom' is no profile: rules of your own are "
                             "Rules(name='mine', ...knobs), or rules_from_json({'preset': "
                             "'custom', ...})")
        raise RulesError(f"unknown rules profile {shown(name)}; choose one of {', '.join(PROFILES)}")
    counts, values = PROFILES[name]
    players = overrides.pop("players", counts[0] if len(counts) == 1 else 4)
    if players not in counts:
        allowed = (f"{counts[0]} to {counts[-1]}" if len(counts) > 2
                   else " or ".join(map(str, counts)))
        raise RulesError(f"players: {name} is played by {allowed} players, not {shown(players)}")
    knobs: dict[str, Any] = {"name": name, "players": players}
    knobs.update(values(players))
    if players != 4 and knobs.get("teams", ()) is not None:
        knobs["teams"] = None
    if overrides.get("bidding") == "mirror" and "blind_nil" not in overrides:
        knobs["blind_nil"] = False  # choosing Mirror turns blind nil off (rules-profiles.md)
    for key, value in overrides.items():
        if key not in _KNOBS:
            raise RulesError(_not_a_knob(key))
        knobs[key] = value
    if "teams" in knobs and knobs["teams"] is not None:
        knobs["teams"] = _teams_tuple(knobs["teams"])
    try:
        return Rules(**knobs)
    except TypeError as exc:  # pragma: no cover - guarded by the knob check above
        raise RulesError(str(exc)) from None


def _teams_tuple(teams: Any) -> Teams:
    if not isinstance(teams, Sequence) or isinstance(teams, str):
        raise RulesError(f"teams: must be lists of seats, like [[0, 2], [1, 3]], "
                         f"not {shown(teams)}")
    out = []
    for k, side in enumerate(teams):
        if not isinstance(side, Sequence) or isinstance(side, str):
            raise RulesError(f"teams: side {k}: must be a list of seat numbers, not {shown(side)}")
        seats = []
        for s in side:
            number = whole_number(s)  # (a numpy integer is that seat, as for every knob)
            if number is None:
                raise RulesError(f"teams: side {k}: a seat must be a whole number, not {shown(s)}")
            seats.append(number)
        out.append(tuple(seats))
    return tuple(out)


def _teams_text(teams: Teams | None) -> str:
    """``[[0, 2], [1, 3]]`` or ``null``, cut short when long."""
    if teams is None:
        return "null"
    text = "[" + ", ".join("[" + ", ".join(shown(s) for s in side) + "]" for side in teams) + "]"
    return text if len(text) <= 80 else text[:77] + "..."


#: The longest ``"name"`` a rules object may give.
_NAME_MAX = 100

#: The keys a record's rules object may hold besides ``"preset"`` (and ``"name"``).
JSON_KNOBS = frozenset(_KNOBS | {"match"})


def rules_from_json(value: Any, teams: Any = None, players: int | None = None) -> Rules:
    """Rules from a record's ``rules`` field (a profile name or ``{"preset": NAME, ...}``),
    its optional ``teams`` field, and the number of players seen in its deal.

    Any JSON value is either rules or a :class:`RulesError` naming the knob at fault."""
    overrides: dict[str, Any] = {}
    own_name: str | None = None  # the rules' own name, when not the preset's
    if isinstance(value, str):
        name = value
    elif isinstance(value, Mapping):
        if not isinstance(value.get("preset"), str):
            raise RulesError('an object needs "preset": a profile name or "custom", '
                             f'not {shown(value.get("preset"))}')
        name = value["preset"]
        if "name" in value:
            own_name = value["name"]
            if not isinstance(own_name, str) or not own_name or len(own_name) > _NAME_MAX:
                raise RulesError(f"name: must be text of 1 to {_NAME_MAX} characters, "
                                 f"not {shown(own_name)}")
            if name != "custom" and own_name != name:
                raise RulesError(f"name: {shown(own_name)} is not the preset {shown(name)}; "
                                 'only "preset": "custom" rules carry a name of their own')
        for key, knob in value.items():
            if key in ("preset", "name"):
                continue
            if not isinstance(key, str) or key not in JSON_KNOBS:
                label = key if isinstance(key, str) and key.isidentifier() and len(key) <= 40 \
                    else shown(key)
                raise RulesError(f"{label}: unknown rules knob; known: "
                                 f"{', '.join(sorted(JSON_KNOBS))}")
            if key != "teams" and not _is_scalar(knob):
                raise RulesError(f"{key}: must be a number, true or false, text or null, "
                                 f"not {shown(knob)}")
            overrides[key] = knob
    else:
        raise RulesError(f"must be a profile name or an object, not {shown(value)}")
    if "match" in overrides:
        match = overrides.pop("match")
        if match not in ("one-hand", "target"):
            raise RulesError(f"match: must be 'one-hand' or 'target', not {shown(match)}")
        if "one_hand" in overrides and overrides["one_hand"] is not (match == "one-hand"):
            raise RulesError(f"match: {shown(match)} contradicts one_hand: "
                             f"{shown(overrides['one_hand'])}; give one of them")
        overrides["one_hand"] = match == "one-hand"
    if "players" not in overrides and players is not None:
        overrides["players"] = players
    if "teams" in overrides and overrides["teams"] is not None:
        overrides["teams"] = _teams_tuple(overrides["teams"])
    if teams is not None:
        given = _teams_tuple(teams)
        if "teams" in overrides and overrides["teams"] != given:
            raise RulesError(f"teams: the record's teams {_teams_text(given)} contradict the "
                             f"rules' {_teams_text(overrides['teams'])}; give one of them")
        overrides["teams"] = given
    rules = Rules(**overrides) if name == "custom" else profile(name, **overrides)
    if own_name is not None and own_name != rules.name:
        rules = dataclasses.replace(rules, name=own_name)
    return rules
