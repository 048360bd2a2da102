"""The FastAPI application: HTTP routes under /api, the WebSocket at /ws, the web page at /."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Collection
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from spades.bots.hints import compass_names
from spades.engine import (
    PROFILES,
    Match,
    SpadesError,
    action_str,
    parse_action,
    profile,
    replay,
    summary,
)
from spades.engine.records import record_names
from spades.engine.rules import PROFILE_OPTIONS, shown
from spades.names import look_alike, name_key
from spades.server import frames, httplimits, views
from spades.server.addresses import address_key
from spades.server.auth import LoginGuard, Passwords, TooMany
from spades.server.cpu import PAST_HANDS, default_strength, strengths
from spades.server.headers import SecurityHeaders
from spades.server.history import HistoryCache, Kept, stamp_of, written
from spades.server.hub import SIGNED_OUT, Conn, Hub, LeaseLost, die_at
from spades.server.janitor import Janitor
from spades.server.limits import (
    RECORD_COST_BYTES,
    REPLAY_COST_HANDS,
    Buckets,
    check_address,
    check_programs,
    check_sitting,
    check_tables,
    check_upload,
    client_limits,
    close_socket,
    how_many,
    record_cost,
    replay_cost,
    retry_after,
)
from spades.server.protocol import (
    AccountIn,
    GuestIn,
    HistoryItem,
    OkOut,
    ProfileInfo,
    ProfilesOut,
    RecordIn,
    RecordOut,
    SessionOut,
    StatsOut,
    TableOptions,
    TableSummary,
    UserInfo,
    client_message,
    echo_ref,
)
from spades.server.seating import SEAT_NAMES_4, default_name, history_names
from spades.server.settings import Settings
from spades.server.tables import Table, TableError, rejoin_of
from spades.server.text import (
    NAME_MAX,
    TextError,
    check_password,
    clean_chat,
    clean_label,
    clean_name,
    narrowed,
)
from spades.store import GameRow, NameTaken, StoreError, UserRow, one_line, record_of, upkeep

log = logging.getLogger("spades.server")

#: Seconds ``/api/health`` waits for the database's answer.
HEALTH_DB_SECONDS = 5.0
#: Seconds a DELETE /api/games/{id} waits for Redis to say which process runs the table.
OWNER_SECONDS = 5.0
#: Bytes of finished games' records kept ready to send (GET /api/games/{id}/record).
RECORD_CACHE_BYTES = 32_000_000
#: Bytes of score sheets of tables run by other processes kept ready to send (with
#: ``--redis``: GET /api/tables/{id}/sheet).
SHEET_CACHE_BYTES = 8_000_000
#: Unfinished matches of a history (GET /api/users/{id}/history), the newest first, whose
#: scores so far are worked out, each by replaying its stored events (a few ms a match).
HISTORY_REPLAYS = 20
#: What a history reads of each finished match's stored result (its summary): not its
#: ``hands``, every hand's result, hundreds of KB for a long match, which decoding for each
#: of up to 200 matches a request kept the database thread busy for a second.
HISTORY_RESULT = ("scores", "winner")
#: Unfinished matches whose scores so far are kept, with the ``updated_at`` they were
#: worked out for (a move stored changes it): a history asked for again replays none.
SO_FAR_KEPT = 10_000

T = TypeVar("T")


class BodyCache(Generic[T]):
    """Answers as sent, by id, each with a tag (for a finished record its row, for the
    privacy check; for a sheet the row's ``updated_at``, which says whether it is still
    current), the least recently sent dropped past ``most`` bytes. An answer over an
    eighth of ``most`` is not kept."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.used = 0
        self.items: OrderedDict[str, tuple[T, bytes]] = OrderedDict()

    def get(self, key: str) -> tuple[T, bytes] | None:
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
        return item

    def drop(self, key: str) -> None:
        """Forget ``key``'s answer (its game was deleted)."""
        old = self.items.pop(key, None)
        if old is not None:
            self.used -= len(old[1])

    def put(self, key: str, tag: T, body: bytes) -> None:
        """Keep ``body`` for ``key`` (in place of what it had)."""
        if len(body) > self.most // 8:
            return
        old = self.items.pop(key, None)
        if old is not None:
            self.used -= len(old[1])
        self.items[key] = (tag, body)
        self.used += len(body)
        while self.used > self.most:
            _, (_, gone) = self.items.popitem(last=False)
            self.used -= len(gone)


#: Finished games' records (they never change), with their rows.
RecordCache = BodyCache[GameRow]


def _continued_upload(game: GameRow) -> bool:
    """Is ``game`` a table carrying on an upload (``continue``) that the caps on uploads
    count (stored with its ``upload_cost``)?"""
    return game.kind == "table" and game.options.get("upload_cost") is not None


def _user_info(u: UserRow) -> UserInfo:
    return UserInfo(id=u.id, name=u.name, guest=u.guest)


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub

HubDep = Annotated[Hub, Depends(hub_of)]

async def current_user(hub: HubDep,
                       authorization: Annotated[str | None, Header()] = None) -> UserRow:
    token = None
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
    user = await hub.db(hub.user_for, token)
    if user is None:
        raise HTTPException(401, "not signed in, or the session expired")
    return user

