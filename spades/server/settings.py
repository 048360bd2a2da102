"""One settings object for the whole server."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Settings:
    db: str = ":memory:"
    host: str = "127.0.0.1"
    port: int = 8000
    #: Extra origins allowed to open the WebSocket (the server's own origin always is).
    allow_origins: list[str] = field(default_factory=list)
    #: Seconds a CPU waits before acting (so people can follow the play).
    cpu_delay: float = 0.0
    #: "process" (a process pool: expert bots do not stall the event loop), "thread", "inline".
    bot_executor: str = "thread"
    bot_workers: int = 2
    session_days: float = 30.0
    max_frame: int = 4096
    #: Frames above this are not even read: the socket is closed (1009).
    hard_frame: int = 65536
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    #: Dropped (rate-limited) messages before the connection is closed.
    flood_close: int = 200
    send_queue: int = 1000
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
    web_static: str | None = None
