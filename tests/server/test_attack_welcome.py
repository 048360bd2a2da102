"""``welcome.limits`` tells a client every limit it can run into (issue 15: a client learns
the limits from the server rather than by being refused)."""

from __future__ import annotations

import time
from dataclasses import replace

from spades.server.limits import CLIENT_LIMITS, LIMIT_FIELDS, SERVER_LIMITS
from spades.server.protocol import WelcomeOut
from spades.server.settings import Settings
from tests.server.helpers import Player, in_process


def test_welcome_lists_every_limit_a_client_can_run_into(settings: Settings) -> None:
    odd = replace(settings, rate_per_second=20.0, rate_burst=40.0, lobby_rate=2.0,
                  hint_rate=0.25, tables_per_user=3, body_timeout=7.5,
                  spectators_per_table=9, max_body=1234)
    with in_process(odd) as client:
        ann = Player(client, "Ann")
        limits = ann.welcome["limits"]
    WelcomeOut.model_validate(ann.welcome)
    # The keys clients have always had are still there, the same.
    assert limits["max_frame"] == odd.max_frame and limits["chat_max"] == 300
    assert limits["rate_per_second"] == 20 and limits["rate_burst"] == 40
    assert isinstance(limits["rate_per_second"], int)
    # The newer ones: the lobby's and the hints' rates, frames, chat, caps, HTTP...
    for name in CLIENT_LIMITS:
        assert limits[name] == getattr(odd, name), name
    assert limits["lobby_rate"] == 2 and limits["hint_rate"] == 0.25
    assert limits["tables_per_user"] == 3 and limits["body_timeout"] == 7.5
    assert limits["spectators_per_table"] == 9 and limits["max_body"] == 1234
    assert {"hard_frame", "chat_history", "lobby_burst", "hint_burst", "hint_queue",
            "send_queue", "uploads_per_user", "http_rate", "login_failures"} <= set(limits)


def test_every_limit_is_either_told_to_clients_or_only_the_servers() -> None:
    assert set(LIMIT_FIELDS) <= set(CLIENT_LIMITS) | set(SERVER_LIMITS)
    assert not set(CLIENT_LIMITS) & set(SERVER_LIMITS)
    assert all(hasattr(Settings(), name) for name in CLIENT_LIMITS + SERVER_LIMITS)


# Lobby changes are coalesced -------------------------------------------------------------

NOTICE_MS = 300


def test_a_burst_of_lobby_changes_is_a_bounded_number_of_frames(settings: Settings) -> None:
    """An owner renaming a table 100 times (as fast as the server takes it) cost every
    lobby subscriber 100 frames; now it is at most one frame per ``lobby_notice_ms``, and
    the last one carries the latest state."""
    fast = replace(settings, rate_per_second=10_000, rate_burst=10_000, change_rate=0,
                   change_address_rate=0,
                   lobby_notice_ms=NOTICE_MS)
    with in_process(fast) as client:
        ann, bea = Player(client, "Ann"), Player(client, "Bea")
        bea.send({"type": "lobby", "subscribe": True})
        bea.until(lambda m: m["type"] == "lobby")
        assert ann.request({"type": "create", "options": {"cpu": "random"}}
                           )["type"] == "ack"
        ann.until(lambda m: m["type"] == "table")
        assert ann.table is not None
        tid = ann.table["id"]
        start = time.monotonic()
        for i in range(100):
            ans = ann.request({"type": "options",
                               "options": {"cpu": "random", "name": f"burst {i}"}})
            assert ans["type"] == "ack", ans
        last = bea.until(lambda m: m["type"] == "lobby_update"
                         and m["table"]["name"] == "burst 99")
        took = time.monotonic() - start
        frames = [m for m in bea.frames if m["type"] == "lobby_update"
                  and m["table"]["id"] == tid]
        # One frame at most per interval (and the table's creation may have had its own).
        assert len(frames) <= took / (NOTICE_MS / 1000) + 2, (len(frames), took)
        print(f"lobby frames for 100 changes: {len(frames)} in {took:.2f} s")
        assert len(frames) < 100
        assert frames[-1] is last  # the latest state came last
        bea.send({"type": "lobby", "subscribe": True})
        rows = bea.until(lambda m: m["type"] == "lobby")["tables"]
        assert [r for r in rows if r["id"] == tid] == [last["table"]]
        # Leaving the lobby is told too (and coalesced the same way).
        assert ann.request({"type": "leave"})["type"] == "ack"
        gone = bea.until(lambda m: m["type"] in ("lobby_remove", "lobby_update"))
        assert gone == {"type": "lobby_remove", "table_id": tid}