UserDep = Annotated[UserRow, Depends(current_user)]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        if settings.redis:  # only then: the cluster needs the redis package
            from spades.server.cluster import attach

            attach(hub)
        app.state.hub = hub
        hub.deleted_hooks.append(forget_deleted)
        janitor = app.state.janitor = Janitor(hub)
        if hub.cluster is not None:
            hub.cluster.dispatch = dispatch
        # Tables nobody came back to are abandoned first (with several processes: those no
        # other process runs), and not restored.
        n = await hub.start(janitor.at_start)
        if n:
            log.info("restored %d tables", n)
        await janitor.after_restore()
        try:
            yield
        finally:
            await hub.close()
            for shared in shared_counts:
                await shared.close()

    guard = LoginGuard(pair_limit=settings.login_failures,
                       account_limit=settings.login_account_failures,
                       address_limit=settings.login_address_failures,
                       window=settings.login_window)
    passwords = Passwords()

    app = FastAPI(title="Spades server", version="1", lifespan=lifespan,
                  docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)
    shared_counts = httplimits.install(app, settings)
    app.add_middleware(SecurityHeaders)  # outermost: refusals carry the headers too

    @app.exception_handler(SQLAlchemyError)
    async def database_failed(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error("database error on %s %s: %s", request.method, request.url.path,
                  one_line(exc))
        return JSONResponse({"detail": "the database is not answering: try again shortly"},
                            status_code=503, headers={"Retry-After": "5"})

    signups = Buckets(settings.signup_rate, settings.signup_burst)
    replays = Buckets(settings.replay_rate, settings.replay_burst)
    uploads = Buckets(settings.upload_address_rate, settings.upload_address_burst)
    sign_ins = Buckets(settings.login_address_rate, settings.login_address_burst)

    def before_replay(address: str) -> None:
        """Refuse (429) a match replayed from the store for an HTTP answer past
        ``replay_rate`` for the client's address: each replay runs on the database thread
        every table's moves use, and the answers kept ready (a finished game's record and
        sheet) are only so many, so asking for one long game after another replayed each."""
        wait = replays.wait(address) if address else 0.0
        if wait > 0:
            raise HTTPException(429, f"too many records and score sheets made from the store "
                                f"for your address: at most {settings.replay_rate:g} a second "
                                f"(a long match counts once per {REPLAY_COST_HANDS} hands "
                                f"begun); try again in {retry_after(wait)} s",
                                headers={"Retry-After": retry_after(wait)})

    def replayed(address: str, match: Match) -> None:
        """Count a replay made for ``address`` (by the match's length)."""
        if address:
            replays.charge(address, replay_cost(len(match.log)))

    def signup(request: Request) -> None:
        """Refuse a new guest or account past ``signup_rate`` for the client's address."""
        address = client_address(request, "?")
        wait = signups.wait(address)
        if wait > 0:
            raise HTTPException(429, f"too many new guests and accounts from your address: "
                                f"at most one every {1 / settings.signup_rate:g} s; try "
                                f"again in {retry_after(wait)} s",
                                headers={"Retry-After": retry_after(wait)})
        signups.take(address)

    async def session(hub: Hub, user: UserRow) -> SessionOut:
        token, expires = await hub.db(hub.new_session, user.id)
        return SessionOut(token=token, user=_user_info(user), expires_at=expires)

    # People -------------------------------------------------------------------------------

    @app.post("/api/guest", response_model=SessionOut, tags=["people"])
    async def guest(body: GuestIn, hub: HubDep, request: Request) -> SessionOut:
        try:
            name = clean_name(body.name)
        except TextError as exc:
            raise HTTPException(422, str(exc)) from None
        signup(request)  # a refused name costs nothing
        if await hub.db(hub.store.account, name) is not None:
            raise HTTPException(409, "that name belongs to an account: sign in, or choose "
                                "another name")
        uid = await hub.db(hub.store.create_user, name, guest=True)
        user = await hub.db(hub.store.user, uid)
        assert user is not None
        return await session(hub, user)

    @app.post("/api/register", response_model=SessionOut, tags=["people"])
    async def register(body: AccountIn, hub: HubDep, request: Request) -> SessionOut:
        try:
            name = clean_name(body.name)
            check_password(body.password)
        except TextError as exc:
            raise HTTPException(422, str(exc)) from None
        why = look_alike(name)
        if why:
            raise HTTPException(422, f"name: {why}")
        signup(request)  # before the argon2 hash
        if await hub.db(hub.store.account, name) is not None:
            raise HTTPException(409, "that name is taken")
        digest = await passwords.hashed(body.password, client_address(request, "?"))
        try:  # the database decides between concurrent registrations of one name
            uid = await hub.db(hub.store.create_user, name, digest)
        except NameTaken:
            raise HTTPException(409, "that name is taken") from None
        user = await hub.db(hub.store.user, uid)
        assert user is not None
        return await session(hub, user)

    @app.post("/api/login", response_model=SessionOut, tags=["people"])
    async def login(body: AccountIn, hub: HubDep, request: Request) -> SessionOut:
        address = client_address(request, "?")
        # Every password check is an argon2 hash on the workers all sign-ins wait for: the
        # address's checks are counted, failed or not (only failures were: one account's
        # right password sent at the HTTP rate kept the cores busy). Spent below, once the
        # failure limits let the attempt through: a guesser they refuse spends none of it.
        wait = sign_ins.wait(address)
        if wait > 0:
            raise HTTPException(429, f"too many sign-ins from your address: at most "
                                f"{settings.login_address_rate:g} a second, all its names "
                                f"together; try again in {retry_after(wait)} s",
                                headers={"Retry-After": retry_after(wait)})
        shared = hub.logins  # several processes: counted in Redis for all of them
        try:  # counted before the password is checked: concurrent guesses cannot outrun it
            if shared is not None:
                try:
                    attempt = await shared.begin(address, name_key(body.name))
                except TooMany:
                    raise
                except Exception as exc:  # Redis not answering: counted here meanwhile
                    if hub.cluster is not None:  # (before: 500 and a traceback)
                        hub.cluster.room.failed("counting a sign-in", exc)
                    shared = None
            if shared is None:
                attempt = guard.begin(address, name_key(body.name))
        except TooMany as exc:
            wait = math.ceil(exc.wait)
            raise HTTPException(429, f"{exc}: try again in {wait} s",
                                headers={"Retry-After": str(wait)}) from None
        sign_ins.charge(address, 1.0)  # (after an await: sign-ins at once may overdraw it)
        user = await hub.db(hub.store.account, body.name)
        digest = user.password_hash if user is not None else None
        ok = await passwords.verified(digest, body.password, address)  # as slow for
        if not ok or user is None:  # an unknown name as for a known one
            raise HTTPException(401, "wrong name or password")
        if shared is None:
            guard.succeeded(attempt)
        else:
            with contextlib.suppress(Exception):  # (Redis gone since: its window ends it)
                await shared.succeeded(attempt)
        return await session(hub, user)

    @app.post("/api/logout", response_model=OkOut, tags=["people"])
    async def logout(hub: HubDep, user: UserDep,
                     authorization: Annotated[str | None, Header()] = None) -> OkOut:
        from spades.server.hub import token_hash

        assert authorization is not None
        digest = token_hash(authorization[7:].strip())
        await hub.db(hub.store.delete_session, digest)
        # the page signing out has closed its own socket first: those left are elsewhere
        hub.end_session(digest, SIGNED_OUT)
        if hub.cluster is not None:  # and those held by the other processes of the room
            hub.cluster.signed_out(digest)
        return OkOut()

    @app.get("/api/me", response_model=UserInfo, tags=["people"])
    async def me(user: UserDep) -> UserInfo:
        return _user_info(user)

    @app.get("/api/users/{user_id}/stats", response_model=StatsOut, tags=["people"])
    async def user_stats(user_id: int, hub: HubDep) -> StatsOut:
        user = await hub.db(hub.store.user, user_id)
        if user is None:
            raise HTTPException(404, "no such user")
        book = await hub.db(hub.store.user_stats, user_id)  # kept totals: no replay
        return StatsOut(user=_user_info(user), stats=book.to_json())

    #: An unfinished match's scores so far, by id, with the ``updated_at`` they are for.
    scores_kept: OrderedDict[str, tuple[datetime, tuple[int, list[int]]]] = OrderedDict()

    # A history is made once for each state of the user's games (their marks, read at
    # every request: with several processes, another's change shows at once) and shared:
    # before, each request read up to 200 games whole on the database thread every table's
    # moves use and wrote them out again (14 ms and 67 KB at 200 finished matches).
    histories = app.state.histories = HistoryCache()

    @app.get("/api/users/{user_id}/history", response_model=list[HistoryItem], tags=["people"])
    async def user_history(user_id: int, hub: HubDep, request: Request,
                           authorization: Annotated[str | None, Header()] = None
                           ) -> Response:
        token = _bearer(authorization)

        def looked_up() -> tuple[UserRow | None, list[tuple[str, object, str]] | None]:
            """The viewer, and the marks of the games the history lists (None: no such
            user), in one turn of the database thread."""
            viewer = hub.user_for(token)
            if hub.store.user(user_id) is None:
                return viewer, None
            mine = viewer is not None and viewer.id == user_id
            return viewer, hub.store.game_marks(user_id=user_id, limit=200,
                                                uploader=user_id if mine else None)

        viewer, listed = await hub.db(looked_up)
        if listed is None:
            raise HTTPException(404, "no such user")  # as /stats says
        # The records the user uploaded for review are listed to the user alone (the
        # names in them may be anyone's), marked: they were not played here.
        mine = viewer is not None and viewer.id == user_id
        uploader = user_id if mine else None
        stamp = stamp_of(listed)
        address = client_address(request)
        kept = histories.get((user_id, mine), stamp)
        # (one made past the rate on replays is made again for an address within it)
        if kept is None or not (kept.complete or (address and replays.wait(address) > 0)):
            kept = await made_history(hub, user_id, uploader, mine, stamp, address)
            histories.put((user_id, mine), kept)
        return Response(kept.for_viewer(None if viewer is None else viewer.id),
                        media_type="application/json")

    async def made_history(hub: Hub, user_id: int, uploader: int | None, mine: bool,
                           stamp: int, address: str) -> Kept:
        """A user's history as written for everyone (``mine``: as the user sees it), each
        private match with the people who may see it."""
        listed = await hub.db(hub.store.list_games, user_id=user_id, uploader=uploader,
                              limit=200, result_keys=HISTORY_RESULT)
        # An unfinished match's scores so far are replayed from its events (not stored
        # until it ends): for the newest HISTORY_REPLAYS of them only. Each replay counts
        # in ``replay_rate`` for the client's address, as a record's or a sheet's does (a
        # stored move changes what it was worked out for: asked for after every move of a
        # long match, it replayed it each time, uncounted). Past the rate a match shows the
        # scores it last had worked out ("after N hands": true of N), or none; the history
        # itself is always answered.
        unfinished = [g for g in listed if g.status != "finished"][:HISTORY_REPLAYS]
        so_far: dict[str, tuple[int, list[int]]] = {}
        missing = []
        for g in unfinished:
            kept = scores_kept.get(g.id)
            if kept is not None:
                so_far[g.id] = kept[1]  # (worked out for an older state: used if no other)
            if kept is None or kept[0] != g.updated_at:
                missing.append(g)
        complete = True
        for g in missing:
            if address and replays.wait(address) > 0:
                complete = False
                break
            worked = await hub.db(hub.store.scores_so_far, [g])
            if g.id in worked:
                scored = worked[g.id][0]
                so_far[g.id] = worked[g.id]
                scores_kept[g.id] = (g.updated_at, worked[g.id])
                scores_kept.move_to_end(g.id)
            else:
                scored = 0
            if address:
                replays.charge(address, replay_cost(scored + 1))  # (the hand going on too)
        while len(scores_kept) > SO_FAR_KEPT:
            scores_kept.popitem(last=False)
        out: list[tuple[bytes, frozenset[object] | None]] = []
        for g in listed:
            sat = next((i for i, s in enumerate(g.seats) if s.get("user_id") == user_id), None)
            uploaded = sat is None and g.kind == "import"
            seat = sat or 0
            res = g.result or {}
            winner = res.get("winner")
            hands, scores = so_far.get(g.id, (None, list(res.get("scores") or [])))
            names = ([str(s.get("name") or "") or default_name(len(g.seats), i)
                      for i, s in enumerate(g.seats)] if uploaded
                     else history_names(g.seats, seat))
            # what ``DELETE /api/games/{id}`` takes of the viewer's own (:func:`delete_upload`)
            continued = _continued_upload(g) and g.options.get("upload_by") == user_id
            deletable = mine and (
                (uploaded and g.options.get("uploader") == user_id)
                or (continued and g.status in ("finished", "abandoned")))
            item = HistoryItem(
                game_id=g.id, kind=g.kind, status=g.status, profile=g.rules.name, seat=seat,
                names=names, scores=scores, winner=winner,
                won=not uploaded and winner is not None and g.rules.side_of[seat] == winner,
                finished=g.status == "finished", updated_at=g.updated_at.timestamp(),
                sides=[list(side) for side in g.rules.sides], uploaded=uploaded,
                hands_scored=hands, continued=continued, deletable=deletable)
            # a private table's match is for its own people (:func:`_member`)
            out.append((item.model_dump_json().encode(),
                        _members(g) if _private(g) else None))
        return written(stamp, out, complete)

    # Tables and records ---------------------------------------------------------------------

    @app.get("/api/profiles", response_model=ProfilesOut, tags=["tables"])
    async def profiles() -> ProfilesOut:
        out = []
        for name, (counts, _) in PROFILES.items():
            rules = profile(name, players=counts[0] if len(counts) == 1 else 4)
            out.append(ProfileInfo(name=name, players=list(counts), teams=rules.teams is not None,
                                   options=list(PROFILE_OPTIONS.get(name, ())),
                                   rules=views.rules_info(rules)))
        return ProfilesOut(profiles=out, cpu=list(strengths()), default_cpu=default_strength())

    @app.get("/api/tables", response_model=list[TableSummary], tags=["tables"])
    async def tables(hub: HubDep, response: Response,
                     offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
                     limit: Annotated[int | None, Query(ge=1, le=1000)] = None
                     ) -> Any:
        if limit is None and offset == 0:  # the whole lobby: written once, shared
            body, total = hub.lobby_cache.body()
            return Response(body, media_type="application/json",
                            headers={"X-Total-Count": str(total)})
        if limit is not None:
            limit = min(limit, settings.lobby_page_max)
        rows, total = hub.lobby_cache.page(offset, limit)
        response.headers["X-Total-Count"] = str(total)
        return rows

    # With --redis, the sheet of a table another process runs is made from the store: the
    # whole game replayed on the database thread every table's moves use. It is kept, for
    # as long as the table's row is not written again (a move, a seat, chat: each sets
    # its updated_at), so asking again and again costs a read of the row (before: a
    # replay each time, a cheap way to keep that thread busy).
    table_sheets: BodyCache[datetime] = BodyCache(SHEET_CACHE_BYTES)

    @app.get("/api/tables/{table_id}/sheet", tags=["tables"],
             response_model=dict[str, Any])
    async def table_sheet(table_id: str, hub: HubDep, request: Request,
                          authorization: Annotated[str | None, Header()] = None
                          ) -> Any:
        address = client_address(request)
        try:
            if table_id not in hub.tables:
                done = await finished_sheet(hub, table_id, authorization, address)
                if done is not None:
                    return done
            if hub.cluster is not None and table_id not in hub.tables:
                return await stored_sheet(hub, table_id, authorization, address)
            table = hub.find(table_id, None)
            if table.options.private:
                viewer = await hub.db(hub.user_for, _bearer(authorization))
                if viewer is None or (table.place_of(viewer.id) is None
                                      and viewer.id != table.owner):
                    raise TableError("not_found", "no such table (it may have finished)")
            return Response(table.sheet_text(), media_type="application/json")
        except TableError as exc:
            raise HTTPException(404, exc.message) from None

    # A finished match's sheet (its table gone from memory, or a record uploaded for
    # review, finished or not) is made from the store once and kept with its row, for the
    # privacy check the record's download makes (GET /api/games/{id}/record): a private
    # table's sheet is for its own people, an unfinished upload's for its uploader.
    finished_sheets: BodyCache[GameRow] = BodyCache(SHEET_CACHE_BYTES)

    async def finished_sheet(hub: Hub, game_id: str, authorization: str | None,
                             address: str) -> Response | None:
        """The sheet of a finished game (or of a record uploaded for review) from the
        store, None if the game is not (yet) finished; a game that is not there, or private
        to others, is not found."""
        missing = TableError("not_found", "no such table (it may have finished)")
        hit = finished_sheets.get(game_id)
        try:  # (its stored result not read: the refusals need none of it)
            game = hit[0] if hit is not None else await hub.db(hub.store.game, game_id, ())
        except StoreError:
            if hub.cluster is not None:
                return None  # (as before: stored_sheet says it)
            raise missing from None
        # A record uploaded for review never changes: its sheet, finished or not (the hands
        # played so far), is made and kept the same way; unfinished, it is its uploader's
        # alone, as its record is (whoever may download the record may see its sheet).
        uploaded = game.kind == "import" and game.options.get("uploader") is not None
        if game.status != "finished" and not uploaded:
            return None
        if _private(game) or (uploaded and game.status != "finished"):
            viewer = await hub.db(hub.user_for, _bearer(authorization))
            if not _member(game, viewer):
                raise missing
        if uploaded or _continued_upload(game):  # kept while opened (review_unopened_days)
            await hub.upload_opened(game_id)
        if hit is not None:
            return Response(hit[1], media_type="application/json")
        before_replay(address)
        try:
            game, match = await hub.db(hub.store.load_match, game_id)
        except StoreError:
            raise missing from None
        replayed(address, match)
        if not match.is_over() and not uploaded:
            return None
        names = [str(s.get("name") or "") or default_name(len(game.seats), i)
                 for i, s in enumerate(game.seats)]
        body = bytes(JSONResponse(frames.sheet_body(frames.sheet(
            game_id, views.sheet(match, names)))).body)
        finished_sheets.put(game_id, game, body)
        return Response(body, media_type="application/json")

    async def stored_sheet(hub: Hub, table_id: str, authorization: str | None,
                           address: str) -> Response:
        """The sheet of a table another process runs, from the store (every accepted
        action is there before anyone hears of it): replayed once for each state of the
        table's row, then kept (``table_sheets``)."""
        missing = TableError("not_found", "no such table (it may have finished)")
        viewer: list[UserRow | None] = []  # looked up once, if the table is private

        async def check(game: GameRow) -> None:
            if game.kind != "table" or game.status not in ("waiting", "active"):
                raise missing
            if (game.options.get("table") or {}).get("private"):
                if not viewer:
                    viewer.append(await hub.db(hub.user_for, _bearer(authorization)))
                people = {s.get("user_id") for s in game.seats} | {game.options.get("owner")}
                if viewer[0] is None or viewer[0].id not in people:
                    raise missing

        try:
            game = await hub.db(hub.store.game, table_id)
            await check(game)
            hit = table_sheets.get(table_id)
            if hit is not None and hit[0] == game.updated_at:
                return Response(hit[1], media_type="application/json")
            # (the row is read again with the events: the sheet is at least as new as the
            # updated_at it is kept under)
            before_replay(address)
            game, match = await hub.db(hub.store.load_match, table_id)
        except StoreError:
            raise missing from None
        replayed(address, match)
        await check(game)
        if not match.log:
            raise TableError("state", "the match has not started")
        names = [str(s.get("name") or "") or (SEAT_NAMES_4[i] if len(game.seats) == 4
                                                else f"Seat {i + 1}")
                 for i, s in enumerate(game.seats)]
        body = bytes(JSONResponse(frames.sheet_body(frames.sheet(
            table_id, views.sheet(match, names)))).body)
        table_sheets.put(table_id, game.updated_at, body)
        return Response(body, media_type="application/json")

    finished_records = RecordCache(RECORD_CACHE_BYTES)

    def forget_deleted(ids: Collection[str]) -> None:
        """Records kept for review were deleted: their answers kept ready go too."""
        for gid in ids:
            finished_records.drop(gid)
            finished_sheets.drop(gid)

    @app.get("/api/games/{game_id}/record", tags=["records"], response_model=None)
    async def game_record(game_id: str, hub: HubDep, request: Request,
                          authorization: Annotated[str | None, Header()] = None
                          ) -> Response:
        # The game's row is read first and the refusals made from it: replaying the
        # events (on the database thread every table's moves use) is for an answer only,
        # and a finished game's record, which never changes, is made once.
        hit = finished_records.get(game_id)
        try:  # (its stored result not read: the refusals need none of it)
            game = hit[0] if hit is not None else await hub.db(hub.store.game, game_id, ())
        except StoreError:
            raise HTTPException(404, "no such game") from None
        viewer = await hub.db(hub.user_for, _bearer(authorization))
        if _private(game) and not _member(game, viewer):
            raise HTTPException(404, "no such game")
        uploader = game.options.get("uploader")
        review = game.kind == "import" and uploader is not None and (
            game.status == "finished" or (viewer is not None and uploader == viewer.id))
        if review or (_continued_upload(game) and game.status == "finished"):
            await hub.upload_opened(game_id)  # kept while it is opened (review_unopened_days)
        if hit is not None:
            return _record_for(hit[1], game, viewer)
        mine = viewer is not None and uploader == viewer.id
        unfinished = HTTPException(403, "the match is not finished: its record would show "
                                   "hidden cards")
        live = hub.tables.get(game_id)
        if game.status != "finished" and not mine:
            # The row says finished a moment after the last card is heard of (the result is
            # stored, then match_over is sent): a match that has just ended is known from its
            # table here, or, run by another process of the room, by replaying it as before.
            if live is not None and live.match is not None and live.match.is_over():
                return _record_for(JSONResponse(record_of(game, live.match)).body, game,
                                   viewer)
            if live is not None or hub.cluster is None or game.status != "active":
                raise unfinished
        address = client_address(request)
        before_replay(address)
        try:
            game, match = await hub.db(hub.store.load_match, game_id)
        except StoreError:
            raise HTTPException(404, "no such game") from None
        replayed(address, match)
        if not match.is_over() and not mine:
            raise unfinished
        answer = JSONResponse(record_of(game, match))
        if game.status == "finished" and match.is_over():
            finished_records.put(game_id, game, bytes(answer.body))
        return _record_for(answer.body, game, viewer)

    #: Uploads under way, by client address (``uploads_at_once_per_address``).
    uploading: dict[str, int] = {}

    @app.post("/api/records", response_model=RecordOut, tags=["records"])
    async def upload_record(request: Request, hub: HubDep, user: UserDep
                            ) -> RecordOut | JSONResponse:
        # At most so many from one address at once, counted before the body is read: each
        # holds up to max_record_bytes while it arrives (up to body_timeout), and the rates
        # are checked once it has (its size is their cost; a chunked body declares none).
        address = client_address(request)
        most = settings.uploads_at_once_per_address
        under_way = uploading.get(address, 0)
        if address and most > 0 and under_way >= most:
            raise HTTPException(429, f"{under_way} uploads from your address are under way "
                                f"(at most {most} at once): wait for their answers, then "
                                "send this again", headers={"Retry-After": "1"})
        uploading[address] = under_way + 1
        try:
            return await upload(request, hub, user)
        finally:
            left = uploading[address] - 1
            if left:
                uploading[address] = left
            else:
                del uploading[address]

    async def upload(request: Request, hub: Hub, user: UserRow) -> RecordOut | JSONResponse:
        """``POST /api/records``, once it may be read."""
        declared = request.headers.get("content-length") or "0"
        if not (declared.isascii() and declared.isdigit()):  # httplimits refuses it first
            raise HTTPException(400, f"Content-Length: {declared[:40]!r} is not a number of "
                                "bytes")
        # The body is the record wrapped with the fields around it ({"record": ..., "mode":
        # "review"}): it may be max_record_bytes and room for them, as httplimits lets it in
        # (before: the body was held to max_record_bytes, so a record file just under the
        # limit, which the page let through, was refused here for its wrapping).
        most = httplimits.body_limit(settings, "/api/records")
        size = int(declared)
        if size > most:
            raise HTTPException(413, httplimits.too_big_message(settings, "/api/records", size))
        raw = await request.body()
        if len(raw) > most:
            raise HTTPException(413, httplimits.too_big_message(settings, "/api/records",
                                                                len(raw)))
        address = client_address(request)
        cost = record_cost(len(raw))  # read, replayed and stored, every action a row

        def stored_wait() -> float:
            """The wait for the address's rate of records stored (``upload_address_rate``)."""
            return uploads.wait(address, cost) if address else 0.0

        def spend() -> None:
            wait = stored_wait()
            if wait > 0:  # each is stored for good: about 15 times its size
                raise HTTPException(
                    429, f"too many records uploaded from your address: at most "
                    f"{settings.upload_address_rate * RECORD_COST_BYTES / 1000:g} KB of "
                    f"records a second, all its players together (each counts once per "
                    f"{RECORD_COST_BYTES // 1000} KB begun); try again in "
                    f"{retry_after(wait)} s", headers={"Retry-After": retry_after(wait)})
            try:
                hub.create_gate.take(user.id, address, cost)
            except TableError as exc:
                wait = hub.create_gate.wait(user.id, address, cost)
                raise HTTPException(429, exc.message,
                                    headers={"Retry-After": retry_after(wait)}) from None
            if address:
                uploads.take(address, cost)

        if hub.create_gate.wait(user.id, address, cost) > 0 or stored_wait() > 0:
            spend()  # refused before it is read (on the event loop: 1 MB, up to 45 ms)
        try:  # in a thread, as the replay: a record of 1 MB held the event loop about 50 ms
            body = await asyncio.to_thread(RecordIn.model_validate_json, raw)
        except ValidationError as exc:
            spend()  # reading it was the cost (before: malformed ones were never counted)
            raise HTTPException(422, _why(exc)) from None
        try:  # refused before the record is replayed
            if body.mode == "continue":
                check_upload(hub, user.id, address)
                check_programs(hub, address, (body.options or hub.default_options()).cpu)
        except TableError as exc:
            raise HTTPException(429, exc.message) from None
        spend()
        try:
            match = await asyncio.to_thread(replay, body.record)
        except SpadesError as exc:  # "record: hand 1, ...", but "record: ..." said once
            why = str(exc)
            raise HTTPException(422, why if why.startswith("record:") else f"record: {why}"
                                ) from None
        # shown at the table and in histories as people's names are: without runs of
        # stacked combining marks (record_names keeps printable characters only), and no
        # wider than a name may be (24 of ﷽ ran across the table as 480 letters would)
        names = [narrowed(clean_label(n), NAME_MAX)
                 for n in record_names(body.record, match.rules.players)]
        if body.mode == "review":
            # A seat the record names not stays unnamed: its download names no one there
            # (not "Seat 1" for seat 0, North, which the record's readers would then show).
            seats = [{"name": name} for name in names]
            try:
                gid = await hub.db(upkeep.keep_upload, hub.store, match, seats=seats,
                                   uploader=user.id, address=address, cost=int(cost),
                                   per_address=settings.review_uploads_per_address,
                                   most=settings.review_uploads, counts=hub.upload_counts)
            except upkeep.UploadsFull as exc:
                return JSONResponse(uploads_full_body(exc, int(cost)), status_code=413)
            return RecordOut(game_id=gid, summary=summary(match))
        if match.is_over():
            raise HTTPException(422, "this match is over: upload it to review instead")
        # Without ``seat``, the seat the record names as its ``human`` (spades export and a
        # player's own download write it); before, the uploader was sat at seat 0 unasked.
        seat = body.seat if body.seat is not None else record_seat(body.record,
                                                                   match.rules.players)
        # Stored for good once it ends, as a record kept for review is: counted in the
        # same caps (before: only while it was a live table, so one address's guests
        # could store continued uploads without end, at the upload rate).
        room = functools.partial(upkeep.check_room, hub.store, address=address,
                                 cost=int(cost), per_address=settings.review_uploads_per_address,
                                 most=settings.review_uploads, counts=hub.upload_counts)
        try:
            table = await hub.continue_match(user, match, seat, body.options, address,
                                             names, cost=int(cost), room=room)
        except upkeep.UploadsFull as exc:
            return JSONResponse(uploads_full_body(exc, int(cost), continued=True),
                                status_code=413)
        except LeaseLost as exc:
            # Stored (marked an upload), but this process was cut off before it ran the
            # table and another one found it and runs it: the uploader joins it there.
            log.warning("continued upload %s: its lease went to another process before it "
                        "ran here", exc.table_id)
            return RecordOut(game_id=exc.table_id, table_id=exc.table_id,
                             summary=summary(match))
        except TableError as exc:
            raise HTTPException(422, exc.message) from None
        hub.uploads.add(table.id)
        async with table.lock:
            await table.save_meta()  # remembers that it is an upload
        return RecordOut(game_id=table.id, table_id=table.id, summary=summary(match))

    def uploads_full_body(exc: upkeep.UploadsFull, cost: int,
                          continued: bool = False) -> dict[str, Any]:
        """The 413's body: ``detail`` (the words for API clients and operators, naming the
        limit) and ``room``, the same in numbers for a page to say in its own words
        (``whose``: "address", the caller's address keeps as many as one may, or "all",
        the server keeps as many as it may for everyone; ``kept`` and ``most``: what the
        caller's address keeps and the most one address may keep (0: no such cap), in
        records counted once per 100 KB begun, records kept for review and matches
        continued from uploads together; ``cost``: this record's count;
        ``unopened_days``: after how long one nobody opens is deleted, 0: never;
        ``continued``: the refused upload was to continue the match). How many the server
        keeps for everyone, and its cap on them, are not said: before, ``kept`` and
        ``most`` were those when ``whose`` was "all", and anyone could read how many
        records the server keeps."""
        return {"detail": uploads_full(exc, cost, continued), "room": {
            "whose": "address" if exc.whose == "address" else "all",
            "kept": exc.mine, "most": settings.review_uploads_per_address,
            "cost": cost, "unopened_days": settings.review_unopened_days,
            "continued": continued}}

    def uploads_full(exc: upkeep.UploadsFull, cost: int, continued: bool = False) -> str:
        """Why a record cannot be kept for review, or continued (413), and how room is
        made. (Records kept for review and matches continued from uploads are counted
        together: each is stored for good once it has ended.) Of everyone's cap, only its
        name: not how many the server keeps, nor its cap (which full says as much)."""
        unit = f"{RECORD_COST_BYTES // 1000} KB"
        what = "records uploaded for review or continued" if continued else \
            "records uploaded for review"
        per_address = settings.review_uploads_per_address
        if exc.whose == "address":
            said = (f"your address keeps {exc.mine} {what}, the most one address may keep "
                    f"is {per_address} (review_uploads_per_address)")
        else:
            cap = f" of the {per_address} one address may keep" if per_address > 0 else ""
            said = (f"this server keeps as many {what} as it may for everyone "
                    f"(review_uploads); your address keeps {exc.mine}{cap}")
        days = settings.review_unopened_days
        freed = (f"a record kept for review, or a continued match that has ended, that "
                 f"nobody opens (downloads, or looks at its score sheet) for {days:g} days "
                 "is deleted; " if days > 0 else "")
        head = "no room to keep this upload to continue" if continued else \
            "no room to keep this record for review"
        return (f"{head}: {said}, records kept for review and matches continued from "
                f"uploads counted together, each once per {unit} begun (this one {cost}). "
                f"To make room, {freed}the uploader may delete one (a continued match once "
                "it has ended) with DELETE /api/games/{game_id}")

    @app.delete("/api/games/{game_id}", status_code=204, tags=["records"],
                response_model=None)
    async def delete_upload(game_id: str, hub: HubDep, user: UserDep) -> Response:
        """Delete a record you uploaded for review, or a match you continued from an
        upload once it has ended (your own only: 404 for any other game, one still going,
        and one that is not there)."""
        try:  # (its stored result not read: every hand's, for any game id asked)
            game = await hub.db(hub.store.game, game_id, ())
        except StoreError:
            raise HTTPException(404, "no such game") from None
        review = game.kind == "import" and game.options.get("uploader") == user.id
        continued = (_continued_upload(game) and game.options.get("upload_by") == user.id
                     and game.status in ("finished", "abandoned"))
        if not (review or continued):
            raise HTTPException(404, "no such record of yours: only a record you uploaded "
                                "for review, or a match you continued from an upload once "
                                "it has ended, can be deleted")
        if not continued:
            await hub.db(upkeep.delete_uploads, hub.store, [game_id], hub.upload_counts)
        else:
            async with closed_table(hub, game_id) as fence:
                die_at("delete_checked")
                if not await hub.db(upkeep.delete_uploads, hub.store, [game_id],
                                    hub.upload_counts, fence=fence):
                    # brought back to its table meanwhile (by a process that took it
                    # after this one's hold ran out: this one was cut off, or paused)
                    raise HTTPException(409, STILL_OPEN)
        hub.games_deleted([game_id])
        return Response(status_code=204)

    @app.get("/api/health", tags=["tables"])
    async def health(hub: HubDep, response: Response) -> dict[str, Any]:
        """For monitoring: 200 ``ok`` when the process answers and its database does (a
        ``SELECT 1`` on the database thread, within 5 s); else 503, ``ok`` false and why.
        With ``--redis``: whether Redis answers, how many processes share the room, and
        this process's id in it."""
        why = None
        try:
            await asyncio.wait_for(hub.db(hub.store.ping), HEALTH_DB_SECONDS)
        except TimeoutError:
            why = f"the database did not answer within {HEALTH_DB_SECONDS:g} s"
        except SQLAlchemyError as exc:
            why = "the database is not answering"
            log.error("health: %s: %s", why, one_line(exc))
        linked: dict[str, Any] = {}
        if hub.cluster is not None:  # several processes: whether Redis answers, and who
            room = hub.cluster.room    # shares it (the same count from every process)
            linked.update(redis=room.link_ok, processes=room.processes, node=room.node)
        if why is not None:
            response.status_code = 503
            response.headers["Retry-After"] = "5"
            return {"ok": False, "tables": len(hub.tables), "database": False, **linked,
                    "detail": why}
        if linked and not linked["redis"]:
            return {"ok": True, "tables": len(hub.tables), "database": True, **linked,
                    "detail": "Redis does not answer: the other processes cannot reach "
                              "this one's tables, nor it theirs"}
        return {"ok": True, "tables": len(hub.tables), "database": True, **linked}

    # The WebSocket ----------------------------------------------------------------------------

    @app.websocket("/ws")
    async def ws_endpoint(ws: WebSocket) -> None:
        hub: Hub = ws.app.state.hub
        if not origin_ok(ws, settings):
            refused_origin(ws)
            await ws.close(code=1008)
            return
        await ws.accept()
        conn = await hello(ws, hub)
        if conn is None:
            return
        if hub.cluster is not None:
            hub.cluster.register(conn)
        sender = asyncio.create_task(conn.sender())
        receiver = asyncio.create_task(receive_loop(ws, hub, conn))
        try:
            _done, _ = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sender, receiver):
                task.cancel()
            for task in (sender, receiver):
                with contextlib.suppress(BaseException):
                    await task
            conn.closed = True
            hub.close_session(conn)
            hub.lobby_subs.discard(conn)
            if hub.cluster is not None:
                hub.cluster.unregister(conn)
            if conn.table is not None:  # its own task: runs even if this one is cancelled
                hub.spawn(conn.table.detach(conn, leaving=False))
            if ws.application_state == WebSocketState.CONNECTED:
                await close_socket(ws, conn.close_code, conn.close_reason,
                                   settings.send_close_timeout)

    @app.get("/ws", include_in_schema=False)
    async def ws_without_upgrade(request: Request) -> JSONResponse:
        """``/ws`` asked as plain HTTP: a proxy that does not pass the WebSocket's
        ``Upgrade``/``Connection`` headers (before: 404, as if there were no such path, and
        nothing in the log). 426 saying so, and a warning for the operator. The 426's
        ``Upgrade``/``Connection`` fields go only to a client that asked directly: behind a
        proxy the client may speak HTTP/2, which forbids them (nginx passed ``Upgrade`` on,
        and the browser got a protocol error instead of this answer)."""
        not_upgraded(request)
        proxied = any(name in request.headers for name in ("x-forwarded-for", "x-forwarded-proto",
                                                            "forwarded", "via"))
        return JSONResponse(
            {"detail": "/ws is a WebSocket: the request came without its Upgrade and "
                       "Connection headers (a proxy in between that does not pass them?)"},
            status_code=426,
            headers=None if proxied else {"Upgrade": "websocket", "Connection": "Upgrade"})

    web = settings.web_static or str(Path(__file__).resolve().parent.parent / "web" / "static")
    if Path(web, "index.html").is_file():
        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app


