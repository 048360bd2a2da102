"""A hostile client against what came after the first hardening (test_attack_limits.py):
the owner's controls (``remove``/``readmit``, ``add_cpu``), joining one's own seat again
(``back``), and continued records' names. Each test reproduces a finding and fails without
its fix. In process, loopback only, bounded in count."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from starlette.testclient import TestClient

from spades.server.limits import parse_limit
from tests.server.helpers import Msg, Player, guest
from tests.server.test_attack_limits import create, partial_record


def far_client(client: TestClient, last: int) -> TestClient:
    """A client of the same running app from another address."""
    other = TestClient(client.app, client=(f"198.51.100.{last}", 1))
    other.portal = client.portal
    return other


def sync(p: Player) -> None:
    """Read what was sent to ``p`` before now (a chat line of theirs answered)."""
    assert p.request({"type": "chat", "text": "."})["type"] == "ack"


def events_of(p: Player, since: int, kind: str | None = None) -> list[Msg]:
    return [m for m in p.frames[since:] if m["type"] == "event"
            and (kind is None or m["event"]["kind"] == kind)]


def free_seat(p: Player) -> int:
    assert p.table is not None
    return max(s["seat"] for s in p.table["seats"] if s["kind"] == "empty")


def test_an_owner_cannot_flood_the_table_with_changes(make: Callable[..., TestClient]) -> None:
    # The owner's controls were limited by the message rate only (20 a second): toggling
    # add_cpu and remove (or remove and readmit) wrote the table's row and sent the whole
    # table to every page at it, each said aloud by a screen reader, forty times a second
    # from two connections, for ever.
    client = make(change_rate=0.001, change_burst=6, change_address_rate=0)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    bob = Player(client, "Bob")
    assert bob.request({"type": "join", "table_id": tid, "role": "player"})["type"] == "ack"
    sync(bob)  # (his snapshot and his own joined event follow the ack)
    sync(ann)
    seat = free_seat(ann)
    before = len(bob.frames)
    answers = []
    for i in range(6):
        answers.append(ann.request({"type": "add_cpu", "seat": seat}))
        answers.append(ann.request({"type": "remove", "seat": seat}))
        if i == 0:  # a refused change costs nothing: the place is not free
            refused = ann.request({"type": "add_cpu", "seat": bob.seat})
            assert refused["type"] == "error" and refused["code"] == "state", refused
    kinds = [a["type"] for a in answers]
    assert kinds == ["ack"] * 6 + ["error"] * 6, answers
    why = answers[6]
    assert why["code"] == "rate_limit", why
    assert "at most 0.001 times a second" in why["message"], why
    assert "all your connections together" in why["message"], why
    other = Player(client, "Ann", ann.token)  # another connection of hers counts with hers
    assert other.request({"type": "join", "table_id": tid, "role": "player"})["type"] == "ack"
    ans = other.request({"type": "add_cpu", "seat": seat})
    assert ans["type"] == "error" and ans["code"] == "rate_limit", ans
    # every control of the owner's counts: readmit, options, seat, give_owner
    for msg in ({"type": "readmit", "user_id": 12345}, {"type": "seat", "seat": seat},
                {"type": "options", "options": {"cpu": "random", "name": "spam"}},
                {"type": "give_owner", "seat": bob.seat}):
        ans = other.request(msg)
        assert ans["type"] == "error" and ans["code"] == "rate_limit", (msg, ans)
    sync(bob)
    assert len(events_of(bob, before)) == 6  # the six changes made
    # the game goes on: the owner may still start it
    assert other.request({"type": "start"})["type"] == "ack"
    assert ann.welcome["limits"]["change_rate"] == 0.001
    assert ann.welcome["limits"]["change_burst"] == 6
    assert parse_limit("change_rate=0") == ("change_rate", 0)


def test_the_guests_of_one_address_share_its_changes(make: Callable[..., TestClient]) -> None:
    # Guests cost one request each, and each may own a table: one address's guests, each
    # toggling add_cpu and remove at a table of their own, wrote rows on the one database
    # thread every table's moves use, at 20 a second each.
    client = make(change_rate=0, change_address_rate=0.001, change_address_burst=4)
    owners = [Player(client, f"Rot{i}") for i in range(3)]
    for o in owners:
        assert create(o)["type"] == "ack"
    answers = [o.request({"type": "add_cpu"}) for o in owners for _ in range(2)]
    assert [a["type"] for a in answers] == ["ack"] * 4 + ["error"] * 2, answers
    assert answers[4]["code"] == "rate_limit", answers[4]
    assert "your address may change tables" in answers[4]["message"], answers[4]
    far = Player(far_client(client, 40), "Far")
    assert create(far)["type"] == "ack"
    assert far.request({"type": "add_cpu"})["type"] == "ack"  # another address: its own


def test_joining_ones_seat_again_tells_nobody(make: Callable[..., TestClient]) -> None:
    # A player joining the table they sit at, on the very connection that is there, made
    # everyone hear "Bob is back" (or, covered for being idle, "Bob is connected again"),
    # the whole table resent each time, once a second for ever (the join rate).
    client = make(join_rate=0.001, join_burst=8)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    bob = Player(client, "Bob")
    join = {"type": "join", "table_id": tid, "role": "player"}
    assert bob.request(join)["type"] == "ack"
    sync(ann)
    before = len(ann.frames)
    for back in (False, True, False):
        assert bob.request({**join, "back": back})["type"] == "ack"
        bob.until(lambda m: m["type"] == "table")  # (the snapshot follows the ack)
    assert ann.request({"type": "start"})["type"] == "ack"
    sync(bob)
    mark = len(ann.frames)
    assert bob.request(join)["type"] == "ack"
    sync(ann)
    told = events_of(ann, before, "returned") + events_of(ann, before, "covered")
    assert told == [], told
    # a connection of his that was not there (after a drop) is still told as a return
    bob.close()
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    again = Player(client, "Bob", bob.token)
    assert again.request(join)["type"] == "ack"
    sync(ann)
    assert len(events_of(ann, mark, "returned")) == 1


def test_the_people_a_table_keeps_removed_are_capped(make: Callable[..., TestClient]) -> None:
    # Each removal is kept with the table (stored in its row, removed_people) and listed
    # in the owner's copy of every update, for as long as the table waits: guests coming
    # one after another and removed grew both without bound.
    client = make(removed_per_table=2)
    ann = Player(client, "Ann")
    assert create(ann)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    guests = [Player(client, f"G{i}") for i in range(3)]
    for g in guests:
        assert g.request({"type": "join", "table_id": tid, "role": "player"})["type"] == "ack"
        g.until(lambda m: m["type"] == "table")  # (the snapshot follows the ack)
    sync(ann)
    seats = [g.seat for g in guests]
    answers = [ann.request({"type": "remove", "seat": s}) for s in seats]
    assert [a["type"] for a in answers] == ["ack", "ack", "error"], answers
    assert answers[2]["code"] == "limit", answers[2]
    assert "at most 2" in answers[2]["message"], answers[2]
    assert ann.table is not None
    assert ann.table["seats"][seats[2]]["name"] == "G2"  # still seated
    assert len(ann.table["removed"]) == 2
    # letting one back in makes room
    assert ann.request({"type": "readmit", "user_id": guests[0].welcome["user"]["id"]}
                       )["type"] == "ack"
    assert ann.request({"type": "remove", "seat": seats[2]})["type"] == "ack"
    assert ann.welcome["limits"]["removed_per_table"] == 2


def test_a_continued_records_names_lose_stacked_marks(make: Callable[..., TestClient]) -> None:
    # A continued record's CPUs keep the record's names ("Nora (CPU)"), which were only
    # cut to printable characters: a name of one letter and 23 combining accents was drawn
    # as a column of accents through the lines above and below on every page at the table
    # (people's names, table names and chat keep at most 4 marks in a row).
    client = make()
    token = guest(client, "Uploader")
    record = partial_record()
    zalgo = "x" + "\u0301\u0302\u0303\u0304\u0306" * 4 + "a"
    record["names"] = ["Uploader", zalgo, "Nora", zalgo]
    r = client.post("/api/records", json={"record": record, "mode": "continue", "seat": 0},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    tid = r.json()["table_id"]
    me = Player(client, "Uploader", token)
    assert me.request({"type": "join", "table_id": tid, "role": "player"})["type"] == "ack"
    me.until(lambda m: m["type"] == "table")  # (the snapshot follows the ack)
    assert me.table is not None
    names = [s["name"] for s in me.table["seats"]]
    assert names[2] == "Nora (CPU)", names
    for name in (names[1], names[3]):
        runs = [len(run) for run in "".join(
            "m" if unicodedata.category(ch) == "Mn" else " " for ch in name).split()]
        assert max(runs, default=0) <= 4, (name, runs)
        assert name.startswith("x") and name.endswith("a (CPU)"), name


def test_removed_players_watch_only_within_the_spectator_caps(
        make: Callable[..., TestClient]) -> None:
    # A removed player became a spectator whatever the caps on spectators: an owner seating
    # and removing one guest of theirs after another filled any number of places, past
    # spectators_per_table and spectators_per_address. Past a cap they are off the table.
    client = make(spectators_per_address=1, spectator_notice_ms=0)
    ann = Player(client, "Ann")
    assert create(ann, spectators=True)["type"] == "ack"
    tid = ann.table["id"] if ann.table else ""
    guests = [Player(client, f"G{i}") for i in range(2)]
    for g in guests:
        assert g.request({"type": "join", "table_id": tid, "role": "player"})["type"] == "ack"
        g.until(lambda m: m["type"] == "table")  # (the snapshot follows the ack)
    sync(ann)
    for g in guests:
        assert ann.request({"type": "remove", "seat": g.seat})["type"] == "ack"
    def told(m: Msg) -> bool:
        return m["type"] == "event" and "removed you" in m["event"]["text"]

    first = guests[0].until(told)
    assert first["you"]["role"] == "spectator", first["you"]
    last = guests[1].until(told)
    assert last["you"] == {"role": "none", "seat": None}, last["you"]
    assert "removed you from the table" in last["event"]["text"], last["event"]
    assert "from your address" in last["event"]["text"], last["event"]
    assert ann.table is not None and ann.table["spectating"] == 1, ann.table["spectating"]
