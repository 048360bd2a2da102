"""``welcome.limits`` tells a client every limit it can run into (issue 15: a client learns
the limits from the server rather than by being refused)."""

from __future__ import annotations

from dataclasses import replace

from starlette.testclient import TestClient

from spades.server.app import create_app
from spades.server.limits import CLIENT_LIMITS, LIMIT_FIELDS, SERVER_LIMITS
from spades.server.protocol import WelcomeOut
from spades.server.settings import Settings
from tests.server.helpers import Player, close_all


def test_welcome_lists_every_limit_a_client_can_run_into(settings: Settings) -> None:
    odd = replace(settings, lobby_rate=2.0, hint_rate=0.25, tables_per_user=3, body_timeout=7.5,
                  spectators_per_table=9, max_body=1234)
    with TestClient(create_app(odd)) as client:
        try:
            ann = Player(client, "Ann")
            limits = ann.welcome["limits"]
        finally:
            close_all()
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