def too_big(text: str, limit: int) -> bool:
    """Whether a text frame is over ``limit`` bytes of UTF-8 (docs/server.md: max_frame is
    bytes, not characters). A character is at most 4 bytes, so only a frame that could be
    over is encoded to count."""
    if len(text) > limit:
        return True
    if len(text) * 4 <= limit:
        return False
    return len(text.encode("utf-8", "surrogatepass")) > limit


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def record_seat(record: dict[str, Any], players: int) -> int:
    """The seat a record names as its ``human`` (a seat's number, or its name as ``spades
    import --seat`` takes it: ``"west"``, at four players also ``"w"``), for a ``continue``
    upload that gives no ``seat``: 400 saying that ``seat`` is needed, and which values it
    takes, when the record names none, or names no seat of its table."""
    names = compass_names(players)
    choices = (f"give seat, a number from 0 to {players - 1} "
               f"({', '.join(f'{i} {n}' for i, n in enumerate(names))})")
    value = record.get("human")
    if value is None:
        raise HTTPException(400, "seat is needed: the record does not say which seat is yours "
                            f"(it has no \"human\"); {choices}")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    if isinstance(value, str):
        said = value.strip().lower()
        words = [n.lower() for n in names]
        if said in words:
            return words.index(said)
        if players == 4 and said in ("n", "e", "s", "w"):
            return "nesw".index(said)
        if said.isascii() and said.isdecimal() and int(said) < players:
            return int(said)
    raise HTTPException(400, f"seat is needed: the record's \"human\", {shown(value)}, is not "
                        f"a seat at its table of {players}; {choices}")


