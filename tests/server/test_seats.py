"""The waiting room as friends use it: the places people pick are kept at the start (places
across are partners), and what the owner does (options, removing someone) and a join are
told in plain words, to each person as it concerns them."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from spades.engine import Rules
from spades.server.options import build_rules
from spades.server.protocol import TableOptions
from spades.server.seating import Place, arranged
from tests.server.helpers import Msg, Player


def event(p: Player, kind: str, after: int = 0) -> Msg:
    """The first event frame of ``kind`` numbered above ``after`` (read up to it)."""
    for m in p.frames:
        if m["type"] == "event" and m["event"]["kind"] == kind and m["seq"] > after:
            return m
    return p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == kind
                   and m["seq"] > after)


def table_of_three(client: TestClient, options: dict[str, Any] | None = None
                   ) -> tuple[Player, Player, Player]:
    """Ann (owner, place 0), Bob at place 3 (on her right), Cara across from her (place
    2); place 1 empty."""
    ann, bob, cara = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Cara")
    ack = ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems",
                                                     **(options or {})}})
    assert ack["type"] == "ack", ack
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None and ann.seat == 0
    tid = ann.table["id"]
    for p, place in ((bob, 3), (cara, 2)):
        assert p.request({"type": "join", "table_id": tid})["type"] == "ack"
        p.until(lambda m: m["type"] == "table")
        if p.seat != place:
            assert p.request({"type": "seat", "seat": place})["type"] == "ack"
    for p in (ann, bob, cara):
        p.catch_up(max(q.seq or 0 for q in (ann, bob, cara)))
    return ann, bob, cara


def test_the_places_people_picked_are_kept_at_the_start(client: TestClient) -> None:
    """Before: Start put people first and moved Bob next to Ann (place 1), the CPU to
    his place: people were not where they had sat. Now places across are partners: everyone stays, a
    CPU takes the empty place, and the waiting room said so beforehand."""
    ann, _, _ = table_of_three(client)
    assert ann.table is not None
    assert ann.table["partners"] == [[0, 2], [1, 3]], ann.table
    assert ann.request({"type": "start"})["type"] == "ack"
    event(ann, "started")
    assert ann.table is not None
    names = [s["name"] for s in ann.table["seats"]]
    assert names[0] == "Ann" and names[2] == "Cara" and names[3] == "Bob", names
    assert ann.table["seats"][1]["kind"] == "cpu"
    assert ann.table["rules"]["teams"] == [[0, 2], [1, 3]]


def test_declared_teams_win_and_move_only_whom_they_must() -> None:
    from spades.server.seating import planned_teams

    rules: Rules = build_rules(TableOptions(profile="cardems"))
    people = [Place("human", 1, "Ann"), Place("cpu", None, "CPU 2", "random"),
              Place("human", 3, "Cara"), Place("human", 4, "Bob")]
    # nobody declared: everyone stays
    assert [p.name for p in arranged([Place(**vars_of(p)) for p in people], rules)] == \
        ["Ann", "CPU 2", "Cara", "Bob"]
    # Bob teams up with Ann (team 0): he takes Cara's place, Cara his
    declared = [Place(**vars_of(p)) for p in people]
    declared[0].team = declared[3].team = 0
    assert planned_teams(declared, rules) == [[0, 3], [1, 2]]
    seats = arranged(declared, rules)
    assert [p.name for p in seats] == ["Ann", "CPU 2", "Bob", "Cara"]
    assert [p.team for p in seats] == [0, 1, 0, 1]
    # race400, six players, three teams: Ann and Bob side by side declare a team; the
    # others keep their places, a CPU moves
    r6 = build_rules(TableOptions(profile="race400", players=6, teams=3))
    six = [Place("human", i + 1, n) for i, n in enumerate(("Ann", "Bob", "Cy", "Di"))] + \
        [Place("cpu", None, "CPU 5", "random"), Place("cpu", None, "CPU 6", "random")]
    six[0].team = six[1].team = 1
    seats = arranged(six, r6)
    where = {p.name: i for i, p in enumerate(seats)}
    assert where["Bob"] == 1 and where["Cy"] == 2 and where["Di"] == 3, where
    assert where["Ann"] % 3 == 1
    for team in (0, 1, 2):
        assert sum(p.kind == "human" for p in seats[team::3]) <= 2


def vars_of(p: Place) -> dict[str, Any]:
    return {"kind": p.kind, "user_id": p.user_id, "name": p.name, "cpu": p.cpu,
            "team": p.team}


def test_an_options_change_says_what_changed(client: TestClient) -> None:
    """Before: "the owner changed the options", whatever changed."""
    ann, bob, _ = table_of_three(client)
    opts = {"profile": "cardems", "cpu": "random", "turn_timer": 12, "target": 300}
    assert ann.request({"type": "options", "options": opts})["type"] == "ack"
    first = event(bob, "options")
    text = first["event"]["text"]
    assert text == "Ann changed the target score to 300 and the turn timer to 12 seconds", text
    opts2 = {**opts, "turn_timer": None, "private": True}
    assert ann.request({"type": "options", "options": opts2})["type"] == "ack"
    text = event(bob, "options", first["seq"])["event"]["text"]
    assert text == "Ann turned the turn timer off and made the table private", text


def test_the_removed_person_hears_who_removed_them(client: TestClient) -> None:
    """Before: Bob heard "West was removed" about his own seat; everyone heard a place."""
    ann, bob, cara = table_of_three(client)
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    mine = event(bob, "left")["event"]["text"]
    assert mine == "Ann removed you from your seat; you are watching the table", mine
    assert event(cara, "left")["event"]["text"] == "Ann removed Bob"
    assert event(ann, "left")["event"]["text"] == "you removed Bob"
    assert bob.you is not None and bob.you["role"] == "spectator"
    # a CPU removed is called the CPU at its place (before: "East was removed")
    assert ann.request({"type": "add_cpu", "seat": 1})["type"] == "ack"
    seq = ann.seq or 0
    assert ann.request({"type": "remove", "seat": 1})["type"] == "ack"
    assert event(cara, "left", seq)["event"]["text"] == "Ann removed the CPU at East"


def test_removed_from_a_table_without_spectators_the_frame_says_you_are_off_it(
        client: TestClient) -> None:
    """Before: the last frame said ``role: spectator`` at a table that allows none, so the
    page showed the removed person the table in watching mode."""
    ann, bob, _ = table_of_three(client, {"spectators": False})
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    last = event(bob, "left")
    assert last["event"]["text"] == "Ann removed you from the table (it allows no spectators)"
    assert last["you"] == {"role": "none", "seat": None}, last["you"]


def test_a_removed_player_cannot_sit_down_again(restart: Any) -> None:
    """Before: the owner removed Bob and Bob's next ``join`` (or his page reconnecting) sat
    him down again at once: removing someone meant nothing. Now the removal holds at that
    table (he may still watch it), also after a restart; others still sit down."""
    client = restart()
    ann, bob, _ = table_of_three(client)
    tid = ann.table["id"] if ann.table else ""
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    event(bob, "left")
    sit = {"type": "join", "table_id": tid}
    again = bob.request(sit)
    assert again["type"] == "error" and again["code"] == "not_allowed", again
    assert again["message"] == ("the owner removed you from this table: you cannot sit at it "
                                "again; you may watch it as a spectator"), again
    other_tab = Player(client, "Bob", token=bob.token)
    assert other_tab.request(sit)["code"] == "not_allowed"
    assert other_tab.request({**sit, "role": "spectator"})["type"] == "ack"
    dan = Player(client, "Dan")
    assert dan.request(sit)["type"] == "ack"  # the place is free for anyone else
    dan.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "remove", "seat": dan.seat})["type"] == "ack"
    client = restart()
    bob = Player(client, "Bob", token=bob.token)
    refused = bob.request(sit)
    assert refused["type"] == "error" and refused["code"] == "not_allowed", refused
    assert Player(client, "Dan", token=dan.token).request(sit)["code"] == "not_allowed"
    assert Player(client, "Eve").request(sit)["type"] == "ack"


def test_removed_from_a_table_without_spectators_you_cannot_join_it_again(
        client: TestClient) -> None:
    ann, bob, _ = table_of_three(client, {"spectators": False})
    tid = ann.table["id"] if ann.table else ""
    assert ann.request({"type": "remove", "seat": 3})["type"] == "ack"
    assert event(bob, "left")["you"]["role"] == "none"
    again = bob.request({"type": "join", "table_id": tid})
    assert again["type"] == "error" and again["code"] == "not_allowed", again
    assert again["message"] == ("the owner removed you from this table: you cannot sit at it "
                                "again"), again


def test_a_joiner_does_not_hear_themself_in_the_third_person(client: TestClient) -> None:
    """Before: Bob's page said "Bob sits down." and then "You sit West at …"."""
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems"}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    assert bob.request({"type": "join", "table_id": ann.table["id"]})["type"] == "ack"
    mine = event(bob, "joined")["event"]
    assert "Bob" not in mine["text"], mine
    assert event(ann, "joined")["event"]["text"] == "Bob sits down at North"


