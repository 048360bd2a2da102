"""A rematch: the owner of a finished table makes a new one with the same options, and the
old table's players hear of it and sit down at it (a private one too, without its code)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import pytest
from starlette.testclient import TestClient

from spades.server.settings import Settings
from tests.server.helpers import Msg, Player, hub_of, in_process, play_to_end, wait_until
from tests.server.test_tables import new_table, started

OPTIONS: dict[str, Any] = {"name": "Club night", "profile": "cardems", "one_hand": True,
                           "turn_timer": 60, "spectators": True}


def finished(client: TestClient, options: dict[str, Any]
             ) -> tuple[Player, Player, Player, str]:
    """Ann's one-hand table of ``options`` with Bob seated and Eve watching, played to
    its end: the three and the table's id."""
    ann, bob, eve = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Eve")
    tid = new_table(ann, options)
    assert ann.table is not None
    invite = ann.table.get("invite")
    assert bob.request({"type": "join", "table_id": tid, "invite": invite})["type"] == "ack"
    ans = eve.request({"type": "join", "table_id": tid, "role": "spectator", "invite": invite})
    assert ans["type"] == "ack", ans
    started(ann, bob)
    play_to_end([ann, bob])
    for p in (bob, eve):
        if not any(m["type"] == "event" and m["event"]["kind"] == "match_over"
                   for m in p.frames):
            p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over")
    return ann, bob, eve, tid


def rematch_news(p: Player) -> Msg:
    return p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")


def test_rematch_same_options_and_the_others_join(client: TestClient) -> None:
    ann, bob, eve, tid = finished(client, OPTIONS)
    assert bob.seat is not None and ann.seat is not None
    bob_was, ann_was = bob.seat, ann.seat
    # only the owner, and only once the match is over
    assert bob.request({"type": "rematch"})["code"] == "not_allowed"
    assert eve.request({"type": "rematch"})["code"] == "not_allowed"
    ans = ann.request({"type": "rematch"})
    assert ans["type"] == "ack", ans
    snap = ann.until(lambda m: m["type"] == "table")
    new = snap["table"]
    assert new["id"] != tid and new["status"] == "waiting"
    assert new["owner"] == ann.welcome["user"]["id"]
    assert ann.you is not None and ann.you["role"] == "player" and ann.seat == ann_was
    old_opts = hub_of(client).tables[tid].options
    assert hub_of(client).tables[new["id"]].options == old_opts
    assert old_opts.name == "Club night" and old_opts.turn_timer == 60
    for p in (bob, eve):
        news = rematch_news(p)
        assert news["table_id"] == tid
        assert news["event"]["rematch"] == new["id"]
        assert news["event"]["text"] == "Ann started a rematch"
    assert bob.request({"type": "join", "table_id": new["id"]})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == new["id"])
    assert bob.you is not None and bob.you["role"] == "player"
    assert bob.seat == bob_was  # back at his place
    ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined")
    assert ann.table is not None and ann.table["status"] == "waiting"
    # the new table's match can be played in its turn
    started(ann, bob)
    play_to_end([ann, bob])


def test_an_old_player_watching_a_private_rematch_is_told_they_may_sit(
        client: TestClient) -> None:
    """Bob, who played the match before, watching its private rematch without the code: his
    page was not told he may sit down (the server seats him without it), so it said he
    needed the code. His role now says so (``invited``) and which place is kept for him."""
    ann, bob, eve, tid = finished(client, {**OPTIONS, "private": True})
    was, code = bob.seat, hub_of(client).tables[tid].invite
    new = rematch_made(ann)
    assert bob.request({"type": "join", "table_id": new, "role": "spectator"})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    assert bob.you == {"role": "spectator", "seat": None, "invited": True, "kept": was}, bob.you
    # Eve, who watched the match before with its code, is not a player of it
    rematch_news(eve)
    assert eve.request({"type": "join", "table_id": new, "role": "spectator",
                        "invite": code})["type"] == "ack"
    eve.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    assert eve.you == {"role": "spectator", "seat": None}, eve.you
    # Ann frees his place: he still may sit down (no place kept for him)
    assert ann.request({"type": "remove", "seat": was})["type"] == "ack"
    bob.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "freed")
    assert bob.you == {"role": "spectator", "seat": None, "invited": True, "kept": None}
    assert sat_down(bob, new) is not None


