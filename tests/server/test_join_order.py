"""A join is answered first: the joiner's ``ack`` and its own ``table`` snapshot, then the
table's event about the join (``joined``, ``returned``). Before, the event came first, so a
client heard what the table said about its arrival before the answer to its own join."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import Msg, Player
from tests.server.netclient import NetPlayer, card_room
from tests.server.netclient import new_table as new_net_table
from tests.server.test_tables import new_table, started
from tests.services import PostgresServer, RedisServer


def answer_then_event(p: Player, msg: Msg, kind: str) -> list[Msg]:
    """``p`` sends ``msg`` (a join): its frames from there up to the event ``kind``, after
    a ping's pong (whatever the join caused comes before it)."""
    before = len(p.frames)
    p.send({**msg, "ref": "j"})
    p.send({"type": "ping", "ref": "after"})
    p.until(lambda m: m["type"] == "pong" and m.get("ref") == "after")
    got = [m for m in p.frames[before:] if m["type"] in ("ack", "error", "table", "event")]
    end = next((i for i, m in enumerate(got)
                if m["type"] == "event" and m["event"]["kind"] == kind), None)
    assert end is not None, (kind, got)
    return got[:end + 1]


def kinds(frames: list[Msg]) -> list[str]:
    return [m["event"]["kind"] if m["type"] == "event" else m["type"] for m in frames]


def test_a_joiner_gets_its_ack_and_snapshot_before_the_joined_event(
        client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems"})
    got = answer_then_event(bob, {"type": "join", "table_id": tid}, "joined")
    assert kinds(got) == ["ack", "table", "joined"], got
    ack, snap, joined = got
    assert ack["ref"] == "j"
    # the snapshot already shows Bob seated; the event follows it in the numbering
    assert snap["you"]["role"] == "player" and snap["you"]["seat"] is not None, snap["you"]
    assert joined["seq"] == snap["seq"] + 1, (snap["seq"], joined["seq"])
    assert joined["event"]["text"] == ""  # (his page says where he sits)
    # the others hear it as before
    said = ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined")
    assert said["event"]["text"] == "Bob sits down at North"


def test_a_player_back_after_a_lost_connection_gets_the_answer_before_you_are_back(
        client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "turn_timer": 60}, bob)
    started(ann, bob)
    token = bob.token
    bob.close()
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    bob = Player(client, "Bob", token)
    got = answer_then_event(bob, {"type": "join", "table_id": tid}, "returned")
    assert kinds(got) == ["ack", "table", "returned"], got
    assert got[2]["seq"] == got[1]["seq"] + 1
    assert got[2]["event"]["text"] == "you are back", got[2]


def test_across_processes_the_answer_comes_first_too(postgres: PostgresServer,
                                                     redis_server: RedisServer) -> None:
    """Bob, connected to another process than the one that runs the table, joins it: his
    join is answered there and the frames come back through Redis, in the same order."""
    with card_room(2, postgres, redis_server, "joinorder", "--bots", "inline",
                   "--cpu-delay", "0") as (a, b):
        ann = NetPlayer(a, "Ann")
        tid = new_net_table(ann, {"profile": "cardems"})
        bob = NetPlayer(b, "Bob")
        bob.send({"type": "join", "table_id": tid, "ref": "j"})
        bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined")
        got = [m for m in bob.frames if m["type"] in ("ack", "error", "table", "event")]
        assert kinds(got) == ["ack", "table", "joined"], got
        assert got[0]["ref"] == "j" and got[2]["seq"] == got[1]["seq"] + 1
        ann.close()
        bob.close()
