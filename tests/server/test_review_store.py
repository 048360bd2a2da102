"""Records kept for review (``POST /api/records`` ``review``) are a bounded store: caps on
what one client address and everyone keep (``review_uploads_per_address``,
``review_uploads``), a record's uploader may delete it, and the janitor deletes those that
nobody opens for ``review_unopened_days``, never a table or a game imported in the
terminal. Each test runs on SQLite and on PostgreSQL (the ``make`` fixture)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from spades.engine import replay
from spades.store.schema import games
from tests.server.helpers import GOOD, NO_RATES, guest, hub_of, keep_for_review, wait_until


def test_a_hostile_address_cannot_keep_records_for_review_without_end(
        make: Callable[..., TestClient]) -> None:
    """A record kept for review was stored for good, and none was ever deleted: one
    address's guests, each a new user, kept uploading at the upload rate until the disk was
    full. Now what one address keeps, and what everyone keeps, is capped (413 saying which
    limit and how to make room); the uploader may delete a record of theirs, which makes
    room again; another address is not held to the first one's cap."""
    client = make(review_uploads_per_address=3, review_uploads=5, **NO_RATES)
    answers = []
    tokens = []
    for i in range(5):  # a new guest for each: the caps per user are no help
        tokens.append(guest(client, f"Hoarder{i}"))
        answers.append(keep_for_review(client, tokens[-1]))
    assert [a.status_code for a in answers] == [200, 200, 200, 413, 413], [
        a.text for a in answers]  # before: all 200
    detail = answers[3].json()["detail"]
    assert detail.startswith("no room to keep this record for review: your address keeps 3 "
                             "records uploaded for review, the most one address may keep is "
                             "3 (review_uploads_per_address)"), detail
    assert "DELETE /api/games/{game_id}" in detail and "days is deleted" in detail, detail
    # and in numbers, for a page to say in plain words (not by the limit's name)
    assert answers[3].json()["room"] == {"whose": "address", "kept": 3, "most": 3, "cost": 1,
                                         "unopened_days": 60, "continued": False}, answers[3].text
    # another address keeps its own until everyone's cap
    other = TestClient(client.app, client=("192.0.2.7", 50000))
    there = guest(other, "Elsewhere")
    codes = [keep_for_review(other, there).status_code for _ in range(3)]
    assert codes == [200, 200, 413], codes
    # the server is full: said, with what this address keeps, never how many the server
    # keeps for everyone nor its cap (before: "this server keeps 5 records …, the most it
    # keeps for everyone is 5", and the same in ``room``, to anyone)
    full = keep_for_review(other, there).json()["detail"]
    assert full.startswith("no room to keep this record for review: this server keeps as "
                           "many records uploaded for review as it may for everyone "
                           "(review_uploads); your address keeps 2 of the 3 one address may "
                           "keep"), full
    assert "5" not in full, full
    room = keep_for_review(other, there).json()["room"]
    assert room == {"whose": "all", "kept": 2, "most": 3, "cost": 1, "unopened_days": 60,
                    "continued": False}, room
    # the uploader deletes one (the others cannot), and there is room again
    first = answers[0].json()["game_id"]
    mine = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.get(f"/api/games/{first}/record", headers=mine).status_code == 200  # kept
    for who in (tokens[1], there):
        r = client.delete(f"/api/games/{first}", headers={"Authorization": f"Bearer {who}"})
        assert r.status_code == 404, r.text
    assert client.delete(f"/api/games/{first}").status_code == 401
    assert client.delete(f"/api/games/{first}", headers=mine).status_code == 204
    assert client.get(f"/api/games/{first}/record", headers=mine).status_code == 404
    assert client.delete(f"/api/games/{first}", headers=mine).status_code == 404
    assert keep_for_review(other, there).status_code == 200
    assert keep_for_review(client, tokens[0]).status_code == 413  # everyone's cap again


