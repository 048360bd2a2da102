"""Operator-registered external bot programs at a table; a dead one is replaced by a CPU."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from spades.engine import Match, profile
from spades.server import cpu
from tests.server.helpers import Player, play_to_end, process_family, wait_until

SIMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "simple_bot.py"


@pytest.fixture
def registered() -> Iterator[None]:
    cpu.register_external("simple", f"cmd:{sys.executable} {SIMPLE_BOT}")
    cpu.register_external("dead", "cmd:false")
    try:
        yield
    finally:
        cpu._EXTERNAL.clear()


@pytest.mark.parametrize("strength", ["simple", "dead"])
def test_a_table_of_external_programs_plays_to_the_end(
    registered: None, client: TestClient, strength: str
) -> None:
    assert strength in client.get("/api/profiles").json()["cpu"]
    ann = Player(client, "Ann")
    ack = ann.request({"type": "create", "options": {"profile": "cardems", "one_hand": True,
                                                      "cpu": strength}})
    assert ack["type"] == "ack", ack
    ann.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    last = play_to_end([ann])
    assert last["event"]["kind"] == "match_over"


def test_clients_cannot_name_a_program(client: TestClient) -> None:
    ann = Player(client, "Ann")
    ack = ann.request({"type": "create", "options": {"profile": "cardems",
                                                      "cpu": "cmd:false"}})
    assert ack["type"] == "error"


def _programs() -> list[int]:
    """This process's children running the example bot."""
    out = []
    for pid in process_family(os.getpid())[1:]:
        with contextlib.suppress(OSError):
            if b"simple_bot.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(pid)
    return out


def test_the_programs_are_stopped_when_the_match_is_over(registered: None,
                                                         client: TestClient) -> None:
    # The three programs of a table kept running after its match was over (they were told
    # nothing), until the server stopped: a busy server gathered hundreds of them.
    ann = Player(client, "Ann")
    ack = ann.request({"type": "create", "options": {"profile": "cardems", "one_hand": True,
                                                      "cpu": "simple"}})
    assert ack["type"] == "ack", ack
    ann.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    assert play_to_end([ann])["event"]["kind"] == "match_over"
    wait_until(lambda: not _programs(), "the programs to be stopped")
    assert not [k for k in cpu._CACHE if "simple_bot" in k[0]]


def test_a_program_idle_too_long_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # A program whose table stopped without releasing it (an abandoned table releases its
    # programs: test_attack_round3.py) is stopped once idle, at the next decision of any seat.
    match = Match.new(profile("cardems"), seed=1)
    obs = match.observation(match.current_player)
    spec = f"cmd:{sys.executable} {SIMPLE_BOT}"
    try:
        cpu.bot_act(spec, 101, obs)
        assert len(_programs()) == 1
        monkeypatch.setattr(cpu, "EXTERNAL_IDLE", 0.0)
        cpu.bot_act(spec, 102, obs)  # the other one, idle, is stopped
        assert len(_programs()) == 1 and (spec, 101) not in cpu._CACHE
    finally:
        cpu.release(spec, 101)
        cpu.release(spec, 102)
    assert not _programs()


def test_a_failed_program_is_logged_with_its_table_seat_and_decision(
    registered: None, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    # The seat went to a CPU without a word in the server's log about which table or why.
    ann = Player(client, "Ann")
    ack = ann.request({"type": "create", "options": {"profile": "cardems", "one_hand": True,
                                                      "cpu": "dead"}})
    assert ack["type"] == "ack", ack
    ann.until(lambda m: m["type"] == "table")
    with caplog.at_level(logging.WARNING, logger="spades.server"):
        assert ann.request({"type": "start"})["type"] == "ack"
        play_to_end([ann])
    lines = [r.getMessage() for r in caplog.records if r.name == "spades.server"
             and "CPU strength dead" in r.getMessage()]
    assert len(lines) == 3, lines
    assert not [k for k in cpu._CACHE if k[0] == "cmd:false"]  # (dropped, not kept)
    assert re.search(r"^table \S+: the CPU strength dead at seat \d failed: external bot "
                     r"'false' at seat \d's bid in hand 1: the program has exited \(status 1\);"
                     r" the \w+ CPU plays for it for the rest of the match$", lines[0]), lines


GATED_PROGRAM = """\
import os, runpy, sys, time
gate = sys.argv[1]
deadline = time.monotonic() + 60  # bounded: a test that never opens the gate ends it
while not os.path.exists(gate) and time.monotonic() < deadline:
    time.sleep(0.01)
runpy.run_path(sys.argv[2], run_name="__main__")
"""


def _gated_programs() -> list[int]:
    """This process's descendants running the gated example bot."""
    out = []
    for pid in process_family(os.getpid())[1:]:
        with contextlib.suppress(OSError):
            if b"gated_program.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(pid)
    return out


def test_the_end_of_a_match_stops_the_programs_of_every_worker(tmp_path: Path) -> None:
    # With --bots process a seat's program runs in each worker that was asked for its
    # decisions; the end of the match reached one worker only, and the others' programs stayed
    # until idle for 10 minutes. Here the seat's first decision holds its worker (its program
    # waits for the gate), so the second is taken by the other worker, which starts a second
    # program for the same seat: both must be stopped when the match is over.
    (tmp_path / "gated_program.py").write_text(GATED_PROGRAM)
    gate = tmp_path / "gate"
    spec = f"cmd:{sys.executable} {tmp_path / 'gated_program.py'} {gate} {SIMPLE_BOT}"
    match = Match.new(profile("cardems"), seed=1)
    obs = match.observation(match.current_player)
    pool = cpu.CpuPool("process", workers=2, hint_workers=1)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        decisions = [asyncio.ensure_future(pool.decide(spec, 7, obs, key=str(n)))
                     for n in range(2)]
        await loop.run_in_executor(None, lambda: wait_until(
            lambda: len(_gated_programs()) == 2, "a program in each worker", 60))
        gate.touch()
        assert all(a in obs.legal_actions for a in await asyncio.gather(*decisions))
        await pool.release(spec, 7)
        await loop.run_in_executor(None, lambda: wait_until(
            lambda: not _gated_programs(), "every worker's program to be stopped"))

    try:
        asyncio.run(scenario())
    finally:
        gate.touch()
        pool.close()
