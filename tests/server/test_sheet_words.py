"""The score sheet the server sends (the ``sheet`` frame, ``GET /api/tables/{id}/sheet``) says
in words what a hand's points are made of, as the terminal's sheet does: the page said a
plain "bonus" and nothing of 10 for 200, rebuilding the parts from numbers without the
rules' words."""

from __future__ import annotations

from starlette.testclient import TestClient

from spades.engine import Match
from spades.present.sheet import score_sheet
from tests.server.helpers import Player
from tests.tables import first_hand

TEN_SET = "10 for 200, set"
SMALL_BONUS = "bonus +20 for a contract of 1 or 2 made exactly"


def ten_for_200_set() -> Match:
    """cards4net with 10 for 200: North and South bid 5 and 5, a contract of 10, and are
    set (−200)."""
    match = first_hand("cards4net", {0: 5, 2: 5}, seed=3, ten_for_200=True)
    s = match.results[0].sides[0]
    assert (s.contract, s.made, match.results[0].points[0]) == (10, False, -200)
    return match


def small_bonus() -> tuple[Match, int]:
    """race400: a seat bids the 1 or 2 tricks it takes (its bonus +20), and that seat."""
    for seed in range(20):
        tricks = first_hand("race400", {}, seed=seed).results[0].tricks
        for seat in range(4):
            if tricks[seat] in (1, 2):
                match = first_hand("race400", {seat: tricks[seat]}, seed=seed)
                assert match.results[0].sides[seat].bonus_points == 20
                return match, seat
    raise AssertionError("no seat took 1 or 2 tricks in the seeds tried")


def test_the_sheet_frame_says_10_for_200_and_the_bonus_in_the_terminals_words(
        client: TestClient) -> None:
    """The sheet's rows gave numbers alone; each now has ``parts_text``, per side, the words
    the terminal's sheet writes in brackets after the points (before: no such field)."""
    ann = Player(client, "Ann")
    auth = {"Authorization": f"Bearer {ann.token}"}
    ten = ten_for_200_set()
    bonus, seat = small_bonus()
    for match, side, words in ((ten, 0, TEN_SET), (bonus, seat, SMALL_BONUS)):
        r = client.post("/api/records", json={"record": match.to_record(), "mode": "continue",
                                              "seat": 1, "options": {"cpu": "random"}},
                        headers=auth)
        assert r.status_code == 200, r.text
        assert ann.request({"type": "join", "table_id": r.json()["table_id"]})["type"] == "ack"
        ann.until(lambda m: m["type"] == "table")
        ref = f"sheet-{side}"
        ann.send({"type": "sheet", "ref": ref})
        sheet = ann.until(lambda m, ref=ref: m.get("ref") == ref)
        assert sheet["type"] == "sheet", sheet
        row = sheet["hands"][0]
        said = row["parts_text"][side]  # before: KeyError
        assert words in said, row
        # the terminal's words: what its sheet writes in brackets after those points
        assert f"({said})" in score_sheet(match, sheet["names"]), (said, sheet["text"])
        assert f"({said})" in sheet["text"]
        assert len(row["parts_text"]) == len(sheet["sides"])
        # contracts and overtricks alone: nothing to say (as the terminal's sheet)
        assert "" in row["parts_text"], row["parts_text"]
        assert ann.request({"type": "leave"})["type"] == "ack"
    assert ten.results[0].points[0] == -200 and "points -200 (10 for 200, set)" in score_sheet(ten)


def test_the_http_sheet_says_them_too(client: TestClient) -> None:
    """``GET /api/tables/{id}/sheet`` (the history's sheet) is the frame's body: the same
    words, for a record kept for review."""
    token = client.post("/api/guest", json={"name": "Ann"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    bonus, seat = small_bonus()
    for match, side, words in ((ten_for_200_set(), 0, TEN_SET), (bonus, seat, SMALL_BONUS)):
        r = client.post("/api/records", json={"record": match.to_record(), "mode": "review"},
                        headers=auth)
        assert r.status_code == 200, r.text
        body = client.get(f"/api/tables/{r.json()['game_id']}/sheet", headers=auth).json()
        assert words in body["hands"][0]["parts_text"][side], body["hands"][0]