def test_rematch_of_a_private_table_needs_no_code_for_its_players(client: TestClient
                                                                  ) -> None:
    ann, bob, eve, tid = finished(client, {**OPTIONS, "private": True})
    old_invite = hub_of(client).tables[tid].invite
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table")["table"]
    table = hub_of(client).tables[new["id"]]
    assert table.options.private and table.invite != old_invite  # a fresh code
    for p in (bob, eve):
        news = rematch_news(p)
        assert "invite" not in news["event"] and table.invite not in str(news)
    # the spectator of the private table may not sit down without the code; Bob may
    assert eve.request({"type": "join", "table_id": new["id"]})["code"] == "not_allowed"
    assert bob.request({"type": "join", "table_id": new["id"]})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table" and m["table"]["id"] == new["id"])
    assert bob.you is not None and bob.you["role"] == "player"
    # a stranger with the id alone does not get in either
    zed = Player(client, "Zed")
    assert zed.request({"type": "join", "table_id": new["id"]})["code"] == "not_allowed"


def test_a_spectator_follows_a_private_table_to_its_rematch_with_its_code(
        client: TestClient) -> None:
    """Eve watched the private table (let in with its code): she may follow it to its
    rematch with that code, to watch it or to sit at a free place (before: refused, "this
    table is private", and the new code is in no frame). A code of another table does not
    open it, nor does the old code open any other table."""
    ann, _bob, eve, tid = finished(client, {**OPTIONS, "private": True})
    old_invite = hub_of(client).tables[tid].invite
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table")["table"]["id"]
    rematch_news(eve)
    # the code of another private table does not open it
    other = Player(client, "Otto")
    assert other.request({"type": "create", "options": {**OPTIONS, "private": True}}
                         )["type"] == "ack"
    other_table = other.until(lambda m: m["type"] == "table")["table"]
    zed = Player(client, "Zed")
    assert zed.request({"type": "join", "table_id": new, "role": "spectator",
                        "invite": other_table["invite"]})["code"] == "not_allowed"
    assert zed.request({"type": "join", "table_id": other_table["id"], "role": "spectator",
                        "invite": old_invite})["code"] == "not_allowed"
    # Eve watches the rematch with the old table's code (any case, as typed)
    ans = eve.request({"type": "join", "table_id": new, "role": "spectator",
                       "invite": old_invite.lower()})
    assert ans["type"] == "ack", ans
    eve.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    assert eve.you is not None and eve.you["role"] == "spectator"
    # and sits down at a free place (not Bob's, kept for him)
    ans = eve.request({"type": "join", "table_id": new, "invite": old_invite})
    assert ans["type"] == "ack", ans
    eve.until(lambda m: m["type"] == "table" and m["you"]["role"] == "player")
    assert eve.seat is not None and eve.seat not in kept(eve)


def test_a_restart_keeps_the_codes_a_rematch_follows(restart: Any) -> None:
    client = restart()
    ann, _, _, tid = finished(client, {**OPTIONS, "private": True})
    old_invite = hub_of(client).tables[tid].invite
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table")["table"]["id"]
    client = restart()
    assert hub_of(client).tables[new].earlier_invites == (old_invite,)
    eve = Player(client, "Eve")
    ans = eve.request({"type": "join", "table_id": new, "role": "spectator",
                       "invite": old_invite})
    assert ans["type"] == "ack", ans


