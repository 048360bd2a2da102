"""One place that drives a game: check, store, apply, tell — for the server and the terminal.

A :class:`Session` holds a match and the number of the last move its game has stored. To
move the game on, an app asks the session for the next :class:`Move` (a deal, an action,
the turn timer's action), which is checked there and changes nothing; the app writes the
move where it keeps games, *at the number the move carries*, and only then commits it,
which applies it and returns the events it caused, in order::

    move = session.act(seat, action)        # IllegalAction: refused, nothing changed
    store.append_at(game_id, move.seq, move.kind, move.value, move.seat)   # or await it
    for event in session.commit(move):      # applied: what happened, in order
        ...

The session does no I/O (the server awaits its database between the two steps, the
terminal writes at once), keeps no clock and draws no random numbers: deals come from the
app. Because every move carries the number its writer expected, a second writer on the same
game is refused by the store (:class:`spades.store.ConflictError`) instead of writing over
it, and a move decided for a turn that has since passed is refused by :meth:`commit`
(:class:`StaleMove`).

A game saved before sessions existed resumes like any other: :meth:`Session.resume` replays
its stored moves quietly and starts telling events from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from spades.engine import BID, DEAL, LOOK, Event, IllegalAction, Match, Rules

MoveKind = Literal["deal", "act", "timeout"]


class StaleMove(Exception):
    """A move made for a state the game has left (another move was committed first)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One step of a game as it is stored: ``seq`` is the number it must be stored at.

    ``kind`` is ``deal`` (``value``: the card mask of each seat), ``act`` (a bid or card by
    ``seat``) or ``timeout`` (the turn timer's bid or card for ``seat``, with its penalty)."""

    seq: int
    kind: MoveKind
    value: int | tuple[int, ...]
    seat: int | None = None

    @property
    def stored_value(self) -> int | list[int]:
        """The value as the store keeps it (a deal as a list of masks)."""
        return list(self.value) if isinstance(self.value, tuple) else self.value


def forced_bid(match: Match) -> int | None:
    """The bid the rules leave the seat to act no choice in, which the game makes for a
    person at once (rules-profiles.md: Mirror bidding is "automatic"): the number of spades
    held under Mirror, Nil with no spade under Whiz, Nil under Suicide when no partner bid
    it. ``None`` when there is a choice, and for a card (a person plays even their last)."""
    if match.phase is not BID:
        return None
    legal = match.legal_actions()
    return legal[0] if len(legal) == 1 and legal[0] != LOOK else None


class Session:
    """Drives one match: see the module. ``stored`` is the number of the last stored move."""

    __slots__ = ("match", "stored")

    def __init__(self, match: Match, stored: int = 0) -> None:
        if match.events is None:
            match.record_events()
        self.match = match
        self.stored = stored

    @classmethod
    def resume(cls, rules: Rules, first_dealer: int,
               moves: Iterable[tuple[int, str, int | Sequence[int], int | None]]) -> Session:
        """The session of a stored game: ``moves`` are its stored ``(seq, kind, value,
        seat)`` in order, replayed quietly (each checked again: :class:`IllegalAction` or
        ``ValueError`` for one that does not fit). Events are told from the next move on."""
        match = Match(rules, dealer=first_dealer)
        last = 0
        for seq, kind, value, _seat in moves:
            if kind == "deal":
                if isinstance(value, int):
                    raise ValueError(f"move {seq}: a deal is a list of card masks")
                match.deal(list(value))
            elif kind == "act" and isinstance(value, int):
                match.apply(value)
            elif kind == "timeout" and isinstance(value, int):
                match.apply_timeout(value)
            else:
                raise ValueError(f"move {seq}: {kind!r} with {value!r:.40} is not a move")
            last = seq
        return cls(match, last)

    # The next move (checked, nothing changed) --------------------------------------------

    def deal(self, masks: Sequence[int]) -> Move:
        """The next deal, with each seat's card mask (shuffled by the app)."""
        m = self.match
        if m.phase is not DEAL:
            raise IllegalAction(f"cannot deal now: the {m.phase} phase is under way")
        if len(masks) != m.n:
            raise IllegalAction(f"a deal needs {m.n} hands, not {len(masks)}")
        return Move(self.stored + 1, "deal", tuple(masks))

    def act(self, seat: int, action: int) -> Move:
        """``seat`` bids or plays ``action``: :class:`IllegalAction` saying why not."""
        m = self.match
        if m.current_player != seat:
            raise IllegalAction("it is not that seat's turn" if m.current_player >= 0
                                else "nobody is to act now")
        m.check(action)
        return Move(self.stored + 1, "act", action, seat)

    def timeout(self) -> Move:
        """The turn timer ran out for the seat to act: what it bids or plays for them."""
        m = self.match
        seat = m.current_player
        if seat < 0:
            raise IllegalAction("nobody is to act now")
        action = m.clone().apply_timeout()
        return Move(self.stored + 1, "timeout", action, seat)

    # Committing a stored move -------------------------------------------------------------

    def commit(self, move: Move) -> list[Event]:
        """Apply ``move`` (already stored at ``move.seq``) and return the events it caused."""
        if move.seq != self.stored + 1:
            raise StaleMove(f"move {move.seq} was made after move {move.seq - 1}, but the "
                            f"game is at move {self.stored}")
        m = self.match
        m.take_events()  # nothing from before this move is told with it
        value = move.value
        if move.kind == "deal":
            assert isinstance(value, tuple)
            m.deal(list(value))
        else:
            assert isinstance(value, int)
            if m.current_player != move.seat:
                raise StaleMove(f"move {move.seq} is for seat {move.seat}, but seat "
                                f"{m.current_player} is to act")
            if move.kind == "timeout":
                m.apply_timeout(value)
            else:
                m.apply(value)
        self.stored = move.seq
        return m.take_events()


__all__ = ["Move", "MoveKind", "Session", "StaleMove", "forced_bid"]