def test_records_kept_for_review_that_nobody_opens_are_pruned_and_nothing_else(
        make: Callable[..., TestClient]) -> None:
    """The janitor's pruning deletes a record kept for review that was neither made nor
    opened (its record downloaded, or its score sheet) within ``review_unopened_days``;
    one opened since stays, and so does every game that is not such a record, however old:
    a table continued from an upload and a game imported in the terminal."""
    client = make(review_unopened_days=30, sweep_seconds=3600, **NO_RATES)
    hub = hub_of(client)
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    token = guest(client, "Ann")
    auth = {"Authorization": f"Bearer {token}"}
    unread, downloaded, looked_at = (keep_for_review(client, token).json()["game_id"] for _ in range(3))
    partial = dict(GOOD, hands=[dict(GOOD["hands"][0], plays=GOOD["hands"][0]["plays"][:9])])
    r = client.post("/api/records", json={"record": partial, "mode": "continue", "seat": 0,
                                          "options": {"cpu": "random"}}, headers=auth)
    assert r.status_code == 200, r.text
    table = r.json()["table_id"]
    terminal = hub.store.save_record(replay(GOOD), kind="import",
                                     seats=[{"name": "You"}] * 4, options={"human": 2})
    long_ago = datetime.now(UTC) - timedelta(days=40)
    with hub.store.engine.begin() as conn:
        conn.execute(update(games).values(created_at=long_ago, updated_at=long_ago))
    assert client.get(f"/api/games/{downloaded}/record", headers=auth).status_code == 200
    assert client.get(f"/api/tables/{looked_at}/sheet", headers=auth).status_code == 200
    got = client.portal.call(janitor.prune)  # type: ignore[union-attr]
    assert got["uploads"] == 1, got  # before: no such count, nothing pruned
    assert client.get(f"/api/games/{unread}/record", headers=auth).status_code == 404
    for gid in (downloaded, looked_at, table, terminal):
        assert hub.store.game(gid).id == gid  # kept
    # a month on, unopened since, the other two go as well; never the two games
    janitor.wall = lambda: datetime.now(UTC) + timedelta(days=31)
    got = client.portal.call(janitor.prune)  # type: ignore[union-attr]
    assert got["uploads"] == 2, got
    for gid in (table, terminal):
        assert hub.store.game(gid).id == gid