def _private(game: GameRow) -> bool:
    table = game.options.get("table")
    return isinstance(table, dict) and bool(table.get("private"))


def _record_for(body: bytes | memoryview, game: GameRow, viewer: UserRow | None) -> Response:
    """A game's record as ``viewer`` downloads it: with ``"human"``, the seat they sat at,
    when they sat at exactly one (as ``spades export`` writes it), so that ``spades import``
    seats them there and counts their statistics from there; before, it said "the record
    does not say which seat is yours" and sat them South. The same record otherwise (the
    one kept for everyone, and a record uploaded for review, where nobody sat)."""
    seats = [i for i, s in enumerate(game.seats) if viewer is not None and isinstance(s, dict)
             and s.get("user_id") == viewer.id]
    data = bytes(body)
    if len(seats) != 1 or game.kind == "import":
        return Response(data, media_type="application/json")
    # "human" added to the record's object as it is sent, not parsed and written again (a
    # long match's record, 216 KB for 374 hands: 6 ms of the event loop for each download
    # at the HTTP rate). A server's record (record_of) never has "human" of its own (had
    # it one, the last of a repeated key is the one JSON readers keep: this one).
    if data[-1:] != b"}":  # (no object: as before)
        record = json.loads(data)
        record["human"] = seats[0]
        return JSONResponse(record)
    return Response(b"%s,\"human\":%d}" % (data[:-1].rstrip(), seats[0]),
                    media_type="application/json")


