"""Refused actions, reconnecting, the owner's options, spectators, timer, chat, auth."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spades.server import turns
from spades.server.app import create_app
from spades.server.settings import Settings
from tests.server.helpers import (
    Msg,
    Player,
    close_all,
    guest,
    hub_of,
    in_process,
    play_to_end,
    wait_until,
)


def new_table(owner: Player, options: dict[str, Any], *others: Player) -> str:
    ack = owner.request({"type": "create", "options": {"cpu": "random", **options}})
    assert ack["type"] == "ack", ack
    owner.until(lambda m: m["type"] == "table")
    assert owner.table is not None
    tid: str = owner.table["id"]
    for p in others:
        assert p.request({"type": "join", "table_id": tid})["type"] == "ack"
        p.until(lambda m: m["type"] == "table")
    return tid


def started(owner: Player, *others: Player) -> None:
    assert owner.request({"type": "start"})["type"] == "ack"
    for p in (owner, *others):
        p.catch_up(owner.seq or 0)


def state_of(p: Player) -> Msg:
    """A fresh snapshot (resync) without the chat."""
    p.send({"type": "resync"})
    snap = p.until(lambda m: m["type"] == "table")
    return {k: snap[k] for k in ("seq", "view", "table", "you")}


def test_refused_actions_change_nothing(client: TestClient) -> None:
    ann, bob, eve = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Eve")
    tid = new_table(ann, {"profile": "cardems"}, bob)
    assert eve.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    assert bob.request({"type": "start"})["code"] == "not_allowed"  # not the owner
    started(ann, bob, eve)
    while True:
        bob.catch_up(ann.seq or 0)
        if ann.my_turn() or bob.my_turn():
            break
        ann.recv()
    mover, other = (ann, bob) if ann.my_turn() else (bob, ann)
    other.catch_up(mover.seq or 0)
    eve.catch_up(mover.seq or 0)
    before = state_of(mover), state_of(other)
    events_before = len(hub_of(client).store.events(tid))
    assert mover.view is not None and other.view is not None
    refusals = [
        (other, {"type": "act", "action": other.view["legal_actions"][0]
                 if other.view["legal_actions"] else "3"}, "illegal"),  # not your turn
        (eve, {"type": "act", "action": "3"}, "not_allowed"),  # a spectator
        (mover, {"type": "act", "action": "zz"}, "illegal"),  # not an action
        (ann, {"type": "options", "options": {"profile": "race400"}}, "state"),
        (bob, {"type": "add_cpu"}, "not_allowed"),
        (mover, {"type": "act", "action": "QH" if mover.view["phase"] == "bid" else "5"},
         "illegal"),  # wrong phase
    ]
    hand = mover.view["hand"] or []
    theirs = [c for c in ("AS", "KS", "QS", "2C", "3D", "4H") if c not in hand]
    refusals.append((mover, {"type": "act", "action": theirs[0]}, "illegal"))
    for who, msg, code in refusals:
        ans = who.request(msg)
        assert ans["type"] == "error" and ans["code"] == code, (msg, ans)
        assert ans["message"]
    assert (state_of(mover), state_of(other)) == before
    assert len(hub_of(client).store.events(tid)) == events_before


def test_reconnect_returns_the_same_seat_with_full_view(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", "grace_seconds": 60, "one_hand": True}, bob)
    started(ann, bob)
    seat, hand = bob.seat, bob.view["hand"]  # type: ignore[index]
    token = bob.token
    bob.close()
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "left")
    back = Player(client, "Bob", token)
    assert tid in back.welcome["tables"]
    assert back.request({"type": "join", "table_id": tid})["type"] == "ack"
    back.until(lambda m: m["type"] == "table")
    assert back.seat == seat and back.you == {"role": "player", "seat": seat}
    assert back.view is not None and back.view["seat"] == seat
    assert back.view["hand"] == hand or back.view["phase"] != "bid"
    last = play_to_end([ann, back])
    assert last["event"]["kind"] == "match_over"


def test_dropped_player_is_covered_by_a_cpu_then_returns(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "game93", "one_hand": True, "grace_seconds": 0}, bob)
    started(ann, bob)
    token = bob.token
    bob.close()
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "covered")
    seat = next(s for s in ann.table["seats"] if s["name"] == "Bob")  # type: ignore[index]
    assert seat["covered"] and not seat["connected"]
    back = Player(client, "Bob", token)
    back.request({"type": "join", "table_id": tid})
    back.until(lambda m: m["type"] == "table")
    mine = back.table["seats"][back.seat]  # type: ignore[index]
    assert not mine["covered"] and mine["connected"]
    assert play_to_end([ann, back])["event"]["kind"] == "match_over"


def test_the_lobby_says_when_a_match_waits_for_its_people(client: TestClient) -> None:
    # Before: a table nobody was connected to stood as "active" with a Watch button,
    # though its match waits for a player to come back.
    ann, cy = Player(client, "Ann"), Player(client, "Cy")
    tid = new_table(ann, {"profile": "cardems"})
    started(ann)
    cy.send({"type": "lobby", "subscribe": True})
    row = next(t for t in cy.until(lambda m: m["type"] == "lobby")["tables"] if t["id"] == tid)
    assert row["status"] == "active" and row["paused"] is False
    assert ann.request({"type": "leave"})["type"] == "ack"
    row = cy.until(lambda m: m["type"] == "lobby_update" and m["table"]["paused"])["table"]
    assert row["name"] == "Ann's table"  # before: "'s table", the owner gone
    back = Player(client, "Ann", ann.token)
    assert back.request({"type": "join", "table_id": tid})["type"] == "ack"
    cy.until(lambda m: m["type"] == "lobby_update" and m["table"]["paused"] is False)


def test_owner_options_take_effect_and_teams_are_seated_apart(client: TestClient) -> None:
    people = [Player(client, n) for n in ("Ann", "Bob", "Cy", "Di")]
    ann = people[0]
    tid = new_table(ann, {"profile": "race400"}, *people[1:])
    assert people[1].request({"type": "options", "options": {"profile": "cardems"}}
                             )["code"] == "not_allowed"
    bad = ann.request({"type": "options", "options": {"profile": "cardems", "players": 6}})
    assert bad["type"] == "error" and "players" in bad["message"]
    opts = {"profile": "race400", "players": 6, "teams": 3, "target": 150, "turn_timer": 30,
            "cpu": "random", "private": True, "spectators": False, "first_dealer": 2}
    assert ann.request({"type": "options", "options": opts})["type"] == "ack"
    for p in people:
        p.catch_up(ann.seq or 0)
    # Ann names Bob as a teammate; Cy and Di choose team 2.
    assert ann.request({"type": "teammate", "seat": 1})["type"] == "ack"
    assert people[2].request({"type": "team", "team": 2})["type"] == "ack"
    assert people[3].request({"type": "team", "team": 2})["type"] == "ack"
    lobby = client.get("/api/tables").json()
    assert all(t["id"] != tid for t in lobby)  # private
    started(ann, *people[1:])
    rules = ann.table["rules"]  # type: ignore[index]
    assert rules["players"] == 6 and rules["target"] == 150
    assert rules["turn_timer"] == 30 and rules["teams"] == [[0, 3], [1, 4], [2, 5]]
    seats = {s["name"]: s["seat"] for s in ann.table["seats"]}  # type: ignore[index]
    side = {s: k for k, team in enumerate(rules["teams"]) for s in team}
    assert side[seats["Ann"]] == side[seats["Bob"]]
    assert side[seats["Cy"]] == side[seats["Di"]] == 2
    for team in rules["teams"]:
        for s in team:
            assert (s + 1) % 6 not in team
    assert ann.view is not None and ann.view["dealer"] == 2
    assert ann.turn is not None and ann.turn["seconds"] == 30 and (
        ann.turn["deadline"] is not None or ann.table["seats"][ann.turn["seat"]]["kind"] == "cpu")
    eve = Player(client, "Eve")
    ans = eve.request({"type": "join", "table_id": tid, "role": "spectator"})
    assert ans["type"] == "error"  # private, no invite code
    ans = eve.request({"type": "join", "invite": ann.table["invite"], "role": "spectator"})
    assert ans["code"] == "not_allowed" and "spectators" in ans["message"]


@pytest.mark.parametrize(("options", "knob"), [
    ({"profile": "cardgames-club", "bidding": "whiz"}, "bidding"),
    ({"profile": "cardgames-club", "jokers": True}, "jokers"),
    ({"profile": "cardems", "bidding": "mirror"}, "bidding"),
    ({"profile": "race400", "bag_limit": 3}, "bag_limit"),
    ({"profile": "game93", "blind_nil": True}, "blind_nil"),
])
def test_options_the_profile_does_not_offer_are_refused_by_name(
        client: TestClient, options: dict[str, Any], knob: str) -> None:
    # A table named after a profile plays that profile's rules: before the fix a
    # cardgames-club table could be created with jokers and whiz bidding.
    ann = Player(client, "Ann")
    for kind in ("create", "options"):
        if kind == "options":
            new_table(ann, {"profile": "cardems"})
        ans = ann.request({"type": kind, "options": {"cpu": "random", **options}})
        assert ans["type"] == "error" and ans["code"] == "bad_options", ans
        assert ans["message"].startswith(f"{knob}: {options['profile']} does not offer"), ans
    # What each profile offers (GET /api/profiles) is accepted, and so is a profile's own
    # value of a knob it does not offer.
    assert ann.request({"type": "options", "options": {
        "profile": "cards4net", "cpu": "random", "bidding": "whiz", "jokers": True,
        "bag_limit": 5}})["type"] == "ack"
    assert ann.request({"type": "options", "options": {
        "profile": "cardems", "cpu": "random", "bag_limit": 10, "one_hand": True,
        "target": 300, "turn_timer": 20}})["type"] == "ack"


def test_options_and_joins_say_exactly_what_is_wrong(client: TestClient) -> None:
    ann = Player(client, "Ann")
    for value in ("yes", 1, "false"):  # before the fix: silently taken as true
        ans = ann.request({"type": "create", "options": {"cpu": "random", "jokers": value,
                                                         "profile": "cards4net"}})
        assert ans["type"] == "error" and ans["code"] == "bad_message", ans
        assert "jokers" in ans["message"], ans
    ans = ann.request({"type": "join"})  # before the fix: "no such table"
    assert ans["type"] == "error" and "table_id or its invite" in ans["message"], ans
    # A user's history, like their statistics, is 404 for nobody (before: 200 []).
    assert client.get("/api/users/999999/history").status_code == 404
    assert client.get("/api/users/999999/stats").status_code == 404


def test_errors_name_a_place_that_does_not_exist_and_the_option_once(
        client: TestClient) -> None:
    """A place past the table's last is not "not free": there is no such place (before:
    "place 5 is not free" at a 4-player table). An option's error names it once (before:
    "options.options.turn_timer: ...")."""
    ann = Player(client, "Ann")
    new_table(ann, {"profile": "cardems"})
    for msg in ({"type": "seat", "seat": 5}, {"type": "add_cpu", "seat": 5},
                {"type": "add_cpu", "seat": 4}):
        ans = ann.request(msg)
        assert ans["type"] == "error" and ans["code"] == "state", (msg, ans)
        assert ans["message"] == f"there is no place {msg['seat']}: places are 0 to 3", ans
    assert ann.request({"type": "add_cpu", "seat": 1})["type"] == "ack"
    ans = ann.request({"type": "seat", "seat": 1})  # a real place, taken: still "not free"
    assert ans["type"] == "error" and ans["message"] == "place 1 is not free", ans
    for kind in ("create", "options"):
        ans = ann.request({"type": kind, "options": {"cpu": "random", "turn_timer": 3}})
        assert ans["type"] == "error" and ans["code"] == "bad_message", ans
        assert ans["message"].startswith(f"{kind}.options.turn_timer: ") \
            if kind == "create" else ans["message"].startswith("options.turn_timer: "), ans
        assert "options.options" not in ans["message"], ans


def test_numbers_in_messages_are_strict_integers_and_refs_are_bounded(
        client: TestClient) -> None:
    """A seat, team, lobby page or option number is a JSON integer, not true, "1" or 1.0
    (before: each was taken as 1), and a ref is an integer a JavaScript client can hold or a
    short string (before: true was echoed as 1, a 300-digit ref was echoed whole)."""
    ann = Player(client, "Ann")
    for value in (True, "1", 1.0):
        for field, msg in (
                ("seat", {"type": "seat", "seat": value}),
                ("seat", {"type": "teammate", "seat": value}),
                ("seat", {"type": "remove", "seat": value}),
                ("seat", {"type": "give_owner", "seat": value}),
                ("seat", {"type": "add_cpu", "seat": value}),
                ("team", {"type": "team", "team": value}),
                ("offset", {"type": "lobby", "offset": value}),
                ("limit", {"type": "lobby", "limit": value}),
                ("target", {"type": "create", "options": {"cpu": "random", "target": value}})):
            ans = ann.request(msg)
            assert ans["type"] == "error" and ans["code"] == "bad_message", (msg, ans)
            assert field in ans["message"] and "integer" in ans["message"], (msg, ans)
    # A whole number is still a seat: outside a table that is the table's refusal.
    ans = ann.request({"type": "seat", "seat": 1})
    assert ans["type"] == "error" and ans["code"] == "state", ans
    for ref in (True, 1.0, 10 ** 300, 2 ** 53, -(2 ** 53)):
        ann.send({"type": "ping", "ref": ref})
        ans = ann.until(lambda m: m["type"] in ("pong", "error"))
        assert ans["type"] == "error" and ans["code"] == "bad_message", (ref, ans)
        assert ans["message"].startswith("ping.ref: ") and "2**53-1" in ans["message"], ans
        assert ans["ref"] is None, (ref, ans)  # a bad ref is not echoed
    for ref in (0, 2 ** 53 - 1, -(2 ** 53 - 1), "r" * 40):
        ann.send({"type": "ping", "ref": ref})
        ans = ann.until(lambda m: m["type"] in ("pong", "error"))
        assert ans == {"type": "pong", "ref": ref} or (
            ans["type"] == "pong" and ans["ref"] == ref), (ref, ans)


def test_flags_in_messages_are_json_booleans(client: TestClient) -> None:
    """Every yes-or-no field of a message is a JSON true or false, not "yes", "false" or 1:
    `join`'s `if_free` and `back` took "yes" (and "false"!) as true, unlike the other flags."""
    ann = Player(client, "Ann")
    for value in ("yes", "false", 1, 0):
        for field, msg in (
                ("if_free", {"type": "join", "table_id": "nope", "if_free": value}),
                ("back", {"type": "join", "table_id": "nope", "back": value}),
                ("subscribe", {"type": "lobby", "subscribe": value}),
                ("cpus", {"type": "create", "cpus": value}),
                ("private", {"type": "create", "options": {"private": value}})):
            ans = ann.request(msg)
            assert ans["type"] == "error" and ans["code"] == "bad_message", (msg, ans)
            assert field in ans["message"] and "boolean" in ans["message"], (msg, ans)
    # true and false themselves are taken: here the table's own refusal
    for flag in ("if_free", "back"):
        ans = ann.request({"type": "join", "table_id": "nope", flag: True})
        assert ans["type"] == "error" and ans["code"] == "not_found", ans


