"""Hostile clients at tables: reading what is not theirs, names that hide things, and
leaving to avoid the turn timer's penalty."""

from __future__ import annotations

import time
import unicodedata
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from spades.server.hub import Hub
from spades.server.protocol import TableOptions
from spades.server.text import TextError, clean_name, narrowed, too_wide, width
from tests.server.helpers import Player, guest
from tests.server.test_attack_limits import partial_record


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


BISMILLAH = "\ufdfd"  # ﷽, one character drawn as wide as some 20 letters


def test_the_width_of_text_counts_wide_characters_for_more() -> None:
    assert width("Friday game") == 11
    assert width("Tiếng Việt") == 10 and width("क्षत्रिय") < len("क्षत्रिय")  # (marks: 0)
    assert width("漢字") == 4 and width("ＡＢ") == 4 and width("\U0001f600") == 2
    assert width(BISMILLAH) == 20 and width("\ufdfa\ufdfb") == 8
    assert width("\U0001242b") == 4 and width("\u2e3b") == 6
    assert too_wide("a" * 40, 40) == "" and too_wide("漢" * 20, 40) == ""
    assert too_wide(BISMILLAH * 40, 40) == ("at most 40 letters wide, and this is 800 "
                                            "('\ufdfd' counts as 20)")
    assert narrowed(BISMILLAH * 24, 24) == BISMILLAH
    assert narrowed("ab " + BISMILLAH + "cd", 24) == "ab " + BISMILLAH + "c"
    assert narrowed("abcd " + BISMILLAH, 24) == "abcd"
    assert narrowed("Nora", 24) == "Nora" and narrowed("漢" * 13, 24) == "漢" * 12


@pytest.mark.parametrize(("name", "wide"), [("\ufdfa" * 7, 28), ("漢" * 13, 26),
                                            ("\U00012219" * 7, 28)])
def test_names_are_held_to_a_width_not_only_a_count(name: str, wide: int) -> None:
    """A name of 24 characters was taken whatever their width: seven ﷺ (a letter to
    Python) ran as wide as 28 letters or more. A name is at most 24 letters wide now
    (a Chinese character counts 2, ﷺ 4); the refusal says what, and which character."""
    with pytest.raises(TextError, match=rf"^a name is too wide to show: at most 24 letters "
                       rf"wide, and this is {wide} \('.' counts as \d+\)$"):
        clean_name(name)
    assert clean_name(name[:-1]) == name[:-1]  # (one less fits)
    assert clean_name("Ann") == "Ann"


def test_a_table_name_is_held_to_a_width_not_only_a_count(client: TestClient) -> None:
    """A table name of 40 ﷽ (each drawn as wide as some 20 letters) was taken, and ran
    far across every row of the lobby (hostile-guest trial, low). A table name is at most
    40 letters wide now, as ``create`` and ``options`` are told (``bad_message`` naming
    ``options.name``, how wide it is and which character made it so); nothing is made or
    changed. Two ﷽, or 20 Chinese characters, are a table name still."""
    ann = Player(client, "Ann")
    for name in (BISMILLAH * 40, BISMILLAH * 3, "漢" * 21):
        got = ann.request({"type": "create", "options": {"cpu": "random", "name": name}})
        assert got["type"] == "error" and got["code"] == "bad_message", got
        assert "options.name: this table name is too wide to show: at most 40 letters " \
               "wide, and this is" in got["message"], got
    assert client.get("/api/tables").json() == []
    _create(ann, {"name": BISMILLAH * 2})
    assert ann.table is not None and ann.table["name"] == BISMILLAH * 2
    got = ann.request({"type": "options", "options": {"cpu": "random",
                                                      "name": BISMILLAH * 40}})
    assert got["type"] == "error" and "too wide" in got["message"], got
    assert [t["name"] for t in client.get("/api/tables").json()] == [BISMILLAH * 2]
    assert ann.request({"type": "options", "options": {"cpu": "random",
                                                       "name": "漢" * 20}})["type"] == "ack"
    r = client.post("/api/guest", json={"name": "\ufdfa" * 7})
    assert r.status_code == 422 and r.json()["detail"].startswith(
        "a name is too wide to show: at most 24 letters wide"), r.text


def test_a_table_name_stored_before_the_width_was_limited_is_read_back() -> None:
    """The width is asked of what clients send; a table stored before keeps its name (and
    its options: restore.py reads them with the context ``stored``)."""
    with pytest.raises(ValidationError, match="too wide"):
        TableOptions.model_validate({"name": BISMILLAH * 40})
    kept = TableOptions.model_validate({"name": BISMILLAH * 40, "private": True},
                                       context={"stored": True})
    assert kept.name == BISMILLAH * 40 and kept.private


def test_a_continued_records_names_are_cut_to_a_names_width(client: TestClient) -> None:
    """A record's names were cut to 24 characters only: a continued record's CPU called
    24 ﷽ was drawn at its seat as wide as 480 letters. They are cut to 24 letters' width,
    as a name is held to; an upload's table name is held to 40 as ``create``'s is."""
    token = guest(client, "Uploader")
    record = partial_record()
    record["names"] = ["Uploader", BISMILLAH * 24, "漢" * 24, "Nora"]
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post("/api/records", headers=auth, json={
        "record": record, "mode": "continue", "seat": 0, "options": {"name": BISMILLAH * 3}})
    assert r.status_code == 422, r.text
    assert r.json()["detail"].startswith(
        "options.name: this table name is too wide to show: at most 40 letters wide"), r.text
    r = client.post("/api/records", json={"record": record, "mode": "continue", "seat": 0},
                    headers=auth)
    assert r.status_code == 200, r.text
    me = Player(client, "Uploader", token)
    assert me.request({"type": "join", "table_id": r.json()["table_id"],
                       "role": "player"})["type"] == "ack"
    me.until(lambda m: m["type"] == "table")
    assert me.table is not None
    names = [s["name"] for s in me.table["seats"]]
    assert names[1:] == [BISMILLAH + " (CPU)", "漢" * 12 + " (CPU)", "Nora (CPU)"], names


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
