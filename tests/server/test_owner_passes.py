"""The owner goes (leaves the waiting room or the match, or is gone when it ends): the table
is someone else's, everyone hears whose, and at a finished match the new owner may offer the
rematch (before: nobody was told, and nobody could)."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.server.helpers import Player, play_to_end


def owner_news(p: Player, speaker: Player, after: int) -> list[str]:
    """The texts of the ``owner`` events ``p`` got after frame ``after``, read up to a chat
    line ``speaker`` sends now (so that a missing event fails at once, not by a timeout)."""
    line = f"seen {len(speaker.frames)}"
    assert speaker.request({"type": "chat", "text": line})["type"] == "ack"
    if p is not speaker:
        p.until(lambda m: m["type"] == "chat" and line in str(m))
    return [m["event"]["text"] for m in p.frames[after:]
            if m["type"] == "event" and m["event"]["kind"] == "owner"]


def three_friends(client: TestClient, **options: object) -> tuple[Player, Player, Player]:
    """Ann's table (game93, one hand; CPUs fill the rest) with Bob and Cara seated."""
    ann, bob, cara = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Cara")
    ann.request({"type": "create", "options": {"profile": "game93", "one_hand": True,
                                               "cpu": "random", **options}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    for p in (bob, cara):
        assert p.request({"type": "join", "table_id": ann.table["id"]})["type"] == "ack"
    for p in (ann, bob):
        p.catch_up(cara.seq or 0)
    return ann, bob, cara


def owner_of(p: Player) -> str:
    assert p.table is not None
    return str(next(s["name"] for s in p.table["seats"] if s.get("owner")))


def check_told(bob: Player, cara: Player, marks: tuple[int, int]) -> tuple[Player, Player]:
    """Bob and Cara each heard once who owns the table now (one of them): (heir, other)."""
    bob_heard, cara_heard = owner_news(bob, cara, marks[0]), owner_news(cara, cara, marks[1])
    heir_name = owner_of(bob)
    assert heir_name in ("Bob", "Cara"), (heir_name, bob_heard, cara_heard)
    heir, other = (bob, cara) if heir_name == "Bob" else (cara, bob)
    assert owner_news(heir, heir, 0)[-1:] == ["you own the table now"]
    assert owner_news(other, heir, 0)[-1:] == [f"{heir_name} owns the table now"]
    assert len(bob_heard) == len(cara_heard) == 1, (bob_heard, cara_heard)
    return heir, other


def test_the_owner_leaving_the_waiting_room_says_who_owns_it_now(client: TestClient) -> None:
    ann, bob, cara = three_friends(client)
    marks = len(bob.frames), len(cara.frames)
    assert ann.request({"type": "leave"})["type"] == "ack"
    check_told(bob, cara, marks)
    events = [m for m in bob.frames[marks[0]:]
              if m["type"] == "event" and m["event"]["kind"] in ("left", "owner")]
    assert [e["event"]["kind"] for e in events] == ["left", "owner"]  # in that order
    assert events[0]["event"]["text"].endswith("Ann leaves the table")


def test_the_owner_leaving_the_match_says_who_owns_it_now(client: TestClient) -> None:
    ann, bob, cara = three_friends(client)
    assert ann.request({"type": "start"})["type"] == "ack"
    for p in (bob, cara):
        p.catch_up(ann.seq or 0)
    marks = len(bob.frames), len(cara.frames)
    assert ann.request({"type": "leave"})["type"] == "ack"
    check_told(bob, cara, marks)


def rematch_by_one_of(bob: Player, cara: Player) -> Player:
    """Bob and Cara each ask for a rematch: the owner's is made (before the fix neither
    could: "only the table owner may start a rematch"). Returns who made it."""
    first = bob.request({"type": "rematch"})
    if first["type"] == "ack":
        return bob
    second = cara.request({"type": "rematch"})
    assert second["type"] == "ack", (first, second)
    return cara


def test_an_owner_gone_at_the_end_leaves_the_rematch_to_who_is_there(
        client: TestClient) -> None:
    # the owner's connection drops during the match (a closed tab) and does not come back:
    # a CPU plays for her; at the end she still owned the table, and nobody there could
    # start a rematch
    ann, bob, cara = three_friends(client, grace_seconds=0)
    assert ann.request({"type": "start"})["type"] == "ack"
    ann.close()
    bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "covered")
    marks = len(bob.frames), len(cara.frames)
    play_to_end([bob, cara])
    cara.catch_up(bob.seq or 0)
    heir, other = check_told(bob, cara, marks)
    assert rematch_by_one_of(bob, cara) is heir
    other.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")


def test_the_owner_leaving_a_finished_match_leaves_the_rematch_to_who_is_there(
        client: TestClient) -> None:
    ann, bob, cara = three_friends(client)
    assert ann.request({"type": "start"})["type"] == "ack"
    play_to_end([ann, bob, cara])
    for p in (bob, cara):
        p.catch_up(ann.seq or 0)
    assert owner_of(bob) == "Ann"  # she was there at the end: it stays hers meanwhile
    marks = len(bob.frames), len(cara.frames)
    assert ann.request({"type": "leave"})["type"] == "ack"
    heir, _ = check_told(bob, cara, marks)
    assert rematch_by_one_of(bob, cara) is heir


