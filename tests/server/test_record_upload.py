"""``POST /api/records`` uses the same record reader as ``spades replay`` (issue 15, item 6):
a malformed record is a 422 whose detail says where, never a 500, and names that are not
text are ignored."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from spades.server import app

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
GOOD: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))


def upload(client: TestClient, body: bytes) -> tuple[int, Any]:
    token = client.post("/api/guest", json={"name": "Ann"}).json()["token"]
    r = client.post("/api/records", content=body,
                    headers={"Authorization": f"Bearer {token}",
                             "Content-Type": "application/json"})
    return r.status_code, r.json()


def test_a_malformed_upload_is_a_422_saying_where(client: TestClient) -> None:
    deal = json.dumps(GOOD["hands"][0]["deal"]).encode()
    for record, detail in [
        (b'{"rules":{"preset":"cardems","name":"x"},"hands":[]}',
         "record: rules: name: 'x' is not the preset 'cardems'"),
        (b'{"rules":"cardems","hands":' + b"[" * 90 + b"]" * 90 + b"}",
         "record: hand 1: must be an object with dealer, deal, bids and plays, not a list"),
        (b'{"rules":{"preset":"cardems","target":NaN},"hands":[]}',
         "record: rules: target: must be a whole number 1 or more, not nan"),
        (b'{"rules":{"preset":"cardems","players":{"a":[1]}},"hands":[]}',
         "record: rules: players: must be a number, true or false, text or null"),
        (b'{"rules":"cardems","hands":[{"dealer":3,"deal":' + deal + b',"bids":["\xc2\xb2"]}]}',
         "record: hand 1, bid 1: '\u00b2' is not a bid"),
    ]:
        status, body = upload(client, b'{"record":' + record + b"}")
        assert status == 422 and body["detail"].startswith(detail), body
    # Too deep for the request's JSON parser: refused before the reader, still a 422.
    status, body = upload(client, b'{"record":{"rules":"cardems","hands":' + b"[" * 1000
                          + b"]" * 1000 + b"}}")
    assert status == 422 and "recursion" in body["detail"]


def test_names_that_are_not_text_do_not_break_an_upload(client: TestClient) -> None:
    for names in [{"a": 1}, 5, ["Nora", ["x"], None]]:
        status, body = upload(client, json.dumps({"record": {**GOOD, "names": names},
                                                  "mode": "review"}).encode())
        assert status == 200, body
        assert body["summary"]["finished"]


def test_a_record_without_names_comes_back_without_made_up_ones(client: TestClient) -> None:
    """Uploaded for review and downloaded again, a record that names nobody came back naming
    seat 0 (North) "Seat 1", seat 1 "Seat 2"...: readers of the record then showed those."""
    token = client.post("/api/guest", json={"name": "Ann"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    nameless = {k: v for k, v in GOOD.items() if k != "names"}
    for record, names in [(nameless, None),
                          ({**nameless, "names": ["Nora", None, "", "Walt"]},
                           ["Nora", "", "", "Walt"])]:
        r = client.post("/api/records", json={"record": record, "mode": "review"},
                        headers=auth)
        assert r.status_code == 200, r.text
        back = client.get(f"/api/games/{r.json()['game_id']}/record", headers=auth).json()
        assert back["hands"] == GOOD["hands"]
        assert back.get("names") == names, back.get("names")


def test_a_record_kept_for_review_is_in_the_uploaders_history(client: TestClient) -> None:
    """Before: a record uploaded with "Keep it for review" was in no history: its download
    link was only shown right after the upload. Now the uploader's history lists it, marked
    as an upload (not a match played: not in the statistics), to the uploader alone."""
    ann = client.post("/api/guest", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {ann['token']}"}
    me = ann["user"]["id"]
    r = client.post("/api/records", json={"record": GOOD, "mode": "review"}, headers=auth)
    assert r.status_code == 200, r.text
    gid = r.json()["game_id"]
    history = client.get(f"/api/users/{me}/history", headers=auth).json()
    assert [h["game_id"] for h in history] == [gid], history  # before: []
    [item] = history
    assert item["uploaded"] is True and item["won"] is False and item["finished"] is True
    assert item["names"] == GOOD["names"] and item["sides"] == [[0, 2], [1, 3]]
    assert item["scores"] == r.json()["summary"]["scores"]
    assert {"game_id", "kind", "status", "profile", "seat", "names", "scores", "winner",
            "won", "finished", "updated_at"} <= set(item)
    assert client.get(f"/api/games/{gid}/record", headers=auth).status_code == 200
    # not a match played: the statistics stay empty
    stats = client.get(f"/api/users/{me}/stats").json()["stats"]
    assert not stats or stats.get("total", stats).get("matches_played", 0) == 0, stats
    # listed to its uploader alone
    assert client.get(f"/api/users/{me}/history").json() == []
    bob = client.post("/api/guest", json={"name": "Bob"}).json()["token"]
    assert client.get(f"/api/users/{me}/history",
                      headers={"Authorization": f"Bearer {bob}"}).json() == []


def _continued_at_west(client: TestClient, **fields: Any) -> tuple[Any, dict[str, str], str]:
    """Ann continues GOOD's first hand, cut after nine cards (with ``fields`` of the record
    changed), at West (seat 3) against random CPUs, to a target of 1 (over after a hand or
    so), and joins the table: her Player, her auth header and the table's id."""
    from tests.server.helpers import continued_upload

    partial = dict(GOOD, hands=[dict(GOOD["hands"][0], plays=GOOD["hands"][0]["plays"][:9])],
                   rules={"preset": "cardems", "target": 1}, **fields)
    return continued_upload(client, "Ann", partial, 3)