def _member(game: GameRow, viewer: UserRow | None) -> bool:
    """Whether ``viewer`` sat at the game, owns it or uploaded it."""
    return viewer is not None and viewer.id in _members(game)


def _members(game: GameRow) -> frozenset[object]:
    """The ids of the people who sat at the game, own it or uploaded it."""
    ids = [s.get("user_id") for s in game.seats if isinstance(s, dict)]
    ids += [game.options.get("owner"), game.options.get("uploader")]
    return frozenset(i for i in ids if isinstance(i, int | float))  # (ids: numbers)


#: When each refused origin was last logged (at most one line a minute for each).
_REFUSED: dict[str, float] = {}
#: Lines about refused origins logged a minute, all origins together: the ``Origin`` is the
#: client's to choose, and one new each time wrote a warning for each handshake (at the
#: HTTP rate, 10 a second from each address: 4 KB a second of log).
REFUSED_LINES = 10
#: When this minute of refused-origin lines began, and how many were logged or left out.
_REFUSED_MINUTE: list[float] = [-math.inf, 0, 0]


def refused_origin(ws: WebSocket) -> None:
    """Log a WebSocket refused for its ``Origin``: with a proxy that does not pass the Host
    the browser asked for, or a page served from another name, every player is refused, and
    this line is how the operator learns why."""
    origin = ws.headers.get("origin", "")[:200]
    now = time.monotonic()
    if now - _REFUSED.get(origin, -math.inf) < 60:
        return
    minute = _REFUSED_MINUTE
    if now - minute[0] >= 60:
        if minute[2]:
            log.warning("%d more WebSockets from pages of other origins were refused (403) "
                        "within a minute, not logged one by one", minute[2])
        minute[:] = [now, 0, 0]
    if minute[1] >= REFUSED_LINES:
        minute[2] += 1  # (said in one line when the minute is over)
        return
    minute[1] += 1
    if len(_REFUSED) >= 1000:
        _REFUSED.clear()
    _REFUSED[origin] = now
    log.warning("refused a WebSocket (403) from a page of origin %r: it is not this server's "
                "own (Host: %r) nor one of --allow-origin; if it is your page, pass the "
                "browser's Host through the proxy or add --allow-origin %s",
                origin, ws.headers.get("host", "")[:200], origin)


#: When a plain HTTP request to /ws was last logged (one line a minute).
_NOT_UPGRADED: list[float] = []


def not_upgraded(request: Request) -> None:
    """Log (once a minute) a request to /ws that came without the WebSocket upgrade: behind
    a proxy that drops those headers, no player can connect, and this is the line that says
    why."""
    now = time.monotonic()
    if _NOT_UPGRADED and now - _NOT_UPGRADED[0] < 60:
        return
    _NOT_UPGRADED[:] = [now]
    client = request.client.host if request.client else "?"
    log.warning("a request to /ws came as plain HTTP, without the WebSocket's Upgrade and "
                "Connection headers (answered 426; from %s, Host: %r): if it came through "
                "a proxy, the proxy does not pass them (nginx: proxy_http_version 1.1; "
                "proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "
                "$connection_upgrade; see docs/deploy.md)",
                client, request.headers.get("host", "")[:200])


