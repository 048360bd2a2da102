"""A table: its owner, options, places, the match, CPU players, timers, and who sees what.

The server alone holds the state. Every change goes through the table's lock; an accepted
action is appended to the store (committed) before it changes the match in memory, is
acknowledged or broadcast. Each member gets only its own seat's view.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import secrets
import time
import weakref
import zlib
from collections import deque
from collections.abc import Callable, Container, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from spades.engine import (
    DEAL,
    LOOK,
    IllegalAction,
    Match,
    Rules,
    RulesError,
    action_str,
    cards_of,
    summary,
)
from spades.engine.actions import is_play
from spades.engine.events import Event, HandScored, MatchOver, TimedOut, TrickWon
from spades.present.hand import hand_details
from spades.present.narrate import Narrator
from spades.present.sheet import and_list
from spades.server import frames, views
from spades.server.cpu import CpuPool, is_external, spec_of
from spades.server.options import build_rules, changes_said, invite_code
from spades.server.protocol import (
    ChatLine,
    RemovedInfo,
    ScoreInfo,
    SeatInfo,
    TableOptions,
    TableState,
    TableSummary,
    TurnInfo,
    YouInfo,
)
from spades.server.seating import (
    Place,
    arranged,
    cpu_name,
    default_name,
    join_order,
    moved_words,
    next_owner,
    place_name,
    place_names,
    planned_teams,
    team_count,
)
from spades.server.settings import Settings
from spades.server.turns import Turns
from spades.session import Move, Session
from spades.store import Store

log = logging.getLogger("spades.server")
T = TypeVar("T")
#: What a connection hears when another connection of the same user (another tab) takes its
#: seat (error code ``replaced``, no ref); a join from it takes the seat back.
REPLACED = ("this table is open in another tab (or window) of yours: this one no longer "
            "receives its events; join again to play here")
#: How the owner may still give a place kept at a rematch to a CPU (``add_cpu`` refused
#: it): ``remove`` of that place frees it (``Table._free_kept``), then ``add_cpu``.
FREE_FOR_CPU = ("to give {place} to a CPU all the same, free it first (remove {which}: "
                "it is anyone's then), then add the CPU there")
#: ``Table.invited``'s place of a rematch's player whose kept place the owner freed
FREED = -1

#: From how many scored hands a table coming into this process (a continued record, a
#: restored table) makes its score sheet in a thread first (:meth:`Table.make_sheet`).
SHEET_IN_THREAD = 100

#: Why a player the owner removed before the start may not sit at that table again.
REMOVED = "the owner removed you from this table: you cannot sit at it again"


@dataclass(frozen=True, slots=True)
class Rejoin:
    """A join that a process makes on its own for a client that was at ``table_id`` when
    the table moved (taken over: :mod:`spades.server.cluster`), never one a client asks
    for: set only by the processes, around the dispatch of that join (:data:`REJOIN`).
    ``watching``: they watched it (let in then, with the code if it is private): they are
    let in again as a spectator without the code, which they are never given; the caps on
    spectators still apply. ``quiet``: no ``ack`` (the client did not ask; it gets the
    snapshot). It is not counted against the user's join rate either."""

    conn: object
    table_id: str
    watching: bool
    quiet: bool


#: The process-made join being dispatched, if any (never set from a client's message).
REJOIN: contextvars.ContextVar[Rejoin | None] = contextvars.ContextVar(
    "spades_rejoin", default=None)


def rejoin_of(conn: object, table_id: str) -> Rejoin | None:
    """The process-made join of ``conn`` at ``table_id`` being dispatched, if it is one."""
    rejoin = REJOIN.get()
    if rejoin is None or rejoin.conn is not conn or rejoin.table_id != table_id:
        return None
    return rejoin


def _waits(conn: Member, table_id: str) -> None:
    """``conn``, replaced by another tab of its user, waits to be handed its seat at
    ``table_id``. A client of another process (:class:`spades.server.cluster.RemoteConn`)
    tells its process, which then says when the client goes (so that it is never handed
    the seat after it has gone) and asks again wherever the table runs next."""
    note = getattr(conn, "waits_for", None)
    if note is not None:
        note(table_id)


@dataclass(frozen=True, slots=True)
class Ended:
    """What the spectators of a finished table keep of it once it has left memory
    (:meth:`Table.let_watchers_go`): its last snapshot as they saw it and its score sheet,
    the same frames (shared) for all of them, which answer their ``resync`` and ``sheet``."""

    table_id: str
    snapshot: str  # the ``table`` frame, without a ref
    sheet: str  # the ``sheet`` frame, without a ref


class Member(Protocol):
    """What a table needs of a client's connection (:class:`spades.server.hub.Conn`)."""

    @property
    def user_id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def guest(self) -> bool: ...
    @property
    def address(self) -> str: ...
    table: Table | None
    #: its event frames' views carry only the hands scored since the previous event
    #: (``Hello.results``: "new")
    results_new: bool
    #: the finished table it watched, gone from memory since (:class:`Ended`)
    ended: Ended | None

    def send(self, text: str) -> None: ...


class Answer(Protocol):
    """A join's answer (its ack and snapshot), sent once, before the event the join causes;
    ``back``: the join brings its player back to their seat, and the table hears it;
    ``arrival``: it seats its player at a continued record's table for the first time."""

    def __call__(self, back: bool = False, arrival: bool = False) -> None: ...


class SpectatorNotices(Protocol):
    def changed(self, table: Table) -> None: ...


class Host(Protocol):
    """What a table needs of the server that runs it (:class:`spades.server.hub.Hub`): a
    table does not know the hub, only this."""

    @property
    def settings(self) -> Settings: ...
    @property
    def store(self) -> Store: ...
    @property
    def cpu(self) -> CpuPool: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...
    @property
    def uploads(self) -> Container[str]: ...
    @property
    def stopped(self) -> Container[Table]: ...
    @property
    def spectator_notices(self) -> SpectatorNotices: ...

    async def table_write(self, table: Table, fn: Callable[..., T], *args: Any,
                          **kwargs: Any) -> T: ...
    def lobby_changed(self, table: Table) -> None: ...
    def forget(self, table: Table) -> None: ...
    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...