def test_no_rematch_before_the_end_or_from_nowhere(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    assert ann.request({"type": "rematch"})["code"] == "state"  # at no table
    new_table(ann, OPTIONS, bob)
    assert ann.request({"type": "rematch"})["code"] == "state"  # waiting
    started(ann, bob)
    assert ann.request({"type": "rematch"})["code"] == "state"  # playing
    assert bob.request({"type": "rematch"})["code"] == "not_allowed"
    assert len(hub_of(client).tables) == 1


def test_a_rematch_is_under_the_create_limits(settings: Settings) -> None:
    # the create rate: one table, then no more for a while
    with in_process(dataclasses.replace(settings, create_burst=1.0,
                                             create_rate=0.001)) as client:
        ann, _, _, _ = finished(client, OPTIONS)
        ans = ann.request({"type": "rematch"})
        assert ans["type"] == "error" and ans["code"] == "rate_limit", ans
        assert len(hub_of(client).tables) == 1
    # tables per user: Ann holds a table not yet started in another tab
    with in_process(dataclasses.replace(settings, tables_per_user=1)) as client:
        ann, _, _, tid = finished(client, OPTIONS)
        tab = Player(client, "Ann", token=ann.token)
        assert tab.request({"type": "create", "options": OPTIONS})["type"] == "ack"
        ans = ann.request({"type": "rematch"})
        assert ans["type"] == "error" and ans["code"] == "limit", ans
        assert len(hub_of(client).tables) == 2
        assert hub_of(client).tables[tid].status == "finished"


def test_a_restart_keeps_who_may_join_the_rematch_without_the_code(restart: Any) -> None:
    client = restart()
    ann, bob, _, _ = finished(client, {**OPTIONS, "private": True})
    bob_was = bob.seat
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table")["table"]["id"]
    client = restart()
    bob2, zed = Player(client, "Bob", bob.token), Player(client, "Zed")
    assert zed.request({"type": "join", "table_id": new})["code"] == "not_allowed"
    assert bob2.request({"type": "join", "table_id": new})["type"] == "ack"
    bob2.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    assert bob2.you is not None and bob2.you["role"] == "player" and bob2.seat == bob_was


def test_a_rematch_alone_with_cpus_starts_at_once(client: TestClient) -> None:
    """A match against CPUs only: the rematch starts at once, as "Play against CPUs now"
    does (before: a waiting room where the player had to press Start)."""
    ann = Player(client, "Ann")
    tid = new_table(ann, {"profile": "cardems", "one_hand": True, "cpu": "random"})
    started(ann)
    play_to_end([ann])
    assert ann.request({"type": "rematch"})["type"] == "ack"
    snap = ann.until(lambda m: m["type"] == "table")
    assert snap["table"]["id"] != tid
    started_now = ann.until(lambda m: m.get("table") is not None
                            and m["table"]["status"] == "active")
    assert started_now["table"]["id"] == snap["table"]["id"]


# Places kept for the old players ------------------------------------------------------

def finished_three(client: TestClient, options: dict[str, Any]
                   ) -> tuple[Player, Player, Player, dict[str, int]]:
    """Ann's one-hand table of ``options`` where Bob and Cal played (and a CPU), played to
    its end; the three and where each sat."""
    ann, bob, cal = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Cal")
    tid = new_table(ann, options, bob, cal)
    started(ann, bob, cal)
    was = {p.name: p.seat for p in (ann, bob, cal)}
    play_to_end([ann, bob, cal])
    for p in (bob, cal):
        if not any(m["type"] == "event" and m["event"]["kind"] == "match_over"
                   for m in p.frames):
            p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over")
    assert ann.table is not None and ann.table["id"] == tid
    return ann, bob, cal, {k: v for k, v in was.items() if v is not None}


def rematch_made(ann: Player) -> str:
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new: str = ann.until(lambda m: m["type"] == "table")["table"]["id"]
    return new


def kept(p: Player) -> dict[int, str]:
    """The places ``p``'s page shows kept (place: for whom)."""
    assert p.table is not None
    return {s["seat"]: s["kept_for"] for s in p.table["seats"] if s.get("kept_for")}


def sat_down(p: Player, tid: str) -> int:
    ans = p.request({"type": "join", "table_id": tid})
    assert ans["type"] == "ack", ans
    p.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    assert p.seat is not None
    return p.seat


PUBLIC = {**OPTIONS, "spectators": False}


def test_a_newcomer_gets_a_place_not_kept_for_an_old_player(client: TestClient) -> None:
    """Before: the first to join the rematch took the first free place, an old player's
    place among them, and the partnerships of the match before were broken."""
    ann, bob, cal, was = finished_three(client, PUBLIC)
    new = rematch_made(ann)
    assert kept(ann) == {was["Bob"]: "Bob", was["Cal"]: "Cal"}
    open_place = ({0, 1, 2, 3} - set(was.values())).pop()
    zed = Player(client, "Zed")
    assert sat_down(zed, new) == open_place
    # an explicit choice of a kept place by someone else is refused, naming whom it is for
    ans = zed.request({"type": "seat", "seat": was["Bob"]})
    assert ans["type"] == "error" and ans["code"] == "state", ans
    assert "kept for Bob" in ans["message"], ans
    ans = ann.request({"type": "add_cpu", "seat": was["Cal"]})
    assert ans["type"] == "error" and "kept for Cal" in ans["message"], ans
    # the old players come back to their places
    assert sat_down(bob, new) == was["Bob"]
    # Bob, back, may not take Cal's kept place either
    ans = bob.request({"type": "seat", "seat": was["Cal"]})
    assert ans["type"] == "error" and "kept for Cal" in ans["message"], ans
    assert sat_down(cal, new) == was["Cal"]
    assert kept(cal) == {}


def test_kept_places_stay_for_their_players(client: TestClient) -> None:
    """Before: when only places kept for the old players were free, a newcomer (someone
    watching the rematch too) took one, and its player found another's place, or none. Now
    the join is refused, saying why (and that one watching goes on watching)."""
    ann, bob, cal, was = finished_three(client, OPTIONS)
    new = rematch_made(ann)
    zed, dan = Player(client, "Zed"), Player(client, "Dan")
    sat_down(zed, new)
    names = " and ".join(n for n, _ in sorted((("Bob", was["Bob"]), ("Cal", was["Cal"])),
                                              key=lambda x: x[1]))
    both = (f"the free places are kept for the players of the match before ({names}) "
            "until they are back or the match starts")
    ans = dan.request({"type": "join", "table_id": new})
    assert ans["type"] == "error" and ans["code"] == "state", ans
    assert ans["message"] == both + ": join as a spectator", ans
    # watching, he asks to sit down: refused, and he watches on
    assert dan.request({"type": "join", "table_id": new, "role": "spectator"})["type"] == "ack"
    dan.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    ans = dan.request({"type": "join", "table_id": new, "role": "player"})
    assert ans["message"] == both + ": you go on watching it", ans
    assert dan.you == {"role": "spectator", "seat": None}, dan.you
    assert kept(ann) == {was["Bob"]: "Bob", was["Cal"]: "Cal"}
    # Bob is back at his place; Cal's stays his
    assert sat_down(bob, new) == was["Bob"]
    ans = dan.request({"type": "join", "table_id": new, "role": "player"})
    assert ans["message"] == ("the free place is kept for Cal, who played the match before, "
                              "until they are back or the match starts: you go on watching "
                              "it"), ans
    assert sat_down(cal, new) == was["Cal"]
    assert kept(cal) == {}
    ans = Player(client, "Zoe").request({"type": "join", "table_id": new})
    assert ans["type"] == "error" and ans["message"].startswith("the table is full"), ans


def test_a_place_the_owner_frees_is_anyones_again(client: TestClient) -> None:
    ann, _bob, cal, was = finished_three(client, OPTIONS)
    new = rematch_made(ann)
    sat_down(Player(client, "Zed"), new)
    dan = Player(client, "Dan")
    assert dan.request({"type": "join", "table_id": new})["type"] == "error"
    assert ann.request({"type": "remove", "seat": was["Cal"]})["type"] == "ack"
    assert sat_down(dan, new) == was["Cal"]
    # Cal, whose place was freed and taken, finds only Bob's kept place: refused
    ans = cal.request({"type": "join", "table_id": new})
    assert ans["type"] == "error" and "kept for Bob" in ans["message"], ans


def test_starting_releases_the_kept_places(client: TestClient) -> None:
    ann, _bob, _cal, was = finished_three(client, PUBLIC)
    rematch_made(ann)
    assert kept(ann) == {was["Bob"]: "Bob", was["Cal"]: "Cal"}
    started(ann)
    assert ann.table is not None and ann.table["status"] == "active"
    assert kept(ann) == {}
    assert [s["kind"] for s in ann.table["seats"]].count("cpu") == 3  # CPUs filled them


def test_a_restart_keeps_the_kept_places(restart: Any) -> None:
    client = restart()
    ann, bob, _cal, was = finished_three(client, PUBLIC)
    new = rematch_made(ann)
    client = restart()
    ann2 = Player(client, "Ann", ann.token)
    sat_down(ann2, new)
    assert kept(ann2) == {was["Bob"]: "Bob", was["Cal"]: "Cal"}
    assert sat_down(Player(client, "Zed"), new) not in (was["Bob"], was["Cal"])
    assert sat_down(Player(client, "Bob", bob.token), new) == was["Bob"]


def test_the_owner_frees_a_place_kept_for_someone_not_coming(client: TestClient) -> None:
    """Before: a kept place stayed kept until the start (``remove`` said "place 2 is
    empty"), so nobody could choose it, however long its player stayed away."""
    ann, bob, cal, was = finished_three(client, PUBLIC)
    new = rematch_made(ann)
    zed = Player(client, "Zed")
    sat_down(zed, new)
    ans = zed.request({"type": "remove", "seat": was["Cal"]})  # only the owner
    assert ans["type"] == "error" and ans["code"] == "not_allowed", ans
    assert ann.request({"type": "remove", "seat": was["Cal"]})["type"] == "ack"
    [freed] = [m for m in ann.frames if m["type"] == "event" and m["event"]["kind"] == "freed"]
    assert freed["event"]["seat"] == was["Cal"] and freed["event"]["text"].startswith(
        "you freed ") and freed["event"]["text"].endswith(", the place kept for Cal")
    assert kept(ann) == {was["Bob"]: "Bob"}
    heard = zed.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "freed")
    assert heard["event"]["text"].startswith("Ann freed ")
    # anyone may choose it now; Cal still joins without the code, at a free place
    assert zed.request({"type": "seat", "seat": was["Cal"]})["type"] == "ack"
    assert sat_down(cal, new) not in (was["Cal"], was["Bob"])
    assert sat_down(bob, new) == was["Bob"]


