"""Hostile clients, a sixth round: what changed since the fifth (results "new", finished
tables watched by spectators only, a rematch's kept places, uploads counted in the caps on
records kept for review and their deletion). Each test reproduces a finding and fails
without its fix. In process, loopback only, bounded in count; conditions waited for, never
a fixed time.

Tried and found sound (no test: nothing to fix): ``hello`` with ``results`` other than
"all" or "new" (another string, a number, null) is refused at the hello (``auth``, with its
ref); "new" changes only which scored hands an ``event`` frame carries (``view.results_from``
on), each view still made from its own seat's observation, the spectators' copy shared per
kind, a snapshot carrying them all. A finished table watched only by spectators: nobody but
its players can be a member of it (a player's ``join`` after the start is refused), a new
spectator does not put off its release, and once it has left memory it cannot be brought
back by a join (not found, counted as a miss); each connection keeps at most one
``conn.ended`` (the last table it watched, dropped at its next ``join``, ``create`` or
``leave``), the same frames for every spectator of that table, made from a spectator's copy
(no invite code, no hand, ``you`` a spectator's), so no other table's data and no hidden
card; their ``resync`` and ``sheet`` are in the copies' rates. A rematch's kept places: a
``seat`` or ``add_cpu`` naming one is refused, ``remove`` frees it; ``you.invited`` and
``you.kept`` go to that person only, and ``kept_for`` names were in the state already; the
codes a rematch follows are capped at 8. Uploads: ``DELETE /api/games/{id}`` deletes only
the caller's own (a record they uploaded for review, or a match they continued once it has
ended; 404 for anything else, 401 unsigned), user ids are random up to 2**53 (a new guest
does not come by an old one's id, nor its uploads), a refused upload spends the rates before
it is replayed, the 413's ``room`` tells an address only its own count (and, since, not
everyone's total either: tests/server/test_review_store.py), and a continued match's memory
is small (374 hands: 0.56 MB) and bounded by the caps. A continued match still going is
never served as a record to its uploader (hidden CPU hands).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import event
from starlette.testclient import TestClient

from tests.server.helpers import (
    NO_RATES,
    finished_record,
    guest,
    hub_of,
    keep_for_review,
    spied,
)


@pytest.fixture
def sums(make: Callable[..., TestClient]) -> Iterator[tuple[TestClient, list[str]]]:
    """A server with the caps on uploads, and the statements that add up what is kept
    (a pass over every game) run on its database from now on."""
    client = make(review_uploads_per_address=50, review_uploads=1000, **NO_RATES)
    seen: list[str] = []

    def look(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        said = " ".join(statement.lower().split())
        if "sum(" in said and "from games" in said:
            seen.append(said)

    engine = hub_of(client).store.engine
    event.listen(engine, "before_cursor_execute", look)
    try:
        yield client, seen
    finally:
        event.remove(engine, "before_cursor_execute", look)


def test_uploads_do_not_each_read_every_game_for_the_caps(
        sums: tuple[TestClient, list[str]]) -> None:
    """Every upload (for review or to continue, refused at the cap or not) added up what
    the caps on uploads count by reading every game twice on the one database thread that
    every table's moves go through (records kept for review and continued uploads are told
    by a JSON option: every table ever played is read): 0.1 s at 100,000 stored tables on
    SQLite, so one address's burst of 30 uploads held every table's moves for 3 s, and
    more as the store grows. Now a process reads them in one pass at most once a minute
    (``upkeep.UPLOAD_COUNTS_EVERY``) and adds its own uploads and deletions meanwhile."""
    client, seen = sums
    tokens = [guest(client, f"Counter{i}") for i in range(6)]
    answers = [keep_for_review(client, t) for t in tokens]
    assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
    assert len(seen) <= 1, len(seen)  # before: 12, two passes over the games an upload
    # the caps still count each one: a deletion makes room at once, an upload takes it
    hub = hub_of(client)
    assert hub.upload_counts.get(hub.store, "testclient") == (6, 6)
    first = answers[0].json()["game_id"]
    r = client.delete(f"/api/games/{first}", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 204, r.text
    assert hub.upload_counts.get(hub.store, "testclient") == (5, 5)
    assert len(seen) <= 1, len(seen)


def test_a_delete_of_anothers_game_does_not_read_every_hand(
        make: Callable[..., TestClient]) -> None:
    """``DELETE /api/games/{id}`` read the game's row whole, its stored result with every
    hand's, before refusing it (any id, anyone's game: 404): the refusals of downloads had
    been made to read the row without it (the fourth round), this one not. Now it reads
    the row without its result."""
    client = make(**NO_RATES)
    record = finished_record(1000, 3)
    owner = guest(client, "Keeper")
    kept = keep_for_review(client, owner, record)
    assert kept.status_code == 200, kept.text
    gid = kept.json()["game_id"]
    stranger = {"Authorization": f"Bearer {guest(client, 'Stranger')}"}
    with spied(hub_of(client).store, "game") as read:
        answers = [client.delete(f"/api/games/{gid}", headers=stranger) for _ in range(3)]
    assert [a.status_code for a in answers] == [404] * 3, answers
    sizes = [len(json.dumps(g.result)) for g in read]
    assert len(read) == 3 and max(sizes) < 200, sizes  # (before: its every hand, each time)
    r = client.delete(f"/api/games/{gid}", headers={"Authorization": f"Bearer {owner}"})
    assert r.status_code == 204, r.text  # its uploader's, still


def test_someone_removed_does_not_sit_at_the_rematch_with_the_old_code(
        client: TestClient) -> None:
    """The owner of a private table removed Rex from it (he knew its code): he may not sit
    there again. Since a rematch takes the invite codes of the tables it follows (so their
    spectators follow it), Rex sat down at the rematch with the old code, and at the next
    one, as if never removed: the owner had to find and remove him at every rematch. Now a
    rematch keeps whom the table it follows had removed (the owner may let them back in,
    ``readmit``); Rex may still watch it, as he could the old table."""
    from tests.server.helpers import Player, play_to_end
    from tests.server.test_rematch import OPTIONS, rematch_news
    from tests.server.test_tables import new_table, started

    ann, bob, rex = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Rex")
    tid = new_table(ann, {**OPTIONS, "private": True})
    assert ann.table is not None
    code = ann.table["invite"]
    assert rex.request({"type": "join", "table_id": tid, "invite": code})["type"] == "ack"
    rex.until(lambda m: m["type"] == "table")
    assert rex.seat is not None
    assert ann.request({"type": "remove", "seat": rex.seat})["type"] == "ack"
    rex.until(lambda m: m["type"] == "event" and "removed you" in m["event"]["text"])
    refused = rex.request({"type": "join", "table_id": tid, "invite": code})
    assert refused["code"] == "not_allowed", refused  # removed: not to sit down again
    assert bob.request({"type": "join", "table_id": tid, "invite": code})["type"] == "ack"
    bob.until(lambda m: m["type"] == "table")
    started(ann, bob)
    play_to_end([ann, bob])
    assert ann.request({"type": "rematch"})["type"] == "ack"
    new = ann.until(lambda m: m["type"] == "table" and m["table"]["id"] != tid)["table"]
    rematch_news(rex)
    sit = rex.request({"type": "join", "table_id": new["id"], "invite": code})
    assert sit.get("code") == "not_allowed", sit  # before: ack, seated at the rematch
    assert [r["name"] for r in new["removed"]] == ["Rex"], new["removed"]  # (to readmit)
    watch = rex.request({"type": "join", "table_id": new["id"], "invite": code,
                         "role": "spectator"})
    assert watch["type"] == "ack", watch
    # the owner lets him back in: he sits down
    uid = new["removed"][0]["user_id"]
    assert ann.request({"type": "readmit", "user_id": uid})["type"] == "ack"
    sit = rex.request({"type": "join", "table_id": new["id"], "invite": code})
    assert sit["type"] == "ack", sit


def test_joins_back_to_ones_seat_share_the_rates_of_copies_of_the_table(
        make: Callable[..., TestClient]) -> None:
    """A ``join`` back to one's own seat (a reload, a reconnect) is answered with a copy
    of the whole table, as ``resync`` is, but counted only in ``join_rate``, per user (the
    address's joins leave it out, so that a household's reloads are never refused): each
    of one address's guests seated at a long match's table (a continued record's: every
    copy worked out from each scored hand, 483 hands: 37 KB and 7 ms of the event loop)
    had a copy a second of its own and bursts of 8, past ``snapshot_address_rate`` and
    ``snapshot_rate``, which hold ``resync`` and ``sheet``. Now such a join counts in
    them; another address is not held back by it."""
    from tests.server.helpers import Player
    from tests.server.test_attack_owner import far_client
    from tests.server.test_tables import new_table

    client = make(rate_per_second=0.0, join_rate=100.0, join_burst=100.0,
                  snapshot_burst=3, snapshot_address_rate=0.01, snapshot_address_burst=5)
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    tid = new_table(ann, {"profile": "cardems"}, bob)
    answers = [p.request({"type": "join", "table_id": tid}) for p in (ann, ann, ann, ann)]
    assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"], answers  # the conn's
    assert answers[3]["code"] == "rate_limit", answers[3]
    answers = [bob.request({"type": "join", "table_id": tid}) for _ in range(3)]
    assert [a["type"] for a in answers] == ["ack", "ack", "error"], answers  # the address's
    assert "from your address" in answers[2]["message"], answers[2]
    refused = bob.request({"type": "resync"})  # (the same rate)
    assert refused["type"] == "error" and refused["code"] == "rate_limit", refused
    # another address's player joins back to their seat
    far = Player(far_client(client, 7), "Cid")
    assert far.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert far.request({"type": "join", "table_id": tid})["type"] == "ack"