def test_resync_and_lobby_answers_echo_the_ref(settings: Settings) -> None:
    """The ``table`` answering a ``resync`` and the ``lobby`` answering a ``lobby`` carry the
    request's ``ref``, as ``ack``/``error``/``hint`` do (before: none, so a client could not
    match them); a request without one, and unsolicited frames, carry no ``ref`` at all."""
    settings.lobby_rate = settings.lobby_burst = 100.0  # several lobby requests in a row
    with in_process(settings) as client:
        _resync_and_lobby_answers_echo_the_ref(client)


def _resync_and_lobby_answers_echo_the_ref(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    new_table(ann, {"profile": "cardems"})
    assert "ref" not in ann.frames[-1], ann.frames[-1]  # the snapshot after create's ack
    for ref in ("s1", 7, 0):
        ann.send({"type": "resync", "ref": ref})
        snap = ann.until(lambda m: m["type"] == "table")
        assert "ref" in snap and snap["ref"] == ref and type(snap["ref"]) is type(ref), snap
    ann.send({"type": "resync"})
    assert "ref" not in ann.until(lambda m: m["type"] == "table")
    for extra in ({}, {"offset": 0, "limit": 5}):  # the whole lobby (shared text) or a page
        for ref in ("l1", 12):
            bob.send({"type": "lobby", "ref": ref, **extra})
            lobby = bob.until(lambda m: m["type"] == "lobby")
            assert lobby.get("ref") == ref, lobby
            assert [t["id"] for t in lobby["tables"]] == [ann.table["id"]  # type: ignore[index]
                                                          ], lobby
        bob.send({"type": "lobby", **extra})
        assert "ref" not in bob.until(lambda m: m["type"] == "lobby")
    # the next whole lobby asked for without a ref is not the one that had a ref
    bob.send({"type": "lobby"})
    assert "ref" not in bob.until(lambda m: m["type"] == "lobby")
    # what a subscriber is told unasked has no ref
    assert ann.request({"type": "add_cpu"})["type"] == "ack"
    update = bob.until(lambda m: m["type"].startswith("lobby"))
    assert "ref" not in update, update
    seated = [f for f in ann.frames if f["type"] == "event"]
    assert seated and all("ref" not in f for f in seated), seated


#: What answers a request: its ack or error, or a reply of its own (docs/protocol.md).
ANSWERS = ("ack", "error", "pong", "lobby", "table", "sheet", "hint", "welcome")


def _answers(p: Player, msg: Msg, ref: str) -> list[Msg]:
    """Send ``msg`` with ``ref``, then a ping: the frames carrying ``ref`` that came before
    the pong (one connection's messages are answered in order, so its answer is among them)."""
    start = len(p.frames)
    p.send({**msg, "ref": ref})
    p.send({"type": "ping", "ref": f"after-{ref}"})
    p.until(lambda m: m["type"] == "pong" and m.get("ref") == f"after-{ref}")
    return [m for m in p.frames[start:] if m.get("ref") == ref]


def test_every_request_s_answer_echoes_its_ref(settings: Settings) -> None:
    """Each client message type with a ``ref`` gets exactly one answer carrying it (its ack or
    error, or its own reply). Before: the ``sheet`` answering a ``sheet`` and the ``welcome``
    answering a ``hello`` had no ``ref``."""
    settings.rate_per_second = 0  # no message rate: some 50 messages go at once
    with in_process(settings) as client:
        _every_request_s_answer_echoes_its_ref(client)


def _every_request_s_answer_echoes_its_ref(client: TestClient) -> None:
    ann = Player(client, "Ann")
    assert _answers(ann, {"type": "hello", "token": ann.token}, "hello-again")[0][
        "type"] == "error"  # already signed in
    requests: list[tuple[Msg, tuple[str, ...]]] = [
        ({"type": "ping"}, ("pong",)),
        ({"type": "lobby", "subscribe": False}, ("lobby",)),
        ({"type": "sheet"}, ("error",)),  # at no table
        ({"type": "create", "cpus": True, "options": {"cpu": "random", "one_hand": True}},
         ("ack",)),
        ({"type": "resync"}, ("table",)),
        ({"type": "sheet"}, ("sheet",)),
        ({"type": "chat", "text": "hello"}, ("ack",)),
        ({"type": "hint"}, ("hint", "error")),
        ({"type": "act", "action": "zz"}, ("error",)),
        ({"type": "seat", "seat": 1}, ("error",)),
        ({"type": "team", "team": 1}, ("error",)),
        ({"type": "teammate", "seat": 1}, ("error",)),
        ({"type": "options", "options": {}}, ("error",)),
        ({"type": "add_cpu"}, ("error",)),
        ({"type": "remove", "seat": 1}, ("error",)),
        ({"type": "give_owner", "seat": 1}, ("error",)),
        ({"type": "start"}, ("error",)),
        ({"type": "leave"}, ("ack",)),
    ]
    for i, (msg, kinds) in enumerate(requests):
        ref = f"{msg['type']}-{i}"
        got = _answers(ann, msg, ref)
        assert len(got) == 1 and got[0]["type"] in kinds, (msg, got)
        if msg["type"] == "create":
            assert ann.table is not None
            tid = ann.table["id"]
            if not any(m["type"] == "event" for m in ann.frames):  # the match has started
                ann.until(lambda m: m["type"] == "event")
    ann.seq = None  # away from the table, she missed its events (the CPU covering her)
    got = _answers(ann, {"type": "join", "table_id": tid}, "join")
    assert [m["type"] for m in got] == ["ack"], got
    # without a ref, the sheet has none (not "ref": null)
    ann.send({"type": "sheet"})
    assert "ref" not in ann.until(lambda m: m["type"] == "sheet")
    # the HTTP sheet is the same body without a ref
    body = client.get(f"/api/tables/{tid}/sheet").json()
    assert "ref" not in body and body["table_id"] == tid, body
    # the welcome answering a hello carries its ref, and none without one
    for ref in ("h1", 5, None):
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "token": ann.token,
                          **({} if ref is None else {"ref": ref})})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome", welcome
            if ref is None:
                assert "ref" not in welcome, welcome
            else:
                assert welcome.get("ref") == ref and type(welcome["ref"]) is type(ref), welcome


