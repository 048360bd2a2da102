"""Malformed and hostile messages: never a crash, never a change, other tables play on."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spades.server.settings import Settings
from tests.server.helpers import Msg, Player, in_process, play_to_end


def hostile(rng: random.Random, table_id: str) -> list[str | bytes]:
    msgs: list[Any] = [
        "{", "", "null", "[]", "42", '"x"', "[" * 3000 + "]" * 3000, "{" * 1500,
        {}, {"type": "nope"}, {"type": 5}, {"type": None}, {"type": ["act"]},
        {"type": "act"}, {"type": "act", "action": 5}, {"type": "act", "action": "A" * 13},
        {"type": "act", "action": "AS", "extra": 1}, {"type": "act", "action": "AS",
                                                     "ref": {"x": 1}},
        {"type": "act", "action": "AS", "seat": 0}, {"type": "act", "action": "nil"},
        {"type": "act", "action": "blind-nil"}, {"type": "act", "action": "look"},
        {"type": "act", "action": "-1"}, {"type": "act", "action": "99"},
        {"type": "act", "action": "\ud800"}, {"type": "act", "action": "1e3"},
        {"type": "seat", "seat": -1}, {"type": "seat", "seat": 10 ** 30},
        {"type": "seat", "seat": "1"}, {"type": "team", "team": 7},
        {"type": "chat", "text": ""}, {"type": "chat", "text": "x" * 301},
        {"type": "chat", "text": 5}, {"type": "options", "options": {"profile": "x"}},
        {"type": "options", "options": {"players": 99}}, {"type": "start"},
        {"type": "add_cpu"}, {"type": "remove", "seat": 0}, {"type": "give_owner", "seat": 1},
        {"type": "join", "table_id": "nope"}, {"type": "join", "invite": "AAAAAAAA"},
        {"type": "join", "table_id": table_id, "role": "owner"},
        {"type": "hello", "token": "x"}, {"type": "lobby", "subscribe": "yes"},
        {"type": "create", "options": {"profile": "race400", "players": 2}},
        {"type": "create", "options": {"cpu": "cmd:rm -rf /"}},
        {"type": "ping", "ref": "r" * 41}, {"type": "act", "action": "AS", "ref": 1.5},
        "x" * 5000,
    ]
    for _ in range(120):  # random junk and random mutations of real messages
        base = rng.choice([{"type": "act", "action": "AS"}, {"type": "seat", "seat": 1},
                           {"type": "chat", "text": "hi"}, {"type": "options",
                                                            "options": {}}])
        key = rng.choice(["type", "action", "seat", "text", "options", "zz"])
        base[key] = rng.choice([None, True, -1, 2 ** 70, "", "💥" * 50, [1], {"a": 1}, 3.5])
        msgs.append(base)
        msgs.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))))
    return [m if isinstance(m, (str, bytes)) else json.dumps(m) for m in msgs]


@pytest.fixture
def fast_client(tmp_path: Path) -> Iterator[TestClient]:
    s = Settings(db=str(tmp_path / "f.sqlite3"), bot_executor="inline", cpu_delay=0.0,
                 rate_per_second=10000, rate_burst=10000, snapshot_rate=0.0,
                 snapshot_address_rate=0.0,
                 web_static=str(tmp_path / "x"))
    with in_process(s) as c:
        yield c


def advance(p: Player) -> None:
    """One step of a lone player's table: act when it is their turn, else read a frame."""
    if p.my_turn():
        assert p.view is not None
        assert p.request({"type": "act", "action": p.view["legal_actions"][0]})["type"] == "ack"
    elif p.view is None or p.view["phase"] != "over":
        p.recv()


def snapshot(p: Player) -> Msg:
    p.send({"type": "resync"})
    m = p.until(lambda m: m["type"] == "table")
    return {k: m[k] for k in ("seq", "view", "table", "you", "turn")}