def test_people_who_join_without_picking_a_place_partner_the_owner_first(
        client: TestClient) -> None:
    """A friend who joins and picks no place sits across from the owner, as her partner (the
    start used to make the first two people partners; once places were kept, a join took the
    next place round the table, Bob at Ann's left, and made them opponents); the next one
    takes the place at her left. Whoever wants another place still picks it."""
    ann, bob, cara = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Cara")
    assert ann.request({"type": "create", "options": {"cpu": "random",
                                                      "profile": "cardems"}})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    for p in (bob, cara):
        assert p.request({"type": "join", "table_id": tid})["type"] == "ack"
        p.until(lambda m: m["type"] == "table")
    assert (bob.seat, cara.seat) == (2, 1)
    cara.catch_up(max(q.seq or 0 for q in (ann, bob, cara)))
    assert cara.table is not None and cara.table["partners"] == [[0, 2], [1, 3]]


def test_a_table_without_spectators_is_not_offered_to_watch(client: TestClient) -> None:
    """A join after the start (or at a full table) was refused with "join as a spectator" at a
    table that allows none, and the page offered "Watch the table instead", which the server
    then refused too. Now that is said only where watching is allowed."""
    for spectators, said in ((False, "the match has started"),
                             (True, "the match has started: join as a spectator")):
        ann, _, _ = table_of_three(client, {"spectators": spectators})
        tid = ann.table["id"] if ann.table else ""
        assert ann.request({"type": "start"})["type"] == "ack"
        late = Player(client, f"Late{int(spectators)}").request(
            {"type": "join", "table_id": tid})
        assert late["type"] == "error" and late["message"] == said, late