def test_the_owners_cpu_naming_no_place_takes_no_kept_place(client: TestClient) -> None:
    """Before: the owner's ``add_cpu`` naming no place took a place kept for a player of the
    match before when no other was free ("a kept place last"), and that player, back,
    found their place a CPU's. Now it takes a place kept for nobody, else it is refused,
    saying which places are kept, for whom, and how to give one to a CPU all the same."""
    ann, bob, cal, was = finished_three(client, PUBLIC)
    new = rematch_made(ann)
    open_place = ({0, 1, 2, 3} - set(was.values())).pop()
    assert ann.request({"type": "add_cpu", "seat": None})["type"] == "ack"
    assert ann.table is not None and ann.table["seats"][open_place]["kind"] == "cpu"
    assert kept(ann) == {was["Bob"]: "Bob", was["Cal"]: "Cal"}
    # only kept places are free: refused, nothing changes
    (b, bname), (c, cname) = sorted(((was["Bob"], "Bob"), (was["Cal"], "Cal")))
    ans = ann.request({"type": "add_cpu", "seat": None})
    assert ans["type"] == "error" and ans["code"] == "state", ans
    assert ans["message"] == (
        "no place is free for a CPU: the free places are kept for the players of the match "
        "before until they are back or the match starts (place "
        f"{b} for {bname} and place {c} for {cname}); to give one of them to a CPU all the "
        "same, free it first (remove its place: it is anyone's then), then add the CPU "
        "there"), ans
    assert [s["kind"] for s in ann.table["seats"]].count("cpu") == 1
    assert kept(ann) == {was["Bob"]: "Bob", was["Cal"]: "Cal"}
    # naming a kept place: refused too, saying how
    ans = ann.request({"type": "add_cpu", "seat": was["Cal"]})
    assert ans["type"] == "error" and ans["message"] == (
        f"place {was['Cal']} is kept for Cal, who sat there in the match before, until they "
        f"are back or the match starts; to give place {was['Cal']} to a CPU all the same, "
        f"free it first (remove place {was['Cal']}: it is anyone's then), then add the CPU "
        "there"), ans
    # Bob is back; one place is kept, for Cal
    assert sat_down(bob, new) == was["Bob"]
    ans = ann.request({"type": "add_cpu", "seat": None})
    assert ans["type"] == "error" and ans["message"] == (
        f"no place is free for a CPU: place {was['Cal']} is kept for Cal, who played the "
        "match before, until they are back or the match starts; to give place "
        f"{was['Cal']} to a CPU all the same, free it first (remove place {was['Cal']}: it "
        "is anyone's then), then add the CPU there"), ans
    # the owner frees it as told: a CPU naming no place takes it
    assert ann.request({"type": "remove", "seat": was["Cal"]})["type"] == "ack"
    assert ann.request({"type": "add_cpu", "seat": None})["type"] == "ack"
    assert ann.table["seats"][was["Cal"]]["kind"] == "cpu"
    assert cal.request({"type": "join", "table_id": new})["type"] == "error"  # full