def test_hostile_messages_change_nothing(fast_client: TestClient) -> None:
    client = fast_client
    ann, mal, bob = Player(client, "Ann"), Player(client, "Mal"), Player(client, "Bob")
    ann.request({"type": "create", "options": {"cpu": "random", "one_hand": True,
                                               "grace_seconds": 600}})
    ann.until(lambda m: m["type"] == "table")
    tid = ann.table["id"]  # type: ignore[index]
    mal.request({"type": "join", "table_id": tid})
    mal.until(lambda m: m["type"] == "table")
    ann.request({"type": "start"})
    # Wait until a human must act, so nothing moves by itself.
    while True:
        mal.catch_up(ann.seq or 0)
        if ann.my_turn() or mal.my_turn():
            break
        ann.recv()
    if mal.my_turn():
        ann, mal = mal, ann  # the fuzzer is the one *not* to act: every act is refused
    bob.request({"type": "create", "cpus": True, "options": {"cpu": "random", "one_hand": True}})
    hub = client.app.state.hub  # type: ignore[attr-defined]
    before = snapshot(ann), snapshot(mal)
    events = len(hub.store.events(tid))
    rng = random.Random(1)
    for i, raw in enumerate(hostile(rng, tid)):
        if isinstance(raw, bytes):
            mal.ws.send_bytes(raw)
        else:
            mal.ws.send_text(raw)
        ans = mal.until(lambda m: m["type"] in ("error", "ack", "pong", "lobby", "welcome"))
        assert ans["type"] in ("error", "pong", "lobby"), (i, raw[:200], ans)
        assert ans.get("message", "x"), ans
        if i % 20 == 0:  # the other table keeps playing meanwhile
            advance(bob)
    assert snapshot(mal)["table"]["id"] == tid
    assert (snapshot(ann), snapshot(mal)) == before
    assert len(hub.store.events(tid)) == events
    assert play_to_end([bob])["event"]["kind"] == "match_over"
    assert play_to_end([ann, mal])["event"]["kind"] == "match_over"


@pytest.fixture
def rated_client(settings: Settings) -> Iterator[TestClient]:
    """The app with the message rate per connection on, as served (the ``settings`` of the
    in-process tests turn it off)."""
    served = Settings()
    with in_process(replace(settings, rate_per_second=served.rate_per_second,
                            rate_burst=served.rate_burst)) as c:
        yield c


def test_flood_disconnects_only_the_flooder(rated_client: TestClient) -> None:
    client = rated_client
    bob, mal = Player(client, "Bob"), Player(client, "Mal")
    bob.request({"type": "create", "cpus": True, "options": {"cpu": "random",
                                                            "one_hand": True}})
    for _ in range(400):
        mal.send({"type": "ping"})
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            mal.recv()
    # the close says why, as a slow reader's does (before: 1008 with no reason)
    assert closed.value.code == 1008
    assert closed.value.reason.startswith("too many messages: "), closed.value.reason
    errors = [f for f in mal.frames if f["type"] == "error"]
    assert errors and errors[0]["code"] == "rate_limit"
    assert play_to_end([bob])["event"]["kind"] == "match_over"


def test_a_ref_with_a_lone_surrogate_is_refused_and_the_connection_stays(
        client: TestClient) -> None:
    # JSON may spell half of a UTF-16 pair ("\ud800"); json.loads keeps it, and the schema
    # took it as a ref. Echoing it in the answer could not be written as UTF-8: the
    # receive loop died and the socket closed with no error and no reason.
    mal = Player(client, "Mal")
    for raw, says in [('{"type": "ping", "ref": "\\ud800"}', "ping.ref: "),
                      ('{"type": "act", "action": "AS", "ref": "\\udc00\\ud800"}', "act.ref: "),
                      ('{"type": "nope", "ref": "a\\udfff"}', "'nope'")]:
        mal.ws.send_text(raw)
        ans = mal.until(lambda m: m["type"] in ("error", "pong"))
        assert ans["type"] == "error" and ans["code"] == "bad_message", (raw, ans)
        assert says in ans["message"] and ans.get("ref") is None, (raw, ans)  # not echoed
    # a well-formed surrogate pair is one character, and fine
    mal.ws.send_text('{"type": "ping", "ref": "\\ud83d\\udca5"}')
    assert mal.until(lambda m: m["type"] == "pong")["ref"] == "\U0001f4a5"