def test_a_continued_record_keeps_its_players_names(client: TestClient) -> None:
    """Before: continuing a record on the server renamed its players "CPU 1"..."CPU 4", at
    the table and in the finished match's record. The CPUs keep the record's names, marked
    "(CPU)"; the uploader sits under their own name."""
    from tests.server.helpers import play_to_end

    ann, auth, tid = _continued_at_west(client, names=["Nora", "Emil", "", "Walt"])
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    seats = [(s["kind"], s["name"]) for s in ann.table["seats"]]
    assert seats == [("cpu", "Nora (CPU)"), ("cpu", "Emil (CPU)"), ("cpu", "CPU 3"),
                     ("human", "Ann")], seats  # before: CPU 1, CPU 2, CPU 3
    play_to_end([ann])
    record = client.get(f"/api/games/{tid}/record", headers=auth).json()
    assert record["names"] == ["Nora (CPU)", "Emil (CPU)", "CPU 3", "Ann"], record["names"]


def test_the_history_says_which_matches_its_user_may_delete(client: TestClient) -> None:
    """``DELETE /api/games/{id}`` takes a record kept for review and a match continued from
    an upload once it has ended; the history marked only the first (``uploaded``), so the
    page offered no Delete for the second, though the 413 of a full store says to delete
    some. Now each row says ``continued`` and ``deletable`` (to its user alone)."""
    from tests.server.helpers import play_to_end, wait_until

    ann, auth, tid = _continued_at_west(client)
    me = client.get("/api/me", headers=auth).json()["id"]
    kept = client.post("/api/records", json={"record": GOOD, "mode": "review"}, headers=auth)
    assert kept.status_code == 200, kept.text
    rows = {h["game_id"]: h for h in client.get(f"/api/users/{me}/history",
                                                  headers=auth).json()}
    going, review = rows[tid], rows[kept.json()["game_id"]]
    assert going["continued"] is True and going["deletable"] is False, going  # (not ended)
    assert review["continued"] is False and review["deletable"] is True, review
    play_to_end([ann])
    hub = client.app.state.hub  # type: ignore[attr-defined]
    wait_until(lambda: hub.store.game(tid).status == "finished", "the result stored")
    ended = {h["game_id"]: h for h in client.get(f"/api/users/{me}/history",
                                                   headers=auth).json()}[tid]
    assert ended["continued"] is True and ended["deletable"] is True, ended  # before: neither
    # to anyone else (or no session) nothing of Ann's is theirs to delete
    bob = client.post("/api/guest", json={"name": "Bob"}).json()["token"]
    for headers in ({}, {"Authorization": f"Bearer {bob}"}):
        seen = client.get(f"/api/users/{me}/history", headers=headers).json()
        assert not any(h["deletable"] for h in seen), seen
    # what the row offers is taken, once Ann has left the table
    ann.close()
    wait_until(lambda: tid not in hub.tables, "the table gone from memory")
    assert client.delete(f"/api/games/{tid}", headers=auth).status_code == 204


