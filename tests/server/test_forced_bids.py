"""A bid the rules leave a person no choice in is made for them at once, as the terminal makes
it: Mirror bidding's number of spades (rules-profiles.md: "automatic"), Whiz's Nil with no
spades, Suicide's Nil when the partner bid a number. Before the fix the server waited for the
person to confirm their one bid: the turn timer then bid it for them with a penalty bag, and
without a timer the table waited five minutes for a CPU to cover the seat."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from spades.engine.cards import count_spades, mask_of
from spades.server import tables
from tests.server.helpers import Player

Msg = dict[str, Any]


def _own_bid(p: Player) -> Msg:
    """The event of ``p``'s own bid in the first hand (the turn timer's is kind "timeout")."""
    return p.until(lambda m: m["type"] == "event" and m["event"].get("seat") == p.seat
                   and m["event"]["kind"] in ("bid", "timeout"))


class _SpadesToOne(random.Random):
    """A shuffle that deals every spade to the player after the dealer (``cards[0::n]``): the
    others hold none, so each of two hands in turn deals a player no spade."""

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)
        x.sort(key=lambda c: not count_spades(mask_of([c])))
        spades = x[:13]
        del x[:13]
        for i, card in enumerate(spades):
            x.insert(4 * i, card)


@pytest.mark.parametrize("deal", ["shuffled", "spadeless"])
@pytest.mark.parametrize("timer", [5, None])
def test_a_mirror_bid_is_made_at_once_without_the_timers_penalty(
        client: TestClient, timer: int | None, deal: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    if deal == "spadeless":  # a hand without spades bids Nil (1 hand in 79 when shuffled)
        monkeypatch.setattr(tables.random, "SystemRandom", _SpadesToOne)
    ann = Player(client, "Ann")
    opts = {"cpu": "random", "profile": "cards4net", "bidding": "mirror", "turn_timer": timer}
    assert ann.request({"type": "create", "options": opts})["type"] == "ack"
    ann.until(lambda m: m["type"] == "table")
    assert ann.request({"type": "start"})["type"] == "ack"
    held_none = False
    for hand in (1, 2):
        ev = _own_bid(ann)["event"]
        assert ev["kind"] == "bid", ev  # not the timer's, with its penalty bag
        assert not ev.get("penalty_bags"), ev
        # said as the terminal says it: why, then the bid
        bid = "Nil" if ev["action"] in ("0", "nil") else ev["action"]  # (no spade held)
        assert ev["text"].startswith("Mirror bidding: "), ev["text"]
        assert f"for you. You bid {bid}" in ev["text"], ev["text"]
        assert ann.view is not None
        spades = sum(c.endswith("S") for c in ann.view["hand"])
        assert ann.view["bids"][ann.seat] == (spades or "nil")
        held_none = held_none or not spades
        # the hand played through by the CPUs and Ann's first cards, to the next hand's bid
        ann.play_first_until(lambda p, nxt=hand + 1: p.view is not None
                             and p.view["phase"] == "bid" and p.view["hand_number"] == nxt)
    assert held_none or deal == "shuffled"