def test_spectator_sees_no_hand(client: TestClient) -> None:
    ann, eve = Player(client, "Ann"), Player(client, "Eve")
    tid = new_table(ann, {"profile": "cards4net", "one_hand": True})
    assert eve.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    started(ann, eve)
    play_to_end([ann])
    eve.catch_up(ann.seq or 0)
    assert eve.you == {"role": "spectator", "seat": None}
    views = [f["view"] for f in eve.frames if f.get("view")]
    assert views and all(v["hand"] is None and v["legal_actions"] == [] for v in views)


def test_turn_timer_warns_then_acts_and_penalizes(client: TestClient) -> None:
    ann = Player(client, "Ann")
    new_table(ann, {"profile": "race400", "turn_timer": 5, "one_hand": True, "players": 3})
    started(ann)
    start = time.time()
    warn = ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "timer_warning")
    assert warn["event"]["seat"] == ann.seat and warn["event"]["seconds_left"] == 2.5
    out = ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "timeout")
    assert 4.5 < time.time() - start < 9
    assert out["event"]["seat"] == ann.seat and out["event"]["penalty_bags"] == 1
    assert out["score"]["bags"][ann.seat] >= 1 or out["score"]["scores"][ann.seat] < 0


def test_the_hands_summary_takes_none_of_the_next_turns_time(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page shows a hand's summary (up to 3 s with a turn timer) and says "Your turn"
    after it: a turn that started meanwhile had its clock running (with a 5 s timer, "Your
    turn" came with 2 s left). Its clock starts when the summary goes now."""
    monkeypatch.setattr(turns, "SUMMARY_SECONDS", 60.0)  # (a summary no test outlasts)
    ann = Player(client, "Ann")
    tid = new_table(ann, {"profile": "race400", "turn_timer": 30, "players": 3})
    started(ann)
    ann.play_first_until(lambda p: p.my_turn())
    first = ann.turn
    assert first is not None and first["deadline"] is not None  # the first deal: no summary
    assert first["deadline"] - time.time() <= 30
    ann.play_first_until(lambda p: any(
        m["type"] == "event" and m["event"]["kind"] == "hand_scored" for m in p.frames))
    ann.play_first_until(lambda p: p.my_turn())
    assert ann.turn is not None and ann.turn["seconds"] == 30
    assert ann.turn["deadline"] - time.time() > 60, ann.turn  # 60 s of summary, then 30
    # the warning (10 s before the end) and the timer's end wait as long (the loop's clock is monotonic)
    warn, end = (h.when() - time.monotonic() for h in hub_of(client).tables[tid].turns._handles)
    assert 60 < warn <= 60 + 20 and 60 + 20 < end <= 60 + 30, (warn, end)  # (before: 20, 30)


def test_chat_is_limited_and_escaped(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    new_table(ann, {}, bob)
    ans = ann.request({"type": "chat", "text": "<script>alert(1)</script>\x00 hi"})
    assert ans["type"] == "ack"
    line = bob.until(lambda m: m["type"] == "chat")["line"]
    assert line["text"] == "<script>alert(1)</script> hi"
    assert "html" not in line  # plain text only: the page inserts it as text
    assert ann.request({"type": "chat", "text": "x" * 301})["code"] == "bad_message"
    assert ann.request({"type": "chat", "text": "\x01\x02"})["code"] == "bad_message"


def test_accounts_sessions_and_logout(client: TestClient) -> None:
    r = client.post("/api/register", json={"name": "Zed", "password": "correct horse"})
    assert r.status_code == 200
    assert client.post("/api/register", json={"name": "zed", "password": "another one"}
                       ).status_code == 409
    assert client.post("/api/login", json={"name": "Zed", "password": "wrong pass"}
                       ).status_code == 401
    tok = client.post("/api/login", json={"name": "zed", "password": "correct horse"}
                      ).json()["token"]
    auth = {"Authorization": f"Bearer {tok}"}
    assert client.get("/api/me", headers=auth).json()["name"] == "Zed"
    assert client.post("/api/logout", headers=auth).status_code == 200
    assert client.get("/api/me", headers=auth).status_code == 401
    assert client.post("/api/guest", json={"name": "<b>x</b>"}).status_code == 422
    row = hub_of(client).store.account("zed")
    assert row.password_hash.startswith("$argon2")


def test_expired_session_is_refused(client: TestClient) -> None:
    from datetime import UTC, datetime, timedelta

    from spades.server.hub import token_hash

    store = hub_of(client).store
    uid = store.create_user("Old", guest=True)
    store.create_session(token_hash("old-token"), uid, datetime.now(UTC) - timedelta(seconds=1))
    assert client.get("/api/me", headers={"Authorization": "Bearer old-token"}).status_code == 401
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": "old-token"})
        assert ws.receive_json()["code"] == "auth"


def test_foreign_origin_is_refused(client: TestClient) -> None:
    guest(client, "Ann")
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_text()


def test_lobby_updates_live_and_quick_cpu_table(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    bob.send({"type": "lobby"})
    assert bob.until(lambda m: m["type"] == "lobby")["tables"] == []
    new_table(ann, {"name": "Friday"})
    upd = bob.until(lambda m: m["type"] == "lobby_update")
    assert upd["table"]["name"] == "Friday" and upd["table"]["open_seats"] == 3
    cy = Player(client, "Cy")
    assert cy.request({"type": "create", "cpus": True, "options": {
        "cpu": "random", "private": True, "one_hand": True}})["type"] == "ack"
    cy.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "deal")
    assert cy.table is not None and cy.table["status"] == "active"
    assert [s["kind"] for s in cy.table["seats"]].count("cpu") == 3
    assert play_to_end([cy])["event"]["kind"] == "match_over"
    # The history names the CPUs as the table did for Cy (partner "North", at the top),
    # not by their seats' compass names (before: "CPU South" for the partner of a
    # player the page had told "You sit South").
    auth = {"Authorization": f"Bearer {cy.token}"}
    me = client.get("/api/me", headers=auth).json()["id"]
    (row,) = client.get(f"/api/users/{me}/history", headers=auth).json()
    seat, names = row["seat"], row["names"]
    assert names[seat] == "Cy"
    assert [names[(seat + k) % 4] for k in (1, 2, 3)] == ["CPU West", "CPU North", "CPU East"]
    # The record, in the game's own frame, numbers them instead of naming a compass point
    # that Cy's page gave another seat (before: "CPU South" for the partner).
    record = client.get(f"/api/games/{row['game_id']}/record", headers=auth).json()
    assert [n for i, n in enumerate(record["names"]) if i != seat] == [
        f"CPU {i + 1}" for i in range(4) if i != seat]
    assert ann.request({"type": "leave"})["type"] == "ack"
    assert bob.until(lambda m: m["type"] == "lobby_remove")


def test_sheet_and_records_upload(client: TestClient) -> None:
    ann = Player(client, "Ann")
    tid = new_table(ann, {"profile": "cardems", "one_hand": True})
    started(ann)
    play_to_end([ann])
    ann.send({"type": "sheet"})
    sheet = ann.until(lambda m: m["type"] == "sheet")
    assert sheet["finished"] and len(sheet["hands"]) >= 1 and "Score sheet" in sheet["text"]
    record = client.get(f"/api/games/{tid}/record").json()
    auth = {"Authorization": f"Bearer {ann.token}"}
    r = client.post("/api/records", json={"record": record, "mode": "review"}, headers=auth)
    assert r.status_code == 200 and r.json()["summary"]["finished"]
    # An unfinished record continues at a new table.
    partial = dict(record)
    first = dict(record["hands"][0])
    first["plays"] = first["plays"][:9]
    partial["hands"] = [first]
    r = client.post("/api/records", json={"record": partial, "mode": "continue", "seat": 1,
                                          "options": {"cpu": "random"}}, headers=auth)
    assert r.status_code == 200, r.text
    new = r.json()["table_id"]
    before = len(ann.frames)
    assert ann.request({"type": "join", "table_id": new})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert ann.seat == 1 and ann.view is not None and len(ann.view["plays"]) == 9
    # the first time there: sitting down, not coming back ("you are back", before); the
    # event comes after the join's answer
    ann.send({"type": "ping", "ref": "after"})  # what the join caused comes before the pong
    ann.until(lambda m: m["type"] == "pong" and m.get("ref") == "after")
    [sat] = [m["event"] for m in ann.frames[before:] if m["type"] == "event"
             and m["event"]["kind"] in ("joined", "returned")]
    assert (sat["kind"], sat["text"]) == (
        "joined", "you sit down at the continued match: it carries on from the record"), sat
    bad = dict(record, hands=[dict(record["hands"][0], plays=["ZZ"])])
    r = client.post("/api/records", json={"record": bad, "mode": "review"}, headers=auth)
    assert r.status_code == 422 and "hand 1" in r.json()["detail"]


def test_a_continued_record_is_labelled_with_its_own_rules(client: TestClient) -> None:
    import random

    from spades.engine import Match, profile

    # Before the fix the table's options said the upload's default "cardems" while it
    # played the record's cards4net to 300: the page showed "Playing to 300 · cardems".
    m = Match(profile("cards4net", target=300, jokers=True), rng=random.Random(3))
    for _ in range(10):
        m.apply(m.legal_actions()[0])
    ann = Player(client, "Ann")
    r = client.post("/api/records", json={"record": m.to_record(), "mode": "continue",
                                          "seat": 0, "options": {"cpu": "random"}},
                    headers={"Authorization": f"Bearer {ann.token}"})
    assert r.status_code == 200, r.text
    assert ann.request({"type": "join", "table_id": r.json()["table_id"]})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    options = ann.table["options"]
    assert options["profile"] == "cards4net" and options["target"] == 300, options
    assert options["jokers"] is True and options["private"] is True


def test_hint_on_your_turn_only(client: TestClient) -> None:
    ann = Player(client, "Ann")
    assert ann.request({"type": "hint"})["code"] == "state"  # not at a table
    new_table(ann, {"profile": "cardems", "one_hand": True})
    started(ann)
    while not ann.my_turn():
        ann.recv()
    ann.send({"type": "hint", "ref": "h"})
    hint = ann.until(lambda m: m.get("ref") == "h")
    assert hint["type"] == "hint", hint
    assert ann.view is not None and hint["action"] in ann.view["legal_actions"]
    assert hint["reason"]


def test_a_hint_names_the_seats_as_the_page_shows_them(settings: Settings,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The page sends the names it draws (``names``, in seat order); the bots' reason is
    worded with them. Names that do not give one per seat are left out (compass points)."""
    import spades.server.cpu as cpu

    given: list[Any] = []
    real = cpu.bots.hint

    def recorded(obs: Any, *args: Any, names: Any = None, **kw: Any) -> Any:
        given.append(names)
        return real(obs, *args, names=names, **kw)

    monkeypatch.setattr(cpu.bots, "hint", recorded)
    settings.hint_rate = settings.hint_burst = 100.0  # several hints on one turn
    with in_process(settings) as client:
        ann = Player(client, "Ann")
        new_table(ann, {"profile": "cardems", "one_hand": True})
        started(ann)
        while not ann.my_turn():
            ann.recv()
        page = ["Ann", "West", "North", "East"]  # what the page draws: you in seat 0
        for names, used in ((page, tuple(page)), (None, None), (["North", "East"], None),
                            (["Ann", "", "North", "East"], None),
                            (["Ann", "We\u202est", " North ", "East"],
                             ("Ann", "West", "North", "East"))):
            ref = f"h{len(given)}"
            ann.send({"type": "hint", "ref": ref, **({"names": names} if names is not None else {})})
            hint = ann.until(lambda m, r=ref: m.get("ref") == r)  # type: ignore[misc]
            assert hint["type"] == "hint", hint
            assert given[-1] == used, (names, given[-1])
        # more names than there can be seats, or a name too long: refused as a bad message
        for bad in (["A"] * 7, ["Ann", "x" * 41, "North", "East"]):
            err = ann.request({"type": "hint", "names": bad})
            assert err["type"] == "error" and err["code"] == "bad_message", err
        # a name too long is said to be one (which, and how long a name may be), not
        # "at most 40 items" as if it were a count (before the fix)
        for bad, which in ((["Ann", "x" * 300, "North", "East"], 1),
                           (["y" * 41, "West", "North", "East"], 0)):
            err = ann.request({"type": "hint", "names": bad})
            assert err["type"] == "error" and err["code"] == "bad_message", err
            assert err["message"].startswith(f"hint.names.{which}: "), err
            assert "too long" in err["message"] and "40 characters" in err["message"], err
            assert "items" not in err["message"], err
        err = ann.request({"type": "hint", "names": ["A"] * 7})  # a count: items it is
        assert "hint.names: " in err["message"] and "6 items" in err["message"], err


def test_a_hint_reason_uses_the_names_given() -> None:
    """The names reach the words: a partner's Nil is "your partner Bob's Nil"."""
    from spades.bots.hints import explain
    from spades.engine.cards import parse_card
    from spades.server.cpu import hint_for
    from tests.bots.test_hint_texts import _south_after_east_leads_the_ace

    obs = _south_after_east_leads_the_ace([0, 3, 4, 3])  # North (across) bid nil
    page = ("Bob", "East", "Ann", "West")  # South's page: Bob across, East and West CPUs
    assert "your partner Bob's Nil" in explain(obs, parse_card("KS"), page)
    action, reason = hint_for(obs, page)
    assert reason == explain(obs, action, page) and "North" not in reason


def test_repeated_failed_sign_ins_are_slowed(settings: Settings) -> None:
    settings.login_failures = 3
    settings.login_window = 60.0
    with TestClient(create_app(settings)) as client:
        assert client.post("/api/register", json={"name": "Kim", "password": "right one"}
                           ).status_code == 200
        wrong = {"name": "Kim", "password": "a wrong guess"}
        assert [client.post("/api/login", json=wrong).status_code for _ in range(3)] == [401] * 3
        r = client.post("/api/login", json={"name": "Kim", "password": "right one"})
        assert r.status_code == 429, r.text
        assert "too many failed sign-ins" in r.json()["detail"]
        assert 0 < int(r.headers["Retry-After"]) <= 60


def test_login_throttle_window_and_reset() -> None:
    from spades.server.throttle import LoginThrottle

    now = [0.0]
    t = LoginThrottle(2, 10.0, clock=lambda: now[0])
    t.failed("a")
    assert t.wait("a") == 0
    t.failed("a")
    assert t.wait("a") == 10.0
    assert t.wait("b") == 0  # another address is not affected
    now[0] = 4.0
    assert t.wait("a") == 6.0
    now[0] = 10.0  # the first failure is old enough
    assert t.wait("a") == 0
    t.failed("a")
    t.succeeded("a")  # a good sign-in forgets the failures
    assert t.wait("a") == 0


def test_chat_survives_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        tid = new_table(ann, {}, bob)
        for text in ("good luck", "have fun"):
            assert ann.request({"type": "chat", "text": text})["type"] == "ack"
        token = ann.token
        close_all()
    with TestClient(create_app(settings)) as client:
        ann = Player(client, "Ann", token)
        assert ann.request({"type": "join", "table_id": tid})["type"] == "ack"
        snap = ann.until(lambda m: m["type"] == "table")
        assert [line["text"] for line in snap["chat"]] == ["good luck", "have fun"]
        assert snap["chat"][0]["name"] == "Ann"
        close_all()


def test_a_finished_tables_sheet_outlives_the_table(client: TestClient) -> None:
    """Before: GET /api/tables/{id}/sheet answered 404 once the last player left (the
    table leaves memory). Now the finished match's sheet comes from the store, for whoever
    may download its record (a private table's: its own people), made once."""
    ann = Player(client, "Ann")
    tid = new_table(ann, {"profile": "cardems", "one_hand": True, "private": True})
    started(ann)
    play_to_end([ann])
    auth = {"Authorization": f"Bearer {ann.token}"}
    live = client.get(f"/api/tables/{tid}/sheet", headers=auth)
    assert live.status_code == 200 and live.json()["finished"], live.text
    assert ann.request({"type": "leave"})["type"] == "ack"
    hub = hub_of(client)
    wait_until(lambda: tid not in hub.tables, "the finished table to leave memory")
    replays: list[str] = []
    load_match = hub.store.load_match

    def counted(game_id: str) -> Any:
        replays.append(game_id)
        return load_match(game_id)

    hub.store.load_match = counted  # type: ignore[method-assign]
    for _ in range(3):
        after = client.get(f"/api/tables/{tid}/sheet", headers=auth)
        assert after.status_code == 200, after.text  # before: 404
        assert after.json() == live.json()
    assert replays == [tid]  # made once, then kept
    # a private table's sheet is for its people, as its record is
    stranger = {"Authorization": f"Bearer {guest(client, 'Mallory')}"}
    for headers in ({}, stranger):
        assert client.get(f"/api/tables/{tid}/sheet", headers=headers).status_code == 404
        assert client.get(f"/api/games/{tid}/record", headers=headers).status_code == 404
    assert client.get("/api/tables/nosuchtable/sheet", headers=auth).status_code == 404
