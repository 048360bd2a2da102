"""Operator-registered external bot programs at a table; a dead one is replaced by a CPU."""

from __future__ import annotations

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
    # A table closed or abandoned mid-match (or finished in another worker process) never
    # releases its programs: they are stopped once idle, at the next decision of any seat.
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
