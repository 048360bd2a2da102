"""Who sits where at a table: places, teams, the seating at the start, the owner. Pure: no
I/O, no clock, no match; :class:`spades.server.tables.Table` keeps the places and asks here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from spades.engine import Rules

SEAT_NAMES_4 = ("North", "East", "South", "West")
#: Where the page draws each seat, counted from the client's own seat (at the bottom)
#: clockwise (spades/web/static/js/table.js, PLACES).
PLACES: dict[int, tuple[str, ...]] = {
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
    5: ("South", "West", "North-west", "North-east", "East"),
    6: ("South", "South-west", "North-west", "North", "North-east", "South-east"),
}


@dataclass(slots=True)
class Place:
    """A place before the start, a seat after it."""

    kind: str = "empty"  # "empty", "human", "cpu"
    user_id: int | None = None
    name: str = ""
    cpu: str | None = None
    team: int | None = None
    covered: bool = False
    guest: bool = False  # a guest (not an account): shown as such next to the name
    #: covered because their turn waited ``idle_seconds`` while they were connected: joining
    #: again (a reconnect, a reload) leaves the CPU playing; ``join`` with ``back`` (the
    #: page's Take my seat back) or a move of theirs takes the seat back
    idle: bool = False

    def to_db(self) -> dict[str, Any]:
        out = {"kind": self.kind, "user_id": self.user_id, "name": self.name,
               "cpu": self.cpu, "team": self.team, "covered": self.covered,
               "guest": self.guest}
        if self.idle:
            out["idle"] = True
        return out

    @classmethod
    def from_db(cls, d: dict[str, Any]) -> Place:
        kind = d.get("kind") or ("cpu" if d.get("cpu") else "human" if d.get("user_id")
                                 else "empty")
        return cls(kind, d.get("user_id"), d.get("name") or "", d.get("cpu"), d.get("team"),
                   bool(d.get("covered")), bool(d.get("guest")),
                   bool(d.get("covered")) and bool(d.get("idle")))


def team_count(rules: Rules) -> int:
    return 0 if rules.teams is None else len(rules.teams)


def default_name(players: int, seat: int) -> str:
    """A seat's name when nobody named it: North, East... at four, ``Seat N`` otherwise."""
    return SEAT_NAMES_4[seat] if players == 4 else f"Seat {seat + 1}"


def cpu_name(players: int, seat: int) -> str:
    """The name a CPU gets at the start, kept in the game's seats and records: numbered,
    not a compass point, since each person's page names the seats from where they sit (the
    partner of the player at seat 0 is "North" on their page, though seat 2 is South in
    the record's frame). Pages and histories name CPUs by place (:func:`place_names`)."""
    return f"CPU {seat + 1}"


def place_name(players: int, place: int, seat: int | None) -> str:
    """Where ``place`` is drawn for a client at ``seat`` (a spectator: as from seat 0)."""
    round_table = PLACES.get(players)
    return round_table[(place - (seat or 0)) % players] if round_table else f"Seat {place + 1}"


def moved_words(players: int, old: int, new: int) -> str:
    """What the player who moved from place ``old`` to place ``new`` hears. Their page
    draws the table from where they sit, so after the move they are at the bottom (South)
    again and every other place has a new name: "you move to East" (the place as named
    before the move) read as if they were East now. So: "you move to the place that was
    East: you sit South now, and the place you left is West" (the new view, with the old
    one's name for the place chosen); without names of places, its number."""
    if PLACES.get(players) is None:
        return f"you move to {place_name(players, new, None)}"
    return (f"you move to the place that was {place_name(players, new, old)}: you sit "
            f"{place_name(players, new, new)} now, and the place you left is "
            f"{place_name(players, old, new)}")


def place_names(places: Sequence[Place], seat: int | None) -> tuple[str, ...]:
    """Every seat's name as the page draws it for a client at ``seat`` (a spectator: as
    from seat 0): a person by name, a CPU (or an empty place) by where it sits from there."""
    return tuple(p.name if p.name and not (p.kind == "cpu" and p.name.startswith("CPU"))
                 else place_name(len(places), i, seat) for i, p in enumerate(places))


