"""Hostile clients at tables: reading what is not theirs, names that hide things, and
leaving to avoid the turn timer's penalty."""

from __future__ import annotations

import time
import unicodedata
from typing import Any

from starlette.testclient import TestClient

from spades.server.hub import Hub
from tests.server.helpers import Player


def _create(p: Player, options: dict[str, Any]) -> str:
    assert p.request({"type": "create", "options": {"cpu": "random", **options}}
                     )["type"] == "ack"
    p.until(lambda m: m["type"] == "table")
    assert p.table is not None
    tid: str = p.table["id"]
    return tid


def test_spectators_do_not_receive_the_invite_code(client: TestClient) -> None:
    ann, eve = Player(client, "Ann"), Player(client, "Eve")
    tid = _create(ann, {})
    assert ann.table is not None and ann.table["invite"]
    assert eve.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    snap = eve.until(lambda m: m["type"] == "table")
    assert snap["table"]["invite"] is None  # before: the code came with the snapshot
    assert ann.request({"type": "add_cpu"})["type"] == "ack"
    ev = eve.until(lambda m: m["type"] == "event" and m.get("table") is not None)
    assert ev["table"]["invite"] is None
    own = [m for m in ann.frames if m["type"] == "event" and m.get("table") is not None]
    assert own and own[-1]["table"]["invite"]  # (sent before the ack: already read)


def test_invite_codes_are_accepted_in_any_case_and_spacing(client: TestClient) -> None:
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    _create(ann, {"private": True})
    assert ann.table is not None
    code = ann.table["invite"]
    typed = " " + " ".join(code.lower()[i:i + 4] for i in (0, 4)) + " "
    ans = bob.request({"type": "join", "invite": typed})
    assert ans["type"] == "ack", ans


def test_table_names_lose_control_and_bidi_characters(client: TestClient) -> None:
    ann = Player(client, "Ann")
    _create(ann, {"name": "Fun\x00 \n table \u202egnp.exe"})
    assert ann.table is not None
    assert ann.table["name"] == "Fun table gnp.exe"


def test_guests_are_marked_where_their_names_are_shown(client: TestClient) -> None:
    r = client.post("/api/register", json={"name": "Member", "password": "long enough"})
    member = Player(client, "Member", r.json()["token"])
    guest = Player(client, "Visitor")
    tid = _create(member, {})
    assert guest.request({"type": "join", "table_id": tid})["type"] == "ack"
    snap = guest.until(lambda m: m["type"] == "table")
    marks = {s["name"]: s["guest"] for s in snap["table"]["seats"] if s["kind"] == "human"}
    assert marks == {"Member": False, "Visitor": True}
    assert guest.request({"type": "chat", "text": "hi"})["type"] == "ack"
    line = member.until(lambda m: m["type"] == "chat")["line"]
    assert line["guest"] is True


def test_a_private_tables_sheet_is_for_its_people(client: TestClient) -> None:
    ann = Player(client, "Ann")
    tid = _create(ann, {"private": True})
    assert ann.request({"type": "start"})["type"] == "ack"
    assert client.get(f"/api/tables/{tid}/sheet").status_code == 404  # before: 200
    stranger = client.post("/api/guest", json={"name": "Mallory"}).json()["token"]
    assert client.get(f"/api/tables/{tid}/sheet",
                      headers={"Authorization": f"Bearer {stranger}"}).status_code == 404
    mine = client.get(f"/api/tables/{tid}/sheet",
                      headers={"Authorization": f"Bearer {ann.token}"})
    assert mine.status_code == 200, mine.text


def test_disconnecting_does_not_avoid_the_timers_penalty(client: TestClient) -> None:
    ann = Player(client, "Ann")
    tid = _create(ann, {"profile": "race400", "players": 3, "one_hand": True,
                        "turn_timer": 5, "grace_seconds": 600})
    assert ann.request({"type": "start"})["type"] == "ack"
    ann.until(lambda m: m["type"] == "event" and m.get("turn") is not None
              and m["turn"]["seat"] == ann.seat)
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    table = hub.tables[tid]
    ann.close()  # the only person at the table goes away during their timed turn
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # bounded wait for the timer's outcome
        m = table.match
        if m is not None and any(log.timeouts for log in m.log):
            break
        time.sleep(0.1)
    m = table.match
    assert m is not None and any(log.timeouts for log in m.log), \
        "leaving during a timed turn avoided the timeout (and its penalty bag)"


def marks_in_a_row(text: str) -> int:
    """The longest run of combining marks in ``text``."""
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.combining(ch) or unicodedata.category(ch) == "Me" else 0
        most = max(most, run)
    return most


def test_stacked_combining_marks_are_cut_in_table_names_and_chat(client: TestClient) -> None:
    # "Zalgo" text: a letter followed by dozens of combining marks is drawn as a column of
    # accents through the lines above and below it (the lobby's rows, the chat). Names and
    # chat kept every mark; at most 4 follow a letter now (Hebrew points with a cantillation
    # mark, Vietnamese, Devanagari stay whole).
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = _create(ann, {"name": "Q" + "\u0300\u0316" * 18 + " ok"})
    assert ann.table is not None
    name = ann.table["name"]
    assert marks_in_a_row(name) == 4 and name.startswith("Q") and name.endswith(" ok"), \
        ascii(name)
    lobby = {t["id"]: t["name"] for t in client.get("/api/tables").json()}
    assert lobby[tid] == name
    assert bob.request({"type": "join", "table_id": tid, "role": "spectator"})["type"] == "ack"
    line = "h" + "\u0336" * 150 + "i" + "\u0489" * 140
    assert bob.request({"type": "chat", "text": line})["type"] == "ack"
    said = ann.until(lambda m: m["type"] == "chat")["line"]["text"]
    assert said == "h" + "\u0336" * 4 + "i" + "\u0489" * 4, ascii(said)
    for kept in ["שָׁלוֹם", "בְּרֵאשִׁ֖ית", "Tiếng Việt", "क्षत्रिय"]:  # real text is kept
        assert bob.request({"type": "chat", "text": kept})["type"] == "ack"
        said = ann.until(lambda m: m["type"] == "chat")
        assert said["line"]["text"] == unicodedata.normalize("NFC", kept), ascii(said)
