"""A client that keeps the scored hands itself (``hello`` with ``results: "new"``): its
event frames carry only the hands scored since the table's previous event, so they stay the
same size however long the match; a client that does not say so gets every scored hand, as
before.

Before: every event frame carried every scored hand (``view.results``), about 80 bytes a
hand: a card's frame was 5.6 KB at hand 50 and 29 KB at hand 300, sent to every member for
every card; and ``results`` in a hello was refused (an unknown field)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.helpers import Player, Sized, in_process, limited
from tests.server.netclient import NetPlayer, card_room, new_table, step
from tests.services import PostgresServer, RedisServer

HANDS = 120  # scored before the table goes on: a long match


def _record(hands: int, seed: int = 5) -> dict[str, Any]:
    """A cardems match to a target nobody reaches, cut after ``hands`` scored hands."""
    from spades.engine import Match, profile, to_record
    from spades.server.cpu import bot_act

    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(seed))
    while len(m.results) < hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player)))
    return to_record(m)




@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    # (a player here acts as soon as it is her turn, the CPUs at once: three hands' acts,
    # sheets and a resync may come faster than the message rate, whose dropped message
    # the test would wait for until it gives up: so that it depends on no timing)
    with in_process(limited(tmp_path, rate_per_second=10_000, rate_burst=10_000)) as c:
        yield c


def _continued(client: TestClient, hands: int, results: str | None) -> tuple[Sized, str]:
    ann = Sized(client, f"Ann{hands}{results}", results=results)
    auth = {"Authorization": f"Bearer {ann.token}"}
    r = client.post("/api/records", json={"record": _record(hands), "mode": "continue",
                                          "seat": 0, "options": {"cpu": "random"}},
                    headers=auth)
    assert r.status_code == 200, r.text
    tid: str = r.json()["table_id"]
    assert ann.request({"type": "join", "table_id": tid})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    return ann, tid


def _card_frames(p: Sized, count: int) -> list[int]:
    """Play on (the first legal action) until ``count`` cards were played: each card's
    frame size."""
    out: list[int] = []
    while len(out) < count:
        if p.my_turn():
            assert p.view is not None
            assert p.request({"type": "act", "action": p.view["legal_actions"][0]})[
                "type"] == "ack"
        elif (m := p.recv())["type"] == "event" and m["event"]["kind"] == "play":
            out.append(p.sizes[-1])
    return out


def test_frames_of_a_client_that_keeps_the_results_stay_small(client: TestClient) -> None:
    short, _ = _continued(client, 0, "new")
    long, _ = _continued(client, HANDS, "new")
    old, _ = _continued(client, HANDS, None)
    first = max(_card_frames(short, 8))
    late = max(_card_frames(long, 8))
    before = min(_card_frames(old, 8))
    # the frames of hand 121 are those of hand 1: the cards, names and news differ (a frame
    # that ends a trick, sets a contract and breaks a Nil says ~500 bytes more than one that
    # plays a card), but not by the ~80 bytes a scored hand costs: fewer than 10 a hand
    assert late < first + 10 * HANDS, (first, late)
    # a client that did not ask gets every scored hand, as before
    assert before > first + 60 * HANDS, (first, before)
    assert old.view is not None and len(old.view["results"]) == HANDS
    assert "results_from" not in old.view
    assert long.view is not None and long.view["results"] == []
    assert long.view["results_from"] == HANDS


def test_the_results_kept_are_every_scored_hand(client: TestClient) -> None:
    """A client that keeps the results (the snapshot's, then each event's new ones) has
    every scored hand, as an old client and the sheet have them, hand after hand, after a
    resync too; a spectator that keeps them as well, and one that does not."""
    ann, tid = _continued(client, 3, "new")
    assert ann.table is not None
    invite = ann.table["invite"]
    watchers = [Player(client, "Wes", results="new"), Player(client, "Old")]
    for w in watchers:
        assert w.request({"type": "join", "table_id": tid, "role": "spectator",
                          "invite": invite})["type"] == "ack"
        w.until(lambda m: m["type"] == "table")
    assert len(ann.results) == 3

    def sheet() -> list[dict[str, Any]]:
        ann.send({"type": "sheet", "ref": "s"})
        rows = ann.until(lambda m: m["type"] == "sheet")
        return [{k: r[k] for k in ("tricks", "points", "scores", "bags")}
                for r in rows["hands"]]

    for hands in (4, 5, 6):
        while len(ann.results) < hands:
            if ann.my_turn():
                assert ann.view is not None
                ann.request({"type": "act", "action": ann.view["legal_actions"][0]})
            else:
                ann.recv()
        told = [f["view"] for f in ann.frames if f["type"] == "event" and f["view"]["results"]]
        # the frame of the card that ended the hand carries it, the new hand only
        assert [(v["results_from"], len(v["results"])) for v in told][-1] == (hands - 1, 1)
        assert ann.results == sheet(), hands
        for w in watchers:
            w.catch_up(ann.seq or 0)
            assert w.results == ann.results, (w.name, hands)
        assert watchers[1].view is not None
        assert watchers[1].view["results"] == ann.results  # as before: all of them
    told = [f["event"]["kind"] for f in ann.frames
            if f["type"] == "event" and f["view"]["results"]]
    assert told == ["play"] * 3, told  # (the hand_scored frames after them: no hand again)
    # a resync's snapshot carries every scored hand: what was kept
    kept = list(ann.results)
    ann.send({"type": "resync"})
    snap = ann.until(lambda m: m["type"] == "table")
    assert snap["view"]["results"] == kept
    assert "results_from" not in snap["view"]


class _Member:
    """A table's member that keeps the frames it is sent."""

    def __init__(self, uid: int, new: bool) -> None:
        self.user_id = uid
        self.results_new = new
        self.ended = None
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def test_the_hands_told_before_are_not_converted_again(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """An event at a long match's table converts no scored hand for a client that keeps
    them (it is sent none of them), and each hand once for all those that get every one
    (each seat's view, and the spectators'), which get what they got before, as the new ones
    do; the next event converts none.

    Before: every member's view converted every scored hand (``HandResult.to_json``), the
    list then cut for those that keep them: 6 views of 40 hands here; then 3 views, at each
    event (9 ms a member an event at 1,600 hands)."""
    import types

    from spades.engine import PLAY, HandResult, Match, profile
    from spades.server.cpu import bot_act
    from spades.server.protocol import TableOptions
    from spades.server.settings import Settings
    from spades.server.tables import Place, Table

    hands = 40
    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(2))
    while len(m.results) < hands or m.phase is not PLAY:
        m.apply(bot_act("random", 1, m.observation(m.current_player)))
    hub: Any = types.SimpleNamespace(settings=Settings(), uploads=set())
    table = Table(hub, "g1", TableOptions(), m.rules,
                  [Place("human", i + 1, f"P{i}") for i in range(4)], 1, "ABC", "active")
    seated = [_Member(i + 1, new=i < 2) for i in range(4)]  # seats 0 and 1 keep the hands
    watching = [_Member(10, new=True), _Member(11, new=False)]
    for i, member in enumerate(seated):
        table.members[i + 1] = member  # type: ignore[assignment]
    table.spectators.update(watching)  # type: ignore[arg-type]
    table.resume(m, 0)  # (the 40 hands are in the snapshot each member was sent)
    converted = 0
    to_json = HandResult.to_json

    def counted(self: HandResult) -> dict[str, Any]:
        nonlocal converted
        converted += 1
        return to_json(self)

    monkeypatch.setattr(HandResult, "to_json", counted)
    table.emit({"kind": "play", "hand": hands + 1, "seat": 0, "action": "3C", "text": "a card"})
    monkeypatch.setattr(HandResult, "to_json", to_json)
    assert converted == hands, converted  # once, for seats 2 and 3 and the spectators
    public = m.observation(0).to_json()
    public.update(seat=None, hand=None, legal_actions=[])
    for member, full in [*((c, m.observation(s).to_json()) for s, c in enumerate(seated)),
                         *((c, public) for c in watching)]:
        (frame,) = member.sent
        view = json.loads(frame)["view"]
        if member.results_new:
            full = {**full, "results": [], "results_from": hands}
        assert view == full and list(view) == list(full), member.user_id
    # the next event converts none of them again
    monkeypatch.setattr(HandResult, "to_json", counted)
    table.emit({"kind": "play", "hand": hands + 1, "seat": 1, "action": "4C", "text": "a card"})
    monkeypatch.setattr(HandResult, "to_json", to_json)
    assert converted == hands, converted
    assert all(len(c.sent) == 2 for c in [*seated, *watching])


