"""Reading a stored table back after a (re)start, every part checked before it is used.

A table that cannot be read back (rules that do not build, malformed seats or events...) is
*set aside* by the hub (status ``broken`` with the reason kept, see
:meth:`spades.store.Store.set_aside`) instead of stopping the server; ``spades serve
--check-db`` lists such tables for the operator. This module runs on the database thread (no
event loop) so the CLI check and the server use the very same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spades.engine import Match
from spades.server.protocol import TableOptions
from spades.server.seating import Place
from spades.store import GameRow, Store, StoreError, rebuild

PLACE_KINDS = ("empty", "human", "cpu")
TABLE_STATUSES = ("waiting", "active")


class RestoreError(Exception):
    """A stored table that cannot be restored; the message says what is wrong and where."""


class NotUnfinished(RestoreError):
    """The row is no longer an unfinished table's: it finished or was abandoned since it
    was listed (by another process, or the janitor). Nothing is wrong with it and there is
    nothing to restore: it must not be set aside (that would mark a finished or abandoned
    game ``broken``)."""


class FinishedUnreadable(NotUnfinished):
    """A finished table asked back (:func:`load_table` with ``finished``) that cannot be
    read: nothing is asked of it any more than before, and a finished game, whose record
    and statistics stand, is never set aside for it."""


@dataclass(slots=True)
class StoredTable:
    """What a table is rebuilt from: all of it read and checked."""

    row: GameRow
    options: TableOptions | None  # None: the stored options were unreadable (defaults used)
    places: list[Place]
    match: Match | None
    stored: int  # events of the game in the store
    chat: list[dict[str, Any]]
    epoch: int  # restarts of this table so far (see Hub._restore_one)


def _place(i: int, d: Any) -> Place:
    where = f"seats[{i}]"
    if not isinstance(d, dict):
        raise RestoreError(f"{where}: must be an object, not {type(d).__name__}")
    kind = d.get("kind")
    if kind is not None and kind not in PLACE_KINDS:
        raise RestoreError(f"{where}.kind: must be one of {', '.join(PLACE_KINDS)}, "
                           f"not {kind!r:.40}")
    uid = d.get("user_id")
    if uid is not None and (not isinstance(uid, int) or isinstance(uid, bool)):
        raise RestoreError(f"{where}.user_id: must be a whole number or null")
    for key in ("name", "cpu"):
        if d.get(key) is not None and not isinstance(d.get(key), str):
            raise RestoreError(f"{where}.{key}: must be text or null")
    team = d.get("team")
    if team is not None and (not isinstance(team, int) or isinstance(team, bool) or team < 0):
        raise RestoreError(f"{where}.team: must be a whole number 0 or more, or null")
    place = Place.from_db(d)
    if place.kind == "human" and place.user_id is None:
        raise RestoreError(f"{where}: a person's place without a user_id")
    return place


def load_table(store: Store, game_id: str, chat_lines: int,
               finished: bool = False) -> StoredTable:
    """Read one unfinished table and everything it needs (raises :class:`RestoreError`).
    ``finished``: a finished table too (with several processes, one whose process stopped
    while people were still at it: :meth:`spades.server.cluster.Cluster._take`)."""
    try:
        row = store.game(game_id)
    except StoreError as exc:
        raise RestoreError(str(exc)) from None
    if finished and row.status == "finished" and row.kind == "table":
        try:
            return _load(store, row, game_id, chat_lines)
        except RestoreError as exc:
            raise FinishedUnreadable(str(exc)) from None
    if row.status not in TABLE_STATUSES:
        raise NotUnfinished(f"status {row.status!r} is not an unfinished table's")
    return _load(store, row, game_id, chat_lines)


def _load(store: Store, row: GameRow, game_id: str, chat_lines: int) -> StoredTable:
    try:
        options: TableOptions | None = TableOptions.model_validate(  # (as stored: a name
            row.options.get("table") or {}, context={"stored": True})  # wide before the
        # width was limited is kept, not the options lost)
    except ValueError:
        options = None
    owner = row.options.get("owner")
    if owner is not None and (not isinstance(owner, int) or isinstance(owner, bool)):
        raise RestoreError("options.owner: must be a whole number or null")
    invite = row.options.get("invite")
    if invite is not None and not isinstance(invite, str):
        raise RestoreError("options.invite: must be text")
    n = row.rules.players
    if len(row.seats) != n:
        raise RestoreError(f"seats: {len(row.seats)} places for {n} players")
    places = [_place(i, d) for i, d in enumerate(row.seats)]
    match = None
    stored = 0
    if row.status in ("active", "finished"):
        if any(p.kind == "empty" for p in places):
            raise RestoreError("seats: an active table with an empty seat"
                               if row.status == "active" else
                               "seats: a finished table with an empty seat")
        try:
            events = store.events(game_id)
            match = rebuild(row.rules, row.first_dealer or 0, events)
        except StoreError as exc:
            raise RestoreError(str(exc)) from None
        stored = len(events)
    try:
        chat = [{k: v for k, v in line.items() if k != "html"}  # kept before 2026-11
                for line in store.chat(game_id, chat_lines)]
    except (TypeError, ValueError) as exc:
        raise RestoreError(f"chat: {exc}") from None
    epoch = row.options.get("epoch", 0)
    if not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 0:
        epoch = 0
    return StoredTable(row, options, places, match, stored, chat, epoch)


def check_db(store: Store) -> list[tuple[str, str]]:
    """Every table a start would set aside, and those already set aside: ``(id, why)``."""
    out = [(gid, f"set aside: {why}") for gid, kind, why in store.broken_games()
           if kind == "table"]
    for gid in store.game_ids(kind="table", status=TABLE_STATUSES):
        try:
            load_table(store, gid, 1)
        except NotUnfinished:
            continue  # ended since it was listed: nothing wrong
        except RestoreError as exc:
            out.append((gid, str(exc)))
    return out
