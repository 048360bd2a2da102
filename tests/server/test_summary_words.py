"""The ``hand_scored`` event says in words what each side's points for the hand are made of
(``details``), as the terminal's hand details do, so that the page's summary of the hand
does not rebuild them from numbers: it said "Bonus: plus 20" without which bonus, and
nothing of 10 for 200. The sentence said for the scored hand names the bonus too."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from spades.engine import Match
from spades.tui import text
from tests.server.helpers import Player, hub_of
from tests.tables import first_hand, played_to

TEN_SET = "contract set, -200 (10 for 200: a contract of exactly 10 scores +200 made, -200 set)."
SMALL_BONUS = "Bonus: +20 for a contract of 1 or 2 made exactly."
SAID_BONUS = "bonus +20 for a contract of 1 or 2 made exactly"


def last_card_left(rules_name: str, bids: dict[int, int], seed: int, **knobs: Any) -> Match:
    """The first hand of :func:`tests.tables.first_hand` (the same bids and cards) before
    its last card is played."""
    return played_to(rules_name, bids, seed, lambda m: m.phase == "play" and sum(
        h.bit_count() for h in m.hands) == 1, **knobs)


def bonus_before_last_card() -> tuple[Match, int]:
    """race400 before the first hand's last card, in which a seat bids the 1 or 2 tricks it
    takes (its bonus +20, as :func:`tests.server.test_sheet_words.small_bonus`), and that
    seat."""
    for seed in range(20):
        tricks = first_hand("race400", {}, seed=seed).results[0].tricks
        for seat in range(4):
            if tricks[seat] in (1, 2):
                return last_card_left("race400", {seat: tricks[seat]}, seed=seed), seat
    raise AssertionError("no seat took 1 or 2 tricks in the seeds tried")


def scored_at(client: TestClient, player: Player, match: Match
              ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Continue ``match`` (its last card to play) with ``player`` at the seat to play it, play
    it: the frame of that card (its news say the hand's score) and the ``hand_scored``
    event's."""
    seat = match.current_player
    r = client.post("/api/records", json={"record": match.to_record(), "mode": "continue",
                                          "seat": seat, "options": {"cpu": "random"}},
                    headers={"Authorization": f"Bearer {player.token}"})
    assert r.status_code == 200, r.text
    assert player.request({"type": "join", "table_id": r.json()["table_id"]})["type"] == "ack"
    player.until(lambda m: m["type"] == "table")
    assert player.you is not None and player.you["seat"] == seat, player.you
    player.until(lambda m: bool(player.view and player.view["legal_actions"]))
    assert player.view is not None
    player.send({"type": "act", "action": player.view["legal_actions"][0]})
    played = player.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "play")
    return played, player.until(lambda m: m["type"] == "event"
                                and m["event"]["kind"] == "hand_scored")


def test_the_hand_scored_event_says_10_for_200_and_which_bonus(client: TestClient) -> None:
    ann = Player(client, "Ann")
    ten = last_card_left("cards4net", {0: 5, 2: 5}, seed=3, ten_for_200=True)
    bonus, seat = bonus_before_last_card()
    for match, side, words, said in ((ten, 0, TEN_SET, "(10 for 200, set)"),
                                     (bonus, seat, SMALL_BONUS, SAID_BONUS)):
        me = match.current_player
        card, scored = scored_at(client, ann, match)
        ev = scored["event"]
        # the sentence said for the hand's score (the page's live region says it)
        told = [n["text"] for n in card["event"]["news"] if n["type"] == "hand_scored"]
        assert len(told) == 1 and said in told[0], told  # before: "bonus +20)"
        details = ev["details"]  # before: KeyError
        assert len(details) == len(ev["result"]["points"]), details
        assert any(line.endswith(words) for line in details[side]), details
        # the terminal's hand details, told to this seat, with the names its page draws
        assert ann.table is not None
        names = list(hub_of(client).tables[ann.table["id"]].place_names(me))
        played = match.clone()
        played.apply(played.legal_actions()[0])
        terminal = text.result_lines(played.results[0], played.rules, names, me=me)
        for lines in details:
            for line in lines:
                assert line in terminal, (line, terminal)
            assert not any(" this hand, " in line for line in lines)  # (the figures show it)
        mine = played.rules.side_of[me]
        assert details[mine][0].startswith(("You bid", "Your side (", "Your ")), details[mine]
        assert ann.request({"type": "leave"})["type"] == "ack"