def test_a_continued_record_of_the_terminal_names_its_cpus_by_place(client: TestClient
                                                                    ) -> None:
    """``spades export`` names the seats nobody named by their compass points ("North",
    "East", "South", "West"). Continued on the server at North, the CPUs were "East (CPU)",
    "South (CPU)" and "West (CPU)": the page, which draws you at the bottom, then showed
    "South (CPU)" across the table as your partner, "East (CPU)" on its left and "West (CPU)"
    on its right. Such seats are unnamed CPUs ("CPU N"), named by where they sit, as every
    CPU of the server is; a person's name in the record is still kept."""
    from tests.server.helpers import Player

    partial = dict(GOOD, hands=[dict(GOOD["hands"][0], plays=GOOD["hands"][0]["plays"][:9])],
                   names=["North", "East", " south ", "Seat 4"], human=2)
    ann = Player(client, "Ann")
    r = client.post("/api/records", json={"record": partial, "mode": "continue", "seat": 0,
                                          "options": {"cpu": "random"}},
                    headers={"Authorization": f"Bearer {ann.token}"})
    assert r.status_code == 200, r.text
    assert ann.request({"type": "join", "table_id": r.json()["table_id"]})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert ann.table is not None
    seats = [(s["kind"], s["name"]) for s in ann.table["seats"]]
    assert seats == [("human", "Ann"), ("cpu", "CPU 2"), ("cpu", "CPU 3"), ("cpu", "CPU 4")
                     ], seats  # before: East (CPU), South (CPU), Seat 4 (CPU)


def _sat_down(ann: Any, table_id: str) -> tuple[str, str]:
    """Ann joins ``table_id``: the kind and words of the event about her arrival."""
    before = len(ann.frames)
    assert ann.request({"type": "join", "table_id": table_id})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    ann.send({"type": "ping", "ref": "after"})  # what the join caused comes before the pong
    ann.until(lambda m: m["type"] == "pong" and m.get("ref") == "after")
    said = [m["event"] for m in ann.frames[before:] if m["type"] == "event"
            and m["event"]["kind"] in ("joined", "returned")]
    return (said[0]["kind"], said[0]["text"]) if said else ("", "")


def test_after_a_restart_the_uploader_still_sits_down_at_the_continued_match(
        restart: Any) -> None:
    """The first join of a continued record's table says one sits down at it, also when
    the server restarted between the upload and that join; once seated, a later restart
    does not say it again."""
    from tests.server.helpers import Player

    client = restart()
    ann = Player(client, "Ann")
    partial = json.loads(json.dumps(GOOD))
    partial["hands"] = [dict(partial["hands"][0], plays=partial["hands"][0]["plays"][:9])]
    r = client.post("/api/records", json={"record": partial, "mode": "continue", "seat": 1,
                                          "options": {"cpu": "random"}},
                    headers={"Authorization": f"Bearer {ann.token}"})
    assert r.status_code == 200, r.text
    tid = r.json()["table_id"]
    client = restart()
    ann = Player(client, "Ann", token=ann.token)
    assert _sat_down(ann, tid) == (
        "joined", "you sit down at the continued match: it carries on from the record")
    client = restart()
    ann = Player(client, "Ann", token=ann.token)
    assert _sat_down(ann, tid)[1] != (
        "you sit down at the continued match: it carries on from the record")


