"""Event frames carry the engine's events, each told in one sentence for its recipient."""

from __future__ import annotations

import random
from typing import Any

from starlette.testclient import TestClient

from spades.engine.records import replay
from tests.server.frames import check_schema
from tests.server.helpers import Msg, Player, play_to_end


def events(p: Player) -> list[Msg]:
    return [m["event"] for m in p.frames if m["type"] == "event"]


def started_with_a_spectator(client: TestClient, **options: Any
                             ) -> tuple[Player, Player, Player, str]:
    """Ann's cardems table of ``options`` (Ann deals first), Bob seated beside her and Eve
    watching, started: the three of them and the table's id."""
    ann, bob, eve = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Eve")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems",
                                               "first_dealer": 0, **options}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    bob.request({"type": "join", "table_id": tid})
    eve.request({"type": "join", "table_id": tid, "role": "spectator"})
    ann.request({"type": "start"})
    return ann, bob, eve, tid


def test_every_event_frame_tells_its_news_to_each_recipient(client: TestClient) -> None:
    ann, bob, eve, tid = started_with_a_spectator(client, target=1)
    rng = random.Random(3)

    def pick(view: Msg) -> str:
        legal = view["legal_actions"]
        return "2" if view["phase"] == "bid" and "2" in legal else str(rng.choice(legal))

    play_to_end([ann, bob], pick)
    for p in (bob, eve):
        p.catch_up(ann.seq or 0)
    record: dict[str, Any] = client.get(f"/api/games/{tid}/record").json()
    truth = [e.to_json() for e in replay(record, events=True).take_events()]
    for p in (ann, bob, eve):
        evs = events(p)
        seat = p.seat
        told: list[Msg] = [n for e in evs for n in e["news"]]
        for f in p.frames:
            check_schema(f)
        for e in evs:
            if e["news"]:
                assert e["text"] == " ".join(n["text"] for n in e["news"])
            if e["kind"] in ("hand_scored", "match_over", "started", "joined", "timer_warning"):
                assert e["news"] == []
            if e["kind"] == "deal":
                assert [n["type"] for n in e["news"]] == ["deal"]
            if e["kind"] in ("bid", "play", "look", "timeout"):
                assert e["news"] and e["news"][0]["type"] == e["kind"]
                assert e["news"][0]["seat"] == e["seat"]
        for n in told:
            text = n["text"]
            assert text[:1].isupper() and text.endswith((".", "!")), text
            assert "CPU" not in text, text  # CPUs are named by where they sit
            mine = n.get("seat") == seat and seat is not None
            if n["type"] in ("bid", "play"):
                assert text.startswith("You ") == mine, (seat, n)
            if seat is None:
                assert "you" not in text.lower().split(), text
        # Every event of the match, once, in order: the same for everyone.
        assert [{k: v for k, v in n.items() if k != "text"} for n in told] == truth
        assert told[-1]["type"] == "match_over"


def told(p: Player, kind: str) -> Msg:
    """The first event frame of ``kind`` this player got (read up to it if need be)."""
    for m in p.frames:
        if m["type"] == "event" and m["event"]["kind"] == kind:
            return m
    return p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == kind)


def test_words_about_a_seat_name_it_for_each_member(client: TestClient) -> None:
    """Texts about a seat (owner, lost connection, back) say "you" to that seat and name it
    for the others as their page draws it; no CPU is called "CPU"."""
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems",
                                               "grace_seconds": 60, "one_hand": True}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    bob_seat = bob.seat
    assert bob_seat is not None
    assert ann.request({"type": "give_owner", "seat": bob_seat})["type"] == "ack"
    owner_for_ann, owner_for_bob = told(ann, "owner"), told(bob, "owner")
    assert owner_for_bob["event"]["text"] == "you own the table"
    assert owner_for_ann["event"]["text"].endswith("Bob owns the table")
    assert bob.request({"type": "start"})["type"] == "ack"
    ann.catch_up(bob.seq or 0)
    token = bob.token
    bob.close()
    gone = told(ann, "left")
    assert gone["event"]["text"].endswith("Bob lost the connection"), gone
    back = Player(client, "Bob", token)
    assert back.request({"type": "join", "table_id": tid})["type"] == "ack"
    theirs = told(ann, "returned")
    assert theirs["event"]["text"].endswith("Bob is back"), theirs
    mine = told(back, "returned")
    assert mine["event"]["text"] == "you are back"
    play_to_end([ann, back])
    for p in (ann, back):
        for m in p.frames:
            if m["type"] == "event":
                check_schema(m)
                assert "CPU" not in m["event"]["text"], m["event"]


