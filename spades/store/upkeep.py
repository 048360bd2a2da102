"""Upkeep of a server's database: tables nobody came back to, and pruning of what nobody
needs any more (expired sessions, guests with nothing left, old chat of ended tables,
records kept for review and matches continued from uploads that ended that nobody
opens)."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Integer, and_, cast, delete, exists, func, or_, select, update

from spades.engine import Match
from spades.store import Store
from spades.store.schema import chat_lines, events, game_players, games, sessions, users

#: Records kept for review deleted by one round of :func:`prune` at most (the next round
#: goes on): one round's transaction stays short.
PRUNE_UPLOADS_AT_ONCE = 500
#: How often (s) a server process reads again, in one pass over the games, what the caps on
#: uploads count (:class:`UploadCounts`); in between it adds its own uploads and takes off
#: its own deletions.
UPLOAD_COUNTS_EVERY = 60.0


class UploadsFull(Exception):
    """A record cannot be kept for review: the address's or everyone's cap is reached
    (:func:`keep_upload`). ``mine`` and ``total``: what is kept now, in cost units."""

    def __init__(self, whose: str, mine: int, total: int) -> None:
        super().__init__(whose)
        self.whose = whose  # "address" or "all"
        self.mine = mine
        self.total = total


def address_tag(address: str) -> str:
    """What a record kept for review stores of its uploader's client address (as the caps
    per address count it): a hash, not the address itself."""
    return hashlib.sha256(f"spades-upload:{address}".encode()).hexdigest()[:24]


def _review_uploads() -> Any:
    """Games that are records kept for review on the server (``import`` with an
    ``uploader``), not games imported in the terminal nor tables (continued uploads)."""
    return and_(games.c.kind == "import", games.c.options["uploader"].as_string().is_not(None))


def _continued_uploads(ended: bool = False) -> Any:
    """Tables that carry on an uploaded match (``POST /api/records`` ``continue``) stored
    with the cost of their upload (``options["upload_cost"]``: those made since continued
    uploads count in the caps); ``ended``: only those finished or abandoned."""
    made = and_(games.c.kind == "table",
                games.c.options["upload_cost"].as_string().is_not(None))
    return and_(made, games.c.status.in_(["finished", "abandoned"])) if ended else made


#: What a continued upload stored before continued uploads counted in the caps (its options
#: without ``upload_cost``) counts as: one, the smallest upload's cost. Its cost was the size
#: of the upload's request body (one per ``limits.RECORD_COST_BYTES`` begun), which was
#: never stored: its stored match holds the moves played at the table after it too, so a
#: cost worked out from it (a replay of each such game on the database thread) would
#: count those as uploaded, and a record of a whole match is well under 100 KB; a record
#: kept for review stored without its ``cost`` counts one as well (:func:`kept_uploads`).
OLD_UPLOAD_COST = 1


def old_upload_kept(options: Mapping[str, Any]) -> dict[str, Any]:
    """What a continued upload stored by an older version (``options["upload"]`` true, no
    ``upload_cost``) keeps for the caps on uploads, as one stored now does
    (``Table.upload_kept``): :data:`OLD_UPLOAD_COST`, and as its uploader (``upload_by``)
    its owner, the one person at such a table from its upload on. Its client address was
    not stored: it counts in everyone's cap (``review_uploads``), in no address's."""
    kept: dict[str, Any] = {"upload_cost": OLD_UPLOAD_COST}
    owner = options.get("upload_by", options.get("owner"))
    if type(owner) is int:
        kept["upload_by"] = owner
    if isinstance(options.get("upload_address"), str):
        kept["upload_address"] = options["upload_address"]
    return kept


def _old_continued_uploads() -> Any:
    """Tables carrying on an upload stored before continued uploads counted in the caps:
    marked ``upload`` (stored so since uploads were capped per user), without
    ``upload_cost``."""
    return and_(games.c.kind == "table", games.c.options["upload"].as_boolean().is_(True),
                games.c.options["upload_cost"].as_string().is_(None))


def adopt_old_uploads(store: Store, now: datetime | None = None) -> int:
    """Give the continued uploads stored by an older version what one stored now keeps for
    the caps on uploads (:func:`old_upload_kept`), so they are counted, deletable by their
    uploader once ended, and pruned, as new ones are; how many. Their opening was never
    noted: their days unopened (``review_unopened_days``) count from now (``opened``), not
    from their end, so none is deleted at the first pruning for being opened unnoticed.
    Nothing else of them changes (``updated_at``, their end, stays); each row is locked
    while it is read and written (PostgreSQL), so no write of a table running meanwhile
    is lost."""
    when = (now or datetime.now(UTC)).isoformat()
    n = 0
    with store.engine.begin() as conn:
        rows = conn.execute(select(games.c.id, games.c.options)
                            .where(_old_continued_uploads()).with_for_update()).all()
        for gid, options in rows:
            if not isinstance(options, dict) or options.get("upload") is not True:
                continue
            new = {**options, **old_upload_kept(options), "opened": options.get("opened", when)}
            conn.execute(update(games).where(games.c.id == gid).values(options=new))
            n += 1
    return n


def _uploads_kept() -> Any:
    """What the caps on uploads count: records kept for review, and continued uploads
    (ended or not)."""
    return or_(_review_uploads(), _continued_uploads())


def _uploads_prunable() -> Any:
    """What the uploader may delete and pruning deletes: records kept for review, and
    continued uploads that have ended (never a table still going)."""
    return or_(_review_uploads(), _continued_uploads(ended=True))


def _upload_cost() -> Any:
    """What one kept upload counts in the caps (``options["cost"]``, a continued upload's
    ``options["upload_cost"]``; 1 for a record stored without)."""
    return func.coalesce(cast(games.c.options["cost"].as_string(), Integer),
                         cast(games.c.options["upload_cost"].as_string(), Integer), 1)


def _upload_tag() -> Any:
    """The hash of the client address a kept upload came from (None: not known)."""
    return func.coalesce(games.c.options["address"].as_string(),
                         games.c.options["upload_address"].as_string())


def kept_uploads(store: Store, address: str) -> tuple[int, int]:
    """The records kept for review and the continued uploads from ``address`` (a client
    address as the caps count it) and from everyone, in cost units (``options["cost"]``,
    a continued upload's ``options["upload_cost"]``; 1 for a record stored without)."""
    cost, tag = _upload_cost(), _upload_tag()
    with store.engine.connect() as conn:
        total = conn.execute(select(func.coalesce(func.sum(cost), 0))
                             .where(_uploads_kept())).scalar() or 0
        mine = conn.execute(select(func.coalesce(func.sum(cost), 0)).where(
            _uploads_kept(), tag == address_tag(address))).scalar() or 0
    return int(mine), int(total)


def kept_by_address(store: Store) -> tuple[dict[str, int], int]:
    """What the caps on uploads count, in one pass over the games: per address (its
    :func:`address_tag`) and in all, in cost units (:func:`kept_uploads` for one address
    reads every game twice)."""
    rows = select(_upload_tag().label("tag"), _upload_cost().label("cost")).where(
        _uploads_kept()).subquery()
    by_tag: dict[str, int] = {}
    total = 0
    with store.engine.connect() as conn:
        for tag, cost in conn.execute(select(rows.c.tag, func.sum(rows.c.cost))
                                      .group_by(rows.c.tag)):
            total += int(cost or 0)
            if tag is not None:
                by_tag[str(tag)] = int(cost or 0)
    return by_tag, total


def _cost_of(options: Any) -> tuple[str | None, int]:
    """A kept upload's address tag and cost from its options, as :func:`kept_uploads`
    counts them."""
    if not isinstance(options, dict):
        return None, 1
    cost = 1
    for key in ("cost", "upload_cost"):
        try:
            cost = int(options[key])
            break
        except (KeyError, TypeError, ValueError):
            continue
    tag = options.get("address") or options.get("upload_address")
    return (str(tag) if tag is not None else None), cost


class UploadCounts:
    """What the caps on uploads count (:func:`check_room`), kept by a server process: read
    from the store in one pass over the games at most every ``every`` seconds, and between
    reads its own uploads added and its own deletions taken off. Before, every upload (for
    review or to continue, refused or not) read every game twice on the one database thread
    every table's moves use, 0.1 s at 100,000 stored tables, and one address's burst of
    uploads held every table's moves for seconds. What other processes of a room store or
    delete is seen at the next read (each may go past a cap by what the others stored
    meanwhile, at the upload rate). Used on the database thread; locked all the same."""

    def __init__(self, every: float = UPLOAD_COUNTS_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self._lock = threading.Lock()
        self._by_tag: dict[str, int] | None = None
        self._total = 0
        self._read_at = 0.0
        self.reads = 0  # passes over the games (tests)

    def get(self, store: Store, address: str) -> tuple[int, int]:
        """What ``address`` keeps and what everyone keeps, in cost units."""
        with self._lock:
            now = self.clock()
            if self._by_tag is None or now - self._read_at >= self.every:
                self._by_tag, self._total = kept_by_address(store)
                self._read_at = now
                self.reads += 1
            return self._by_tag.get(address_tag(address), 0), self._total

    def add(self, address: str, cost: int) -> None:
        """An upload of ``cost`` from ``address`` is (about to be) stored."""
        with self._lock:
            if self._by_tag is None:
                return  # (counted at the first read)
            if address:
                tag = address_tag(address)
                self._by_tag[tag] = self._by_tag.get(tag, 0) + cost
            self._total += cost

    def take_off(self, gone: Iterable[tuple[str | None, int]]) -> None:
        """Kept uploads deleted (each its address tag and cost)."""
        with self._lock:
            if self._by_tag is None:
                return
            for tag, cost in gone:
                if tag is not None and tag in self._by_tag:
                    left = self._by_tag[tag] - cost
                    if left > 0:
                        self._by_tag[tag] = left
                    else:
                        del self._by_tag[tag]
                self._total = max(0, self._total - cost)


def check_room(store: Store, *, address: str, cost: int, per_address: int,
               most: int, counts: UploadCounts | None = None) -> None:
    """Refuse (:class:`UploadsFull`) an upload of ``cost`` units that would take what
    ``address`` keeps past ``per_address`` or what everyone keeps past ``most`` (0: no
    cap), records kept for review and continued uploads together. ``counts``: the
    process's :class:`UploadCounts`, read instead of the store, and the upload let through
    is added to them (it is stored next)."""
    if per_address or most:
        mine, total = (counts.get(store, address) if counts is not None
                       else kept_uploads(store, address))
        if per_address and address and mine + cost > per_address:
            raise UploadsFull("address", mine, total)
        if most and total + cost > most:
            raise UploadsFull("all", mine, total)
    if counts is not None:
        counts.add(address, cost)


def keep_upload(store: Store, match: Match, *, seats: list[dict[str, Any]], uploader: int,
                address: str, cost: int, per_address: int, most: int,
                counts: UploadCounts | None = None) -> str:
    """Store a record kept for review (its game's id), unless it would take what
    ``address`` keeps past ``per_address`` or what everyone keeps past ``most`` (cost
    units; 0: no cap): :class:`UploadsFull`. Run on the one database thread of a process,
    the count and the write are not interleaved with another upload's there (processes of
    one room may each go past a cap by an upload at once)."""
    check_room(store, address=address, cost=cost, per_address=per_address, most=most,
               counts=counts)
    options: dict[str, Any] = {"uploader": uploader, "cost": cost}
    if address:
        options["address"] = address_tag(address)
    return store.save_record(match, kind="import", seats=seats, options=options)


def mark_opened(store: Store, game_id: str, now: datetime | None = None) -> None:
    """Note that a record kept for review, or a continued upload that ended, was opened
    (downloaded, or its score sheet):
    pruning counts its days unopened from now. The game's ``updated_at`` is left as it
    is (histories list by it)."""
    when = (now or datetime.now(UTC)).isoformat()
    with store.engine.begin() as conn:
        row = conn.execute(select(games.c.options).where(games.c.id == game_id,
                                                         _uploads_prunable())).first()
        if row is None or not isinstance(row[0], dict):
            return
        conn.execute(update(games).where(games.c.id == game_id)
                     .values(options={**row[0], "opened": when}))


def _opened(options: Any, created: datetime) -> datetime:
    """When a record kept for review was last opened (its creation if never)."""
    when = options.get("opened") if isinstance(options, dict) else None
    try:
        at = datetime.fromisoformat(when) if isinstance(when, str) else created
    except ValueError:
        at = created
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def unopened_uploads(store: Store, before: datetime, keep: Collection[str] = (),
                     most: int = PRUNE_UPLOADS_AT_ONCE) -> list[str]:
    """Records kept for review made and last opened before ``before``, and continued
    uploads that ended and were last opened before then (at most ``most``, the oldest
    first), but none of ``keep`` (games running here). A game's last write
    (``updated_at``: a record's making, a continued upload's end) counts as its making."""
    q = (select(games.c.id, games.c.options, games.c.updated_at)
         .where(_uploads_prunable(), games.c.updated_at < before)
         .order_by(games.c.updated_at))
    out: list[str] = []
    with store.engine.connect() as conn:
        for gid, options, written in conn.execute(q):
            made = written if written.tzinfo is not None else written.replace(tzinfo=UTC)
            if gid not in keep and _opened(options, made) < before:
                out.append(str(gid))
                if len(out) >= most:
                    break
    return out


def tables_among(store: Store, ids: Collection[str]) -> set[str]:
    """Those of ``ids`` that are tables (continued uploads: a process may run their table,
    finished ones too), not records kept for review."""
    if not ids:
        return set()
    with store.engine.connect() as conn:
        return {str(g) for g in conn.execute(select(games.c.id).where(
            games.c.id.in_(list(ids)), games.c.kind == "table")).scalars()}


def delete_uploads(store: Store, ids: Collection[str],
                   counts: UploadCounts | None = None, fence: int | None = None) -> int:
    """Delete records kept for review and continued uploads that ended (their events,
    chat and players with them); ids that are neither are left alone. How many went.
    ``counts``: the process's :class:`UploadCounts`, which they are taken off. ``fence``:
    only a game whose fencing number is still that (the deleter took it with
    :meth:`Store.take_game`; a process that brought its table back since took it after:
    left alone), its row locked until it is deleted (PostgreSQL)."""
    if not ids:
        return 0
    with store.engine.begin() as conn:
        query = select(games.c.id, games.c.options).where(games.c.id.in_(list(ids)),
                                                          _uploads_prunable())
        if fence is not None:
            query = query.where(func.coalesce(games.c.fence, 0) == fence).with_for_update()
        found = conn.execute(query).all()
        gone = [str(g) for g, _ in found]
        if not gone:
            return 0
        for table in (events, chat_lines, game_players):
            conn.execute(delete(table).where(table.c.game_id.in_(gone)))
        n = int(conn.execute(delete(games).where(games.c.id.in_(gone))).rowcount)
    if counts is not None:
        counts.take_off(_cost_of(options) for _, options in found)
    return n


def abandon_stale_tables(store: Store, before: datetime) -> list[str]:
    """Mark ``abandoned`` every unfinished server table not updated since ``before``;
    returns their ids."""
    live = and_(games.c.kind == "table", games.c.status.in_(["waiting", "active"]),
                games.c.updated_at < before)
    with store.engine.begin() as conn:
        ids = [str(r) for r in conn.execute(select(games.c.id).where(live)).scalars()]
        if ids:
            conn.execute(update(games).where(games.c.id.in_(ids)).values(status="abandoned"))
    return ids


def stale_tables(store: Store, before: datetime) -> list[str]:
    """The unfinished server tables not updated since ``before`` (nothing is written)."""
    live = and_(games.c.kind == "table", games.c.status.in_(["waiting", "active"]),
                games.c.updated_at < before)
    with store.engine.connect() as conn:
        return [str(r) for r in conn.execute(select(games.c.id).where(live)).scalars()]


def abandon_stale_table(store: Store, game_id: str, before: datetime, fence: int) -> bool:
    """Mark one unfinished server table ``abandoned`` if it was not updated since
    ``before`` and its fencing number is still ``fence`` (the writer that checks and
    abandons it took the game with :meth:`Store.take_game`): True if it was."""
    with store.engine.begin() as conn:
        done = conn.execute(update(games).where(
            games.c.id == game_id, games.c.kind == "table",
            games.c.status.in_(["waiting", "active"]), games.c.updated_at < before,
            func.coalesce(games.c.fence, 0) == fence).values(status="abandoned"))
    return bool(done.rowcount)


def touch_tables(store: Store, fences: Mapping[str, int],
                 now: datetime | None = None) -> list[str]:
    """Mark tables as used now, each only if its fencing number is still the one given
    (the instance that runs it here); returns the ids whose number moved on (another
    writer took them over: nothing was written for them)."""
    refused: list[str] = []
    if not fences:
        return refused
    when = now or datetime.now(UTC)
    with store.engine.begin() as conn:
        for gid, fence in fences.items():
            done = conn.execute(update(games).where(
                games.c.id == gid, func.coalesce(games.c.fence, 0) == fence)
                .values(updated_at=when))
            if not done.rowcount:
                refused.append(gid)
    return refused


def touch_games(store: Store, ids: Iterable[str], now: datetime | None = None) -> None:
    """Mark games as used now (a table where people are still connected)."""
    ids = list(ids)
    if not ids:
        return
    with store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id.in_(ids))
                     .values(updated_at=now or datetime.now(UTC)))


def prune(store: Store, *, now: datetime, guests_before: datetime,
          chat_before: datetime) -> dict[str, int]:
    """Delete expired sessions, guests created before ``guests_before`` that have no
    session and no game left, and chat lines older than ``chat_before`` of finished or
    abandoned games. Returns how many rows of each went. (Records kept for review that
    nobody opens: :func:`unopened_uploads` and :func:`delete_uploads`.)"""
    with store.engine.begin() as conn:
        n_sessions = conn.execute(delete(sessions).where(sessions.c.expires_at <= now)).rowcount
        idle = and_(users.c.guest.is_(True), users.c.created_at < guests_before,
                    ~exists().where(sessions.c.user_id == users.c.id),
                    ~exists().where(game_players.c.user_id == users.c.id))
        n_guests = conn.execute(delete(users).where(idle)).rowcount
        ended = select(games.c.id).where(games.c.status.in_(["finished", "abandoned"]))
        n_chat = conn.execute(delete(chat_lines).where(chat_lines.c.created_at < chat_before,
                                                       chat_lines.c.game_id.in_(ended))).rowcount
    return {"sessions": n_sessions, "guests": n_guests, "chat": n_chat}
