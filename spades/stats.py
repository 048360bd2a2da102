"""A player's statistics, computed from the matches they sat in (pure: no I/O)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from spades.engine import Match


@dataclass(slots=True)
class Stats:
    """Totals for one player (for one rules profile, or all)."""

    matches_played: int = 0
    matches_won: int = 0
    matches_drawn: int = 0
    hands_played: int = 0
    hands_won: int = 0  # hands where the player's side scored more than every other side
    points: int = 0  # the side's points in the player's hands
    bids_made: int = 0  # hands whose side contract was made
    bids_set: int = 0
    nil_tried: int = 0
    nil_made: int = 0
    blind_nil_tried: int = 0
    blind_nil_made: int = 0
    bags: int = 0  # bags taken by the player's side
    bag_penalties: int = 0

    @property
    def average_points(self) -> float:
        return self.points / self.hands_played if self.hands_played else 0.0

    def add(self, match: Match, seat: int) -> None:
        side = match.rules.side_of[seat]
        if match.is_over():
            self.matches_played += 1
            if match.winner == side:
                self.matches_won += 1
            elif match.winner is None:
                self.matches_drawn += 1
        for r in match.results:
            self.hands_played += 1
            mine = r.points[side]
            if all(mine > p for k, p in enumerate(r.points) if k != side):
                self.hands_won += 1
            self.points += mine
            score = r.sides[side]
            if score.contract > 0:
                if score.made:
                    self.bids_made += 1
                else:
                    self.bids_set += 1
            if r.bids[seat] == 0:
                made = r.tricks[seat] == 0
                if r.blind[seat]:
                    self.blind_nil_tried += 1
                    self.blind_nil_made += made
                else:
                    self.nil_tried += 1
                    self.nil_made += made
            self.bags += score.new_bags + r.timeout_bags[side]
            self.bag_penalties += score.penalties

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["average_points"] = round(self.average_points, 1)
        return data

    def counts(self) -> dict[str, int]:
        """The totals alone (what is kept per player and profile, and added up)."""
        return asdict(self)

    @classmethod
    def from_counts(cls, data: dict[str, Any]) -> Stats:
        """Totals kept by :meth:`counts` (unknown keys ignored, missing ones 0)."""
        return cls(**{f.name: int(data.get(f.name) or 0) for f in fields(cls)})

    def merge(self, other: Stats) -> None:
        """Add another set of totals to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass(slots=True)
class StatsBook:
    """Statistics per rules profile, and over all profiles."""

    by_profile: dict[str, Stats] = field(default_factory=dict)
    total: Stats = field(default_factory=Stats)

    def add(self, match: Match, seat: int) -> None:
        self.by_profile.setdefault(match.rules.name, Stats()).add(match, seat)
        self.total.add(match, seat)

    @classmethod
    def from_profiles(cls, totals: dict[str, Stats]) -> StatsBook:
        """A book from totals kept per profile (the overall total is their sum)."""
        book = cls()
        for name, stats in totals.items():
            book.by_profile[name] = stats
            book.total.merge(stats)
        return book

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total.to_json(),
                "by_profile": {k: v.to_json() for k, v in sorted(self.by_profile.items())}}


def compute(games: Iterable[tuple[Match, int]]) -> StatsBook:
    """Statistics over ``(match, seat)`` pairs."""
    book = StatsBook()
    for match, seat in games:
        book.add(match, seat)
    return book


def contribution(match: Match, seat: int) -> Stats:
    """What one finished match adds to the statistics of the player at ``seat``."""
    stats = Stats()
    stats.add(match, seat)
    return stats
