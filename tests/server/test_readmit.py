"""The owner lets back in someone they removed (``readmit``): before, a removal held for
the table's whole life and the owner could not undo it. The owner's own copy of the table
lists whom they removed (nobody else's does); everyone hears who was let back, the person
(watching) hears they may sit down again, and it holds after a restart."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.server.helpers import Player, hub_of
from tests.server.test_seats import event, table_of_three

ANN_REMOVED_BOB = "the owner removed you from this table: you cannot sit at it again"


def uid(p: Player) -> int:
    user_id: int = p.welcome["user"]["id"]
    return user_id


def removed(p: Player) -> list[dict[str, Any]]:
    assert p.table is not None
    people: list[dict[str, Any]] = p.table["removed"]
    return people


def resync(p: Player) -> list[dict[str, Any]]:
    """The list in a fresh snapshot of ``p``'s table."""
    p.send({"type": "resync", "ref": "snap"})
    p.until(lambda m: m["type"] == "table" and m.get("ref") == "snap")
    return removed(p)


def test_the_owner_lets_a_removed_player_back_and_he_sits_again(client: TestClient) -> None:
    ann, bob, cara = table_of_three(client)
    tid = ann.table["id"] if ann.table else ""
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    gone = event(cara, "left")
    event(bob, "left")
    event(ann, "left")
    # the owner's copy of the table lists him, by name; nobody else's does
    assert removed(ann) == [{"user_id": uid(bob), "name": "Bob", "guest": True}], ann.table
    assert removed(cara) == [] and removed(bob) == []
    assert resync(bob) == [] and resync(cara) == []
    assert [r["name"] for r in resync(ann)] == ["Bob"]

    assert ann.request({"type": "readmit", "user_id": uid(bob)})["type"] == "ack"
    said = event(cara, "readmitted", gone["seq"])
    assert said["event"]["text"] == "Ann let Bob back to the table", said
    assert said["event"]["user_id"] == uid(bob)
    assert event(ann, "readmitted")["event"]["text"] == "you let Bob back to the table"
    mine = event(bob, "readmitted")["event"]["text"]
    assert mine == "Ann let you back to the table: you may sit down again", mine
    assert removed(ann) == []
    # he sits down again, by the usual join (he was watching: now he plays)
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    assert bob.you == {"role": "player", "seat": 1}, bob.you
    assert event(cara, "joined", said["seq"])["event"]["text"] == "Bob sits down at East"


def test_only_the_owner_lets_people_back_and_only_those_removed(client: TestClient) -> None:
    ann, bob, cara = table_of_three(client)
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    event(bob, "left")
    back = {"type": "readmit", "user_id": uid(bob)}
    for other in (cara, bob):  # a player, and the removed person himself (watching)
        refused = other.request(back)
        assert refused["type"] == "error" and refused["code"] == "not_allowed", refused
        assert refused["message"] == "only the table owner may do that"
    # someone not removed: said by name where the table knows them
    for user_id, who in ((uid(cara), "Cara"), (uid(ann), "Ann"), (987654321, "user 987654321")):
        refused = ann.request({"type": "readmit", "user_id": user_id})
        assert refused["type"] == "error" and refused["code"] == "state", refused
        assert refused["message"] == (f"{who} was not removed from this table: there is no "
                                      "removal to undo"), refused
    for bad in ({"type": "readmit"}, {"type": "readmit", "user_id": "7"},
                {"type": "readmit", "user_id": -1}, {"type": "readmit", "user_id": True}):
        refused = ann.request(bad)
        assert refused["type"] == "error" and refused["code"] == "bad_message", refused
        assert "user_id" in refused["message"], refused
    # after the start nobody sits down any more: nothing to let him back to
    assert ann.request({"type": "start"})["type"] == "ack"
    late = ann.request(back)
    assert late["type"] == "error" and late["code"] == "state", late
    assert late["message"] == "the match has already started"
    assert removed(ann) == []  # the list is the waiting room's


def test_a_new_owner_gets_the_list_and_the_old_one_no_longer_can(client: TestClient) -> None:
    ann, bob, cara = table_of_three(client)
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    event(cara, "left")
    assert removed(cara) == []
    assert ann.request({"type": "give_owner", "seat": 2})["type"] == "ack"
    event(cara, "owner")
    assert [r["name"] for r in removed(cara)] == ["Bob"]
    event(ann, "owner")
    assert removed(ann) == []
    assert ann.request({"type": "readmit", "user_id": uid(bob)})["code"] == "not_allowed"
    assert cara.request({"type": "readmit", "user_id": uid(bob)})["type"] == "ack"


def test_letting_back_in_holds_after_a_restart(restart: Any) -> None:
    client = restart()
    ann, bob, _ = table_of_three(client)
    tid = ann.table["id"] if ann.table else ""
    sit = {"type": "join", "table_id": tid}
    dan = Player(client, "Dan")
    assert dan.request(sit)["type"] == "ack"
    dan.until(lambda m: m["type"] == "table")
    for seat in (3, dan.seat):
        assert ann.request({"type": "remove", "seat": seat})["type"] == "ack"
    client = restart()
    ann = Player(client, "Ann", token=ann.token)
    assert ann.request(sit)["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    # named after the restart too
    assert [(r["name"], r["user_id"]) for r in removed(ann)] == [("Bob", uid(bob)),
                                                                  ("Dan", uid(dan))]
    assert ann.request({"type": "readmit", "user_id": uid(bob)})["type"] == "ack"
    client = restart()
    bob, dan = Player(client, "Bob", token=bob.token), Player(client, "Dan", token=dan.token)
    assert bob.request(sit)["type"] == "ack"
    refused = dan.request(sit)
    assert refused["type"] == "error" and refused["message"].startswith(ANN_REMOVED_BOB)
    ann = Player(client, "Ann", token=ann.token)
    assert ann.request(sit)["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert [r["name"] for r in removed(ann)] == ["Dan"]


def test_a_table_stored_with_ids_only_names_them_from_the_users(restart: Any) -> None:
    """A table whose removals were stored before the names were (``removed`` alone): after
    a restart the owner's list names them from the users' rows."""
    client = restart()
    ann, bob, _ = table_of_three(client)
    tid = ann.table["id"] if ann.table else ""
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    event(ann, "left")
    hub = hub_of(client)
    table = hub.tables[tid]
    meta = table.meta()
    del meta["removed_people"]
    hub.store.update_game(tid, options=meta, fence=table.fence)
    client = restart()
    ann = Player(client, "Ann", token=ann.token)
    assert ann.request({"type": "join", "table_id": tid})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert removed(ann) == [{"user_id": uid(bob), "name": "Bob", "guest": True}]


def test_let_back_in_at_a_table_without_spectators_he_joins_again(client: TestClient) -> None:
    """Removed from a table that allows no spectators, Bob is off it and hears nothing of
    being let back in; his next ``join`` seats him."""
    ann, bob, cara = table_of_three(client, {"spectators": False})
    tid = ann.table["id"] if ann.table else ""
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    assert event(bob, "left")["you"]["role"] == "none"
    seen = len(bob.frames)
    assert ann.request({"type": "readmit", "user_id": uid(bob)})["type"] == "ack"
    assert event(cara, "readmitted")["event"]["text"] == "Ann let Bob back to the table"
    bob.seq = None  # off the table, he missed its events: the join's frames number on
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert not [m for m in bob.frames[seen:] if m["type"] == "event"
                and m["event"]["kind"] == "readmitted"]
    bob.until(lambda m: m["type"] == "table")
    assert bob.you is not None and bob.you["role"] == "player"
