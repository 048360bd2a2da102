"""A rematch: the owner of a finished table makes a new one with the same options, and the
old table's players hear of it and sit down at it (a private one too, without its code)."""

from __future__ import annotations

import dataclasses
from typing import Any

from starlette.testclient import TestClient

from spades.server.settings import Settings
from tests.server.helpers import Msg, Player, hub_of, in_process, play_to_end
from tests.server.test_tables import new_table, started

OPTIONS: dict[str, Any] = {"name": "Club night", "profile": "cardems", "one_hand": True,
                           "turn_timer": 60, "spectators": True}


def finished(client: TestClient, options: dict[str, Any]
             ) -> tuple[Player, Player, Player, str]:
    """Ann's one-hand table of ``options`` with Bob seated and Eve watching, played to
    its end: the three and the table's id."""
    ann, bob, eve = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Eve")
    tid = new_table(ann, options)
    assert ann.table is not None
    invite = ann.table.get("invite")
    assert bob.request({"type": "join", "table_id": tid, "invite": invite})["type"] == "ack"
    ans = eve.request({"type": "join", "table_id": tid, "role": "spectator", "invite": invite})
    assert ans["type"] == "ack", ans
    started(ann, bob)
    play_to_end([ann, bob])
    for p in (bob, eve):
        if not any(m["type"] == "event" and m["event"]["kind"] == "match_over"
                   for m in p.frames):
            p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over")
    return ann, bob, eve, tid


def rematch_news(p: Player) -> Msg:
    return p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")


def test_rematch_same_options_and_the_others_join(client: TestClient) -> None:
    ann, bob, eve, tid = finished(client, OPTIONS)
    assert bob.seat is not None and ann.seat is not None
    bob_was, ann_was = bob.seat, ann.seat
    # only the owner, and only once the match is over
    assert bob.request({"type": "rematch"})["code"] == "not_allowed"
    assert eve.request({"type": "rematch"})["code"] == "not_allowed"
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    snap = ann.until(lambda m: m["type"] == "table")
    new = snap["table"]
    assert new["id"] != tid and new["status"] == "waiting"
    assert new["owner"] == ann.welcome["user"]["id"]
    assert ann.you is not None and ann.you["role"] == "player" and ann.seat == ann_was
    old_opts = hub_of(client).tables[tid].options
    assert hub_of(client).tables[new["id"]].options == old_opts
    assert old_opts.name == "Club night" and old_opts.turn_timer == 60
    for p in (bob, eve):
        news = rematch_news(p)
        assert news["table_id"] == tid
        assert news["event"]["rematch"] == new["id"]
        assert news["event"]["text"] == "Ann started a rematch"
    assert bob.request({"type": "join", "table_id": new["id"]})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == new["id"])
    assert bob.you is not None and bob.you["role"] == "player"
    assert bob.seat == bob_was  # back at his place
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined")
    assert ann.table is not None and ann.table["status"] == "waiting"
    # the new table's match can be played in its turn
    started(ann, bob)
    play_to_end([ann, bob])


def test_rematch_of_a_private_table_needs_no_code_for_its_players(client: TestClient
                                                                  ) -> None:
    ann, bob, eve, tid = finished(client, {**OPTIONS, "private": True})
    old_invite = hub_of(client).tables[tid].invite
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table")["table"]
    table = hub_of(client).tables[new["id"]]
    assert table.options.private and table.invite != old_invite  # a fresh code
    for p in (bob, eve):
        news = rematch_news(p)
        assert "invite" not in news["event"] and table.invite not in str(news)
    # the spectator of the private table may not sit down without the code; Bob may
    assert eve.request({"type": "join", "table_id": new["id"]})["code"] == "not_allowed"
    assert bob.request({"type": "join", "table_id": new["id"]})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == new["id"])
    assert bob.you is not None and bob.you["role"] == "player"
    # a stranger with the id alone does not get in either
    zed = Player(client, "Zed")
    assert zed.request({"type": "join", "table_id": new["id"]})["code"] == "not_allowed"


def test_no_rematch_before_the_end_or_from_nowhere(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    assert ann.request({"type": "rematch"})["code"] == "state"  # at no table
    new_table(ann, OPTIONS, bob)
    assert ann.request({"type": "rematch"})["code"] == "state"  # waiting
    started(ann, bob)
    assert ann.request({"type": "rematch"})["code"] == "state"  # playing
    assert bob.request({"type": "rematch"})["code"] == "not_allowed"
    assert len(hub_of(client).tables) == 1


def test_a_rematch_is_under_the_create_limits(settings: Settings) -> None:
    # the create rate: one table, then no more for a while
    with in_process(dataclasses.replace(settings, create_burst=1.0,
                                             create_rate=0.001)) as client:
        ann, _, _, _ = finished(client, OPTIONS)
        ans = ann.request({"type": "rematch"})
        assert ans["type"] == "error" and ans["code"] == "rate_limit", ans
        assert len(hub_of(client).tables) == 1
    # tables per user: Ann holds a table not yet started in another tab
    with in_process(dataclasses.replace(settings, tables_per_user=1)) as client:
        ann, _, _, tid = finished(client, OPTIONS)
        tab = Player(client, "Ann", token=ann.token)
        assert tab.request({"type": "create", "options": OPTIONS})["type"] == "ack"
        ans = ann.request({"type": "rematch"})
        assert ans["type"] == "error" and ans["code"] == "limit", ans
        assert len(hub_of(client).tables) == 2
        assert hub_of(client).tables[tid].status == "finished"


def test_a_restart_keeps_who_may_join_the_rematch_without_the_code(restart: Any) -> None:
    client = restart()
    ann, bob, _, _ = finished(client, {**OPTIONS, "private": True})
    bob_was = bob.seat
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table")["table"]["id"]
    client = restart()
    bob2, zed = Player(client, "Bob", bob.token), Player(client, "Zed")
    assert zed.request({"type": "join", "table_id": new})["code"] == "not_allowed"
    assert bob2.request({"type": "join", "table_id": new})["type"] == "ack"
    bob2.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    assert bob2.you is not None and bob2.you["role"] == "player" and bob2.seat == bob_was


def test_a_rematch_alone_with_cpus_starts_at_once(client: TestClient) -> None:
    """A match against CPUs only: the rematch starts at once, as "Play against CPUs now"
    does (before: a waiting room where the player had to press Start)."""
    ann = Player(client, "Ann")
    tid = new_table(ann, {"profile": "cardems", "one_hand": True, "cpu": "random"})
    started(ann)
    play_to_end([ann])
    assert ann.request({"type": "rematch"})["type"] == "ack"
    snap = ann.until(lambda m: m["type"] == "table")
    assert snap["table"]["id"] != tid
    started_now = ann.until(lambda m: m.get("table") is not None
                            and m["table"]["status"] == "active")
    assert started_now["table"]["id"] == snap["table"]["id"]