def test_a_record_that_is_no_object_or_lacks_its_hands_is_said_so_once(
        client: TestClient) -> None:
    """The page showed what the server said: "record: record: ..." (the reader's own
    "record:" after the server's) for a record without hands, and pydantic's "record: Input
    should be an object" for a list, where spades replay says what it is."""
    for record, detail in [
        (b'{"a": 1}', 'record: "rules" and "hands" are missing: a record gives its rules'),
        (b'{"rules": "cardems", "format": 2, "hands": []}',
         "record: format must be 'spades-record/1', not 2"),
        (b"[1, 2]", "record: must be a JSON object, not [1, 2]"),
        (b'"x"', "record: must be a JSON object, not 'x'"),
    ]:
        status, body = upload(client, b'{"record":' + record + b"}")
        assert status == 422 and body["detail"].startswith(detail), body


def test_an_unfinished_record_kept_for_review_has_its_sheet_for_its_uploader(
        client: TestClient) -> None:
    """A record kept for review before its match ended had no score sheet (404: the sheet
    of a game from the store was for finished games only), so the page offered none. Its
    sheet says the hands played so far; like its record (which shows the cards), it is the
    uploader's alone."""
    ann = client.post("/api/guest", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {ann['token']}"}
    third = dict(GOOD["hands"][2], plays=GOOD["hands"][2]["plays"][:9])
    record = {**GOOD, "hands": [*GOOD["hands"][:2], third]}
    r = client.post("/api/records", json={"record": record, "mode": "review"}, headers=auth)
    assert r.status_code == 200, r.text
    gid = r.json()["game_id"]
    for _ in range(2):  # made, then kept
        sheet = client.get(f"/api/tables/{gid}/sheet", headers=auth)
        assert sheet.status_code == 200, sheet.text  # before: 404
        body = sheet.json()
        assert [h["number"] for h in body["hands"]] == [1, 2] and body["finished"] is False
        assert body["scores"] == [123, 92] and body["names"] == GOOD["names"]
    bob = client.post("/api/guest", json={"name": "Bob"}).json()["token"]
    for headers in ({}, {"Authorization": f"Bearer {bob}"}):
        assert client.get(f"/api/tables/{gid}/sheet", headers=headers).status_code == 404


def test_a_record_of_the_largest_size_is_taken_wrapped_as_the_page_sends_it(
        client: TestClient) -> None:
    """The page lets a record file of max_record_bytes through and sends it wrapped
    ({"record": ..., "mode": "review"}); the server held the whole body to max_record_bytes,
    so such a file was refused (413, "a record may be at most 1000000 bytes"), the page
    having said nothing of the wrapping. The body may hold the record and the fields around
    it, as the limit's documentation (and the body limit before the app) says."""
    ann = client.post("/api/guest", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {ann['token']}", "Content-Type": "application/json"}

    def compact(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode()

    bare = len(compact({**GOOD, "note": ""}))
    record = compact({**GOOD, "note": "x" * (1_000_000 - bare)})
    assert len(record) == 1_000_000
    r = client.post("/api/records", content=b'{"record":' + record + b',"mode":"review"}',
                    headers=auth)
    assert r.status_code == 200, r.text  # before: 413
    # a record over the limit is still refused, saying the record's limit and the size
    over = compact({**GOOD, "note": "x" * (1_000_000 - bare + 5000)})
    r = client.post("/api/records", content=b'{"record":' + over + b',"mode":"review"}',
                    headers=auth)
    assert r.status_code == 413
    assert r.json()["detail"].startswith("a record may be at most 1000000 bytes; this one is ")


def test_a_players_download_says_which_seat_was_theirs(client: TestClient) -> None:
    """A continued match's record, downloaded by its player, named no ``human``: ``spades
    import`` then sat them South ("the record does not say which seat is yours") and counted
    their statistics from there, though they sat West. It names the downloader's seat, as
    ``spades export`` does; to someone who did not sit there, and for a record kept for
    review (where nobody sat), it names none."""
    from tests.server.helpers import play_to_end

    ann, auth, tid = _continued_at_west(client)
    play_to_end([ann])
    for _ in range(2):  # made, then from the kept copy
        mine = client.get(f"/api/games/{tid}/record", headers=auth).json()
        assert mine["human"] == 3, mine.get("human")
    bob = client.post("/api/guest", json={"name": "Bob"}).json()["token"]
    for headers in ({"Authorization": f"Bearer {bob}"}, {}):
        got = client.get(f"/api/games/{tid}/record", headers=headers)
        assert got.status_code in (200, 404), got.text  # (404: a private table's)
        other = got.json()
        assert "human" not in other and other.get("hands", mine["hands"]) == mine["hands"]
    kept = client.post("/api/records", json={"record": GOOD, "mode": "review"}, headers=auth)
    review = client.get(f"/api/games/{kept.json()['game_id']}/record", headers=auth).json()
    assert "human" not in review


def test_a_continue_upload_without_a_seat_takes_the_records_human_or_asks_for_one(
        client: TestClient) -> None:
    """``continue`` without ``seat`` sat the uploader at seat 0 (North) unasked, though
    records of ``spades export`` and a player's own download name their seat as ``human``.
    Now the seat is the record's ``human`` (a number, or a seat's name as ``spades import``
    takes it); a record that names none, or names no seat, is refused (400) saying that
    ``seat`` is needed and which values it takes. A ``seat`` given still wins."""
    from tests.server.helpers import hub_of

    partial = dict(GOOD, hands=[dict(GOOD["hands"][0], plays=GOOD["hands"][0]["plays"][:9])])
    hub = hub_of(client)

    def continued(name: str, **fields: Any) -> tuple[int, Any]:
        token = client.post("/api/guest", json={"name": name}).json()["token"]
        body = {"record": {**partial, **fields["record"]}, "mode": "continue",
                "options": {"cpu": "random"}, **{k: v for k, v in fields.items()
                                                 if k != "record"}}
        r = client.post("/api/records", json=body,
                        headers={"Authorization": f"Bearer {token}"})
        return r.status_code, r.json()

    def seat_of(answer: Any, name: str) -> int:
        places = hub.tables[answer["table_id"]].places
        return next(i for i, p in enumerate(places) if p.kind == "human" and p.name == name)

    for i, (human, seat) in enumerate([(3, 3), ("west", 3), (" East ", 1), ("s", 2)]):
        status, answer = continued(f"Ann{i}", record={"human": human})
        assert status == 200, answer
        assert seat_of(answer, f"Ann{i}") == seat, (human, answer)  # before: 0
    status, answer = continued("Bob", record={"human": 3}, seat=1)
    assert status == 200 and seat_of(answer, "Bob") == 1, answer
    status, answer = continued("Cara", record={})  # GOOD names no human
    assert "human" not in GOOD
    assert status == 400, answer  # before: 200, at seat 0
    assert answer["detail"] == (
        'seat is needed: the record does not say which seat is yours (it has no "human"); '
        "give seat, a number from 0 to 3 (0 North, 1 East, 2 South, 3 West)"), answer
    for human in (7, "up", True, [1]):
        status, answer = continued("Dan", record={"human": human})
        assert status == 400, (human, answer)
        assert answer["detail"].startswith('seat is needed: the record\'s "human", '), answer
        assert answer["detail"].endswith("is not a seat at its table of 4; give seat, a number "
                                         "from 0 to 3 (0 North, 1 East, 2 South, 3 West)")


def test_an_upload_is_read_off_the_event_loop(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A record of 1 MB took about 50 ms to read into its message, on the event loop: every
    table's moves waited behind it (found by sampling the server during
    bench/upload_stall.py). It is read in a thread now, as it was already replayed there."""
    where: list[bool] = []
    real = app.RecordIn

    class Spied(real):  # type: ignore[misc,valid-type]
        @classmethod
        def model_validate_json(cls, *a: Any, **k: Any) -> Any:  # type: ignore[override]
            try:
                asyncio.get_running_loop()
                where.append(True)
            except RuntimeError:  # no loop runs on this thread
                where.append(False)
            return real.model_validate_json(*a, **k)

    monkeypatch.setattr(app, "RecordIn", Spied)
    status, body = upload(client, json.dumps({"record": GOOD, "mode": "review"}).encode())
    assert status == 200, body
    assert where == [False]  # read once, and not on the loop
    status, body = upload(client, b'{"record": {"rules": "cardems"}, "mode": 1}')
    assert status == 422 and "mode" in body["detail"], body  # the errors are as before
