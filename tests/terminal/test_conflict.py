"""Two terminal sessions on one saved game (issue 10): the second writer is refused with a
clear message and changes nothing; the game stays readable and resumable. A damaged game
does not stop ``spades play --resume`` from offering the others."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from spades.engine import NIL, Match, profile
from spades.store import ConflictError, Store, StoreError
from tests.terminal.driver import BID_PROMPT, export, run_cli, saved_game, spawn

ARGS = ("--plain", "--seed", "11", "--cpu", "random", "--opener", "south")


def test_append_at_refuses_a_number_already_taken(database: str) -> None:
    """On SQLite and on PostgreSQL alike (the ``database`` fixture gives each)."""
    store = Store.open(database)
    rules = profile("cardems")
    gid = store.create_game("terminal", rules, seats=[{"name": "N"}] * 4, first_dealer=0)
    match = Match.new(rules, seed=1)
    store.append_at(gid, 1, "deal", list(match.log[-1].deal))
    assert store.append_at(gid, 2, "act", NIL + 3, 1) == 2
    with pytest.raises(ConflictError, match="event 2 is already stored by another writer"):
        store.append_at(gid, 2, "act", NIL + 4, 1)
    assert [e.value for e in store.events(gid)][1:] == [NIL + 3]
    with pytest.raises(StoreError, match="no game"):
        store.append_at("nope", 1, "act", 1)
    store.close()


def test_second_session_on_one_game_is_refused_and_the_game_stays_sound(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = spawn(db, *ARGS)
    game = saved_game(first)
    first.expect(BID_PROMPT)
    second = spawn(db, "--plain", "--resume", game)
    second.expect(rf"Resuming game {game}")
    second.expect(BID_PROMPT)
    before = export(db, game)

    first.sendline("3")
    first.expect(r"You bid 3\.")
    second.sendline("5")  # its view is stale: South has bid already
    second.expect(r"This game is open elsewhere")
    second.expect(r"Nothing was changed here")
    second.expect(pexpect.EOF)
    second.close()
    assert second.exitstatus == 1
    assert "You bid 5" not in (second.before or "")

    first.expect(r"Your card: |Your bid: ")
    first.sendline("q")
    first.expect(pexpect.EOF)
    after = export(db, game)
    assert after["hands"][0]["bids"][:len(before["hands"][0]["bids"]) + 1] == [
        *before["hands"][0]["bids"], 3]
    assert run_cli("show", game, "--db", str(db)).returncode == 0

    again = spawn(db, "--plain", "--resume", "last")
    again.expect(rf"Resuming game {game}")
    again.expect(r"Your card: |Your bid: ")
    again.sendline("q")
    again.expect(pexpect.EOF)


def test_resume_leaves_out_a_damaged_game_with_a_note(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    child = spawn(db, *ARGS)
    good = saved_game(child)
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    store = Store.open(db)
    rules = profile("cardems")
    bad = store.create_game("terminal", rules, seats=[{"name": "N"}] * 4, first_dealer=0,
                            options={"human": 2, "seed": 1})
    store.append_at(bad, 1, "act", 5, 0)  # a card before any deal: cannot be replayed
    store.close()
    child = spawn(db, "--plain", "--resume")
    child.expect(rf"Game {bad[:8]} cannot be read \(event 1: [^\r\n]*\); it is left out\.")
    child.expect(r"Continuing the only one\.")
    child.expect(rf"Resuming game {good}")
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_game_stored_the_old_way_resumes_and_takes_new_moves(tmp_path: Path) -> None:
    """Events written by ``Store.append`` (as before expected numbers) resume as they were,
    and the next move is stored at the number after them."""
    db = tmp_path / "old.sqlite3"
    store = Store.open(db)
    rules = profile("cardems")
    match = Match(rules, dealer=1)
    gid = store.create_game("terminal", rules, seats=[{"name": n} for n in
                                                      ("North", "East", "South", "West")],
                            first_dealer=1, options={"human": 2, "seed": 7})
    from spades.tui.game import deal_masks

    masks = deal_masks(match, 7)
    store.append(gid, "deal", masks)
    match.deal(masks)
    store.append(gid, "act", NIL + 2, 2)  # South, first to bid
    store.close()
    child = spawn(db, "--plain", "--resume", gid[:8], "--cpu", "random")
    child.expect(rf"Resuming game {gid[:8]}")
    child.expect(r"Your card: ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    store = Store.open(db)
    events = store.events(gid)
    assert [e.seq for e in events] == list(range(1, len(events) + 1)) and len(events) == 5
    store.close()