def duration(seconds: float) -> str:
    """``seconds`` in words: "5 minutes", "90 seconds", "1 second"."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


#: After taking an idle seat back (``join`` with ``back``), until a move of their own, a
#: player's turn waits this fraction of ``idle_seconds`` before the CPU covers them again:
#: pressing "Take my seat back" and going idle again made every one of their turns wait
#: the whole ``idle_seconds``.
IDLE_AGAIN = 0.2


class TableError(Exception):
    """A refused request: ``code`` and a message saying why. Nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Table:
    def __init__(self, hub: Host, game_id: str, options: TableOptions, rules: Rules,
                 places: list[Place], owner: int | None, invite: str, status: str) -> None:
        self.hub = hub
        self.id = game_id
        self.options = options
        self.rules = rules
        self.places = places
        self.owner = owner
        self.invite = invite
        self.status = status  # "waiting", "active", "finished", "closed"
        self.session: Session | None = None  # the match, once started
        self.seq = 0
        self.epoch = 0  # restarts of this table (its event numbers continue above them)
        self.fence = 0  # the store's fencing number this instance writes under (hub.table_write)
        self.version = 0
        self.lock = asyncio.Lock()
        self.members: dict[int, Member] = {}  # user id -> connection, for seated humans
        self.spectators: set[Member] = set()
        self.chat: deque[dict[str, Any]] = deque(maxlen=hub.settings.chat_history)
        self.seed_base = zlib.crc32(game_id.encode())
        self.turns = Turns(self, TableError)  # CPU turns and the turn timer
        self._grace: dict[int, asyncio.TimerHandle] = {}
        #: seats kept for someone who has not sat down yet (a continued record's uploader):
        #: their first join says they sit down, not that they are back (also after a
        #: restart: stored in :meth:`meta`)
        self.unseated: set[int] = set()
        #: seats whose player nobody saw go (the table was restored after a restart): their
        #: return changes the table's state but says no "is back"
        self.unseen_away: set[int] = set()
        #: a user's older connections to their seat that a newer one (another tab) replaced,
        #: oldest first: when the newer one goes, the latest still open holds the seat again
        self.replaced: dict[int, list[Member]] = {}
        #: a seat handed back to such an older connection, whose snapshot waits
        #: ``handover_ms`` (it hears nothing meanwhile): the tab that went may be reloading,
        #: and takes the seat again when it joins, the older tab none the wiser (before, the
        #: older tab showed the table for a moment, said "You play in this tab again" and was
        #: replaced again)
        self._handover: dict[int, tuple[Member, asyncio.TimerHandle]] = {}
        #: (the match, how many of its hands were scored) at the last event: the event
        #: frames of a client that keeps the results itself (``Member.results_new``) carry
        #: only the hands scored since
        self._results_told: tuple[Match, int] | None = None
        #: the scored hands' JSON, made once for every view sent
        self._results_json = views.ResultsJson()
        self.last_active = time.time()
        self.deal_failures = 0  # deals in a row that could not be stored
        self.finish_failures = 0  # tries in a row to store the result that failed
        self._finish_retry: asyncio.TimerHandle | None = None
        self._narrators: dict[tuple[int | None, tuple[tuple[str, str], ...]], Narrator] = {}
        #: the latest sheet frame (without a ref) and the state it was made for
        self._sheet: tuple[tuple[Any, ...], str] | None = None
        self._sheet_parts = views.SheetParts()  # its hands' rows and lines, made once
        #: the client address that made the table ("": not known, such as a restored one);
        #: counted against ``tables_per_address``
        self.address = ""
        #: a continued upload's ``upload_cost``, ``upload_address`` (a hash) and
        #: ``upload_by`` (the uploader's id), kept in :meth:`meta`: what the caps on
        #: uploads count of it, and whose it is to delete once it has ended
        self.upload_kept: dict[str, Any] = {}
        #: the id of the rematch this (finished) table's owner made, if any
        self.rematched: str | None = None
        self.rematched_by = ""  # the name of the owner who made it
        #: with several processes: stored with this table (:meth:`keep_rematch`), so it
        #: may run at another process (:meth:`_maybe_forget`)
        self.rematch_stored = False
        self.making_rematch = False  # (its owner left it for the rematch being made)
        #: held while a ``rematch`` of this table is answered (app._rematch): one at a time
        self.rematch_lock = asyncio.Lock()
        #: the connections that heard of that rematch: not told it again
        self.rematch_told: weakref.WeakSet[Member] = weakref.WeakSet()
        #: seats whose player took the seat back from an idle cover and has not moved since
        #: (their next idle wait is shorter: :data:`IDLE_AGAIN`)
        self.back_from_idle: set[int] = set()
        #: users the owner removed from their place before the start (user id: who they
        #: were): they may not sit at this table again until the owner lets them back in
        #: (:meth:`readmit`); they may still watch it, if it allows spectators
        self.removed: dict[int, RemovedInfo] = {}
        #: the client address (``Member.address``) from which each user sat down here by
        #: ``join`` (user id: address; in memory only), for ``places_per_address``
        self.joined_from: dict[int, str] = {}
        #: a rematch: the players of the finished table it follows (user id: their place
        #: there). They may sit down without the invite code, at that place when it is free
        self.invited: dict[int, int] = {}
        #: their names (user id: name), to say for whom a place is kept (:meth:`kept`)
        self.invited_names: dict[int, str] = {}
        #: a rematch: the invite codes of the tables it follows (the finished one's, and
        #: those it took from the tables before it), newest first: someone let into one of
        #: them with its code (a spectator of a private table, who came by its invitation)
        #: may follow the table to its rematch with that code, to watch it or to sit at a
        #: free place (:meth:`check_private`); the new code is still sent to nobody
        self.earlier_invites: tuple[str, ...] = ()

    @property
    def match(self) -> Match | None:
        return self.session.match if self.session is not None else None

    @property
    def turn_deadline(self) -> float | None:
        """Unix time when the turn timer fires (None: no timer runs)."""
        return self.turns.deadline

    @property
    def turn_timer(self) -> int | None:
        return self.rules.turn_timer

    @property
    def cpu_default(self) -> str:
        """The CPU strength of the table's CPU players."""
        return self.options.cpu

    @property
    def stored(self) -> int:
        """Moves of this game in the store."""
        return self.session.stored if self.session is not None else 0

    def resume(self, match: Match, stored: int) -> None:
        """Carry on ``match``, of which the store holds the first ``stored`` moves."""
        self.session = Session(match, stored)
        self._results_told = (match, len(match.results))

    async def make_sheet(self) -> None:
        """Make the score sheet's hands in a thread, for a table not yet registered (nothing
        else reads its match meanwhile): a continued record's or a restored table's first
        sheet was made on the event loop, every table's moves waiting, about 200 ms at
        1,600 hands. A short match's is left to its first request."""
        m = self.match
        if m is not None and len(m.results) >= SHEET_IN_THREAD:
            await asyncio.to_thread(self._sheet_parts.parts, m, self.names())

    # Who is who -----------------------------------------------------------------------

    def place_of(self, user_id: int) -> int | None:
        for i, p in enumerate(self.places):
            if p.kind == "human" and p.user_id == user_id:
                return i
        return None

    def connected(self, seat: int) -> bool:
        p = self.places[seat]
        return p.kind == "human" and p.user_id in self.members

    def names(self) -> list[str]:
        return [p.name or self.default_name(i) for i, p in enumerate(self.places)]

    def default_name(self, seat: int) -> str:
        return default_name(self.rules.players, seat)

    def owner_name(self) -> str:
        if self.owner is None:
            return ""
        i = self.place_of(self.owner)
        return self.places[i].name if i is not None else ""

    def display_name(self) -> str:
        """The table's name, or its owner's table, or (the owner gone) its first player's."""
        if self.options.name:
            return self.options.name
        who = self.owner_name() or next(
            (p.name for p in self.places if p.kind == "human" and p.name), "")
        return f"{who}'s table" if who else "A table"

    def humans(self) -> int:
        return sum(p.kind == "human" for p in self.places)

    def any_human_connected(self) -> bool:
        return any(self.connected(i) for i in range(len(self.places)))

    def seat_of_conn(self, conn: Member) -> int | None:
        if self.members.get(conn.user_id) is conn:
            return self.place_of(conn.user_id)
        return None

    # What is sent ----------------------------------------------------------------------

    def summary(self) -> TableSummary:
        return TableSummary(
            id=self.id, name=self.display_name(),
            status="finished" if self.status == "closed" else self.status,  # type: ignore[arg-type]
            profile=self.rules.name, players=self.rules.players, humans=self.humans(),
            open_seats=sum(p.kind == "empty" for p in self.places)
            if self.status == "waiting" else 0,
            spectators=self.options.spectators, spectating=len(self.watchers()),
            owner=self.owner_name(), turn_timer=self.rules.turn_timer,
            private=self.options.private,
            paused=self.status == "active" and not self.any_human_connected())

    def state(self, member: bool, owner: bool = False) -> TableState:
        """The table's state for a member (``member``: seated, who see the invite code) or a
        spectator; ``owner``: the owner's own copy, which lists whom they removed."""
        side_of = self.rules.side_of
        kept = self.kept()
        seats = []
        for i, p in enumerate(self.places):
            team = p.team
            if self.status != "waiting" and self.rules.teams is not None:
                team = side_of[i]
            seats.append(SeatInfo(
                seat=i, kind=p.kind, name=p.name if p.kind != "empty" else "",  # type: ignore[arg-type]
                user_id=p.user_id, connected=self.connected(i),
                covered=p.covered, team=team, guest=p.kind == "human" and p.guest,
                owner=p.kind == "human" and p.user_id == self.owner and self.owner is not None,
                cpu=p.cpu if p.kind == "cpu" or p.covered else None,
                kept_for=self.kept_name(kept[i]) if i in kept else None))
        m = self.match
        winner = m.winner if m is not None and m.is_over() else None
        winner_names: list[str] = []
        if winner is not None:
            names = self.names()
            winner_names = [names[s] for s in self.rules.sides[winner]]
        return TableState(
            id=self.id, name=self.display_name(),
            status="finished" if self.status == "closed" else self.status,  # type: ignore[arg-type]
            options=self.options, rules=views.rules_info(self.rules),
            seats=seats, spectating=len(self.watchers()), owner=self.owner,
            invite=self.invite if member else None, game_id=self.id,
            winner=winner, winner_names=winner_names,
            partners=planned_teams(self.places, self.rules) if self.status == "waiting" else [],
            removed=self.removed_list() if owner else [])

    def removed_list(self) -> list[RemovedInfo]:
        """Whom the owner removed, by name, while it matters (before the start)."""
        if self.status != "waiting":
            return []
        return sorted(self.removed.values(), key=lambda r: (r.name.casefold(), r.user_id))

    def is_owner(self, conn: Member, seat: int | None) -> bool:
        """``conn`` (at ``seat``) is the table's owner: it gets the owner's copy of the
        state."""
        return seat is not None and self.owner is not None and conn.user_id == self.owner

    def you(self, conn: Member) -> YouInfo:
        seat = self.seat_of_conn(conn)
        if seat is not None:
            return YouInfo(role="player", seat=seat)
        # (a member who is neither seated nor watching was just removed from the table)
        if conn not in self.spectators:
            return YouInfo(role="none", seat=None)
        if self.status == "waiting" and conn.user_id in self.invited:
            # a player of the match before watching its rematch: may sit down without the
            # code, at the place kept for them (the page cannot tell them from the names)
            kept = [s for s, u in self.kept().items() if u == conn.user_id]
            return YouInfo(role="spectator", seat=None, invited=True,
                           kept=kept[0] if kept else None)
        return YouInfo(role="spectator", seat=None)

    def view_text(self, seat: int | None, results_from: int | None = None) -> str:
        """The view of a client at ``seat`` (None: a spectator) as JSON text (``"null"``
        before the match). ``results_from``: for a client that keeps the scored hands
        itself, only those from that one on (see :func:`spades.server.views.seat_view`);
        None: every one, each hand's JSON made once for every view sent
        (:class:`spades.server.views.ResultsJson`)."""
        m = self.match
        if m is None:
            return "null"
        return views.view_text(m, seat, results_from, self._results_json)

    def new_results(self) -> int:
        """How many hands were scored before those scored since the last event (this one
        is the next): the first hand a client that keeps the results itself is sent."""
        m = self.match
        if m is None:
            return 0
        told, scored = self._results_told, len(m.results)
        self._results_told = (m, scored)
        return min(told[1], scored) if told is not None and told[0] is m else 0

    def turn_info(self) -> TurnInfo | None:
        m = self.match
        if m is None or self.status != "active" or m.current_player < 0:
            return None
        return TurnInfo(seat=m.current_player, deadline=self.turn_deadline,
                        seconds=self.rules.turn_timer)

    def score(self) -> ScoreInfo | None:
        return ScoreInfo(**views.score_info(self.match)) if self.match is not None else None

    def snapshot(self, conn: Member, ref: frames.Ref = None, *, back: bool = False,
                 arrival: bool = False) -> str:
        """The ``table`` frame for ``conn`` (``ref``: of the resync it answers; ``back``: the
        join it answers brings ``conn`` back to its seat, which the next event tells;
        ``arrival``: it seats ``conn`` at a continued record's table for the first time,
        which the next event tells)."""
        seat = self.seat_of_conn(conn)
        state = self.state(seat is not None, self.is_owner(conn, seat))
        return frames.table(self.seq, state, self.you(conn),
                            self.view_text(seat), self.turn_info(), self.score(),
                            [ChatLine(**line) for line in self.chat], ref, back=back,
                            arrival=arrival)

    def recipients(self) -> list[tuple[Member, int | None]]:
        out: list[tuple[Member, int | None]] = []
        for uid, conn in self.members.items():
            if uid not in self._handover:  # (it is told where the game stands when handed it)
                out.append((conn, self.place_of(uid)))
        out.extend((c, None) for c in self.spectators)
        return out

    def place_names(self, seat: int | None) -> tuple[str, ...]:
        """Every seat's name as the page draws it for a client at ``seat``."""
        return place_names(self.places, seat)

    def narrator(self, seat: int | None, places: tuple[tuple[str, str], ...] | None = None
                 ) -> Narrator:
        """The narrator for a client at ``seat`` (None: a spectator). ``places``: the
        places' kinds and names, when the caller has them already."""
        if places is None:
            places = tuple((p.kind, p.name) for p in self.places)
        key = (seat, places)
        narrator = self._narrators.get(key)
        if narrator is None or narrator.rules is not self.rules:
            if len(self._narrators) > 64:
                self._narrators.clear()
            narrator = self._narrators[key] = Narrator(
                self.rules, names=self.place_names(seat), me=seat)
        return narrator

    def emit(self, event: dict[str, Any], *, news: Sequence[Event] = (),
             with_table: bool = False, told: Mapping[Member, str] | None = None,
             by_cpu: int | None = None, forced: int | None = None) -> int:
        """Send an event (numbered) to every member, each with its own view and with
        ``news`` (the engine's events it caused) told in words for that member. An event's
        ``text`` may be a function of the member's narrator, for words about a seat ("your
        partner North is back"), named as that member's page draws it; so is ``details``
        (a scored hand's parts in words, for a ``hand_scored`` event). ``told``: connections
        that hear their own words instead (one just removed from its seat: also when it is
        no longer at the table). ``by_cpu``: the seat a CPU covered for this move, whose
        player hears it as the CPU's ("a CPU plays ... for you"); ``forced``: the seat whose
        bid the game made, the rules leaving no choice, whose player hears why. The frames
        are built by :class:`spades.server.frames.EventFrames` from the protocol's models."""
        self.seq += 1
        text: str | Callable[[Narrator], str] = event.get("text", "")
        # a scored hand's parts in words, for each member as its narrator names the seats
        details: Callable[[Narrator], list[list[str]]] | None = event.get("details")
        fields = {k: v for k, v in event.items() if k not in ("text", "details")}
        fields.setdefault("hand", 0)
        # the owner's copy of the state differs only when it lists whom they removed
        owners = self.state(True, True) if with_table and self.removed_list() else None
        out = frames.EventFrames(
            self.seq, self.id, fields, [e.to_json() for e in news], self.turn_info(),
            self.score(), (self.state(True), self.state(False)) if with_table else None,
            owner_table=owners)
        places = tuple((p.kind, p.name) for p in self.places)
        start = self.new_results()
        # the spectators' view, the same for all of them (with every scored hand, and
        # with the new ones only)
        public: dict[bool, str] = {}
        recipients = self.recipients()
        personal = dict(told or {})
        # someone no longer at the table (removed from a table without spectators) hears
        # their own words once more
        recipients += [(c, None) for c in personal if all(c is not r for r, _ in recipients)]
        said_to: dict[int | None, str] = {}
        for conn, seat in recipients:
            said = said_to.get(seat) if conn not in personal else out.said(personal[conn])
            if said is None:
                told_parts = details(self.narrator(seat, places)) if details else None
                if news:
                    narrator = self.narrator(seat, places)
                    say = narrator.say if seat is None \
                        else narrator.say_by_cpu if seat == by_cpu \
                        else narrator.say_forced if seat == forced else narrator.say
                    texts = [say(e) for e in news]
                    said = out.said(" ".join(texts), texts, told_parts)
                elif callable(text):  # about a seat: named for this member
                    said = out.said(text(self.narrator(seat, places)), details=told_parts)
                else:
                    said = out.said(text, details=told_parts)
                said_to[seat] = said
            you = self.you(conn) if with_table else None
            new = conn.results_new
            # (a client that keeps the results: only the new hands are converted)
            results_from = start if new else None
            if seat is None:
                shared = public.get(new)
                if shared is None:
                    shared = public[new] = self.view_text(None, results_from)
                conn.send(out.frame(said, shared, you))
            else:
                conn.send(out.frame(said, self.view_text(seat, results_from), you,
                                    owner=owners is not None and self.is_owner(conn, seat)))
        return self.seq

    def emit_chat(self, line: dict[str, Any]) -> int:
        self.seq += 1
        self.chat.append(line)
        text = frames.chat(self.seq, self.id, ChatLine(**line))
        for conn, _ in self.recipients():
            conn.send(text)
        return self.seq

    # Persistence -----------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = {
                "table": self.options.model_dump(), "owner": self.owner, "invite": self.invite,
                "epoch": self.epoch, "upload": self.id in self.hub.uploads}
        if self.removed:
            meta["removed"] = sorted(self.removed)
            # who they were, for the owner's list after a restart
            meta["removed_people"] = [r.model_dump() for _, r in sorted(self.removed.items())]
        if self.invited:
            meta["invited"] = sorted(self.invited.items())
        if self.unseated:
            meta["unseated"] = sorted(self.unseated)
        if self.invited_names:
            meta["invited_names"] = sorted(self.invited_names.items())
        if self.earlier_invites:
            meta["earlier_invites"] = list(self.earlier_invites)
        if self.rematched is not None:  # (kept with several processes: keep_rematch)
            meta["rematched"] = self.rematched
            meta["rematched_by"] = self.rematched_by
        meta.update(self.upload_kept)
        return meta

    async def save_meta(self) -> None:
        status = {"closed": "abandoned"}.get(self.status, self.status)
        seats = [p.to_db() for p in self.places]
        await self.hub.table_write(self, self.hub.store.update_game, self.id, status=status,
                                   seats=seats, options=self.meta(), rules=self.rules)

    async def play(self, move: Move) -> list[Event]:
        """Store ``move`` at its number (committed before anyone hears of it), then apply
        it: the events it caused, in order. Holds the lock. If another instance of the table
        wrote first (its number is taken, or this instance was fenced off), nothing is
        applied: this instance stops (:meth:`Hub.lost_table`) and a :class:`TableError`
        says so."""
        session = self.session
        assert session is not None
        await self.hub.table_write(self, self.hub.store.append_at, self.id, move.seq, move.kind,
                                   move.stored_value, move.seat)
        return session.commit(move)

    # Membership ------------------------------------------------------------------------

    def check_private(self, conn: Member, invite: str | None) -> None:
        rejoin = rejoin_of(conn, self.id)
        if rejoin is not None and rejoin.watching:
            return  # watched it when it moved: let in again without the code
        if (self.options.private and self.place_of(conn.user_id) is None
                and conn.user_id not in self.invited
                and not (invite and self.knows_code(invite_code(invite)))):
            raise TableError("not_allowed", "this table is private: join with its invite code")

    def knows_code(self, code: str) -> bool:
        """Whether ``code`` (as :func:`invite_code` writes it) lets one into this table: its
        own invite code, or at a rematch one of the tables it follows
        (:attr:`earlier_invites`). Each is compared in constant time."""
        found = False
        for known in (self.invite, *self.earlier_invites):
            found |= secrets.compare_digest(code, known)
        return found

    def no_seat_words(self, why: str, conn: Member | None = None) -> str:
        """Why a player's join finds no seat, and (where the table allows spectators only)
        that it can be watched: a table without spectators was said to be one to "join as a
        spectator", which it then refused. Someone watching it already (``conn`` among the
        spectators, asking for a seat) is told they watch on, not to join as one."""
        if conn is not None and conn in self.spectators:
            return f"{why}: you go on watching it"
        return f"{why}: join as a spectator" if self.options.spectators else why

    def check_join(self, conn: Member, role: str, invite: str | None) -> None:
        """Raise :class:`TableError` if ``conn`` may not join now as ``role``."""
        if self.status == "closed":
            raise TableError("not_found", "this table has closed")
        self.check_private(conn, invite)
        if self.place_of(conn.user_id) is not None:
            return
        if role == "player":
            if self.status != "waiting":
                raise TableError("state", self.no_seat_words("the match has started", conn))
            if conn.user_id in self.removed:
                raise TableError("not_allowed", REMOVED + (
                    "; you may watch it as a spectator" if self.options.spectators else ""))
            if not any(p.kind == "empty" for p in self.places):
                raise TableError("state", self.no_seat_words("the table is full", conn))
            if not self.free_for(conn.user_id):
                raise TableError("state", self.no_seat_words(self.kept_words(), conn))
        elif not self.options.spectators:
            raise TableError("not_allowed", "this table does not allow spectators")
        else:
            full = self.no_room_to_watch(conn)
            if full is not None:
                raise TableError("limit", full)

    def no_room_to_watch(self, conn: Member) -> str | None:
        """Why ``conn`` may not watch the table for its caps on spectators (None: it may)."""
        # The cap counts people: a user's other connections (tabs) take no more places.
        watching = self.watchers()
        if conn.user_id in watching:
            return None
        if 0 < self.hub.settings.spectators_per_table <= len(watching):
            return f"this table has its {len(watching)} spectators: no room for more"
        # and so does the cap per client address: one address's many guests cannot take
        # every place
        most = self.hub.settings.spectators_per_address
        if most > 0 and conn.address:
            same = {c.user_id for c in self.spectators if c.address == conn.address}
            if len(same) >= most:
                return (f"{len(same)} people from your address are watching this table "
                        "already, the most from one address: no room for more from it")
        return None

    def watchers(self) -> dict[int, str]:
        """The people watching (user id: name): one however many tabs each has open."""
        return {c.user_id: c.name for c in self.spectators}

    async def join(self, conn: Member, role: str, invite: str | None, *,
                   if_free: bool = False, back: bool = False, ref: frames.Ref = None
                   ) -> None:
        """``if_free``: a replaced tab back after its own reconnect takes the seat only if no
        other open connection of the user holds it; else it waits (error ``replaced``) to be
        handed the seat when that one closes. ``back``: a seat a CPU covers because its
        player was idle comes back to them (else the CPU plays on: :meth:`_still_idle`).

        A join made is answered here: ``ack`` (with ``ref``) and the joiner's ``table``
        snapshot, before the event the join causes (``joined``, ``returned``, ...) is told
        to anyone, so the joiner never hears the table's words about its arrival before the
        answer to its join (before, the event came first). A refusal raises, unanswered.
        A join a process made for its client when the table moved (:class:`Rejoin`,
        ``quiet``) gets the snapshot only: the client did not ask for it."""
        answered = False
        rejoin = rejoin_of(conn, self.id)

        def answer(back: bool = False, arrival: bool = False) -> None:
            nonlocal answered
            if not answered:
                answered = True
                if rejoin is None or not rejoin.quiet:
                    conn.send(frames.ack(ref, self.seq))
                conn.send(self.snapshot(conn, back=back, arrival=arrival))

        async with self.lock:
            if getattr(conn, "closed", False):
                # Its socket has ended, and that end has been dealt with: a join made for
                # it by its process (the table brought back, or moved, while it closed)
                # would keep it at the table for good, a member nobody takes off; a table
                # never empty is never let go of (its lease held for as long as the process
                # runs). Refused: the table lets go as if it had left.
                raise TableError("state", "this connection has closed")
            await self._join(conn, role, invite, if_free, back, answer)
            answer()

    async def _join(self, conn: Member, role: str, invite: str | None, if_free: bool,
                    back: bool, answer: Answer) -> None:
        """:meth:`join`, under the table's lock; ``answer()`` before any event is emitted."""
        self.check_join(conn, role, invite)
        seat = self.place_of(conn.user_id)
        if seat is not None:  # back to one's own seat
            old = self.members.get(conn.user_id)
            waiting = self.replaced.get(conn.user_id, [])
            if (if_free and old is not None and old is not conn
                    and not getattr(old, "closed", False)):
                if conn not in waiting:
                    waiting.append(conn)
                    self.replaced[conn.user_id] = waiting[-8:]
                _waits(conn, self.id)
                raise TableError("replaced", REPLACED)
            self._cancel_handover(conn.user_id)  # (back before the older tab was handed it)
            if conn in waiting:
                waiting.remove(conn)
            if old is not None and old is not conn:
                old.send(frames.error("replaced", REPLACED))
                old.table = None
                waiting.append(old)
                _waits(old, self.id)
            if waiting:
                self.replaced[conn.user_id] = waiting[-8:]
            else:
                self.replaced.pop(conn.user_id, None)
            self.spectators.discard(conn)
            self.members[conn.user_id] = conn
            conn.table = self
            if old is not None and old is not conn:  # another tab: nobody left
                pass
            elif old is conn and not (back and self.places[seat].idle) \
                    and seat not in self.unseated:
                # joined again on the connection that is here: nothing changed, nobody
                # is told (before: "Ann is back" to everyone, at the join rate)
                return
            elif seat in self.unseated:
                self.unseated.discard(seat)
                await self.save_meta()  # a restart from now on: they are back, not new
                answer(arrival=True)  # (the page says the sitting down first, then the game)
                self.emit({"kind": "joined", "seat": seat, "text": lambda n: (
                    f"{n.seat(seat)} {'sit' if n.me == seat else 'sits'} down at the "
                    "continued match: it carries on from the record")}, with_table=True)
                self.schedule()
            elif self.places[seat].idle and not back:
                self._still_idle(seat, answer)
            else:
                await self._returned(seat, answer)
            self.hub.lobby_changed(self)  # connected again: no longer paused
            return
        if role == "player":
            if self.status != "waiting":
                raise TableError("state", self.no_seat_words("the match has started", conn))
            free = join_order([i for i, p in enumerate(self.places) if p.kind == "empty"],
                              self.rules)
            if not free:
                raise TableError("state", self.no_seat_words("the table is full", conn))
            was = self.invited.get(conn.user_id)
            back = was is not None and was in free
            # a rematch: back at one's place then, else a place not kept for another old
            # player (the kept ones stay theirs while they are kept: check_join)
            free = [i for i in free if i in self.free_for(conn.user_id)]
            if was is not None and back:
                free.remove(was)
                free.insert(0, was)
            self.places[free[0]] = Place("human", conn.user_id, conn.name,
                                         guest=conn.guest)
            self.joined_from[conn.user_id] = conn.address
            self.members[conn.user_id] = conn
            self.spectators.discard(conn)
            conn.table = self
            await self.save_meta()
            seat, name, players = free[0], conn.name, self.rules.players
            # the joiner's page says "You sit West at ..." (from the table's state): they
            # are not told about themself in the third person as well; back at the place
            # kept for them at a rematch, they are told so (the page cannot know it)
            mine = self._back_at_place(seat) if back else None
            answer()
            self.emit({"kind": "joined", "seat": seat, "text": lambda n: (
                (mine(n) if mine is not None else "") if n.me == seat else
                f"{name} sits down at {place_name(players, seat, n.me)}")},
                with_table=True)
        else:
            if not self.options.spectators:
                raise TableError("not_allowed", "this table does not allow spectators")
            self.spectators.add(conn)
            conn.table = self
            self.hub.spectator_notices.changed(self)  # one small frame, not the table
        self.hub.lobby_changed(self)

    def _back_at_place(self, seat: int) -> Callable[[Narrator], str]:
        """The words for a player of the match before who sits down at the place kept for
        them at its rematch: "you are back at your place of the match before, across from
        your partner Olga" (the partner named when a person sits there already)."""
        mates = [s for s in self.rules.sides[self.rules.side_of[seat]] if s != seat]
        partner = mates[0] if len(mates) == 1 and self.places[mates[0]].kind == "human" \
            else None

        def words(n: Narrator) -> str:
            across = f", across from {n.seat(partner)}" if partner is not None else ""
            return f"you are back at your place of the match before{across}"
        return words

    def _still_idle(self, seat: int, before: Callable[[], None]) -> None:
        """The player a CPU covers for being idle is connected again (a reconnect, a
        reload), without asking for the seat back: the CPU plays on, and everyone hears
        it. Before, any reconnect took the seat back, and on a flaky connection the table
        heard "Ann is back" and "Ann has not played for 5 minutes" over and over.
        ``before()``: called just before the event is told (the join's answer)."""
        handle = self._grace.pop(seat, None)
        if handle is not None:
            handle.cancel()
        self.unseen_away.discard(seat)
        before()
        self.emit({"kind": "covered", "seat": seat, "text": lambda n: (
            "you are connected again; a CPU still plays for you (Take my seat back gives it "
            "back to you)" if n.me == seat else f"{n.seat(seat)} is connected again; a CPU "
            "still plays for them")}, with_table=True)

    async def _returned(self, seat: int, before: Answer) -> None:
        """The player is back at their seat (from a lost connection, or from idle); told to
        everyone, ``before()`` called just before (the join's answer)."""
        place = self.places[seat]
        handle = self._grace.pop(seat, None)
        if handle is not None:
            handle.cancel()
        was_covered = place.covered
        if place.idle:
            self.back_from_idle.add(seat)
        place.covered = place.idle = False
        if was_covered:
            await self.save_meta()
        unheard = seat in self.unseen_away and not was_covered  # nobody heard them go
        before(back=not unheard)  # (the page says "you are back" first, then the table)
        if unheard:
            self.unseen_away.discard(seat)
            self.emit({"kind": "returned", "seat": seat, "text": ""}, with_table=True)
        else:
            self.unseen_away.discard(seat)
            self.emit({"kind": "returned", "seat": seat, "text": lambda n:
                       f"{n.seat(seat)} {'are' if n.me == seat else 'is'} back"},
                      with_table=True)
        self.schedule()

    async def detach(self, conn: Member, *, leaving: bool) -> None:
        """A connection goes away (closed socket) or leaves the table on purpose."""
        async with self.lock:
            if conn.table is self:
                conn.table = None
            if conn in self.spectators:
                self.spectators.discard(conn)
                if self.status != "closed":
                    self.hub.spectator_notices.changed(self)
                self.hub.lobby_changed(self)
                return
            if self.members.get(conn.user_id) is not conn:
                self._forget_replaced(conn)
                return
            del self.members[conn.user_id]
            self._cancel_handover(conn.user_id)
            seat = self.place_of(conn.user_id)
            if seat is None:
                return
            older = None if leaving else self._older_tab(conn.user_id)
            if older is not None:  # another tab of theirs is still open: it plays on
                self.members[conn.user_id] = older
                older.table = self
                self._hand_over(conn.user_id, older)
                return
            self.replaced.pop(conn.user_id, None)
            self.unseen_away.discard(seat)
            if self.status == "waiting":
                if leaving:
                    await self._free_place(seat)
                else:
                    self.emit({"kind": "left", "seat": seat,
                               "text": lambda n: f"{n.seat(seat)} lost the connection"},
                              with_table=True)
                    self._start_grace(seat)
            elif self.status == "active":
                if leaving:
                    await self._cover(seat)
                    if self.owner == conn.user_id:
                        heir = self._pass_ownership()
                        await self.save_meta()
                        self._tell_owner(heir)
                else:
                    self.emit({"kind": "left", "seat": seat,
                               "text": lambda n: f"{n.seat(seat)} lost the connection"},
                              with_table=True)
                    self._start_grace(seat)
                self.schedule()
            elif self.status == "finished":
                # The match is over: who goes has left, by `leave` (the page, on going
                # elsewhere) at once, or by a closed connection (the tab closed, a laptop's
                # lid shut: its socket found dead by the server's pings) once the grace for a
                # reconnection is over, so that a reload says nothing and keeps an owner's
                # table theirs (:meth:`_gone_from_finished`). Before, nobody was told.
                if leaving:
                    await self._gone_from_finished(seat, conn.user_id)
                else:
                    self.unseen_away.add(seat)  # back within the grace: nothing is said
                    self._start_grace(seat)
            self.hub.lobby_changed(self)
            self._maybe_forget()

    def _older_tab(self, user_id: int) -> Member | None:
        """The latest of ``user_id``'s replaced connections still open and at no other
        table (taken out of the list), or None."""
        waiting = self.replaced.pop(user_id, [])
        while waiting:
            c = waiting.pop()
            if c.table is None and not getattr(c, "closed", False):
                if waiting:
                    self.replaced[user_id] = waiting
                return c
        return None

    def _hand_over(self, user_id: int, conn: Member) -> None:
        """The seat of ``user_id`` is ``conn``'s again (an older tab, which another one had
        replaced): its snapshot goes after ``handover_ms``, unless the tab that went joins
        again first (a reload), which replaces ``conn`` again without its hearing of it."""
        delay = self.hub.settings.handover_ms / 1000
        if delay <= 0:
            conn.send(self.snapshot(conn))
            return
        handle = asyncio.get_running_loop().call_later(
            delay, lambda: self._spawn(self._handed_over(user_id, conn)))
        self._handover[user_id] = (conn, handle)

    async def _handed_over(self, user_id: int, conn: Member) -> None:
        async with self.lock:
            held = self._handover.get(user_id)
            if held is None or held[0] is not conn:
                return
            del self._handover[user_id]
            if self.members.get(user_id) is conn and self.status != "closed":
                conn.send(self.snapshot(conn))

    def _cancel_handover(self, user_id: int) -> None:
        held = self._handover.pop(user_id, None)
        if held is not None:
            held[1].cancel()

    def _forget_replaced(self, conn: Member) -> None:
        waiting = self.replaced.get(conn.user_id)
        if waiting and conn in waiting:
            waiting.remove(conn)
            if not waiting:
                del self.replaced[conn.user_id]

    def maybe_forget(self) -> None:
        """Leave memory if this table has ended and nobody is at it."""
        self._maybe_forget()

    async def let_watchers_go(self) -> bool:
        """A finished table that only spectators are at (its players gone) leaves memory
        (True): each spectator keeps its last snapshot and sheet (:class:`Ended`, shared),
        and hears nothing more of it (it has nothing more to tell). Before, a spectator kept
        the whole table in memory for as long as they watched."""
        async with self.lock:
            if self.status != "finished" or self.members or not self.spectators:
                return False
            first = next(iter(self.spectators))
            ended = Ended(self.id, self.snapshot(first), self.sheet_text())
            for conn in list(self.spectators):
                conn.ended = ended  # (first: a client of another process is sent it)
                conn.table = None
            self.spectators.clear()
            self._maybe_forget()  # (or, its rematch waiting, a sweep of the janitor later)
        return True

    def _maybe_forget(self) -> None:
        if self.status in ("finished", "closed") and not self.members and not self.spectators:
            if self.making_rematch:
                return  # (its owner left it for the rematch being made: told of next)
            made = self.hub.tables.get(self.rematched or "")
            if self.status == "finished" and (
                    (made is not None and made.status == "waiting")
                    or (made is None and self.rematched is not None and self.rematch_stored)):
                # its rematch waits for its players (or, with several processes, may wait
                # at another process): one who comes back here (a reload), or whose join
                # is on its way (after a take-over), hears of it (:meth:`tell_rematch_to`);
                # the janitor forgets it a sweep later
                return
            self.hub.forget(self)

    def _start_grace(self, seat: int) -> None:
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._grace[seat] = loop.call_later(
            self.options.grace_seconds, lambda: self._spawn(self._grace_over(seat)))

    async def _grace_over(self, seat: int) -> None:
        async with self.lock:
            self._grace.pop(seat, None)
            if self.connected(seat) or self.places[seat].kind != "human":
                return
            if self.status == "waiting":
                await self._free_place(seat)
                self.hub.lobby_changed(self)
            elif self.status == "active" and not self.places[seat].covered:
                await self._cover(seat)
                self.schedule()
            elif self.status == "finished" and (user_id := self.places[seat].user_id) is not None:
                self.unseen_away.discard(seat)
                await self._gone_from_finished(seat, user_id)
                self.hub.lobby_changed(self)
                self._maybe_forget()

    async def _gone_from_finished(self, seat: int, user_id: int) -> None:
        """The player at ``seat`` has left the finished match's table: the others are told
        ("Ann leaves the table"), and an owner's table passes on to who is still here, so
        that they may offer a rematch. Not the owner going to the rematch they are making:
        the table hears "Olga started a rematch" next."""
        if self.making_rematch:
            return
        gone = self.places[seat].name or None
        self.emit({"kind": "left", "seat": seat,
                   "text": lambda n: "you leave the table" if n.me == seat
                   else f"{gone or n.seat(seat)} leaves the table"}, with_table=True)
        if self.owner == user_id and self.rematched is None:
            await self._owner_gone()

    async def _cover(self, seat: int, idle: float | None = None) -> None:
        """A CPU plays for ``seat`` until its player is back. ``idle``: the seconds their
        turn waited (a person still connected who did not act), told to everyone."""
        place = self.places[seat]
        place.covered = True
        place.idle = idle is not None
        place.cpu = place.cpu or self.options.cpu
        # A turn whose timer is running stays timed: leaving does not avoid its penalty
        # (Table.schedule lets the timer act; the CPU plays the turns after it).
        await self.save_meta()
        if idle is None:
            self.emit({"kind": "covered", "seat": seat,
                       "text": lambda n: f"a CPU plays for {n.seat(seat)} until "
                       f"{'you return' if n.me == seat else 'they return'}"},
                      with_table=True)
            return
        waited = duration(idle)
        self.emit({"kind": "covered", "seat": seat, "text": lambda n: (
            f"you have not played for {waited}: a CPU plays for you until you are back "
            "(Take my seat back, or a move of yours, gives it back to you)" if n.me == seat
            else f"{n.seat(seat)} has not played for {waited}; a CPU plays for "
            "them until they are back")}, with_table=True)

    async def cover_idle(self, seat: int, version: int) -> None:
        """The turn of ``seat``, a person's at a table without a turn timer, has waited
        ``idle_seconds`` (:class:`spades.server.turns.Turns`): a CPU covers the seat, as
        a dropped player's, until they act or join again, if another player at the table
        is connected (someone waits for them). Nothing if the turn moved on."""
        async with self.lock:
            m = self.match
            if (m is None or self.status != "active" or version != self.version
                    or m.current_player != seat or self.turn_timer is not None):
                return
            place = self.places[seat]
            if place.kind != "human" or place.covered:
                return
            if not any(self.connected(s) and not p.covered
                       for s, p in enumerate(self.places) if s != seat):
                # nobody else at the table waits for them (alone with CPUs, the others
                # gone): their game waits too, and is watched again in case someone comes
                self.turns.watch_idle(seat, version)
                return
            await self._cover(seat, idle=self.idle_wait(seat))
        self.schedule()

    def idle_wait(self, seat: int) -> float:
        """How long a person's turn at ``seat`` waits before a CPU covers it (no timer):
        ``idle_seconds``, or a fraction of it (:data:`IDLE_AGAIN`) for a player back from
        an idle cover who has not moved since."""
        idle = self.hub.settings.idle_seconds
        return idle * IDLE_AGAIN if seat in self.back_from_idle else idle

    async def _free_place(self, seat: int) -> None:
        place = self.places[seat]
        uid = place.user_id
        self.places[seat] = Place()
        if uid is not None:
            self.members.pop(uid, None)
        heir = self._pass_ownership() if uid == self.owner else None
        if self.owner is None or not any(p.kind == "human" for p in self.places):
            self.status = "closed"
            await self.save_meta()
            self.emit({"kind": "left", "seat": seat, "text": "the table closes"},
                      with_table=True)
            for conn in list(self.spectators):
                conn.table = None
            self.spectators.clear()
            self.hub.forget(self)
            return
        await self.save_meta()
        # named as they were: the place is empty now, and would be called by where it is
        gone = place.name if place.kind == "human" and place.name else None
        self.emit({"kind": "left", "seat": seat,
                   "text": lambda n: "you leave the table" if n.me == seat
                   else f"{gone or n.seat(seat)} leaves the table"},
                  with_table=True)
        self._tell_owner(heir)

    def _pass_ownership(self) -> int | None:
        """The owner went: the table is the next person's (:func:`next_owner`). Returns the
        place of the new owner, to be told (:meth:`_tell_owner`), or None if nobody took it."""
        before = self.owner
        self.owner = next_owner(self.places, self.owner, self.members)
        return None if self.owner in (None, before) else self.place_of(self.owner)

    def _tell_owner(self, seat: int | None) -> None:
        """Everyone hears who owns the table now (they passed it on by going, not by "Make
        … owner"): before, the new owner learnt it only from their buttons."""
        if seat is None:
            return
        self.emit({"kind": "owner", "seat": seat,
                   "text": lambda n: f"{n.seat(seat)} "
                   f"{'own' if n.me == seat else 'owns'} the table now"}, with_table=True)

    async def _owner_gone(self) -> None:
        """The match is over and its owner is not at the table (left it, or lost the
        connection and did not come back): the next person still connected owns it, so that
        they may offer a rematch (before, nobody could). Nothing if nobody else is here."""
        if self.owner in self.members or not any(
                p.kind == "human" and p.user_id in self.members for p in self.places):
            return
        heir = self._pass_ownership()
        await self.save_meta()
        self._tell_owner(heir)

    # The owner's controls --------------------------------------------------------------

    def _require_owner(self, conn: Member) -> None:
        if conn.user_id != self.owner or self.seat_of_conn(conn) is None:
            raise TableError("not_allowed", "only the table owner may do that")

    def check_rematch(self, conn: Member) -> tuple[dict[int, int], dict[int, str]]:
        """Refuse a rematch unless ``conn`` is the owner and the match is finished; else
        the players to invite to it (user id: place), the owner too, and their names."""
        if conn.user_id != self.owner or self.seat_of_conn(conn) is None:
            raise TableError("not_allowed", "only the table owner may start a rematch")
        if self.status != "finished":
            raise TableError("state", "a rematch can start only once the match is over")
        people = [(i, p) for i, p in enumerate(self.places)
                  if p.kind == "human" and p.user_id is not None]
        return ({p.user_id: i for i, p in people if p.user_id is not None},
                {p.user_id: p.name for _, p in people if p.user_id is not None})

    def kept(self) -> dict[int, int]:
        """Before the start of a rematch: the empty places kept for the players of the
        match before who are not back yet (place: user id). A player back, sitting
        anywhere, keeps no place; one removed by the owner, none either. The start ends the
        keeping (the places are just places then: CPUs take the empty ones)."""
        if self.status != "waiting" or not self.invited:
            return {}
        seated = {p.user_id for p in self.places if p.kind == "human"}
        return {s: u for u, s in self.invited.items()
                if u not in seated and u not in self.removed
                and 0 <= s < len(self.places) and self.places[s].kind == "empty"}

    def free_for(self, user_id: int) -> list[int]:
        """The empty places ``user_id`` may sit at: none kept for someone else (a kept
        place stays for its player of the match before until they are back, the owner frees
        it or the match starts: before, a newcomer took one when no other place was free)."""
        kept = self.kept()
        return [i for i, p in enumerate(self.places)
                if p.kind == "empty" and kept.get(i, user_id) == user_id]

    def kept_words(self) -> str:
        """Why someone finds no place though places are empty: they are kept."""
        kept = self.kept()
        names = [self.kept_name(kept[s]) for s in sorted(kept)]
        if len(names) == 1:
            return (f"the free place is kept for {names[0]}, who played the match before, "
                    "until they are back or the match starts")
        return (f"the free places are kept for the players of the match before "
                f"({and_list(names)}) until they are back or the match starts")

    def kept_name(self, user_id: int) -> str:
        return self.invited_names.get(user_id) or "a player of the match before"

    def _require_not_kept(self, seat: int, user_id: int | None, *, cpu: bool = False) -> None:
        """Refuse an explicit choice of place ``seat`` if it is kept for someone else
        (``cpu``: the owner's ``add_cpu``, told how to give it to a CPU all the same)."""
        kept = self.kept()
        if seat in kept and kept[seat] != user_id:
            place = f"place {seat}"
            how = f"; {FREE_FOR_CPU.format(place=place, which=place)}" if cpu else ""
            raise TableError("state", f"{place} is kept for {self.kept_name(kept[seat])}, "
                             "who sat there in the match before, until they are back or the "
                             f"match starts{how}")

    def no_place_for_cpu_words(self) -> str:
        """Why the owner's ``add_cpu`` naming no place finds none though places are empty:
        every one is kept for a player of the match before (which, and for whom), and how
        the owner may still give one to a CPU."""
        kept = self.kept()
        if len(kept) == 1:
            seat, = kept
            place = f"place {seat}"
            return (f"no place is free for a CPU: {place} is kept for "
                    f"{self.kept_name(kept[seat])}, who played the match before, until they "
                    "are back or the match starts; "
                    f"{FREE_FOR_CPU.format(place=place, which=place)}")
        each = and_list([f"place {s} for {self.kept_name(kept[s])}" for s in sorted(kept)])
        return ("no place is free for a CPU: the free places are kept for the players of "
                f"the match before until they are back or the match starts ({each}); "
                f"{FREE_FOR_CPU.format(place='one of them', which='its place')}")

    async def keep_rematch(self, new_id: str, owner: str) -> None:
        """With several processes: the id ``new_id`` of the rematch that ``owner`` is
        making of this (finished) table is stored with it, before the new table is made (so
        before the owner's ``ack``), so the process that brings this table back after this
        one dies knows it (:meth:`Hub._restore_one`), and the rematch asked again there
        leads to that table rather than making a second one, or, if this process died
        before it made it, makes it under that id
        (:meth:`spades.server.cluster.Cluster.lead_to_rematch`). If it cannot be stored
        (this instance was taken over meanwhile, or the database failed), the rematch is
        made all the same, and only this process knows it (as before)."""
        self.rematched = new_id
        self.rematched_by = owner
        self.rematch_stored = True
        try:
            await self.hub.table_write(self, self.hub.store.update_game, self.id,
                                       options=self.meta())
        except Exception as exc:
            log.warning("the rematch %s of table %s could not be stored: %s", new_id,
                        self.id, exc)

    def tell_rematch(self, new_id: str, owner: str) -> None:
        """Tell the members still at this (finished) table about the rematch."""
        self.rematched = new_id
        self.rematched_by = owner
        self.rematch_told = weakref.WeakSet(c for c, _ in self.recipients())
        self.emit({"kind": "rematch", "rematch": new_id,
                   "text": f"{owner} started a rematch"})

    def owes_rematch(self, conn: Member) -> str | None:
        """The rematch made of this finished table that ``conn``, at it, has not heard of
        here (not the owner, who made it), if any (:meth:`tell_rematch_to`)."""
        if (self.status != "finished" or self.rematched is None or conn in self.rematch_told
                or conn.user_id == self.owner):
            return None
        return self.rematched

    def tell_rematch_to(self, conn: Member) -> None:
        """``conn`` has just come to this finished table (a reload; with several processes,
        a player joined to it again after the process that ran it stopped, whose join may
        come after the owner's rematch), and the rematch its owner made still waits for its
        players, here or at another process (the caller knows: :meth:`owes_rematch`):
        ``conn`` hears of it as the others did (once: not a connection that heard of it
        already, nor the owner, who made it). The event goes to everyone (its number is
        theirs too), its words to ``conn`` alone: the others heard them."""
        made = self.owes_rematch(conn)
        if made is None or conn.table is not self:
            return
        self.rematch_told.add(conn)
        self.emit({"kind": "rematch", "rematch": made, "text": ""},
                  told={conn: f"{self.rematched_by or 'the owner'} started a rematch"})

    def _require_waiting(self) -> None:
        if self.status != "waiting":
            raise TableError("state", "the match has already started")

    async def set_options(self, conn: Member, opts: TableOptions) -> None:
        async with self.lock:
            self._require_owner(conn)
            self._require_waiting()
            try:
                rules = build_rules(opts)
                spec_of(opts.cpu)
            except (RulesError, ValueError) as exc:
                raise TableError("bad_options", str(exc)) from None
            n = rules.players
            people = [p for p in self.places if p.kind != "empty"]
            if len(people) > n:
                raise TableError("state", f"{len(people)} places are taken; remove players "
                                 f"or CPUs before going down to {n}")
            k = team_count(rules)
            places = list(self.places)
            if len(places) > n:  # keep the taken places, in order
                places = people + [Place() for _ in range(n - len(people))]
            places += [Place() for _ in range(n - len(places))]
            for p in places:
                if p.team is not None and p.team >= k:
                    p.team = None
            self.places = places
            said = changes_said(self.options, opts, rules)
            # Made private, or closed to spectators: those watching (all let in without a
            # code, or no longer allowed) go, told once. Before, they watched on, the
            # whole match, as their join would now be refused.
            why = ("turned spectators off" if self.options.spectators and not opts.spectators
                   else "made the table private" if opts.private and not self.options.private
                   else None)
            told: dict[Member, str] = {}
            if why is not None:
                again = ("" if not opts.spectators else
                         " (join again with its invite code to watch it)")
                for watcher in list(self.spectators):
                    self.spectators.discard(watcher)
                    if watcher.table is self:
                        watcher.table = None
                    told[watcher] = (f"{conn.name} {why}: you are no longer watching "
                                     f"it{again}")
                if told:
                    self.hub.spectator_notices.changed(self)
            self.options = opts
            self.rules = rules
            await self.save_meta()
            owner, name = self.place_of(conn.user_id), conn.name
            self.emit({"kind": "options", "text": lambda n: (
                f"{'you' if n.me == owner else name} {said}")}, with_table=True, told=told)
            self.hub.lobby_changed(self)

    def _require_place(self, seat: int) -> None:
        """Refuse a place number this table does not have (not "not free": it is not there)."""
        if not 0 <= seat < len(self.places):
            raise TableError("state", f"there is no place {seat}: places are 0 to "
                             f"{len(self.places) - 1}")

    async def move(self, conn: Member, seat: int) -> None:
        async with self.lock:
            self._require_waiting()
            mine = self.seat_of_conn(conn)
            if mine is None:
                raise TableError("not_allowed", "you have no place at this table")
            self._require_place(seat)
            if self.places[seat].kind != "empty":
                raise TableError("state", f"place {seat} is not free")
            self._require_not_kept(seat, conn.user_id)
            self.places[seat], self.places[mine] = self.places[mine], Place()
            await self.save_meta()
            # the others hear the place where it is drawn on their pages; the mover, whose
            # page turns with them (they sit at the bottom again), hears both views
            name, players = conn.name, self.rules.players
            self.emit({"kind": "seated", "seat": seat, "text": lambda n: (
                moved_words(players, mine, seat) if n.me == seat else
                f"{name} moves to {place_name(players, seat, n.me)}")}, with_table=True)

    async def choose_team(self, conn: Member, team: int | None, *, mate: int | None = None) -> None:
        async with self.lock:
            self._require_waiting()
            mine = self.seat_of_conn(conn)
            if mine is None:
                raise TableError("not_allowed", "you have no place at this table")
            k = team_count(self.rules)
            if k == 0:
                raise TableError("state", "this table plays solo: there are no teams")
            if mate is not None:
                if mate >= len(self.places) or self.places[mate].kind == "empty" or mate == mine:
                    raise TableError("state", f"nobody else sits at place {mate}")
                team = self.places[mate].team
                if team is None:  # the mate's team where they sit (they need not move),
                    # unless others declared it full: then the emptiest one
                    size = self.rules.players // k
                    counts = [sum(p.team == t for i, p in enumerate(self.places)
                                  if i != mine) for t in range(k)]
                    team = mate % k if counts[mate % k] + 2 <= size else counts.index(min(counts))
                    self.places[mate].team = team
            if team is not None:
                if team >= k:
                    raise TableError("state", f"team must be 0 to {k - 1}")
                size = self.rules.players // k
                taken = sum(p.team == team for i, p in enumerate(self.places) if i != mine)
                if taken >= size:
                    raise TableError("state", f"team {team} is full ({size} players)")
            self.places[mine].team = team
            await self.save_meta()
            self.emit({"kind": "seated", "seat": mine,
                       "text": f"{conn.name} joins team {team}" if team is not None
                       else f"{conn.name} has no team"}, with_table=True)

    async def add_cpu(self, conn: Member, seat: int | None) -> None:
        async with self.lock:
            self._require_owner(conn)
            self._require_waiting()
            free = [i for i, p in enumerate(self.places) if p.kind == "empty"]
            if seat is None:
                if not free:
                    raise TableError("state", "no place is free")
                # never a place kept for a player of the match before (before: taken when
                # no other was free, and its player, back, found their place a CPU's)
                kept = self.kept()
                open_places = [i for i in free if i not in kept]
                if not open_places:
                    raise TableError("state", self.no_place_for_cpu_words())
                seat = open_places[0]
            else:
                self._require_place(seat)
                if seat not in free:
                    raise TableError("state", f"place {seat} is not free")
                self._require_not_kept(seat, None, cpu=True)
            self.places[seat] = Place("cpu", None, f"CPU {seat + 1}", self.options.cpu)
            await self.save_meta()
            self.emit({"kind": "seated", "seat": seat,
                       "text": lambda n: f"a CPU sits down at {n.names[seat]}"},
                      with_table=True)
            self.hub.lobby_changed(self)

    async def remove(self, conn: Member, seat: int) -> None:
        async with self.lock:
            self._require_owner(conn)
            self._require_waiting()
            kept = self.kept()
            if seat in kept:  # a rematch's place kept for someone: it is kept no longer
                await self._free_kept(conn, seat, kept[seat])
                return
            if seat >= len(self.places) or self.places[seat].kind == "empty":
                raise TableError("state", f"place {seat} is empty")
            p = self.places[seat]
            told: dict[Member, str] = {}
            if p.kind == "human":
                if p.user_id == self.owner:
                    raise TableError("state", "the owner cannot remove themselves: leave")
                most = self.hub.settings.removed_per_table
                if (p.user_id is not None and p.user_id not in self.removed
                        and 0 < most <= len(self.removed)):
                    raise TableError("limit", f"this table keeps {len(self.removed)} people "
                                     f"removed already (at most {most}, "
                                     "removed_per_table): let one of them back in before "
                                     "removing another, or make a new private table")
                if p.user_id is not None:  # no sitting down again (check_join)
                    self.removed[p.user_id] = RemovedInfo(user_id=p.user_id, name=p.name,
                                                          guest=p.guest)
                other = self.members.pop(p.user_id or 0, None)
                # to watching, within the caps on spectators (before: past them, so an
                # owner could seat and remove one guest after another to fill any number
                # of places)
                full = None if other is None else self.no_room_to_watch(other)
                if other is not None and self.options.spectators and full is None:
                    self.spectators.add(other)
                    told[other] = (f"{conn.name} removed you from your seat; you are "
                                   "watching the table")
                elif other is not None:  # told once more, then no longer at the table
                    other.table = None
                    told[other] = (f"{conn.name} removed you from the table (it allows no "
                                   "spectators)" if not self.options.spectators else
                                   f"{conn.name} removed you from the table ({full})")
            self.places[seat] = Place()
            await self.save_meta()
            owner = self.place_of(conn.user_id)
            who, by = p.name if p.kind == "human" else None, conn.name
            self.emit({"kind": "left", "seat": seat, "text": lambda n: (
                f"{'you' if n.me == owner else by} removed "
                f"{who or f'the CPU at {n.names[seat]}'}")},
                with_table=True, told=told)
            self.hub.lobby_changed(self)

    async def _free_kept(self, conn: Member, seat: int, user_id: int) -> None:
        """The owner frees place ``seat``, kept at a rematch for ``user_id`` (who is not
        back): anyone may take it now. The person may still join without the invite code,
        at a free place."""
        self.invited[user_id] = FREED
        await self.save_meta()
        owner = self.place_of(conn.user_id)
        who, by = self.kept_name(user_id), conn.name
        self.emit({"kind": "freed", "seat": seat, "user_id": user_id, "text": lambda n: (
            f"{'you' if n.me == owner else by} freed {n.names[seat]}, the place kept for "
            f"{who}")}, with_table=True)
        self.hub.lobby_changed(self)

    async def readmit(self, conn: Member, user_id: int) -> None:
        """The owner undoes a removal (:meth:`remove`): ``user_id`` may sit at the table
        again (the usual rules of ``join`` apply: a free place, a private table's code).
        Everyone hears it; the person, if they watch the table, hears that they may sit
        down again."""
        async with self.lock:
            self._require_owner(conn)
            self._require_waiting()
            gone = self.removed.get(user_id)
            if gone is None:
                seat = self.place_of(user_id)
                who = (self.places[seat].name if seat is not None
                       else self.watchers().get(user_id) or f"user {user_id}")
                raise TableError("state", f"{who} was not removed from this table: there is "
                                 "no removal to undo")
            del self.removed[user_id]
            await self.save_meta()
            owner, by, name = self.place_of(conn.user_id), conn.name, gone.name
            told = {c: f"{by} let you back to the table: you may sit down again"
                    for c in self.spectators if c.user_id == user_id}
            self.emit({"kind": "readmitted", "user_id": user_id, "text": lambda n: (
                f"{'you' if n.me == owner else by} let {name} back to the table")},
                with_table=True, told=told)

    async def give_owner(self, conn: Member, seat: int) -> None:
        async with self.lock:
            self._require_owner(conn)
            if seat >= len(self.places) or self.places[seat].kind != "human":
                raise TableError("state", f"no player sits at place {seat}")
            self.owner = self.places[seat].user_id
            await self.save_meta()
            self.emit({"kind": "owner", "seat": seat,
                       "text": lambda n: f"{n.seat(seat)} "
                       f"{'own' if n.me == seat else 'owns'} the table"}, with_table=True)
            self.hub.lobby_changed(self)

    async def start(self, conn: Member | None) -> None:
        async with self.lock:
            if conn is not None:
                self._require_owner(conn)
            self._require_waiting()
            for i, p in enumerate(self.places):
                if p.kind == "empty":
                    self.places[i] = Place("cpu", None, "", self.options.cpu)
            self.places = arranged(self.places, self.rules)
            for i, p in enumerate(self.places):
                if p.kind == "cpu":
                    p.name = cpu_name(self.rules.players, i)
            n = self.rules.players
            dealer = self.options.first_dealer
            if dealer is None:
                dealer = secrets.randbelow(n)
            self.session = Session(Match(self.rules, dealer=dealer))
            self.status = "active"
            seats = [p.to_db() for p in self.places]
            await self.hub.table_write(self, self.hub.store.update_game, self.id,
                                       status="active", seats=seats, options=self.meta(),
                                       rules=self.rules, first_dealer=dealer)
            self.emit({"kind": "started", "text": "the match starts"}, with_table=True)
            await self._deal()
            self.hub.lobby_changed(self)
        self.schedule()

    # Play ------------------------------------------------------------------------------

    async def _deal(self) -> None:
        """Shuffle (system randomness), store the deal, then deal it. Holds the lock."""
        m = self.match
        assert m is not None
        cards = list(cards_of(self.rules.deck))
        random.SystemRandom().shuffle(cards)
        n = m.n
        masks = [0] * n
        for i in range(n):
            mask = 0
            for c in cards[i::n]:
                mask |= 1 << c
            masks[(m.dealer + 1 + i) % n] = mask
        assert self.session is not None
        news = await self.play(self.session.deal(masks))
        self.version += 1
        self.schedule()
        self.emit({"kind": "deal", "hand": m.hand_number, "seat": m.dealer}, news=news)

    async def deal_or_retry(self) -> None:
        """Deal (holding the lock). If the deal cannot be written, the table stays between
        hands, as stored, and tries again after a pause (0.5 s, doubling to 30 s)."""
        try:
            await self._deal()
        except Exception as exc:
            delay = min(30.0, 0.5 * 2 ** self.deal_failures)
            self.deal_failures += 1
            log.error("table %s: the next deal could not be stored (%s); trying again in "
                      "%.1f s", self.id, exc, delay)
            asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._retry_deal()))
        else:
            self.deal_failures = 0

    async def _retry_deal(self) -> None:
        async with self.lock:
            m = self.match
            if m is None or self.status != "active" or m.phase != DEAL:
                return
            await self.deal_or_retry()
        self.schedule()

    async def act(self, conn: Member | None, seat: int, action: int | None, source: str,
                  version: int | None = None) -> int:
        """Take an action for ``seat`` (``source``: human, cpu, timer, or forced: the bid
        the rules leave a person no choice in, made for them). Returns its event
        number. Refused actions raise :class:`TableError` and change nothing."""
        async with self.lock:
            m = self.match
            if version is not None and version != self.version:
                return 0  # the turn moved on while a CPU or the timer was deciding
            if m is None or self.status != "active":
                raise TableError("state", "no match is being played at this table"
                                 if self.status != "finished" else "the match is over")
            if source == "human":
                if conn is None or self.seat_of_conn(conn) != seat:
                    raise TableError("not_allowed", "you do not hold a seat at this table")
                if m.current_player != seat:
                    names = self.names()
                    who = m.current_player
                    raise TableError("illegal", f"it is not your turn: {names[who]} is to act"
                                     if who >= 0 else "nobody is to act now")
                held = self.places[seat]
                if held.covered and held.idle:
                    # a move made only once a CPU covered the turn: the seat is theirs
                    # again, but their next turn waits as after Take my seat back (before:
                    # the whole ``idle_seconds`` again, so waiting out every turn until
                    # covered, then moving, stalled the table that long each turn)
                    self.back_from_idle.add(seat)
                else:
                    self.back_from_idle.discard(seat)  # here and playing: not idle
            elif source == "cpu":
                p = self.places[seat]
                if not (p.kind == "cpu" or p.covered) or m.current_player != seat:
                    return 0
            elif m.current_player != seat:
                return 0
            session = self.session
            assert session is not None
            hand = m.hand_number
            try:
                if source == "timer":
                    move = session.timeout()
                else:
                    assert action is not None
                    move = session.act(seat, action)
            except IllegalAction as exc:
                raise TableError("illegal", str(exc)) from None
            news = await self.play(move)  # written (and committed) before anything else
            self.version += 1
            # a person a CPU covered (idle, still connected) plays: the seat is theirs again
            back = source == "human" and self.places[seat].covered
            if back:
                self.places[seat].covered = self.places[seat].idle = False  # (told and
                # stored after the move)
            self.turns.turn_over()
            self.schedule()
            assert isinstance(move.value, int)
            ev: dict[str, Any] = {"hand": hand, "seat": seat, "action": action_str(move.value),
                                  "kind": "timeout" if move.kind == "timeout"
                                  else "look" if move.value == LOOK
                                  else "play" if is_play(move.value) else "bid"}
            scored: HandScored | None = None
            over = False
            for e in news:
                if isinstance(e, TimedOut):
                    ev["penalty_bags"] = e.penalty_bags
                elif isinstance(e, TrickWon):
                    ev.update(trick=[(s, action_str(c)) for s, c in e.cards],
                              trick_winner=e.winner)
                elif isinstance(e, HandScored):
                    scored = e
                elif isinstance(e, MatchOver):
                    over = True
            # a person a CPU covers, still here (idle), hears that the CPU made the move
            covering = seat if source == "cpu" and self.places[seat].kind == "human" else None
            seq = self.emit(ev, news=news, by_cpu=covering,
                            forced=seat if source == "forced" else None)
            if back:
                self.emit({"kind": "returned", "seat": seat, "text": lambda n:
                           f"{n.seat(seat)} {'are' if n.me == seat else 'is'} back"},
                          with_table=True)
                try:
                    await self.save_meta()
                except Exception as exc:  # the move is stored and told: it stands
                    log.error("table %s: seat %d no longer covered could not be stored "
                              "(%s); after a restart a CPU covers it until its player "
                              "joins again", self.id, seat, exc)
            if scored is not None:
                self.turns.hand_scored()
                result = m.results[-1]
                self.emit({"kind": "hand_scored", "hand": scored.hand,
                           "result": views.result_row(result),
                           # what each side's points are made of, as the terminal's hand
                           # details say it to this member
                           "details": lambda n: hand_details(result, n.rules, list(n.names), n.me),
                           "text": f"hand {scored.hand} scored: " + ", ".join(
                               str(side.score) for side in scored.sides)})
            if over:
                await self._finish()
            elif scored is not None:
                await self.deal_or_retry()
            self.last_active = time.time()
        self.schedule()
        return seq

    async def _finish(self) -> None:
        """Store the result, then tell the match is over (holding the lock). If the result
        cannot be written, the table stays active with its match over, as stored (every
        action is kept; a restart finishes it too), and tries again after a pause (0.5 s,
        doubling to 30 s); ``match_over`` is told once the result is stored."""
        m = self.match
        assert m is not None
        self.turns.turn_over()
        result = summary(m)
        result["names"] = self.names()
        try:
            await self.hub.table_write(self, self.hub.store.finish_game, self.id, m,
                                       result=result, seats=[p.to_db() for p in self.places])
        except Exception as exc:
            if self in self.hub.stopped:  # taken over: the table's new instance finishes it
                return
            delay = min(30.0, 0.5 * 2 ** self.finish_failures)
            self.finish_failures += 1
            log.error("table %s: the result could not be stored (%s); trying again in "
                      "%.1f s", self.id, exc, delay)
            self._finish_retry = asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._retry_finish()))
            return
        self.finish_failures = 0
        self.status = "finished"
        self.release_programs()
        over = MatchOver(m.winner, tuple(m.scores))
        self.emit({"kind": "match_over", "hand": m.hand_number, "winner": m.winner,
                   "text": lambda n: n.say(over)}, with_table=True)
        await self._owner_gone()
        self.hub.lobby_changed(self)

    def release_programs(self) -> None:
        """The match is over, or the table stops mid-match (abandoned, or run by another
        process now): its external programs are told ``quit`` and reaped (they were left
        running until the server stopped, three for a table of them; a table stopped
        mid-match left them until idle for ``cpu.EXTERNAL_IDLE`` at a later decision)."""
        for seat, place in enumerate(self.places):
            try:
                spec = spec_of(place.cpu or self.cpu_default)
            except ValueError:  # (a strength no longer offered)
                continue
            if is_external(spec):
                self._spawn(self.hub.cpu.release(spec, self.seed_base + seat))

    async def _retry_finish(self) -> None:
        self._finish_retry = None
        async with self.lock:
            m = self.match
            if (m is None or not m.is_over() or self.status != "active"
                    or self.hub.tables.get(self.id) is not self):
                return
            await self._finish()

    # CPUs and the turn timer (spades.server.turns) ---------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.hub.spawn(coro)

    def schedule(self) -> None:
        """Start what the seat to act needs: a CPU decision, or the turn timer."""
        self.turns.schedule()

    # Chat and the sheet -------------------------------------------------------------------

    def chat_line(self, conn: Member, text: str) -> dict[str, Any]:
        return {"name": conn.name, "guest": conn.guest, "seat": self.seat_of_conn(conn),
                "text": text, "at": time.time()}

    def sheet_text(self, ref: frames.Ref = None) -> str:
        """The ``sheet`` frame (answering ``ref``), made once for each state of the score
        sheet: a long match's sheet (hundreds of hands, a continued record's) took tens of
        ms to build on the event loop, and a client asking for it at the message rate
        stalled every table. Without ``ref`` it is also the HTTP sheet's body.

        The sheet is made of the scored hands alone (and the names): it changes when a hand
        is scored, not at each move. Before, it was made again for each state of the table
        (each bid and card: 56 a hand at four players), so that at a continued record's
        table of 480 hands (370 KB, 36 ms to build, 69 ms with the engine's Python sources)
        each request after a move made it again: at the HTTP rate (10 a second, a live
        table's sheet counted in nothing else), 360 ms of the event loop a second from one
        address whose tables' moves came as fast.

        Each scored hand's row and lines are made once (:class:`views.SheetParts`): made
        again at each scored hand, the sheet of a match of 1,600 hands took 160 ms."""
        if self.match is None:
            raise TableError("state", "the match has not started")
        names = tuple(self.names())
        m = self.match
        key = (id(m), len(m.results), m.is_over(), names)  # (a scored hand: one more)
        if self._sheet is None or self._sheet[0] != key:
            fields, hands, text = self._sheet_parts.parts(m, list(names))
            self._sheet = (key, frames.sheet_text(self.id, fields, hands, text))
        return frames.with_ref(self._sheet[1], ref)

    def close_timers(self) -> None:
        """The table stops here: nothing more is scheduled (no CPU turn, timer, retry)."""
        self.turns.close()
        if self._finish_retry is not None:
            self._finish_retry.cancel()
            self._finish_retry = None
        for h in self._grace.values():
            h.cancel()
        self._grace.clear()
        for _, handle in self._handover.values():
            handle.cancel()
        self._handover.clear()
