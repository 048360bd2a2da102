"""A person who never acts at a table without a turn timer: after ``idle_seconds`` of their
turn a CPU covers their seat, as a dropped player's, until they act or join again. Before,
one connected player who did not act stalled the table for ever (and every other player's
place there kept counting toward ``tables_per_user``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from spades.server import tables
from spades.server.limits import parse_limit
from spades.server.settings import Settings
from tests.server import helpers
from tests.server.helpers import Msg, Player, hub_of, in_process, play_to_end
from tests.server.test_tables import new_table, started

#: Short enough for a test; the server's default is 300 s.
IDLE = 0.5


@pytest.fixture(autouse=True)
def _bounded_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stalled table sends nothing more: fail within 30 s, not the helpers' 120 s."""
    monkeypatch.setattr(helpers, "RECV_SECONDS", 30.0)


@pytest.fixture(autouse=True)
def _ann_is_never_idle(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Ann plays her turns as they come, yet a pause of this test's thread (a busy machine)
    past ``IDLE`` had a CPU cover her too, and her next move was answered as a move back:
    only Bob idles here (and Ann, in the one test that waits for her to)."""
    if request.function.__name__ == "test_nobody_waiting_nobody_is_covered":
        return
    real = tables.Table.idle_wait

    def idle_wait(table: tables.Table, seat: int) -> float:
        return 3600.0 if table.places[seat].name == "Ann" else real(table, seat)

    monkeypatch.setattr(tables.Table, "idle_wait", idle_wait)


def event(kind: str, seat: int | None = None) -> Callable[[Msg], bool]:
    return lambda m: (m["type"] == "event" and m["event"]["kind"] == kind
                      and (seat is None or m["event"]["seat"] == seat))


def seen(p: Player, pred: Callable[[Msg], bool], after: int = 0) -> Msg | None:
    return next((m for m in p.frames[after:] if pred(m)), None)


def drive(ann: Player, pred: Callable[[Msg], bool], after: int = 0,
          limit: int = 5000) -> Msg:
    """Ann plays each of her turns as it comes (Bob does nothing) until she has seen a
    frame ``pred`` holds for (past her first ``after`` frames)."""
    ann.play_first_until(lambda p: seen(p, pred, after) is not None, limit)
    hit = seen(ann, pred, after)
    assert hit is not None
    return hit


def until_bobs_turn(ann: Player, bob: Player) -> None:
    """Ann plays her turns until it is Bob's."""
    def bobs_turn(p: Player) -> bool:
        bob.catch_up(p.seq or 0)
        return bob.my_turn()

    ann.play_first_until(bobs_turn)


def idle_table(client: Any, options: dict[str, Any] | None = None) -> tuple[Player, Player, str]:
    """Ann and Bob at a cardems table (two CPUs), no turn timer, started."""
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems", **(options or {})}, bob)
    started(ann, bob)
    return ann, bob, tid


def bob_covered(ann: Player, bob: Player) -> Msg:
    """Bob never acts: his turn comes, and after IDLE a CPU covers him."""
    assert bob.seat is not None
    cover = drive(ann, event("covered", bob.seat))
    assert cover["event"]["text"] in (  # (he sits across from Ann, or beside her)
        f"{who}Bob has not played for {IDLE:g} seconds; a CPU plays for them until they are "
        "back" for who in ("", "your partner "))
    seat = cover["table"]["seats"][bob.seat]
    assert seat["covered"] and seat["connected"]  # still there: only idle
    told = bob.until(event("covered", bob.seat))["event"]["text"]
    assert told == (f"you have not played for {IDLE:g} seconds: a CPU plays for you until "
                    "you are back (Take my seat back, or a move of yours, gives it back to you)")
    return cover


def test_a_player_who_never_acts_no_longer_stalls_a_table_without_a_timer(
        settings: Settings) -> None:
    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, _ = idle_table(client)
        assert ann.welcome["limits"]["idle_seconds"] == IDLE
        bob_covered(ann, bob)
        at = len(ann.frames)
        # the CPU plays Bob's turns: the table goes on to its end without him
        played = drive(ann, lambda m: (m["type"] == "event" and m["event"]["seat"] == bob.seat
                                       and m["event"]["kind"] in ("bid", "play")), at)
        assert played["event"]["action"]
        drive(ann, event("hand_scored"), at)


def test_the_idle_player_hears_the_cpus_moves_as_the_cpus(settings: Settings) -> None:
    """Covered while still there, Bob hears the moves made at his seat as the CPU's: "A CPU
    bids 3 for you." Before: "You bid 3.", "You play the four of diamonds." for moves he
    never made (a screen reader user could not tell them from his own)."""
    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, _ = idle_table(client)
        bob_covered(ann, bob)
        at = len(ann.frames)
        moved = drive(ann, lambda m: (m["type"] == "event" and m["event"]["seat"] == bob.seat
                                      and m["event"]["kind"] in ("bid", "play")), at)
        his = bob.until(lambda m: m["type"] == "event" and m["seq"] == moved["seq"])
        mine = [n for n in his["event"]["news"] if n.get("seat") == bob.seat
                and n["type"] in ("bid", "play")]
        assert len(mine) == 1, his["event"]["news"]
        text = mine[0]["text"]
        verb = "bids" if mine[0]["type"] == "bid" else "plays the"
        assert text.startswith(f"A CPU {verb} ") and text.endswith(" for you."), text
        assert his["event"]["text"].startswith(text)
        # the others hear Bob's move as before
        theirs = [n["text"] for n in moved["event"]["news"] if n.get("seat") == bob.seat
                  and n["type"] in ("bid", "play")]
        assert theirs and "Bob " in theirs[0] and "CPU" not in theirs[0], theirs


def test_joining_again_takes_the_seat_back_and_the_cpu_stops(settings: Settings) -> None:
    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, tid = idle_table(client, {"one_hand": True})
        bob_covered(ann, bob)
        hub_of(client).settings.idle_seconds = 3600  # Bob is slow from here on, not idle
        assert bob.request({"type": "join", "table_id": tid, "back": True})["type"] == "ack"
        back = drive(ann, event("returned", bob.seat))
        assert back["event"]["text"] in ("Bob is back", "your partner Bob is back")
        assert not back["table"]["seats"][bob.seat]["covered"]
        bob.catch_up(back["seq"])
        assert bob.table is not None and not bob.table["seats"][bob.seat]["covered"]
        # Bob's next turn waits for him: the CPU no longer takes it
        at = len(bob.frames)
        assert play_to_end([ann, bob])["event"]["kind"] == "match_over"
        mine = [m for m in bob.frames[at:] if m["type"] == "event"
                and m["event"]["seat"] == bob.seat and m["event"]["kind"] in ("bid", "play")]
        ours = [m for m in bob.frames[at:] if m["type"] == "ack"]  # (his acts only)
        assert mine and len(ours) == len(mine)  # every move at his seat was his own


def test_back_and_idle_again_is_covered_sooner_until_a_move_of_ones_own(
        settings: Settings) -> None:
    """Bob takes his seat back from the CPU and goes idle again: his next turn waits a
    fifth of ``idle_seconds`` (before: the whole of it again, every time, so pressing Take
    my seat back after each cover kept the table waiting ``idle_seconds`` a turn). Once he
    has made a move of his own, the whole wait is his again."""
    from spades.server.tables import IDLE_AGAIN

    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, tid = idle_table(client)
        seat = bob.seat
        assert seat is not None
        bob_covered(ann, bob)
        at = len(ann.frames)
        assert bob.request({"type": "join", "table_id": tid, "back": True})["type"] == "ack"
        drive(ann, event("returned", seat), at)
        again = drive(ann, event("covered", seat), at)
        assert f"has not played for {IDLE * IDLE_AGAIN:g} seconds;" in again["event"]["text"]
        at = len(ann.frames)
        assert bob.request({"type": "join", "table_id": tid, "back": True})["type"] == "ack"
        drive(ann, event("returned", seat), at)
        hub_of(client).settings.idle_seconds = 3600  # Bob takes his time for this move
        until_bobs_turn(ann, bob)  # (its wait, a fifth of 3600 s, counts already)
        hub_of(client).settings.idle_seconds = IDLE  # for his turns after this move
        assert bob.view is not None
        ans = bob.request({"type": "act", "action": bob.view["legal_actions"][0]})
        assert ans["type"] == "ack", ans
        assert seat not in hub_of(client).tables[tid].back_from_idle
        at = len(ann.frames)
        later = drive(ann, event("covered", seat), at)
        assert f"has not played for {IDLE:g} seconds;" in later["event"]["text"]


def test_a_reconnect_leaves_the_cpu_playing_for_an_idle_player(settings: Settings) -> None:
    """Bob, covered for being idle, loses his connection and his page joins again by
    itself: the CPU plays on (before, any join took the seat back, so on a flaky connection
    everyone heard "Bob is back" and "Bob has not played" over and over); ``back`` takes it
    back."""
    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, tid = idle_table(client)
        bob_covered(ann, bob)
        seat = bob.seat
        bob.close()
        ann.until(event("left", seat))
        at = len(ann.frames)
        bob = Player(client, "Bob", bob.token)
        assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
        again = ann.until(event("covered", seat))
        assert again["event"]["text"] in (
            f"{who}Bob is connected again; a CPU still plays for them"
            for who in ("", "your partner "))
        assert again["table"]["seats"][seat]["covered"]
        assert again["table"]["seats"][seat]["connected"]
        told = bob.until(event("covered", seat))  # (after the join's ack and snapshot)
        assert told["event"]["text"] == ("you are connected again; a CPU still plays for "
                                         "you (Take my seat back gives it back to you)")
        # the CPU plays Bob's turns on, and nobody hears that he is back
        drive(ann, lambda m: (m["type"] == "event" and m["event"]["seat"] == seat
                              and m["event"]["kind"] in ("bid", "play")), at)
        assert seen(ann, event("returned", seat), at) is None
        hub_of(client).settings.idle_seconds = 3600
        assert bob.request({"type": "join", "table_id": tid, "back": True})["type"] == "ack"
        assert drive(ann, event("returned", seat), at)["event"]["text"].endswith("Bob is back")


def test_acting_again_takes_the_seat_back(settings: Settings) -> None:
    """The covered player plays on their turn before the CPU does: the move is theirs, and
    so is the seat again."""
    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, tid = idle_table(client, {"one_hand": True})
        bob_covered(ann, bob)
        hub = hub_of(client)
        hub.settings.idle_seconds = 3600
        table, real = hub.tables[tid], hub.cpu.decide
        seat = bob.seat

        async def slow(spec: str, seed: int, obs: Any, key: str = "") -> int:
            if obs.seat == seat:  # the CPU at Bob's seat thinks until someone acts
                version = table.version
                while table.version == version:
                    await asyncio.sleep(0.01)
                return int(obs.legal_actions[0])
            return await real(spec, seed, obs, key)

        # the CPU plays the turn it covered; from Bob's next turn on it is slow
        drive(ann, lambda m: (m["type"] == "event" and m["event"]["seat"] == seat
                              and m["event"]["kind"] in ("bid", "play")))
        hub.cpu.decide = slow  # type: ignore[method-assign]
        until_bobs_turn(ann, bob)
        assert bob.view is not None and bob.my_turn()
        at = len(bob.frames)
        action = bob.view["legal_actions"][0]
        ans = bob.request({"type": "act", "action": action})
        assert ans["type"] == "ack", ans  # the move is Bob's (answered before the ack):
        told = [m for m in bob.frames[at:] if m["type"] == "event"]
        kinds = [(m["event"]["kind"], m["event"]["seat"]) for m in told]
        assert ("returned", seat) in kinds, kinds  # his move, then: he is back
        back = told[kinds.index(("returned", seat))]
        assert back["event"]["text"] == "you are back"
        assert not back["table"]["seats"][seat]["covered"]
        move = told[kinds.index(("returned", seat)) - 1]["event"]
        assert move["seat"] == seat and move["action"] == action
        theirs = drive(ann, event("returned", seat))
        assert theirs["event"]["text"] in ("Bob is back", "your partner Bob is back")
        # a move made only once covered: his next turn waits a fifth, as after Take my seat
        # back (hostile-guest trial: waiting out each turn until covered, then moving, made
        # every one of them wait the whole ``idle_seconds``)
        from spades.server.tables import IDLE_AGAIN
        assert seat is not None and table.idle_wait(seat) == 3600 * IDLE_AGAIN
        hub.cpu.decide = real  # type: ignore[method-assign]
        assert play_to_end([ann, bob])["event"]["kind"] == "match_over"


def test_nobody_waiting_nobody_is_covered(settings: Settings) -> None:
    """Ann's turn waits with nobody else at the table (Bob has left, a CPU plays for him):
    her game waits for her, as a game alone with CPUs does. Once Bob is back and waits for
    her, her turn is covered after ``idle_seconds``."""
    with in_process(replace(settings, idle_seconds=IDLE)) as client:
        ann, bob, tid = idle_table(client)
        table = hub_of(client).tables[tid]
        real, left = table.cover_idle, threading.Event()
        looked: list[tuple[int, bool]] = []  # (seat, covered after the look)

        async def after_bob_left(seat: int, version: int) -> None:
            while not left.is_set():  # (Ann's turn may come before Bob has gone)
                await asyncio.sleep(0.01)
            await real(seat, version)
            looked.append((seat, table.places[seat].covered))

        table.cover_idle = after_bob_left  # type: ignore[method-assign]
        assert bob.request({"type": "leave"})["type"] == "ack"
        left.set()
        helpers.wait_until(lambda: any(s == ann.seat for s, _ in looked),
                           "Ann's idle turn looked at")
        assert (ann.seat, False) in looked and not table.places[ann.seat].covered
        assert seen(ann, event("covered", ann.seat)) is None
        bob = Player(client, "Bob", bob.token)  # (a new connection: he missed frames)
        assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
        assert ann.until(event("covered", ann.seat))["event"]["text"].startswith(
            "you have not played for")


def test_a_table_with_a_turn_timer_is_left_to_its_timer(settings: Settings) -> None:
    """The timer acts (with its penalty), as before: no CPU covers an idle player there."""
    with in_process(replace(settings, idle_seconds=0.1)) as client:
        ann = Player(client, "Ann")
        new_table(ann, {"profile": "race400", "turn_timer": 5, "one_hand": True,
                        "players": 3})
        started(ann)
        out = ann.until(event("timeout", ann.seat))
        assert out["event"]["penalty_bags"] == 1
        assert seen(ann, event("covered")) is None


def test_idle_seconds_0_turns_it_off(settings: Settings) -> None:
    with in_process(replace(settings, idle_seconds=0)) as client:
        ann, bob, tid = idle_table(client)
        assert ann.welcome["limits"]["idle_seconds"] == 0
        table = hub_of(client).tables[tid]
        until_bobs_turn(ann, bob)
        assert bob.my_turn()
        # nothing counts Bob's turn (set, when on, before his turn is told)
        assert table.turns._idle is None
        assert seen(ann, event("covered")) is None


def test_idle_seconds_is_a_limit() -> None:
    assert parse_limit("idle_seconds=60") == ("idle_seconds", 60.0)
    assert parse_limit("idle-seconds=0") == ("idle_seconds", 0.0)
    for bad in ("idle_seconds=-1", "idle_seconds=inf", "idle_seconds=nan"):
        with pytest.raises(ValueError):
            parse_limit(bad)
    assert Settings().idle_seconds == 300


def test_after_a_restart_an_idle_turn_is_counted_again(settings: Settings,
                                                       restart: Any) -> None:
    """The idle deadline is not stored: it starts again once someone is back at the table
    (a table nobody is connected to pauses), so a restart cannot leave a turn waiting for
    ever."""
    settings.idle_seconds = 3600  # no cover before the restart
    client = restart()
    ann, bob, tid = idle_table(client)
    ann_token, bob_token = ann.token, bob.token
    settings.idle_seconds = IDLE  # the restarted server's
    client = restart()
    ann = Player(client, "Ann", ann_token)
    bob = Player(client, "Bob", bob_token)
    for p in (bob, ann):
        assert p.request({"type": "join", "table_id": tid})["type"] == "ack"
        p.until(lambda m: m["type"] == "table")
    bob_covered(ann, bob)


def test_the_tables_per_user_refusal_says_what_frees_a_place(settings: Settings) -> None:
    """Leaving a started match frees no place (a CPU plays for you until it ends): the
    refusal said "finish or leave one first", and leaving did not help."""
    with in_process(replace(settings, tables_per_user=1)) as client:
        ann = Player(client, "Ann")
        new_table(ann, {"profile": "cardems"})
        started(ann)
        assert ann.request({"type": "leave"})["type"] == "ack"
        ans = ann.request({"type": "create", "options": {"cpu": "random"}})
        assert ans["code"] == "limit"
        assert ans["message"] == (
            "you already have a place at 1 unfinished table (at most 1), started: finish a "
            "match first (a started match counts until it ends, even after you leave it and a "
            "CPU plays for you, or until nobody has been at it for 30 minutes)")


def _drive_net(ann: Any, pred: Callable[[Msg], bool], after: int = 0,
               limit: int = 5000) -> Msg:
    """:func:`drive` for a player on a real server process (tests.server.netclient)."""
    for _ in range(limit):
        hit = next((m for m in ann.frames[after:] if pred(m)), None)
        if hit is not None:
            return hit
        if ann.my_turn():
            ans = ann.request({"type": "act", "action": ann.view["legal_actions"][0]})
            assert ans["type"] == "ack", ans
        else:
            ann.recv(timeout=30)
    raise AssertionError("not seen")


def test_across_processes_and_after_a_take_over(postgres: Any, redis_server: Any) -> None:
    """With ``--redis``: Bob, on another process than the table's, is covered when idle and
    takes his seat back with a ``join`` ``back`` (forwarded); the table's process is killed, and on
    the process that takes it over his turns are still not waited for for ever (the idle
    deadline, never stored, counts again there)."""
    from tests.server.netclient import NetPlayer, card_room
    from tests.server.netclient import new_table as net_table

    with card_room(2, postgres, redis_server, "idle", "--bots", "inline", "--cpu-delay", "0",
                   "--limit", "idle_seconds=1") as (a, b):
        ann, bob = NetPlayer(a, "Ann"), NetPlayer(b, "Bob")
        tid = net_table(ann, {"profile": "cardems"})
        assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
        bob.until(lambda m: m["type"] == "table")
        assert ann.request({"type": "start"})["type"] == "ack"
        seat = bob.you["seat"]  # type: ignore[index]
        cover = _drive_net(ann, event("covered", seat))
        assert "has not played for 1 second;" in cover["event"]["text"]
        assert "you have not played for 1 second:" in bob.until(
            event("covered", seat))["event"]["text"]
        at = len(ann.frames)
        assert bob.request({"type": "join", "table_id": tid, "back": True}
                           )["type"] == "ack"  # forwarded
        back = _drive_net(ann, event("returned", seat), at)
        assert back["event"]["text"].endswith("Bob is back")
        # his own stand-in joined again: nobody heard that he lost the connection
        assert not [m for m in ann.frames[at:] if m["type"] == "event"
                    and m["event"]["kind"] == "left"]
        a.kill()  # the table's process, with SIGKILL: b takes the table over
        bob.seq = None
        bob.until(lambda m: m["type"] == "table")
        ann2 = NetPlayer(b, "Ann", ann.token)
        assert ann2.request({"type": "join", "table_id": tid})["type"] == "ack"
        ann2.until(lambda m: m["type"] == "table")
        at = len(ann2.frames)
        # Bob never acts: a CPU plays his turns (covered again if he was not already)
        _drive_net(ann2, lambda m: (m["type"] == "event" and m["event"]["seat"] == seat
                                    and m["event"]["kind"] in ("bid", "play")), at)
