"""One settings object for the whole server."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Settings:
    db: str = ":memory:"
    #: Redis URL shared by several server processes serving one room (None: one process).
    redis: str | None = None
    #: Seconds a process's hold on a table lasts unless renewed (a third of it apart); a
    #: process that dies has its tables taken over within about this long.
    lease_seconds: float = 3.0
    redis_prefix: str = "spades:"
    #: The room's token in Redis (``spades serve`` read it, or set it, holding the database
    #: for its room): the process sets it again if Redis lost it. None: not kept.
    room_token: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    #: ``--forwarded-allow-ips``: the trusted reverse proxies, whose clients' own addresses
    #: (``X-Forwarded-For``) the limits count; the proxies themselves are not capped.
    forwarded_allow_ips: str = "127.0.0.1"
    #: Extra origins allowed to open the WebSocket (the server's own origin always is).
    allow_origins: list[str] = field(default_factory=list)
    #: Seconds a CPU waits before acting (so people can follow the play).
    cpu_delay: float = 0.0
    #: "process" (a process pool: expert bots do not stall the event loop), "thread", "inline".
    bot_executor: str = "thread"
    bot_workers: int = 2
    session_days: float = 30.0
    #: Sessions kept per user: a sign-in past it ends that user's oldest sessions (0: no
    #: cap). Each sign-in stores a session for ``session_days``; without a cap one account
    #: signing in again and again filled the sessions table.
    sessions_per_user: int = 20
    max_frame: int = 4096
    #: Frames above this are not even read: the socket is closed (1009).
    hard_frame: int = 65536
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    #: Dropped (rate-limited) messages before the connection is closed.
    flood_close: int = 200
    #: WebSocket frames of every kind a second per connection (bursts): messages, the
    #: fragments of one, pings and pongs. Past it the connection is closed (1008): pings,
    #: pongs and fragments never reach the message rate above, and each costs the event
    #: loop its parsing (``spades serve`` only: :mod:`spades.server.netlimits`).
    frame_rate: float = 100.0
    frame_burst: float = 200.0
    #: Frames queued for one connection before it is dropped as too slow to read (1008).
    send_queue: int = 256
    # Limits on what a client can make the server hold or do (docs/server.md, "Limits").
    #: Bytes queued for one connection before it is dropped (1008) at its next frame (that
    #: frame may take it past the cap: one frame larger than it is sent).
    send_queue_bytes: int = 1_000_000
    #: Bytes queued across all connections: above it the connection holding most is dropped.
    send_total_bytes: int = 32_000_000
    #: Seconds a dropped connection's close frame may wait to be written before the socket
    #: is cut (a client that reads nothing never receives it).
    send_close_timeout: float = 2.0
    #: ``resync`` and ``sheet`` messages a second per connection (bursts), and ``join``
    #: back to one's own seat: each answers with a copy of the whole table (its chat lines
    #: too: 35 KB and 0.25 ms of the event loop) or of its score sheet, and the message
    #: rate alone let one address's connections ask for over a thousand a second.
    snapshot_rate: float = 2.0
    snapshot_burst: float = 10.0
    #: The same per client address, all its connections together: an address has
    #: ``conns_per_address`` of them, and at a long match's table (a continued record's:
    #: every view is worked out from, and carries, each scored hand) a copy is bigger and
    #: slower by the hand (483 hands: 37 KB and 7 ms).
    snapshot_address_rate: float = 5.0
    snapshot_address_burst: float = 30.0
    #: ``lobby`` messages a second per connection (bursts of ``lobby_burst``).
    lobby_rate: float = 1.0
    lobby_burst: float = 5.0
    #: Largest page of the lobby (``limit`` of the ``lobby`` message and of GET /api/tables).
    lobby_page_max: int = 100
    #: The lobby rows are rebuilt when a table changes, and at least this often (ms).
    lobby_cache_ms: int = 1000
    #: Lobby changes are told to subscribers at most this often (ms): a table's changes
    #: within it are one frame (its latest state).
    lobby_notice_ms: int = 250
    #: Unfinished tables (waiting or active) where one user may hold a place when creating
    #: or uploading another, or sitting down at another's (``join`` as a player).
    tables_per_user: int = 5
    #: Places at tables not yet started that one client address's users hold, having sat
    #: down by ``join`` (a table's owner's own place is not counted; 0: no cap): one
    #: address's guests, each sitting at every open table in turn, held every open place of
    #: the lobby (a place is kept for ``grace_seconds`` after its connection went on to the
    #: next table).
    places_per_address: int = 20
    #: Unfinished tables (waiting or active) made from one client address (created on the
    #: WebSocket or by a ``continue`` upload) this process holds: guests cost one request
    #: each, and each may hold ``tables_per_user``.
    tables_per_address: int = 50
    #: New tables (``create``) and uploaded records (``POST /api/records``) a second per
    #: user, all their connections together (bursts), and per client address, all its
    #: users together: each stores a row that stays when the table closes.
    create_rate: float = 0.2
    create_burst: float = 10.0
    create_address_rate: float = 1.0
    create_address_burst: float = 30.0
    #: Unfinished tables (waiting or active) whose CPUs are outside programs an operator
    #: offers (``spades serve --bot``) made from one client address, and from everyone on
    #: this process (0: no cap). Each such table runs a program for each of up to three
    #: CPU seats (with ``--bots process``, one in each worker that decides for it), a
    #: process of its own of maybe tens of MB: one address's guests at
    #: ``tables_per_address`` tables kept 150 of them running.
    program_tables_per_address: int = 5
    program_tables: int = 50
    #: Records uploaded (``POST /api/records``, either mode) a second per client address,
    #: all its users together (bursts), each counted once per 100 KB begun
    #: (``limits.RECORD_COST_BYTES``): each is stored for good, every action a row (about
    #: 15 times its size in the database), and the create rates above let one address
    #: store over 1 MB a second.
    upload_address_rate: float = 0.01
    upload_address_burst: float = 30.0
    #: Record uploads (``POST /api/records``) from one client address under way at once,
    #: from the reading of their body to the answer (0: no cap): past it, 429 before the
    #: body is read. Each holds up to ``max_record_bytes`` while it arrives (for up to
    #: ``body_timeout``), and the rates above are checked once it has: one address's 64
    #: connections held 64 MB, uploads that were then refused.
    uploads_at_once_per_address: int = 2
    #: Records kept for review (``POST /api/records`` ``review``) that the database holds
    #: from one client address, and from everyone (0: no cap), each counted once per 100 KB
    #: begun (``limits.RECORD_COST_BYTES``): past either, an upload for review is refused
    #: (413). The rate above slows one address down; these bound what it keeps in the end.
    review_uploads_per_address: int = 100
    review_uploads: int = 10000
    #: A record kept for review that nobody has opened (its record downloaded, or its score
    #: sheet) for this many days is deleted by the janitor's pruning (0: never).
    review_unopened_days: float = 60.0
    #: Live tables made by ``continue`` uploads per user.
    uploads_per_user: int = 2
    #: A ``continue`` table with no person connected for this long ends (abandoned).
    upload_idle_minutes: float = 10.0
    #: Any unfinished table with no person connected for this long ends (abandoned), and
    #: one untouched for this long is not brought back at start.
    abandon_minutes: float = 30.0
    #: A finished table whose players have all gone, watched by spectators only, leaves
    #: memory after this long (checked every ``sweep_seconds``): its spectators keep its
    #: last snapshot and score sheet (their ``resync`` and ``sheet`` are answered with them)
    #: but hear nothing more of it (0: it stays while anyone watches).
    watch_finished_minutes: float = 10.0
    #: At a table without a turn timer, a person's turn that has waited this long (s) is
    #: played by a CPU covering their seat, as a dropped player's is, until they act or
    #: join again: one person cannot stall a table for ever (0: never).
    idle_seconds: float = 300.0
    #: Guests and accounts made a second per client address (bursts): each is a user and
    #: a session kept for ``session_days``, and an account an argon2 hash.
    signup_rate: float = 0.2
    signup_burst: float = 20.0
    #: Request bodies above this are refused with 413 (POST /api/records: max_record_bytes).
    max_body: int = 16_384
    #: HTTP requests (and WebSocket handshakes) a second per client address (bursts).
    http_rate: float = 10.0
    http_burst: float = 60.0
    #: Open connections per client address (more are closed at once).
    conns_per_address: int = 64
    #: Seconds a request's line and headers may take to arrive.
    header_timeout: float = 10.0
    #: Seconds a request's body may take to arrive once its headers have (408, closed).
    body_timeout: float = 30.0
    #: Bytes of request line and headers.
    max_header_bytes: int = 16_384
    #: Seconds an idle keep-alive HTTP connection stays open (uvicorn's timeout_keep_alive).
    keep_alive: int = 5
    #: Hints run on their own workers, at most ``hint_queue`` waiting or running at once.
    hint_workers: int = 1
    hint_queue: int = 4
    #: Chat lines a second per user, all of their connections together (bursts), and per
    #: table, everyone's together: one person on many connections, or many guests, cannot
    #: drown a table's talk (a screen reader says every line).
    chat_rate: float = 1.0
    chat_burst: float = 5.0
    table_chat_rate: float = 3.0
    table_chat_burst: float = 10.0
    #: Chat lines a second per client address, all its users together (bursts): each is a
    #: row kept while its table lives, and guests of one address can sit at many tables.
    chat_address_rate: float = 3.0
    chat_address_burst: float = 30.0
    #: Moves (bids and cards) a second per client address, all its players together
    #: (bursts): each is stored on the database thread every table's moves use and sent to
    #: everyone at its table. One address seating its own guests at 16 tables without CPUs
    #: made about 295 moves a second (the server's whole measured capacity), and everyone
    #: else's moves waited (hostile-guest trial, 2026-12-07). People play far slower: a
    #: whole school behind one address stays under it. A CPU's or the timer's move is not
    #: counted.
    move_address_rate: float = 30.0
    move_address_burst: float = 120.0
    #: Table joins a second per user, all of their connections together (bursts): each
    #: is told to the table ("sits down") and written to the database.
    join_rate: float = 1.0
    join_burst: float = 8.0
    #: The same per client address, all its users together, for joins that seat, watch, or
    #: take back a seat a CPU covers (a join back to one's own seat within its grace, a
    #: reconnect or a reload, is not counted here): each guest had ``join_rate`` to itself,
    #: and one address's guests sitting down and leaving in turn told a table "sits
    #: down", "leaves" as often as they liked. With ``redis``, counted for all the
    #: processes of the room together (``spades.server.room.SharedJoins``).
    join_address_rate: float = 3.0
    join_address_burst: float = 30.0
    #: Changes to a table a second per user, all of their connections together (bursts),
    #: and per client address, all its users together: ``seat``, ``team``, ``teammate``,
    #: ``options``, ``add_cpu``, ``remove``, ``readmit``, ``give_owner``. Each writes the
    #: table's row on the database thread every table's moves use, and sends the whole
    #: table to everyone at it (an owner toggling remove and readmit, or add_cpu and remove,
    #: did so at the message rate).
    change_rate: float = 2.0
    change_burst: float = 20.0
    change_address_rate: float = 5.0
    change_address_burst: float = 60.0
    #: Matches replayed from the store for HTTP answers a second per client address
    #: (bursts): a finished game's record or score sheet not kept ready, or the sheet of a
    #: table another process runs. Each replay runs on the database thread every table's
    #: moves use; a long match counts once per 100 hands begun (limits.REPLAY_COST_HANDS).
    #: A history's scores so far (an unfinished match replayed once per state of its
    #: moves) count too: past the rate they are the ones last worked out, or none.
    replay_rate: float = 1.0
    replay_burst: float = 30.0
    #: People one table keeps as removed by its owner (``remove``; ``readmit`` lets one
    #: back): each is stored with the table and listed in the owner's copy of every update.
    removed_per_table: int = 100
    #: Joins that miss (no such table, or a private one with a wrong invite code) a second
    #: per client address, all its users together (bursts): invite codes are not guessed.
    join_miss_rate: float = 0.2
    join_miss_burst: float = 20.0
    #: Hints a second per player (bursts of ``hint_burst``).
    hint_rate: float = 0.5
    hint_burst: float = 3.0
    #: Hints a second per client address, all its players together (bursts); an address
    #: may also have at most half of ``hint_queue`` waiting or running at once. A hint is
    #: 50 to 200 ms of search on the hint workers: one address's guests, each at a table of
    #: their own at the per-player rate, kept the workers busy and every other player's
    #: hint refused (``busy``).
    hint_address_rate: float = 1.0
    hint_address_burst: float = 6.0
    #: Spectators per table.
    spectators_per_table: int = 50
    #: Spectators per table from one client address (people, however many tabs each):
    #: one address's many guests cannot take every place of ``spectators_per_table``.
    spectators_per_address: int = 5
    #: Spectator joins and departures are announced (one small frame) at most this often.
    spectator_notice_ms: int = 500
    #: When the tab that holds a seat closes while an older tab of the same person, which it
    #: replaced, is open, the seat is that tab's again after this long (ms): a reload of the
    #: closed tab joins meanwhile and keeps the seat, and the older tab shows nothing of it.
    handover_ms: int = 2000
    #: How often the janitor looks for abandoned tables (s), and prunes the database (min).
    sweep_seconds: float = 30.0
    prune_minutes: float = 60.0
    #: Guests with no session and no game, created longer ago than this, are deleted.
    guest_days: float = 7.0
    #: Chat lines of finished or abandoned tables older than this are deleted.
    chat_days: float = 30.0
    hello_timeout: float = 10.0
    chat_history: int = 50
    max_record_bytes: int = 1_000_000
    #: Failed sign-ins allowed per client address within ``login_window`` seconds (0: no
    #: limit); more attempts are refused with 429 until the oldest failure is that old.
    login_failures: int = 10
    login_window: float = 300.0
    #: Failed sign-ins to one account from all addresses, and from one address to all
    #: accounts, within ``login_window`` (0: no limit). An address that signed in to an
    #: account before is held only to ``login_failures`` for it (spades/server/auth.py).
    login_account_failures: int = 100
    login_address_failures: int = 100
    #: Sign-ins that reach their password check a second per client address, all its
    #: names together (bursts; 0: no limit). Each is an argon2 check (0.16 s of CPU, 64 MiB)
    #: on the password workers every sign-in and registration waits for; only failures
    #: were counted, so one account's right password, sent again and again at the HTTP
    #: rate, kept the machine's cores busy. A sign-in refused by the failure limits above
    #: spends none of it.
    login_address_rate: float = 1.0
    login_address_burst: float = 20.0
    web_static: str | None = None