def test_a_hello_that_says_nothing_new_is_as_before(client: TestClient) -> None:
    p = Player(client, "Plain", results="all")
    assert p.welcome["type"] == "welcome"
    # a hello asking for something else is refused
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": p.token, "results": "some"}))
        assert json.loads(ws.receive_text())["code"] == "auth"


def test_a_client_of_another_process_gets_what_it_asked_for(
        postgres: PostgresServer, redis_server: RedisServer) -> None:
    """With several processes, a client's hello is at the process it is connected to, its
    table run by another: that one sends it only the new hands when it asked for that
    (before: every hand, as it had not heard), and every hand to a client there that did not
    ask."""
    with card_room(2, postgres, redis_server, "newres", "--bots", "inline", "--cpu-delay",
                   "0") as (a, b):
        ann = NetPlayer(a, "Ann")
        tid = new_table(ann, {"one_hand": True, "profile": "cardems"})
        bob = NetPlayer(b, "Bob", results="new")
        cat = NetPlayer(b, "Cat")
        for p, role in ((bob, "player"), (cat, "spectator")):
            assert p.request({"type": "join", "table_id": tid, "role": role})["type"] == "ack"
            p.until(lambda m: m["type"] == "table")
        assert ann.request({"type": "start"})["type"] == "ack"
        players = [ann, bob]
        for _ in range(3000):
            if bob.view is not None and bob.view["phase"] == "over":
                break
            step(players)
        for p in (bob, cat):
            if not any(f["type"] == "event" and f["event"]["kind"] == "match_over"
                       for f in p.frames):
                p.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "match_over")
        views = {p.name: [f["view"] for f in p.frames
                          if f["type"] == "event" and f["view"] is not None]
                 for p in (bob, cat)}
        # Bob: every event after the start says where its hands go, the one hand once
        assert all("results_from" in v for v in views["Bob"]), views["Bob"][-1]
        assert [(v["results_from"], len(v["results"])) for v in views["Bob"]
                if v["results"]] == [(0, 1)]
        # Cat: every hand, as before
        assert not any("results_from" in v for v in views["Cat"])
        assert len(views["Cat"][-1]["results"]) == 1
