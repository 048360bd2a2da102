"""Hostile clients against what changed in the third round: the history's scores so far
(replayed from the store), and the outside programs CPU seats run (``--bot``). Each test
reproduces a finding and fails without its fix. In process, loopback only, bounded in
count; conditions waited for, never a fixed time.

Tried and found sound (no test: nothing to fix): leaving a finished table and joining it
again (each join is counted in ``join_rate``, a leave needs a join first; the same words as
leaving an active table), owners passing on (told once per going), rematches (counted as
creates), the seat-move words (counted as changes), a closed connection at a finished table
(one grace timer per seat, cancelled by a join), ``sessions_per_user``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import Player, hub_of, in_process, limited


def test_a_history_asked_for_between_moves_replays_within_the_replay_rate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The history (``GET /api/users/{id}/history``, anyone's, unsigned) works out each
    unfinished match's scores so far by replaying its stored moves on the database thread
    every table's moves use, and a stored move changes what it was worked out for: asked
    for after every move of a match going on (a long continued record's: 0.26 s a replay
    at 200 hands), it replayed the match every time, up to 20 of them a request at the
    HTTP rate, and counted none of it in ``replay_rate`` as records and sheets are. Now
    those replays are counted there too; past it the history still answers, each match
    with the scores it last had worked out ("after N hands": true of that many)."""
    settings = limited(tmp_path, rate_per_second=0.0, replay_rate=0.001, replay_burst=2)
    with in_process(settings) as client:
        cy = Player(client, "Cy")
        assert cy.request({"type": "create", "cpus": True, "options": {
            "cpu": "random", "private": False}})["type"] == "ack"
        cy.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "deal")
        me = client.get("/api/me", headers={"Authorization": f"Bearer {cy.token}"}
                        ).json()["id"]
        store = hub_of(client).store
        replayed: list[str] = []
        work = store.scores_so_far

        def counted(rows: Any) -> Any:
            replayed.extend(g.id for g in rows)
            return work(rows)

        monkeypatch.setattr(store, "scores_so_far", counted)
        answers = []
        for _ in range(6):  # a move stored, then the history asked for by a stranger
            if not cy.my_turn():
                cy.until(lambda m: cy.my_turn())
            assert cy.view is not None
            assert cy.request({"type": "act", "action": cy.view["legal_actions"][0]}
                              )["type"] == "ack"
            answers.append(client.get(f"/api/users/{me}/history"))
        assert [a.status_code for a in answers] == [200] * 6
        # before: 6 replays, one a request; now the burst of 2, then none
        assert len(replayed) <= 2, replayed
        last = answers[-1].json()[0]
        assert last["status"] == "active" and last["hands_scored"] is not None, last
