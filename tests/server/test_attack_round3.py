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

import contextlib
import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spades.engine import Match, profile, to_record
from spades.server import cpu
from spades.server.cpu import bot_act
from spades.server.limits import parse_limit
from tests.server.helpers import (
    Player,
    hub_of,
    in_process,
    limited,
    process_family,
    wait_until,
)

SIMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "simple_bot.py"


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


@pytest.fixture
def simple() -> Iterator[None]:
    """The example bot offered as the CPU strength "simple" (``--bot``); every program of
    it stopped afterwards (a match not played to its end does not stop them)."""
    cpu.register_external("simple", f"cmd:{sys.executable} {SIMPLE_BOT}")
    try:
        yield
    finally:
        cpu._EXTERNAL.clear()
        for key in [k for k in list(cpu._CACHE) if "simple_bot" in k[0]]:
            cpu.release(*key)


def _programs() -> int:
    """How many of this process's children run the example bot."""
    out = 0
    for pid in process_family(os.getpid())[1:]:
        with contextlib.suppress(OSError):
            out += b"simple_bot.py" in Path(f"/proc/{pid}/cmdline").read_bytes()
    return out


def _program_table(client: Any, name: str) -> dict[str, Any]:
    """A guest's ``create`` of a table of "simple" CPUs, started at once; once made, its
    CPUs have played up to the guest's first turn (each seat's program started)."""
    p = Player(client, name)
    answer = p.request({"type": "create", "cpus": True, "options": {
        "profile": "cardems", "cpu": "simple", "private": False}})
    if answer["type"] == "ack":
        p.until(lambda m: p.my_turn())
    return answer


def test_one_address_cannot_keep_any_number_of_outside_programs_running(
        tmp_path: Path, simple: None) -> None:
    """A table whose CPUs are an outside program (``spades serve --bot``) runs one for each
    CPU seat (with ``--bots process``, one in each worker that decides for it), a process
    of its own, maybe tens of MB, while its match goes on. Tables from one address were
    capped only as any others, ``tables_per_address`` (50, each guest 5): one address's
    guests kept 150 programs running, as many as a busy server's players. Now such tables
    have caps of their own, per address and on the process in all."""
    settings = limited(tmp_path, rate_per_second=0.0, program_tables_per_address=2)
    with in_process(settings) as client:
        made = [_program_table(client, f"Prog{i}") for i in range(4)]
        assert [a["type"] for a in made] == ["ack", "ack", "error", "error"], made
        assert made[2]["code"] == "limit" and "at most 2" in made[2]["message"], made[2]
        assert _programs() <= 2 * 3  # (before: 12, three for each of the four tables)
        # another strength is not capped so; nor is changing to one that is, past it
        other = Player(client, "Plain")
        assert other.request({"type": "create", "options": {
            "profile": "cardems", "cpu": "random"}})["type"] == "ack"
        changed = other.request({"type": "options", "options": {
            "profile": "cardems", "cpu": "simple"}})
        assert changed["type"] == "error" and changed["code"] == "limit", changed

    settings = limited(tmp_path / "all", rate_per_second=0.0, program_tables=1)
    (tmp_path / "all").mkdir()
    with in_process(settings) as client:
        made = [_program_table(client, f"All{i}") for i in range(2)]
        assert [a["type"] for a in made] == ["ack", "error"], made
        assert "at most 1" in made[1]["message"], made[1]


def test_a_table_abandoned_mid_match_stops_its_outside_programs(
        tmp_path: Path, simple: None) -> None:
    """A table ended by the janitor mid-match (nobody connected for ``abandon_minutes``:
    its player gone at their turn, within a long grace) left its programs running: they
    were stopped only once idle for 10 minutes, at some later decision of another table
    (none on a quiet server: never), so tables made and left to be abandoned gathered
    them. Now the table's end stops them, as a match's end does."""
    settings = limited(tmp_path, rate_per_second=0.0, sweep_seconds=3600,
                       abandon_minutes=30)
    with in_process(settings) as client:
        janitor = client.app.state.janitor  # type: ignore[attr-defined]
        now = [0.0]
        janitor.clock = lambda: now[0]
        p = Player(client, "Leaver")
        assert p.request({"type": "create", "cpus": True, "options": {
            "profile": "cardems", "cpu": "simple", "grace_seconds": 600}})["type"] == "ack"
        p.until(lambda m: p.my_turn())
        for _ in range(4):  # (the player may have been first to bid: no CPU asked yet)
            if _programs():
                break
            assert p.view is not None
            assert p.request({"type": "act", "action": p.view["legal_actions"][0]}
                             )["type"] == "ack"
            p.until(lambda m: p.my_turn())
        assert p.table is not None
        tid = p.table["id"]
        p.close()  # gone at their turn: the table waits out the grace
        hub = hub_of(client)
        wait_until(lambda: not hub.tables[tid].any_human_connected(), "the player gone")
        running = _programs()
        assert running >= 1
        assert client.portal.call(janitor.sweep) == []  # type: ignore[union-attr]
        now[0] += 31 * 60
        assert client.portal.call(janitor.sweep) == [tid]  # type: ignore[union-attr]
        wait_until(lambda: _programs() == 0, f"the {running} programs to be stopped",
                   seconds=10)


def test_one_address_cannot_fill_the_disk_with_records_uploaded_for_review(
        tmp_path: Path) -> None:
    """A record uploaded (``POST /api/records``) is stored for good, every action a row:
    in the database it takes about 15 times its size (a 258 KB record of 374 hands, 4 MB
    on SQLite, measured), and review uploads are never pruned. They were counted only in
    the create rates, one a second per address (a record once per 100 KB begun): one
    address's guests stored about 1.3 MB a second, over 100 GB a day. Now the records an
    address uploads have a rate of their own, in the same units (``upload_address_rate``,
    one 100 KB every 100 s, bursts of 30): 429 with ``Retry-After`` past it."""
    settings = limited(tmp_path, upload_address_rate=0.001, upload_address_burst=3,
                       create_rate=0.0, create_address_rate=0.0)
    record = _small_record()
    with in_process(settings) as client:
        answers = []
        for i in range(5):  # a new guest for each: the per-user rate is no help
            token = client.post("/api/guest", json={"name": f"Hoarder{i}"}).json()["token"]
            answers.append(client.post("/api/records", json={"record": record},
                                       headers={"Authorization": f"Bearer {token}"}))
        assert [a.status_code for a in answers] == [200, 200, 200, 429, 429], answers
        assert "Retry-After" in answers[3].headers
        assert "your address" in answers[3].json()["detail"], answers[3].json()


def _small_record() -> dict[str, Any]:
    """A one-hand match played by CPUs, as ``spades export`` writes it."""
    m = Match(profile("cardems", one_hand=True), dealer=0, rng=random.Random(3))
    while not m.is_over():
        m.apply(bot_act("random", 1, m.observation(m.current_player)))
    record: dict[str, Any] = to_record(m)
    return record


def test_the_new_limits_are_checked_as_the_others() -> None:
    """0 turns the new caps and rate off (as docs/server.md says of caps and rates); a
    burst below 1 is refused at the start, as every other burst."""
    for name in ("program_tables", "program_tables_per_address", "upload_address_rate"):
        assert parse_limit(f"{name}=0") == (name, 0)
    with pytest.raises(ValueError, match="1 or more"):
        parse_limit("upload_address_burst=0.5")
