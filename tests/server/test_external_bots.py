"""Operator-registered external bot programs at a table; a dead one is replaced by a CPU."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from spades.server import cpu
from tests.server.helpers import Player, play_to_end

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