def test_nil_is_named_nil_in_the_news_for_every_seat(client: TestClient) -> None:
    """The page names the bid "Nil" everywhere (its cards, buttons, turn texts); the news said
    "You bid nil." and "Bob bids nil.". Now "Nil" for the bidder, the other players and a
    spectator; the news's fields and the record keep the action's spelling ("nil")."""
    ann, bob, eve, tid = started_with_a_spectator(client, one_hand=True)

    def pick(view: Msg) -> str:
        legal = view["legal_actions"]
        return "nil" if view["phase"] == "bid" and "nil" in legal else str(legal[0])

    play_to_end([ann, bob], pick)
    for p in (bob, eve):
        p.catch_up(ann.seq or 0)
    nils = {p.name: [n for e in events(p) for n in e["news"]
                     if n["type"] == "bid" and n["bid"] == "nil"] for p in (ann, bob, eve)}
    names = {ann.seat: "Ann", bob.seat: "Bob"}
    for who, news in nils.items():
        seats = {n["seat"] for n in news}
        assert {ann.seat, bob.seat} <= seats, (who, news)  # both bid Nil, told to everyone
        for n in news:
            me = n["seat"] == {"Ann": ann.seat, "Bob": bob.seat}.get(who)
            if me:
                assert n["text"] == "You bid Nil.", n
            elif n["seat"] in names:  # ("Your partner Bob bids Nil." when he is one)
                assert n["text"].endswith(f"{names[n['seat']]} bids Nil."), n
            else:
                assert n["text"].endswith(" bids Nil."), n
    record: dict[str, Any] = client.get(f"/api/games/{tid}/record").json()
    bids = record["hands"][0]["bids"]  # (in the order of bidding)
    assert bids.count("nil") >= 2, bids


def test_the_waiting_room_names_who_leaves_and_where_a_cpu_sits(client: TestClient) -> None:
    """Before the start, someone leaving was named by the place they had left ("West leaves
    the table": their name was gone with them), and "Bob sits down" and "a CPU sits down" did
    not say where."""
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems"}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    # (said where: across from Ann, her partner, the first place a joiner takes)
    assert told(ann, "joined")["event"]["text"] == "Bob sits down at North"
    assert bob.request({"type": "leave"})["type"] == "ack"
    gone = told(ann, "left")
    assert gone["event"]["text"] == "Bob leaves the table", gone["event"]
    assert ann.seat is not None
    across = (ann.seat + 2) % 4  # North, as Ann's page draws the table
    assert ann.request({"type": "add_cpu", "seat": across})["type"] == "ack"

    def cpu_seated(m: Msg) -> bool:
        return m["type"] == "event" and m["event"]["kind"] == "seated" \
            and m["event"]["seat"] == across

    cpu = next((m for m in ann.frames if cpu_seated(m)), None) or ann.until(cpu_seated)
    assert cpu["event"]["text"] == "a CPU sits down at North", cpu["event"]


def test_a_move_says_where_to_each_member(client: TestClient) -> None:
    """Before the start, someone who moved was told as "Ann moves", to everyone: not where,
    and not "you" to the one who moved. Then "you move to West" (as the button the mover
    pressed named the place), which her page, turned with her, drew at her right: now the
    place as it was named, where she sits now and where the place she left is drawn; and
    "Ann moves to …" where each other page draws it (they did not move)."""
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems"}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None and ann.seat == 0
    assert bob.request({"type": "join", "table_id": ann.table["id"]})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    assert bob.seat == 2  # across from Ann, her partner
    assert ann.request({"type": "seat", "seat": 1})["type"] == "ack"  # West, for Ann
    assert told(ann, "seated")["event"]["text"] == (
        "you move to the place that was West: you sit South now, and the place you left "
        "is East")
    assert told(bob, "seated")["event"]["text"] == "Ann moves to East"  # seat 1 from seat 2
    # across the table (Bob's place is free again once he moves to North on his page)
    bob.frames.clear()
    assert bob.request({"type": "seat", "seat": 0})["type"] == "ack"
    assert told(bob, "seated")["event"]["text"] == (
        "you move to the place that was North: you sit South now, and the place you left "
        "is North")
