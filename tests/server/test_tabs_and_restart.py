"""A second tab on one's own seat, and what others hear after a server restart.

Before: the first tab got an error without a ref ("this seat was taken over...") and
nothing more; when the second tab closed, everyone heard that the player lost the
connection, a CPU covered them and the timer penalised them, though the first tab was
still open. After a restart, everyone heard "X is back" about players they never saw go."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.server.helpers import Msg, Player, hub_of, wait_until
from tests.server.test_tables import new_table, started


def _events(p: Player, kind: str) -> list[Msg]:
    return [m for m in p.frames if m["type"] == "event" and m["event"]["kind"] == kind]


def test_a_second_tab_replaces_the_first_which_gets_the_seat_back(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 0}, bob)
    started(ann, bob)
    seat = bob.seat
    tab2 = Player(client, "Bob", bob.token)
    assert tab2.request({"type": "join", "table_id": tid})["type"] == "ack"
    tab2.until(lambda m: m["type"] == "table")
    # the first tab is told with a code of its own, which a page can act on
    told = bob.until(lambda m: m["type"] == "error")
    assert told["code"] == "replaced" and told["ref"] is None, told
    assert "another tab" in told["message"]
    # the second tab closes: the first, still open, holds the seat again, silently
    tab2.close()
    snap = bob.until(lambda m: m["type"] == "table")
    assert snap["you"] == {"role": "player", "seat": seat}
    assert snap["table"]["seats"][seat]["connected"]
    wait_until(lambda: hub_of(client).tables[tid].connected(seat or 0), "Bob seated again")
    # Ann hears nobody leave, no CPU covers Bob (grace 0 would have covered him at once)
    ann.request({"type": "chat", "text": "still there?"})
    assert not _events(ann, "left") and not _events(ann, "covered"), ann.frames[-5:]
    assert not hub_of(client).tables[tid].places[seat or 0].covered
    # and the first tab plays on: its events come again
    assert bob.request({"type": "chat", "text": "yes"})["type"] == "ack"
    assert any(m["type"] == "chat" and m["line"]["text"] == "yes" for m in bob.frames)


def test_play_here_takes_the_seat_back_from_the_newer_tab(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 60}, bob)
    started(ann, bob)
    tab2 = Player(client, "Bob", bob.token)
    assert tab2.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert bob.until(lambda m: m["type"] == "error")["code"] == "replaced"
    # "Play here" in the first tab: join again
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    assert bob.you == {"role": "player", "seat": bob.seat} and bob.seat is not None
    assert tab2.until(lambda m: m["type"] == "error")["code"] == "replaced"
    # the first tab closes now: the second, still open, gets the seat back
    bob.close()
    assert tab2.until(lambda m: m["type"] == "table")["you"]["role"] == "player"
    ann.request({"type": "chat", "text": "x"})
    assert not _events(ann, "left")
    # a tab taking the seat from another one still open: nobody left, nobody is "back"
    assert not _events(ann, "returned"), _events(ann, "returned")


def test_a_tab_that_left_on_purpose_does_not_hand_the_seat_back(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 60}, bob)
    started(ann, bob)
    tab2 = Player(client, "Bob", bob.token)
    assert tab2.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert bob.until(lambda m: m["type"] == "error")["code"] == "replaced"
    assert tab2.request({"type": "leave"})["type"] == "ack"
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "covered")
    assert not hub_of(client).tables[tid].connected(bob.seat or 0)



def test_a_replaced_tab_back_from_its_own_reconnect_takes_the_seat_only_if_free(
        client: TestClient) -> None:
    """A replaced tab that lost its own connection used to stay replaced for good (its page
    did not join again, and a plain join would take the seat from the other tab): a join
    with ``if_free`` takes the seat only when no other open tab holds it, and otherwise
    waits to be handed it when that tab closes."""
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 60}, bob)
    started(ann, bob)
    seat = bob.seat
    tab2 = Player(client, "Bob", bob.token)
    assert tab2.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert bob.until(lambda m: m["type"] == "error")["code"] == "replaced"
    bob.close()  # the first tab's network goes; it comes back on a new socket
    bob2 = Player(client, "Bob", bob.token)
    held = bob2.request({"type": "join", "table_id": tid, "if_free": True})
    assert held["type"] == "error" and held["code"] == "replaced", held
    # nothing changed for the tab that holds the seat
    assert tab2.request({"type": "chat", "text": "still mine"})["type"] == "ack"
    assert not [m for m in tab2.frames if m["type"] == "error"], tab2.frames[-3:]
    assert hub_of(client).tables[tid].connected(seat or 0)
    # the newer tab closes: the seat is handed to the reconnected first tab, silently
    tab2.close()
    snap = bob2.until(lambda m: m["type"] == "table")
    assert snap["you"] == {"role": "player", "seat": seat}
    ann.request({"type": "chat", "text": "x"})
    assert not _events(ann, "left") and not _events(ann, "covered")
    # and when no tab holds the seat any more, a join with if_free simply takes it
    bob2.close()
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    bob3 = Player(client, "Bob", bob.token)
    assert bob3.request({"type": "join", "table_id": tid, "if_free": True})["type"] == "ack"
    assert bob3.until(lambda m: m["type"] == "table")["you"] == {"role": "player", "seat": seat}


def test_after_a_restart_nobody_hears_that_people_who_never_left_are_back(
        restart: Any) -> None:
    client = restart()
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 60}, bob)
    started(ann, bob)
    client = restart()
    ann2, bob2 = Player(client, "Ann", ann.token), Player(client, "Bob", bob.token)
    assert ann2.request({"type": "join", "table_id": tid})["type"] == "ack"
    ann2.until(lambda m: m["type"] == "table")
    assert bob2.request({"type": "join", "table_id": tid})["type"] == "ack"
    # (Bob's: Ann's own, about her join, comes after the answer to it)
    back = ann2.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "returned"
                      and m["event"]["seat"] == bob.seat)
    assert back["table"]["seats"][bob.seat]["connected"]  # the state still says so
    assert back["event"]["text"] == "", back["event"]  # but nobody saw Bob go: no words
    # someone who was seen to go (a socket closed after the restart) is back again
    bob2.close()
    ann2.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    bob3 = Player(client, "Bob", bob.token)
    assert bob3.request({"type": "join", "table_id": tid})["type"] == "ack"
    again = ann2.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "returned")
    assert "back" in again["event"]["text"]