def history_names(seats: Sequence[dict[str, Any]], seat: int) -> list[str]:
    """A stored game's seat names as its player at ``seat`` saw them at the table: people by
    name, CPUs as "CPU " and where they sat from there (the partner across is "CPU North"
    at four, as the page called that seat), never by the seats' stored compass names."""
    places = [Place.from_db(s) for s in seats]
    shown = place_names(places, seat)
    return [f"CPU {name}" if p.kind == "cpu" and name != p.name else name
            for p, name in zip(places, shown, strict=True)]


def planned_order(places: Sequence[Place], rules: Rules) -> list[int]:
    """Where everyone sits at the start: ``order[seat]`` is the place that takes ``seat``.

    Team *t* plays at seats *t*, *t+k*, *t+2k*... (k teams), so no teammates sit side by
    side, and places drawn across from each other are partners. A place whose occupant
    declared no team (``team``/``teammate``) keeps its natural team, its index mod k: with
    no declarations everyone stays where they sat (CPUs take the empty places). A declared
    team wins: its player moves to a seat of that team, taking the place of a CPU (or an
    empty place) before a person's, and whoever is displaced takes the seat left free. In a
    solo game everyone keeps their place."""
    n = len(places)
    k = team_count(rules)
    if k == 0 or n != rules.players:
        return list(range(n))
    order: list[int | None] = [None] * n
    fixed: set[int] = set()
    movers: list[int] = []
    for i, p in enumerate(places):
        want = p.team if p.team is not None and 0 <= p.team < k else None
        if want is None or want == i % k:
            order[i] = i  # stays; movable only if undeclared
            if want is not None:
                fixed.add(i)
        else:
            movers.append(i)
    loose: list[int] = []
    for i in movers:
        team = places[i].team
        assert team is not None
        free = [s for s in range(team, n, k) if s not in fixed]
        if not free:  # the team is full of people who declared it: they stay
            loose.append(i)
            continue

        def cost(s: int) -> tuple[bool, bool]:
            held = order[s]
            return held is not None, held is not None and places[held].kind == "human"

        seat = min(free, key=cost)
        if order[seat] is not None:
            loose.append(order[seat])  # type: ignore[arg-type]
        order[seat] = i
        fixed.add(seat)
    loose.sort(key=lambda i: places[i].kind != "human")  # people first, then CPUs
    for s in range(n):
        if order[s] is None:
            order[s] = loose.pop(0)
    return [i for i in order if i is not None]


def join_order(free: Sequence[int], rules: Rules) -> list[int]:
    """The free places in the order a person who picks none takes them: in a team game the
    owner's team first (place 0's: places 0, k, 2k...), so the first friends to join partner
    the owner, then the next team's; in a solo game round the table."""
    k = team_count(rules)
    return sorted(free, key=lambda i: (i % k, i)) if k else list(free)


def planned_teams(places: Sequence[Place], rules: Rules) -> list[list[int]]:
    """Before the start: the places that will play together if the match started now, one
    list per team in team order (an empty place gets a CPU); empty in a solo game."""
    k = team_count(rules)
    if k == 0:
        return []
    order = planned_order(places, rules)
    return [sorted(order[s] for s in range(t, len(order), k)) for t in range(k)]


def arranged(places: Sequence[Place], rules: Rules) -> list[Place]:
    """Seats for the match (:func:`planned_order`). Sets each place's ``team``."""
    k = team_count(rules)
    if k == 0:
        return list(places)
    seats = [places[i] for i in planned_order(places, rules)]
    for s, p in enumerate(seats):
        p.team = s % k
    return seats


def next_owner(places: Sequence[Place], owner: int | None,
               connected: Collection[int]) -> int | None:
    """Who owns the table after ``owner``: a connected person first, else anyone seated,
    else nobody."""
    humans = [p for p in places if p.kind == "human" and p.user_id != owner]
    here = [p for p in humans if p.user_id in connected]
    pick = (here or humans)[:1]
    return pick[0].user_id if pick else None


__all__ = ["PLACES", "SEAT_NAMES_4", "Place", "arranged", "cpu_name", "default_name",
           "join_order", "next_owner", "place_names", "planned_order", "planned_teams",
           "team_count"]
