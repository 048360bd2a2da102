"""The turn timer across a save and a resume: the turn a game was saved in is resumed with
the time that was left of it then (the time the game was closed not counted), not the
whole timer again; a save made before that was kept still gets the whole timer."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pexpect
import pytest

from spades.cli.play import load_game, seat_names
from spades.engine import profile
from spades.store import Store, StoreError
from spades.tui import text
from spades.tui.console import Console, LineReader
from spades.tui.game import TerminalGame
from tests.terminal.driver import BID_PROMPT, spawn

#: The stored option that keeps the time left of a turn (an extension of the game's options).
TURN_LEFT = "turn_left"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Thinking(Console):
    """A console whose player takes ``thinking`` seconds (of a fake clock) to answer every
    prompt, and types ``typed``."""

    def __init__(self, typed: bytes, thinking: float = 25.0) -> None:
        r, w = os.pipe()
        os.write(w, typed)
        os.close(w)
        self.fake = Clock()
        self.thinking = thinking
        self.said = io.StringIO()
        super().__init__(self.said, LineReader(r, self.fake), clock=self.fake, echo_keys=False)

    def ask(self, prompt: str, **kwargs: Any) -> str | None:
        self.fake.now += self.thinking
        return super().ask(prompt, **kwargs)


def session(store: Store, gid: str, console: Thinking) -> TerminalGame:
    """The stored game resumed as ``spades play --resume`` does, at ``console``."""
    game, match, stored = load_game(store, gid)
    return TerminalGame(store, gid, match, console, names=seat_names(game), human=2,
                        levels=["random", "random", None, "random"], seed=5, seq=stored,
                        options=dict(game.options))


def new_game(store: Store, **options: Any) -> str:
    """A game at a 60-second turn timer where South bids first (East deals)."""
    rules = profile("cardems", turn_timer=60)
    return store.create_game("terminal", rules, seats=[{"name": n} for n in text.COMPASS],
                             first_dealer=1, options={"human": 2, "seed": 5, **options})


def test_a_resumed_turn_has_the_time_that_was_left_when_it_was_saved(tmp_path: Path) -> None:
    # It had the whole timer again: a player who quit with 5 seconds left had 60 seconds
    # after the resume, as many times as they liked.
    store = Store.open(tmp_path / "g.sqlite3")
    gid = new_game(store)
    console = Thinking(b"q\n")
    assert session(store, gid, console).run() == 0  # deals (move 1), asks South's bid
    assert "You have 60 seconds.\n" in console.said.getvalue(), console.said.getvalue()
    kept = store.game(gid).options
    assert kept == {"human": 2, "seed": 5, TURN_LEFT: {"seq": 1, "seconds": 35.0}}, kept
    # resumed: 35 seconds (the time it was closed not counted); quit again 25 seconds on
    console = Thinking(b"q\n")
    assert session(store, gid, console).run() == 0
    out = console.said.getvalue()
    assert "You have 35 seconds left of this turn, as when the game was saved.\n" in out, out
    assert "You have 60 seconds" not in out, out
    assert store.game(gid).options[TURN_LEFT] == {"seq": 1, "seconds": 10.0}
    # 10 seconds: a command 4 seconds on, then the time left; stopped 2 seconds before the end
    console = Thinking(b"t\nq\n", thinking=4.0)
    assert session(store, gid, console).run() == 0
    out = console.said.getvalue()
    assert "You have 10 seconds left of this turn, as when the game was saved.\n" in out, out
    assert "You have 6 seconds left.\n" in out, out
    assert store.game(gid).options[TURN_LEFT] == {"seq": 1, "seconds": 2.0}
    # however little was left, a resumed turn has time to hear where the game stands
    console = Thinking(b"q\n", thinking=1.0)
    assert session(store, gid, console).run() == 0
    out = console.said.getvalue()
    assert "You have 5 seconds left of this turn, as when the game was saved.\n" in out, out
    # once the turn is over (the bid stored), the next turn has the whole timer
    console = Thinking(b"3\nq\n", thinking=1.0)
    assert session(store, gid, console).run() == 0
    out = console.said.getvalue()
    assert "You bid 3." in out and out.count("You have 60 seconds.\n") == 1, out
    store.close()


def test_a_save_without_the_time_left_restarts_the_whole_timer(tmp_path: Path) -> None:
    # a game saved by an older version (no time left kept), one kept for another turn (a
    # move stored since), or one that cannot be read: the whole timer, as before
    store = Store.open(tmp_path / "g.sqlite3")
    for kept in ({}, {TURN_LEFT: {"seq": 7, "seconds": 12.0}},
                 {TURN_LEFT: {"seq": 1, "seconds": "soon"}}, {TURN_LEFT: [1, 12]}):
        gid = new_game(store, **kept)
        console = Thinking(b"")
        assert session(store, gid, console).run() == 0  # (the input closes at the prompt)
        out = console.said.getvalue()
        assert "You have 60 seconds.\n" in out, (kept, out)
    store.close()


def test_the_terminal_resumes_a_turn_with_what_was_left(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite3"
    child = spawn(db, "--plain", "--timer", "60", "--seed", "4", "--opener", "south",
                  "--cpu", "random")
    child.expect(r"You have 60 seconds\.")
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child = spawn(db, "--plain", "--resume", "last")
    child.expect(r"You have (\d+) seconds? left of this turn, as when the game was saved\.")
    assert 5 <= int(child.match.group(1)) <= 60
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_time_left_that_cannot_be_kept_is_said_and_the_game_stays_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.open(tmp_path / "g.sqlite3")
    gid = new_game(store)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise StoreError("the database is read-only")

    monkeypatch.setattr(store, "update_game", refuse)
    console = Thinking(b"q\n")
    assert session(store, gid, console).run() == 0
    out = console.said.getvalue()
    assert ("The time left of this turn could not be kept (the database is read-only): a "
            "resume gives the whole turn timer.\nThe game is saved. Resume it with: ") in out, out
    monkeypatch.undo()
    assert TURN_LEFT not in store.game(gid).options
    store.close()