def test_asking_again_goes_back_to_the_rematch_made(client: TestClient) -> None:
    """The owner goes back to the finished table and asks for a rematch again: she is taken
    to the rematch made already (before: another new table each time, and the old table's
    people heard "Ann started a rematch" again for each)."""
    ann, bob, _eve, tid = finished(client, OPTIONS)
    first = rematch_made(ann)
    assert ann.request({"type": "join", "table_id": tid})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    assert ann.request({"type": "rematch"})["type"] == "ack"
    again = ann.until(lambda m: m["type"] == "table")
    assert again["table"]["id"] == first and ann.you is not None
    assert ann.you["role"] == "player"
    bob.send({"type": "ping", "ref": "p"})  # (everything sent to him before is in)
    bob.until(lambda m: m["type"] == "pong" and m.get("ref") == "p")
    news = [m for m in bob.frames if m["type"] == "event" and m["event"]["kind"] == "rematch"]
    assert [m["event"]["rematch"] for m in news] == [first]
    assert [t for t in hub_of(client).tables if t not in (tid, first)] == []


def answer_to(p: Player, ref: str) -> Msg:
    return p.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref)


def test_two_tabs_of_the_owner_asking_at_once_make_one_rematch(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner's two tabs ask for the rematch at the same moment: the second, handed the
    seat back as the first leaves the finished table for the new one, asks while the new
    table is being made (held here until then). One table is made, and both tabs are
    answered and sit at it (before: the second made a second rematch, and the others heard
    of two)."""
    ann, bob, _eve, tid = finished(client, OPTIONS)
    tab = Player(client, "Ann", ann.token)  # (takes the seat: Ann's first tab waits)
    assert tab.request({"type": "join", "table_id": tid})["type"] == "ack"
    tab.until(lambda m: m["type"] == "table" and m["table"]["id"] == tid)
    hub = hub_of(client)
    old, owner = hub.tables[tid], ann.welcome["user"]["id"]
    gate, calls, real = threading.Event(), [], hub.create_table

    async def held(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        await asyncio.to_thread(gate.wait, 20)
        return await real(*args, **kwargs)

    monkeypatch.setattr(hub, "create_table", held)
    tab.send({"type": "rematch", "ref": "first"})
    wait_until(lambda: len(calls) == 1 and old.members.get(owner) is not None,
               "the new table being made, the first tab's seat handed back")
    ann.send({"type": "rematch", "ref": "second"})
    lock = getattr(old, "rematch_lock", None)
    wait_until(lambda: len(calls) == 2 or bool(lock and getattr(lock, "_waiters", None)),
               "the second rematch to be under way")
    gate.set()
    made = set()
    for p, ref in ((tab, "first"), (ann, "second")):
        ans = answer_to(p, ref)
        assert ans["type"] == "ack", ans
        made.add(p.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)
                 ["table"]["id"])
    assert len(made) == 1, "a second rematch was made"
    assert [t for t in hub.tables if t != tid] == list(made)
    bob.send({"type": "ping", "ref": "p"})  # (everything sent to him before is in)
    bob.until(lambda m: m["type"] == "pong" and m.get("ref") == "p")
    news = [m for m in bob.frames if m["type"] == "event" and m["event"]["kind"] == "rematch"]
    assert [m["event"]["rematch"] for m in news] == list(made)


def test_a_player_back_at_the_old_table_hears_of_the_rematch(client: TestClient) -> None:
    """Bob reloads his page after Ann made the rematch (everyone else had left the old
    table): his new connection comes back to the finished table and hears of the rematch,
    which still waits for him (before: the table had left memory with its last member, and
    Bob heard of nothing). With several processes this is what a join that comes after the
    owner's rematch gets (tests/server/test_rematch_cluster.py). Eve, who heard of it, is
    not told again."""
    ann, bob, eve, tid = finished(client, OPTIONS)
    new = rematch_made(ann)
    assert rematch_news(bob)["event"]["rematch"] == new
    assert rematch_news(eve)["event"]["rematch"] == new
    token = bob.token
    bob.close()
    back = Player(client, "Bob", token)
    assert back.request({"type": "join", "table_id": tid})["type"] == "ack"
    news = rematch_news(back)
    assert news["event"]["rematch"] == new and news["event"]["text"] == "Ann started a rematch"
    again = rematch_news(eve)  # (the event is everyone's: its words are Bob's alone)
    assert again["event"]["rematch"] == new and again["event"]["text"] == ""
    assert back.request({"type": "join", "table_id": new})["type"] == "ack"
    back.until(lambda m: m["type"] == "table" and m["table"]["id"] == new)
    assert back.you is not None and back.you["role"] == "player"


def test_a_finished_table_nobody_is_at_leaves_memory_at_the_second_sweep(
        settings: Settings) -> None:
    """The old table stays in memory while its rematch waits, even with nobody at it (a
    player on their way hears of it), and so does a finished table brought back from the
    store for its players (with several processes, a take-over): the janitor forgets
    either once nobody has been at it for a whole sweep (before: one brought back that
    nobody came back to stayed in memory for ever)."""
    from tests.server.helpers import wait_until

    quiet = dataclasses.replace(settings, sweep_seconds=3600, prune_minutes=0)
    with in_process(quiet) as client:
        janitor = client.app.state.janitor  # type: ignore[attr-defined]
        hub = hub_of(client)
        ann, bob, eve, tid = finished(client, OPTIONS)
        rematch_made(ann)
        bob.close()
        eve.close()
        wait_until(lambda: not hub.tables[tid].members and not hub.tables[tid].spectators,
                   "Bob and Eve to leave the old table")
        for _ in range(2):
            assert tid in hub.tables  # its rematch waits
            client.portal.call(janitor.sweep)  # type: ignore[union-attr]
        assert tid not in hub.tables
        assert client.portal.call(hub.restore_table, tid, True)  # type: ignore[union-attr]
        old = hub.tables[tid]
        assert old.status == "finished" and old.match is not None and old.match.is_over()
        assert hub.store.game(tid).status == "finished"
        client.portal.call(janitor.sweep)  # type: ignore[union-attr]
        assert tid in hub.tables
        client.portal.call(janitor.sweep)  # type: ignore[union-attr]
        assert tid not in hub.tables


def test_an_old_player_back_at_the_kept_place_is_told_so(client: TestClient) -> None:
    """Bob, back at the rematch, took the place kept for him and heard nothing of it (his own
    `joined` event had no words, and his page could not tell a kept place from another):
    he is told he is back at his place of the match before, across from his partner when
    one sits there. A newcomer, at a place kept for nobody, is not; the others hear "Bob
    sits down at ..." as before."""
    ann, bob, cal, was = finished_three(client, PUBLIC)
    new = rematch_made(ann)
    zed = Player(client, "Zed")

    def own_words(p: Player) -> str:
        sat_down(p, new)
        mine = p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined"
                       and m["event"]["seat"] == p.seat)
        text: str = mine["event"]["text"]
        return text

    assert own_words(zed) == ""  # (the open place: Cal's partner's, a CPU's before)
    assert own_words(bob) == ("you are back at your place of the match before, across from "
                              "your partner Ann")
    said = ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "joined"
                     and m["event"]["seat"] == was["Bob"])
    assert said["event"]["text"].startswith("Bob sits down at"), said
    assert own_words(cal) == ("you are back at your place of the match before, across from "
                              "your partner Zed")


def test_a_leave_naming_the_old_table_does_not_leave_the_rematch(client: TestClient) -> None:
    """A `leave` named no table: sent by the finished table's page after the server had put
    its owner at the rematch, it left the rematch (the page had to hold it back). A `leave`
    may name its table now, and one naming another table changes nothing."""
    ann, _bob, _eve, tid = finished(client, OPTIONS)
    new = rematch_made(ann)
    seat = ann.seat
    assert ann.request({"type": "leave", "table_id": tid})["type"] == "ack"
    assert ann.welcome["user"]["id"] in hub_of(client).tables[new].members, "left the rematch"
    assert ann.table is not None and ann.table["id"] == new and ann.seat == seat
    # naming the table she is at, she leaves it; and again, she is at none, which is no error
    assert ann.request({"type": "leave", "table_id": new})["type"] == "ack"
    assert ann.request({"type": "leave", "table_id": new})["type"] == "ack"
    # without a table id, a leave from nowhere is refused as before
    assert ann.request({"type": "leave"})["code"] == "state"