def origin_ok(ws: WebSocket, settings: Settings) -> bool:
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser
    if origin in settings.allow_origins or "*" in settings.allow_origins:
        return True
    host = ws.headers.get("host", "")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # "http://[::1" (before: a 500 and a traceback in the log each time)
        return False
    return netloc.lower() == host.lower() and host != ""


def _why(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        path = [str(x) for x in err.get("loc", ())]
        if len(path) > 1 and path[0] == path[1]:
            path = path[1:]  # the message type named again by its field: "options.options"
        loc = ".".join(path)
        msg = err.get("msg")
        if err.get("type") == "dict_type":  # as spades replay says it, not "Input should be
            msg = f"must be a JSON object, not {shown(err.get('input'))}"  # an object"
        parts.append(f"{loc}: {msg}" if loc else str(msg))
    return "; ".join(parts)


def _err(code: str, message: str, ref: Any = None) -> str:
    return frames.error(code, message, ref)


async def hello(ws: WebSocket, hub: Hub) -> Conn | None:
    s = hub.settings
    try:
        raw = await asyncio.wait_for(ws.receive(), timeout=s.hello_timeout)
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(code=1008, reason=f"no hello within {s.hello_timeout:g} s: the "
                           "first message must be hello with a session token")
        return None
    text = raw.get("text")
    found = None
    ref = None
    results_new = False  # (the hello asks for only the new results in its event frames)
    if isinstance(text, str) and not too_big(text, s.max_frame):
        try:
            msg = client_message.validate_json(text)
            ref = msg.ref
            if msg.type == "hello":
                results_new = msg.results == "new"
                found = await hub.db(hub.session_of, msg.token)
        except ValidationError:
            # The refusal answers the message: with its ref when that is a good one, as a
            # refusal of any later message is (before: "ref": null for a hello whose token,
            # say, was no string).
            with contextlib.suppress(ValueError, RecursionError):
                data = json.loads(text)
                ref = echo_ref(data.get("ref")) if isinstance(data, dict) else None
        except SQLAlchemyError as exc:
            log.error("database error at hello: %s", exc)
            why = "the database is not answering: try again shortly"
            with contextlib.suppress(Exception):
                await ws.send_text(_err("unavailable", why, ref))
                await ws.close(code=1011, reason=why)
            return None
    if found is None:
        why = ("the first message must be hello with a valid session token (POST /api/guest "
               "or /api/login)")
        with contextlib.suppress(Exception):
            await ws.send_text(_err("auth", why, ref))
            await ws.close(code=1008, reason=why)
        return None
    user, digest, expires = found
    conn = Conn(ws, user, s, hub.send_budget)
    conn.results_new = results_new
    hub.open_session(conn, digest, expires)
    if hub.cluster is not None:  # tables may be run by any process: ask the store
        rows = await hub.db(hub.store.list_games, kind="table", status=["waiting", "active"],
                            user_id=user.id)
        seated = [r.id for r in rows]
    else:
        seated = [t.id for t in hub.tables.values()
                  if t.status in ("waiting", "active") and t.place_of(user.id) is not None]
    conn.send(frames.welcome(_user_info(user), seated, client_limits(s), ref))
    return conn


async def receive_loop(ws: WebSocket, hub: Hub, conn: Conn) -> None:
    s = hub.settings
    while not conn.closed:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        if not conn.allow():
            if conn.dropped >= s.flood_close:
                conn.close(1008, f"too many messages: {conn.dropped} beyond the limit of "
                                 f"{s.rate_per_second:g} a second")
                return
            now = time.monotonic()
            if now - conn.last_rate_error > 1.0:
                conn.last_rate_error = now
                conn.send(_err("rate_limit", f"too many messages: at most "
                                             f"{s.rate_per_second:g} a second"))
            continue
        text = msg.get("text")
        if text is None:
            conn.send(_err("bad_message", "binary frames are not accepted: send JSON text"))
            continue
        if too_big(text, s.max_frame):
            conn.send(_err("too_big", f"a message may be at most {s.max_frame} bytes"))
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            conn.send(_err("bad_message", "not JSON (or nested too deeply)"))
            continue
        ref = echo_ref(data.get("ref")) if isinstance(data, dict) else None
        try:
            message = client_message.validate_python(data)
        except ValidationError as exc:
            conn.send(_err("bad_message", _why(exc), ref))
            continue
        try:
            if hub.cluster is None or not await hub.cluster.route(conn, message, data):
                await dispatch(hub, conn, message)
        except TableError as exc:
            conn.send(_err(exc.code, exc.message, ref))
        except TextError as exc:
            conn.send(_err("bad_message", str(exc), ref))
        except SQLAlchemyError as exc:  # nothing was changed: the client may try again
            log.error("database error on a %s message: %s", message.type, exc)
            conn.send(_err("unavailable", "the database is not answering: nothing was "
                           "changed, try again shortly", ref))


def _check_copies(hub: Hub, conn: Conn) -> None:
    """Refuse (``rate_limit``) a copy of the table or of its score sheet (``resync``,
    ``sheet``, a ``join`` back to one's own seat) past ``snapshot_rate`` for the connection
    or ``snapshot_address_rate`` for its address: each is the whole table (its chat too:
    35 KB), and at a long match's table is worked out from each scored hand."""
    s = hub.settings
    if conn.snapshot_bucket.wait() > 0:
        raise TableError("rate_limit", f"copies of the table (resync, or a join back to your "
                         f"seat) and of its score sheet (sheet) may be asked for at most "
                         f"{s.snapshot_rate:g} times a second")
    wait = hub.snapshot_address_buckets.wait(conn.address) if conn.address else 0.0
    if wait > 0:  # (an address has many connections; a long match's copy is big)
        raise TableError("rate_limit", f"copies of the table (resync, or a join back to your "
                         f"seat) and of its score sheet (sheet) may be asked for at most "
                         f"{s.snapshot_address_rate:g} times a second from your address, "
                         f"all its connections together: try again in {retry_after(wait)} s")


def _spend_copy(hub: Hub, conn: Conn) -> None:
    conn.snapshot_bucket.take()
    if conn.address:
        hub.snapshot_address_buckets.take(conn.address)


def _ack(ref: Any, seq: int | None = None) -> str:
    return frames.ack(ref, seq)


#: The 409 of a DELETE /api/games/{id} of a continued match open at its table.
STILL_OPEN = ("this match is still open at its table: it can be deleted once everyone "
              "there has left it")


@contextlib.asynccontextmanager
async def closed_table(hub: Hub, game_id: str) -> AsyncIterator[int]:
    """Hold the table of ``game_id``, a continued match that ended, closed while it is
    deleted; yields the game's new fencing number, which the delete is made under. 409 if
    the table is open: run here, or, with ``--redis``, by another process of the room, the
    one that holds its lease (``PREFIXowner:ID``, held while the table runs, from before it
    is made or brought back until its last member leaves it; before, only this process's
    tables were asked about, and a continued upload open at another process's table was
    deleted under it). The DELETE takes that lease itself (:meth:`Cluster.hold_closed`),
    so that no process brings the table back meanwhile (for a client that was at it),
    and then the game (:meth:`Store.take_game`): a process that brings it back all the
    same (this one's lease ran out: it was cut off, or paused) raises the fencing number,
    and the delete, made only under this one, deletes nothing (409). Before, the DELETE
    only asked who held the lease, and a table brought back between that and the delete
    ran with its match deleted under it. If Redis does not answer (within
    :data:`OWNER_SECONDS`), 503: the table may be open elsewhere, so nothing is deleted
    (fail safe, as the database not answering is; a rate counted in Redis fails open
    instead, to each process's own count, which still holds). 404: the game is gone."""
    if game_id in hub.tables:
        raise HTTPException(409, STILL_OPEN)
    cluster = hub.cluster
    if cluster is not None:
        try:
            held = await asyncio.wait_for(cluster.hold_closed(game_id), OWNER_SECONDS)
        except Exception as exc:
            cluster.room.failed("holding a table to delete it", exc)
            raise HTTPException(503, "cannot tell whether this match is still open at its "
                                "table (Redis, which says which process runs it, is not "
                                "answering): nothing was deleted, try again shortly",
                                headers={"Retry-After": "5"}) from None
        if not held:
            raise HTTPException(409, STILL_OPEN)
    try:
        try:
            fence = await hub.db(hub.store.take_game, game_id)
        except StoreError:
            raise HTTPException(404, "no such game") from None
        yield fence
    finally:
        if cluster is not None:
            await cluster.let_go(game_id)


def client_address(request: Request, unknown: str = "") -> str:
    """What ``request``'s client address counts as for the caps and rates per address
    (:func:`address_key`: an IPv6 client's /64); ``unknown`` when it has none."""
    return address_key(request.client.host) if request.client else unknown


async def find_table(hub: Hub, conn: Conn, table_id: str | None, invite: str | None
                     ) -> Table:
    """The table a ``join`` names, by id or invite code. A miss (no such table, or a
    private table and a wrong code) is counted against the client's address, and the
    address's misses are refused past ``join_miss_rate``: invite codes cannot be guessed
    at the message rate, nor by guest after guest. With several processes the misses are
    counted in Redis for all of them (``hub.shared_misses``; before, each process counted
    its own, and N processes gave N times the tries). There each join is counted as a miss
    before the table is looked up, in one script with the check (``take_if_free``), and
    given back if it was none: a look before and a count after let joins at once, at two
    processes or at one, all pass on the last miss of a burst."""
    address, shared = conn.address, hub.shared_misses
    if not address:
        wait = 0.0
    elif shared is not None:
        wait = await shared.take_if_free(address)
    else:
        wait = hub.join_misses.wait(address)  # (nothing awaited before the take below)
    if wait > 0:
        raise TableError("rate_limit", f"too many joins of tables that do not exist or with "
                         f"a wrong invite code from your address: at most one every "
                         f"{1 / hub.settings.join_miss_rate:g} s; try again in "
                         f"{retry_after(wait)} s")
    missed = False
    try:
        table = hub.find(table_id, invite)
        table.check_private(conn, invite)
    except TableError as exc:
        missed = bool(address) and exc.code in ("not_found", "not_allowed")
        if missed and shared is None:
            hub.join_misses.take(address)
        raise
    finally:
        if address and shared is not None and not missed:
            await shared.give_back(address)  # (no miss: its count taken back)
    return table


def _table(conn: Conn) -> Table:
    if conn.table is None:
        if conn.ended is not None:
            raise TableError("state", "the finished table you watched has closed: it has "
                             "nothing more to tell (its score sheet and record stay)")
        raise TableError("state", "you are not at a table: join one first")
    return conn.table


class MadeElsewhere(Exception):
    """The rematch ``table_id`` (an id decided before and stored with the finished table)
    could not be made here: it is in the store already, made under that id by another
    process (one that brought the finished table back while this one was cut off from the
    others, or the one that decided the id, cut off and back since)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


async def _create(hub: Hub, conn: Conn, options: TableOptions, ref: Any,
                  invited: dict[int, int] | None = None,
                  names: dict[int, str] | None = None,
                  rematch_of: Table | None = None, rematch_id: str | None = None,
                  making: list[str] | None = None) -> Table:
    """A new table with ``conn`` as its owner (``create``, and ``rematch`` with the old
    table's players ``invited``), under the limits on tables per user and address and the
    create rates; ``conn`` leaves its table (a table not started yet: its place too).
    ``rematch_of``: the finished table it is the rematch of; with several processes, the
    rematch's id is decided and stored with it before the new table is made
    (:meth:`Table.keep_rematch`), so a process that dies in between leaves no table that
    the finished one does not know of: whoever brings it back makes the rematch under that
    id (``rematch_id``: the id stored so, of a rematch never made). ``making``: gets that
    id, from when it is reserved (``hub.making`` holds it until the owner is answered)."""
    hub.check_options(options)  # refuse before anything changes
    check_tables(hub, conn.user_id, leaving=conn.table)
    check_address(hub, conn.address, leaving=conn.table)
    leaving = conn.table if conn.table is not None and conn.table.status == "waiting" else None
    check_programs(hub, conn.address, options.cpu, but=leaving)
    hub.create_gate.take(conn.user_id, conn.address)  # last: a refusal spends nothing
    if hub.cluster is not None:
        hub.cluster.leaving_remote(conn)
    if conn.table is not None:
        await conn.table.detach(conn, leaving=conn.table.status == "waiting")
    gid = None
    if rematch_of is not None and hub.cluster is not None:
        gid = await hub.reserve_table_id(rematch_id)
        if making is not None:
            making.append(gid)
            hub.making.setdefault(gid, asyncio.get_running_loop().create_future())
        if rematch_of.rematched != gid:
            await rematch_of.keep_rematch(gid, conn.name)
        die_at("rematch_half")
    try:
        earlier = () if rematch_of is None else (rematch_of.invite,
                                                 *rematch_of.earlier_invites)
        table = await hub.create_table(
            conn, options, invited, names, gid, earlier,
            None if rematch_of is None else rematch_of.removed)
    except SQLAlchemyError:  # (its primary key: another process made it under that id)
        if gid is not None and await _stored(hub, gid):
            raise MadeElsewhere(gid) from None
        raise
    if rematch_of is not None:
        die_at("rematch_made")
    table.members[conn.user_id] = conn
    conn.table = table
    conn.send(_ack(ref, table.seq))
    conn.send(table.snapshot(conn))
    hub.lobby_changed(table)
    return table


async def _stored(hub: Hub, table_id: str) -> bool:
    """Whether the table ``table_id`` is in the store (False: not, or unreadable now)."""
    try:
        await hub.db(hub.store.game, table_id)
    except (StoreError, SQLAlchemyError):
        return False
    return True


async def _tell_rematch(hub: Hub, table: Table, conn: Conn) -> None:
    """``conn`` has just come to the finished ``table``: if a rematch made of it waits for
    its players, it hears of it (:meth:`Table.tell_rematch_to`). That rematch runs here, or
    (several processes, after a take-over) at another process or none yet: then the store
    says whether it waits (before: only a rematch run here was told, so a player joined
    again to the finished table elsewhere, or reloading there, never heard of it). With
    several processes, a connection that heard of it at the process that ran the table
    before is not told again (:meth:`spades.server.cluster.Cluster.heard_rematch`)."""
    made = table.owes_rematch(conn)
    if made is None:
        return
    here = hub.tables.get(made)
    if here is not None:
        waits = here.status == "waiting"
    elif hub.cluster is not None:
        try:
            waits = (await hub.db(hub.store.game, made)).status == "waiting"
        except (StoreError, SQLAlchemyError):  # (never made: its process died first)
            return
    else:
        return
    if not waits or table.owes_rematch(conn) != made:  # (still owed after the store?)
        return
    if hub.cluster is not None:
        if await hub.cluster.heard_rematch(table.id, conn.cid):
            # this connection heard of it already, at the process that ran the table
            # before (joined again after a take-over: before, told twice); a reload is a
            # new connection, and hears of it
            table.rematch_told.add(conn)
            return
        if table.owes_rematch(conn) != made:
            return
    table.tell_rematch_to(conn)
    if hub.cluster is not None and conn in table.rematch_told:
        await hub.cluster.told_rematch(table.id, [conn.cid])


async def _rematch(hub: Hub, conn: Conn, old: Table, ref: Any) -> None:
    """The owner's ``rematch`` of the finished table ``old``, one at a time per table (the
    caller holds ``old.rematch_lock``: the owner's second tab asking at the same moment
    waits for the first, then is led to the table it made, as when asked again later;
    before, each made one, or, with several processes, the second failed on the first's
    id with a server error)."""
    invited, players = old.check_rematch(conn)
    made = hub.tables.get(old.rematched or "")
    if made is not None and made.status in ("waiting", "active"):
        # asked again (the owner came back to the finished table): the rematch made
        # already, joined again, rather than another table told to everyone again
        if hub.cluster is not None:
            hub.cluster.leaving_remote(conn)
        await old.detach(conn, leaving=False)
        await made.join(conn, "player", made.invite, ref=ref)  # (answered there)
        return
    unmade = None
    if made is None and old.rematched is not None and hub.cluster is not None:
        found = await hub.cluster.lead_to_rematch(conn, old, ref)
        if found == "led":
            return  # made before this process brought the table back: joined there
        if found == "unmade":  # (its process died between deciding its id and making it)
            unmade = old.rematched
    old.making_rematch = True  # (kept while its owner leaves it for the new table)
    making: list[str] = []
    try:
        table = await _create(hub, conn, old.options, ref, invited, players, old, unmade,
                              making)
        old.tell_rematch(table.id, conn.name)
        if hub.cluster is not None:  # (after: a process that dies first tells them again)
            await hub.cluster.told_rematch(old.id, [
                cid for cid in (getattr(c, "cid", None) for c in old.rematch_told)
                if isinstance(cid, str)])
    except MadeElsewhere as exc:
        # Another process made it under the same id meanwhile: this one was cut off from
        # the others (paused) while making it, its lease on the id ran out, and the
        # process that brought the finished table back made it (or the other way round).
        # The owner is led to that one, as when a rematch exists already.
        await _led_to_made(hub, conn, old, exc.table_id, ref)
        return
    except LeaseLost as exc:
        # Cut off (paused) while making it, this process resumed after its lease on the
        # id ran out and another process took it (it is making the rematch, or made it):
        # the table is not run here (before: both ran it a while, until the store shut
        # this one out). The owner joins it at that process, answered from there.
        log.warning("rematch %s of table %s: its lease went to another process "
                    "meanwhile; the owner is led there", exc.table_id, old.id)
        old.rematched = exc.table_id
        if hub.cluster is None or not await hub.cluster.lead_to_holder(
                conn, exc.table_id, ref):
            raise
        return
    finally:
        old.making_rematch = False
        old.maybe_forget()  # (kept while the rematch waits: see Table._maybe_forget)
        for gid in making:  # (joins of it forwarded here waited for it: they go on)
            done = hub.making.pop(gid, None)
            if done is not None and not done.done():
                done.set_result(None)
    if len(invited) == 1:  # the owner played alone with CPUs: it starts at once, as
        await table.start(conn)  # "Play against CPUs now" does (create with cpus)


async def _led_to_made(hub: Hub, conn: Conn, old: Table, made: str, ref: Any) -> None:
    """The rematch ``made`` was made by another process under the id this one decided
    (:class:`MadeElsewhere`): ``conn`` joins it wherever it runs
    (:meth:`spades.server.cluster.Cluster.lead_to_rematch`: an ``ack`` and its snapshot),
    or, if it is over already or cannot be read, is told what happened and what to do."""
    log.warning("rematch %s of table %s was made by another process meanwhile: the owner "
                "is led there", made, old.id)
    old.rematched = made
    if hub.cluster is not None and await hub.cluster.lead_to_rematch(conn, old, ref) == "led":
        return
    raise TableError("state", "your rematch was made at the same moment by another server "
                     f"process (table {made}), and this one cannot take you there now: "
                     "join that table, or come back to the finished table and ask for the "
                     "rematch again")


async def dispatch(hub: Hub, conn: Conn, msg: Any) -> None:
    kind = msg.type
    ref = msg.ref
    if kind == "ping":
        conn.send(frames.pong(ref, time.time()))
    elif kind == "hello":
        raise TableError("state", "already signed in on this connection")
    elif kind == "lobby":
        if not conn.lobby_bucket.take():
            raise TableError("rate_limit", f"the lobby may be asked at most "
                             f"{hub.settings.lobby_rate:g} times a second")
        if msg.subscribe:
            hub.lobby_subs.add(conn)
        else:
            hub.lobby_subs.discard(conn)
        limit = None if msg.limit is None else min(msg.limit, hub.settings.lobby_page_max)
        conn.send(hub.lobby_cache.message(msg.offset, limit, ref))
    elif kind == "create":
        conn.ended = None  # (at another table now: the one watched is forgotten)
        try:
            await _create(hub, conn, msg.options, ref)
        except LeaseLost as exc:
            # Stored, but this process was cut off (paused, or a slow store) before it ran
            # the table, its lease ran out, and another process found the table stored and
            # brought it back (before: the creator was answered an error, though the table
            # was made and run there). The creator is led to it, as the answer to the
            # create: an ack and the table, at the owner's seat (started, with ``cpus``).
            if hub.cluster is None:
                raise
            log.warning("new table %s: its lease went to another process before it ran "
                        "here; its creator is led there", exc.table_id)
            await hub.cluster.lead_to_table(conn, exc.table_id, ref, start=msg.cpus)
            return
        if msg.cpus:
            assert conn.table is not None
            await conn.table.start(conn)
    elif kind == "rematch":
        old = _table(conn)
        async with old.rematch_lock:  # (two tabs of the owner at once: one rematch)
            await _rematch(hub, conn, old, ref)
    elif kind == "join":
        conn.ended = None
        table = await find_table(hub, conn, msg.table_id, msg.invite)
        table.check_join(conn, msg.role, msg.invite)  # refuse before anything changes
        if msg.role == "player" and table.place_of(conn.user_id) is None:
            check_sitting(hub, conn.user_id, conn.address)  # (a new place: the caps)
        rejoin = rejoin_of(conn, table.id)  # (made by a process when the table moved)
        # A join that seats or watches, or takes back a seat a CPU covers (not one back to
        # one's own seat within its grace: a reconnect, a reload) counts for the address
        # too: each guest had join_rate to itself, so one address's guests, sitting down
        # and leaving in turn, told a table "sits down" and "leaves" as often as they liked
        # (each written, and sent whole to everyone there), and at tables of their own,
        # leaving and coming back, wrote each seat twice a second.
        place = table.place_of(conn.user_id)
        counted = rejoin is None and bool(conn.address) and (
            place is None or table.places[place].covered)
        # With several processes they are counted in Redis for all of them (before: by
        # each process, and N processes gave an address N times the joins), checked and
        # counted in one script (before: looked at, then counted after the join rate per
        # user, and joins at once at two processes, or at one, all passed on the last
        # join of a burst); given back if the join rate per user refuses it.
        joins = hub.shared_joins
        if counted:
            wait = (hub.join_address_buckets.wait(conn.address) if joins is None
                    else await joins.take_if_free(conn.address))
            if wait > 0:
                raise TableError("rate_limit", f"your address may join tables at most "
                                 f"{hub.settings.join_address_rate:g} times a second, all "
                                 f"its players together: try again in {retry_after(wait)} s")
        # A join back to one's own seat (a reload, a reconnect), which the address's joins
        # do not count, is answered with a copy of the whole table as a resync is, and
        # counts in the same rates (before: only in join_rate, per user, so each of an
        # address's guests seated at a long match had a copy a second of its own); not the
        # uploader's first sitting down at a continued record's table.
        copy = (rejoin is None and place is not None and not counted
                and place not in table.unseated)
        if copy:
            _check_copies(hub, conn)
        if rejoin is None and not hub.join_buckets.take(conn.user_id):
            if counted and joins is not None:
                await joins.give_back(conn.address)
            raise TableError("rate_limit", f"you may join tables at most "
                             f"{hub.settings.join_rate:g} times a second, all your "
                             "connections together")
        if copy:
            _spend_copy(hub, conn)
        if counted and joins is None:  # (nothing awaited since its look)
            hub.join_address_buckets.take(conn.address)
        if hub.cluster is not None:
            hub.cluster.leaving_remote(conn)
        came = conn.table is not table
        if conn.table is not None and came:
            await conn.table.detach(conn, leaving=False)
        # answered there (ack, snapshot), before the event the join causes is told
        await table.join(conn, msg.role, msg.invite, if_free=msg.if_free, back=msg.back,
                         ref=ref)
        if came and conn.table is table:
            await _tell_rematch(hub, table, conn)  # (a rematch made before they came back)
    elif kind == "leave":
        if conn.table is None and conn.ended is not None:  # (the table watched, gone since)
            conn.ended = None
            conn.send(_ack(ref))
            return
        if msg.table_id is not None and (conn.table is None or conn.table.id != msg.table_id):
            conn.send(_ack(ref))  # (you are not there: a stale page's leave changes nothing)
            return
        table = _table(conn)
        await table.detach(conn, leaving=True)
        conn.send(_ack(ref))
    elif kind == "act":
        table = _table(conn)
        seat = table.seat_of_conn(conn)
        if seat is None:
            raise TableError("not_allowed", "spectators cannot play: you hold no seat here")
        try:
            action = parse_action(msg.action)
        except SpadesError as exc:
            raise TableError("illegal", str(exc)) from None
        moves = hub.move_address_buckets
        wait = moves.wait(conn.address) if conn.address else 0.0
        if wait > 0:  # (refused: nothing changed, the turn still theirs)
            raise TableError("rate_limit", "your address may make at most "
                             f"{how_many(hub.settings.move_address_rate, 'move')} a second, "
                             f"all its players together: try again in {retry_after(wait)} s")
        seq = await table.act(conn, seat, action, "human")
        if conn.address:
            moves.take(conn.address)
        conn.send(_ack(ref, seq))
    elif kind == "chat":
        table = _table(conn)
        line = table.chat_line(conn, clean_chat(msg.text))
        if conn.chat_key is not None:  # (forwarded: its process may look for it)
            line["key"] = conn.chat_key
        s = hub.settings
        wait = hub.chat_address_buckets.wait(conn.address) if conn.address else 0.0
        if wait > 0:  # each line is a row kept while its table lives
            raise TableError("rate_limit", "chat: at most "
                             f"{how_many(s.chat_address_rate, 'line')} a second from your address, "
                             "all its players together: try "
                             f"again in {retry_after(wait)} s")
        if not hub.chat_buckets.take(conn.user_id):
            raise TableError("rate_limit", "chat: at most "
                             f"{how_many(s.chat_rate, 'line')} a second from you, "
                             "all your connections together")
        if not hub.table_chat_buckets.take(table.id):
            raise TableError("rate_limit", f"chat: this table takes at most "
                             f"{how_many(s.table_chat_rate, 'line')} a second from everyone; "
                             "wait a moment")
        if conn.address:
            hub.chat_address_buckets.take(conn.address)
        async with table.lock:  # kept before anyone sees it, in the order it is shown
            await hub.table_write(table, hub.store.add_chat, table.id, line)
            seq = table.emit_chat(line)
        conn.send(_ack(ref, seq))
    elif kind in ("resync", "sheet"):
        # Each is a copy of the whole table (its chat too: 35 KB) or of its score sheet:
        # the message rate alone let one address's connections ask for a thousand a second.
        _check_copies(hub, conn)
        _spend_copy(hub, conn)
        ended = conn.ended if conn.table is None else None
        if ended is not None:  # (a finished table watched, gone: as it was at its end)
            conn.send(frames.with_ref(ended.snapshot if kind == "resync" else ended.sheet,
                                      ref))
        elif kind == "resync":
            conn.send(_table(conn).snapshot(conn, ref))
        else:
            conn.send(_table(conn).sheet_text(ref))  # made once per state of the table
    elif kind == "hint":
        table = _table(conn)
        seat = table.seat_of_conn(conn)
        m = table.match
        if seat is None or m is None or m.current_player != seat or table.status != "active":
            raise TableError("state", "a hint is for the player whose turn it is")
        obs = m.observation(seat, recent=PAST_HANDS)
        # the seats named as the asking page shows them, when it says (one name a seat)
        names = tuple(msg.names) if msg.names and len(msg.names) == m.rules.players \
            and all(msg.names) else None
        # its own rates (per player and per address) and workers: CPU turns go on
        hub.hint_gate.enter(conn.user_id, conn.address)
        try:
            action, reason = await hub.cpu.hint(obs, names)
        except Exception:  # no hint rather than a broken connection
            raise TableError("state", "no hint is available now") from None
        finally:
            hub.hint_gate.leave(conn.user_id, conn.address)
        if action not in obs.legal_actions:
            raise TableError("state", "no hint is available now")
        conn.send(frames.hint(ref, table.id, action_str(action), reason))
    else:
        table = _table(conn)
        change = kind != "start"  # (a table starts once)
        if change:  # each writes the table's row and sends the whole table to everyone
            hub.change_gate.check(conn.user_id, conn.address)
        if kind == "seat":
            await table.move(conn, msg.seat)
        elif kind == "team":
            await table.choose_team(conn, msg.team)
        elif kind == "teammate":
            await table.choose_team(conn, None, mate=msg.seat)
        elif kind == "options":
            if (msg.options.cpu != table.cpu_default and table.status == "waiting"
                    and table.is_owner(conn, table.seat_of_conn(conn))):
                check_programs(hub, table.address, msg.options.cpu, but=table)
            await table.set_options(conn, msg.options)
        elif kind == "add_cpu":
            await table.add_cpu(conn, msg.seat)
        elif kind == "remove":
            await table.remove(conn, msg.seat)
        elif kind == "readmit":
            await table.readmit(conn, msg.user_id)
        elif kind == "give_owner":
            await table.give_owner(conn, msg.seat)
        elif kind == "start":
            await table.start(conn)
        if change:  # made: counted (a refused one is not)
            hub.change_gate.spend(conn.user_id, conn.address)
        conn.send(_ack(ref, table.seq))
