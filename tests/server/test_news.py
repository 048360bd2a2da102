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


def test_every_event_frame_tells_its_news_to_each_recipient(client: TestClient) -> None:
    ann, bob, eve = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Eve")
    ann.request({"type": "create", "options": {"cpu": "random", "profile": "cardems",
                                               "target": 1, "first_dealer": 0}})
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    tid = ann.table["id"]
    bob.request({"type": "join", "table_id": tid})
    eve.request({"type": "join", "table_id": tid, "role": "spectator"})
    ann.request({"type": "start"})
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