def test_continued_uploads_are_bounded_after_they_end_too(
        make: Callable[..., TestClient]) -> None:
    """A continued upload (``continue``) is a table: the caps on live tables held it while
    it was going, but once it had ended its stored copy of the record stayed for good and
    counted nowhere, so one address's guests stored continued uploads without end (each
    played to its end in a trick, then the next). Now they count in the caps on records
    kept for review, ended or not; the uploader may delete one that has ended (not one
    still going), which makes room, and the janitor prunes one that ended and that nobody
    opens for ``review_unopened_days``, as a record kept for review."""
    from tests.server.helpers import continued_upload, finished_record, play_to_end

    client = make(review_uploads_per_address=3, review_uploads=100, tables_per_address=2,
                  uploads_per_user=1, review_unopened_days=30, sweep_seconds=3600,
                  **NO_RATES)
    hub = hub_of(client)
    record = finished_record(150, 11)
    last = record["hands"][-1]
    cut = dict(record, hands=[*record["hands"][:-1], dict(last, plays=last["plays"][:-4])])
    ended, players = [], []
    for i in range(3):  # each played to its end (the live caps let the next one in)
        player, auth, tid = continued_upload(client, f"Again{i}", cut, 0)
        play_to_end([player])
        wait_until(lambda tid=tid: hub.store.game(tid).status == "finished",
                   "the result stored")
        ended.append((tid, auth))
        players.append(player)
    token = guest(client, "Again3")
    refused = client.post("/api/records", json={"record": cut, "mode": "continue",
                                                 "seat": 0, "options": {"cpu": "random"}},
                          headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 413, refused.text  # before: 200, and so on without end
    detail = refused.json()["detail"]
    assert detail.startswith("no room to keep this upload to continue: your address keeps 3 "
                             "records uploaded for review or continued"), detail
    assert refused.json()["room"]["continued"] is True, refused.text  # (the page's words)
    assert keep_for_review(client, token).status_code == 413  # the same caps as records for review
    # the uploader deletes one that has ended (nobody else can; not while it is open at
    # its table), and there is room again
    first, mine = ended[0]
    assert client.delete(f"/api/games/{first}", headers=mine).status_code == 409
    for player, (tid, _) in zip(players, ended, strict=True):
        player.close()  # (a table that ended leaves memory when its last member leaves)
        wait_until(lambda tid=tid: tid not in hub.tables, "the table gone from memory")
    assert client.delete(f"/api/games/{first}", headers=ended[1][1]).status_code == 404
    assert client.delete(f"/api/games/{first}", headers=mine).status_code == 204
    assert client.get(f"/api/games/{first}/record", headers=mine).status_code == 404
    player, auth, live = continued_upload(client, "Again4", cut, 0)
    # one still going is not deleted
    assert client.delete(f"/api/games/{live}", headers=auth).status_code == 404
    # one that ended and nobody opens is pruned, one opened since is kept, one going too
    long_ago = datetime.now(UTC) - timedelta(days=40)
    with hub.store.engine.begin() as conn:
        conn.execute(update(games).values(created_at=long_ago, updated_at=long_ago))
    opened, unread = ended[1][0], ended[2][0]
    assert client.get(f"/api/games/{opened}/record", headers=ended[1][1]).status_code == 200
    got = client.portal.call(client.app.state.janitor.prune)  # type: ignore[attr-defined]
    assert got["uploads"] == 1, got
    assert client.get(f"/api/games/{unread}/record", headers=ended[2][1]).status_code == 404
    for gid in (opened, live):
        assert hub.store.game(gid).id == gid  # kept
    player.close()


def test_a_deleted_match_is_not_brought_back_nor_set_aside(
        make: Callable[..., TestClient], caplog: pytest.LogCaptureFixture) -> None:
    """A process asked to bring back a table whose match is no longer stored (a continued
    match its uploader deleted, as a client that was at it asks for it again) said "cannot
    be restored and is set aside (status broken)", an error, of a row that was not there;
    now it is simply not brought back (a line of information)."""
    client = make(**NO_RATES)
    hub = hub_of(client)
    caplog.set_level(logging.INFO, logger="spades.server")
    for finished in (True, False):
        assert client.portal.call(  # type: ignore[union-attr]
            hub.restore_table, "deleted-long-ago", finished) is False
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "is no longer in the store (deleted): not brought back" in caplog.text


def _old_continued_upload(client: TestClient, owner: int, record: dict[str, Any],
                          upload: bool = True) -> str:
    """A table continued from an upload as a version before continued uploads counted in
    the caps stored it (``upload`` false: a table made by ``create``, as every version
    stored those): its options without ``upload_cost``, ``upload_by`` nor
    ``upload_address``, its owner at seat 0 and CPUs at the others. Its id."""
    from spades.server.seating import Place

    hub = hub_of(client)
    opts = hub.default_options().model_copy(update={"private": True})
    seats = [Place("human", owner, "Olden", guest=True).to_db()] + [
        Place("cpu", None, f"CPU {i + 1}", "random").to_db() for i in range(1, 4)]
    options = {"table": opts.model_dump(), "owner": owner, "invite": hub.new_invite(),
               "epoch": 1, "upload": upload}
    gid: str = hub.store.save_record(replay(record), kind="table", seats=seats,
                                     options=options)
    return gid


def test_continued_uploads_stored_before_they_counted_count_and_are_pruned(
        make: Callable[..., TestClient]) -> None:
    """A continued upload stored by a version before continued uploads counted in the caps
    on uploads has no ``upload_cost`` (nor ``upload_by``, ``upload_address``) in its
    options: it was counted nowhere, never pruned, and its uploader could not delete it,
    ended, however many there were. Now, from the server's start, each counts as the
    smallest upload (1: its upload's size was never stored) in everyone's cap (its address
    was not stored either), its uploader (its owner) may delete it once ended, and it is
    pruned once ended and unopened for ``review_unopened_days``, counted from the start of
    this version (its openings were never noted). One still going is brought back and
    counted too; a table that was no upload is left alone. Nothing else of them changes."""
    from spades.store import upkeep

    limits = dict(review_uploads_per_address=10, review_uploads=3, review_unopened_days=30,
                  sweep_seconds=3600, **NO_RATES)
    client = make(**limits)
    r = client.post("/api/guest", json={"name": "Olden"})
    token, olden = r.json()["token"], r.json()["user"]["id"]
    partial = dict(GOOD, hands=[dict(GOOD["hands"][0], plays=GOOD["hands"][0]["plays"][:9])])
    ended, deleted, going = (_old_continued_upload(client, olden, rec)
                             for rec in (GOOD, GOOD, partial))
    plain = _old_continued_upload(client, olden, GOOD, upload=False)
    hub = hub_of(client)
    long_ago = datetime.now(UTC) - timedelta(days=40)
    with hub.store.engine.begin() as conn:
        conn.execute(update(games).where(games.c.id.in_([ended, deleted, plain]))
                     .values(created_at=long_ago, updated_at=long_ago))
    written = {g: hub.store.game(g) for g in (ended, deleted, going, plain)}
    # the server starts again (as after an upgrade): the table going is brought back
    client.__exit__(None, None, None)
    client = make(**limits)
    hub = hub_of(client)
    assert going in hub.tables and hub.tables[going].upload_kept == {
        "upload_cost": 1, "upload_by": olden}
    assert hub.store.game(going).options["upload_cost"] == 1  # written with its options
    # counted: three of three in everyone's cap, none in an address's
    assert upkeep.kept_uploads(hub.store, "testclient") == (0, 3)  # before: (0, 0)
    r = keep_for_review(client, guest(client, "Newcomer"))
    assert r.status_code == 413, r.text  # before: 200
    assert r.json()["room"]["whose"] == "all" and r.json()["room"]["kept"] == 0, r.text
    # what they keep for the caps is added; nothing else of them changes
    for gid in (ended, deleted):
        now = hub.store.game(gid)
        before = written[gid]
        extra = {k: v for k, v in now.options.items() if k not in before.options}
        assert set(extra) == {"upload_cost", "upload_by", "opened"}, now.options
        assert extra["upload_cost"] == 1 and extra["upload_by"] == olden, extra
        assert {k: now.options[k] for k in before.options} == before.options
        assert (now.status, now.updated_at, now.seats) == (before.status, before.updated_at,
                                                           before.seats)
    assert hub.store.game(plain).options == written[plain].options  # no upload: untouched
    # the uploader may delete one that ended (nobody else may; before: 404 to them too)
    mine = {"Authorization": f"Bearer {token}"}
    other = {"Authorization": f"Bearer {guest(client, 'Nosy')}"}
    assert client.delete(f"/api/games/{deleted}", headers=other).status_code == 404
    assert client.delete(f"/api/games/{deleted}", headers=mine).status_code == 204
    assert client.get(f"/api/games/{ended}/record", headers=mine).status_code == 200
    # pruned when unopened for review_unopened_days from now (not at once, though they
    # ended 40 days ago: their openings were never noted); the table going, and the
    # table that was no upload, never
    janitor = client.app.state.janitor  # type: ignore[attr-defined]
    janitor.wall = lambda: datetime.now(UTC) + timedelta(days=29)
    assert client.portal.call(janitor.prune)["uploads"] == 0  # type: ignore[union-attr]
    janitor.wall = lambda: datetime.now(UTC) + timedelta(days=61)
    got = client.portal.call(janitor.prune)  # type: ignore[union-attr]
    assert got["uploads"] == 1, got  # before: 0
    assert client.get(f"/api/games/{ended}/record", headers=mine).status_code == 404
    for gid in (going, plain):
        assert hub.store.game(gid).id == gid  # kept
