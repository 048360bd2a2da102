"""A player who goes from a finished match's table (``leave``, sent by the page on going
elsewhere, or a closed connection: the tab closed, the laptop's lid shut) has left it: the
others hear so, and an owner's table passes on. Before, at a finished table nobody was told
(the page sent no ``leave`` there either: going to the lobby kept the player at the table).
A closed connection counts once the grace for a reconnection is over: a reload within it
says nothing, and the owner keeps the table (it passed on at once, and a reload said "Ann
leaves the table", "Ann is back")."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import Player, play_to_end
from tests.server.test_owner_passes import owner_news, owner_of, three_friends


def news(p: Player, speaker: Player, after: int, kinds: tuple[str, ...] = ("left", "owner")
         ) -> list[str]:
    """The texts of the events of ``kinds`` ``p`` got after frame ``after``, read up to a
    chat line ``speaker`` sends now (a missing event fails at once, not by a timeout)."""
    owner_news(p, speaker, after)  # (reads up to the chat line)
    return [m["event"]["text"] for m in p.frames[after:]
            if m["type"] == "event" and m["event"]["kind"] in kinds]


def finished(client: TestClient, **options: object) -> tuple[Player, Player, Player]:
    ann, bob, cara = three_friends(client, **options)
    assert ann.request({"type": "start"})["type"] == "ack"
    play_to_end([ann, bob, cara])
    for p in (bob, cara):
        p.catch_up(ann.seq or 0)
    assert owner_of(bob) == "Ann"
    return ann, bob, cara


def test_leaving_a_finished_table_is_told_and_passes_the_table_on(client: TestClient
                                                                   ) -> None:
    ann, bob, cara = finished(client)
    marks = len(bob.frames), len(cara.frames)
    assert ann.request({"type": "leave"})["type"] == "ack"
    bob_heard, cara_heard = news(bob, cara, marks[0]), news(cara, cara, marks[1])
    heir = owner_of(bob)
    assert bob_heard[:1] == cara_heard[:1] == ["Ann leaves the table"], (bob_heard, cara_heard)
    assert len(bob_heard) == len(cara_heard) == 2, (bob_heard, cara_heard)
    assert heir in ("Bob", "Cara")


def test_a_closed_connection_at_a_finished_table_leaves_it_after_the_grace(
        client: TestClient) -> None:
    ann, bob, cara = finished(client, grace_seconds=0)
    assert ann.request({"type": "leave"})["type"] == "ack"
    bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "owner")
    stays, goes = (cara, bob) if owner_of(bob) == "Bob" else (bob, cara)
    mark = len(stays.frames)
    goes.close()
    stays.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    heard = news(stays, stays, mark)
    assert heard[0] == f"{goes.name} leaves the table", heard
    assert owner_of(stays) == stays.name  # the one still there owns it now
    assert not any(s.get("connected") for s in (stays.table or {})["seats"]
                   if s.get("name") == goes.name)


def test_the_owner_going_to_her_rematch_is_not_told_as_leaving(client: TestClient) -> None:
    ann, bob, cara = finished(client)
    marks = len(bob.frames)
    assert ann.request({"type": "rematch"})["type"] == "ack"
    bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
    assert news(bob, cara, marks, ("left", "owner", "rematch")) == ["Ann started a rematch"]


def test_a_reload_at_a_finished_table_says_nothing_and_keeps_it_the_owners(
        client: TestClient) -> None:
    ann, bob, cara = finished(client)  # a grace of 30 s for a reconnection
    marks = len(bob.frames), len(cara.frames)
    table_id = (ann.table or {})["id"]
    ann.close()
    again = Player(client, "Ann", token=ann.token)
    assert again.request({"type": "join", "table_id": table_id})["type"] == "ack"
    again.until(lambda m: m["type"] == "table")
    assert owner_of(again) == "Ann"
    bob_heard = news(bob, cara, marks[0], ("left", "owner", "returned", "joined"))
    cara_heard = news(cara, cara, marks[1], ("left", "owner", "returned", "joined"))
    assert [t for t in bob_heard + cara_heard if t] == [], (bob_heard, cara_heard)
    assert owner_of(bob) == "Ann"
    # and she may still offer the rematch
    assert again.request({"type": "rematch"})["type"] == "ack"
