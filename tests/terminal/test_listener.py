"""What a player who listens to ``spades play`` (a screen reader, line mode) hears, above all
when the turn timer acts for them: the game in process, with a clock the test moves (no
waiting) and the answers piped in."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

from spades.engine import Match, profile
from spades.store import Store
from spades.tui import text
from spades.tui.console import Console, LineReader
from spades.tui.game import TerminalGame


def timed_game(tmp_path: Path, answers: bytes, runs_out: Callable[[TerminalGame], bool],
               *, rich: bool = False, rules_name: str = "cards4net", timer: int | None = 5,
               **knobs: object
               ) -> tuple[TerminalGame, io.StringIO]:
    """South bids first (East deals) under a turn timer of ``timer`` seconds. The clock jumps 4 seconds
    at each reading while ``runs_out(game)``, so that turn's time runs out at once; otherwise
    it stands still, so ``answers`` (piped in from the start) are read in time."""
    store = Store.open(tmp_path / "g.sqlite3")
    rules = profile(rules_name, turn_timer=timer, one_hand=True, **knobs)
    gid = store.create_game("terminal", rules, seats=[{"name": n} for n in text.COMPASS],
                            first_dealer=1, options={"human": 2, "seed": 5})
    now = [0.0]
    holder: list[TerminalGame] = []

    def clock() -> float:
        if holder and runs_out(holder[0]):
            now[0] += 4
        return now[0]

    r, w = os.pipe()
    os.write(w, answers)
    out = io.StringIO()
    console = Console(out, LineReader(r, clock), rich=rich, clock=clock,
                      columns=lambda: None)
    game = TerminalGame(store, gid, Match(rules, dealer=1), console, names=list(text.COMPASS),
                        human=2, levels=["random", "random", None, "random"], seed=5,
                        pause=False)
    holder.append(game)
    return game, out


def not_looked(game: TerminalGame) -> bool:
    return game.match.phase == "bid" and not game.match.looked[game.human]


def test_the_hand_is_read_when_the_timer_looks_at_it_not_at_the_card_prompt(
        tmp_path: Path) -> None:
    """Blind nil open, the player does not look, and time runs out: the timer looks at the
    cards and bids. The hand was read only at the first card prompt, after the whole
    bidding: too late to think about the bid. Now it is read where it is looked at (and the
    look said to be the game's, not the player's), then not again at the card prompt."""
    game, out = timed_game(tmp_path, b"q\n", not_looked)
    assert game.run() == 0
    lines = out.getvalue().splitlines()
    timed = next(i for i, line in enumerate(lines) if line.startswith("Time is up for you"))
    assert lines[timed + 1] == "The game looks at your cards for you."
    assert lines[timed + 2].startswith("Your hand, 13 cards: ")
    assert lines[timed + 3].startswith("Your cards are numbered for this hand")
    assert lines[timed + 4].startswith("You bid ")
    assert "You look at your cards." not in lines
    assert sum(line.startswith("Your hand, ") for line in lines) == 1, lines[timed:]
    assert sum(line.startswith("Your cards are numbered") for line in lines) == 1
    lead = lines.index("Your turn to lead. Spades are not broken yet.")
    assert lines[lead + 1].startswith("You can play, ")
    assert lines[-1].endswith("Your card: The game is saved. Resume it with: spades play --resume")


def test_the_richer_view_shows_the_hand_the_timer_looked_at_before_the_bid(
        tmp_path: Path) -> None:
    game, out = timed_game(tmp_path, b"q\n", not_looked, rich=True)
    assert game.run() == 0
    lines = out.getvalue().splitlines()
    look = lines.index("The game looks at your cards for you.")
    assert lines[look + 1] == "Your hand (13 cards):"
    bid = next(i for i, line in enumerate(lines) if line.startswith("You bid "))
    assert look + 1 < bid and lines[bid - 1].startswith("Your cards are numbered")


def test_the_seconds_left_are_said_whenever_the_prompt_comes_back_in_the_turn(
        tmp_path: Path) -> None:
    """After a look, a command, the answer that the cards are already shown, a refused bid
    and an empty line, the same turn's clock runs on: the seconds left are said before the
    prompt each time (they were not after "already shown", a refusal or an empty line)."""
    game, out = timed_game(tmp_path, b"look\nlook\nlots\n\ns\nq\n", lambda g: False)
    assert game.run() == 0
    said = out.getvalue().replace("Your bid: ", "Your bid: \n").splitlines()
    asked = [i for i, line in enumerate(said) if line == "Your bid: "]
    assert len(asked) == 6
    for before in asked[1:]:  # every prompt after the first of the turn
        assert said[before - 1] == "You have 5 seconds left.", said[before - 3:before + 1]
    assert said[asked[2] - 2] == ("Your cards are already shown: type h to hear your hand, "
                                  "or n for their numbers.")
    assert said[asked[3] - 2].startswith("Refused: 'lots' is not a bid: ")
    assert said[asked[4] - 2] == "Type a bid, or ? for the commands."


def test_a_bid_before_looking_is_refused_with_what_to_type_and_the_turn_said_once(
        tmp_path: Path) -> None:
    """Blind nil open: a bid typed before looking was refused with the engine's "first bid
    blind nil or look at the cards" (which reads as if "first bid" were a thing); it now
    says what to type. After "look", "Your turn to bid. You bid first." was said a second
    time in the same turn, before the hand: now the hand follows the look at once."""
    game, out = timed_game(tmp_path, b"5\nnil\nlook\n3\nq\n", lambda g: False, timer=None)
    assert game.run() == 0
    said = out.getvalue().replace("Your bid: ", "Your bid: \n").splitlines()
    refusal = ("Refused: your cards are not shown yet, so the only bids are blind nil and look: "
               "type look to see them and then bid, or blind nil. It is still your turn.")
    assert said.count(refusal) == 2, said
    assert said.count("Your turn to bid. You bid first.") == 1, said
    # named as the bids are said ("You bid Blind Nil."): it was "blind nil (worth 200)"
    assert ("You may bid Blind Nil (worth 200) before looking at your cards: type blind nil, "
            "or look to see them.") in said, said
    looked = said.index("You look at your cards.")
    assert said[looked + 1].startswith("Your hand, 13 cards: "), said[looked:]
    assert said.index("You bid 3.") > looked


def test_the_hand_is_read_as_soon_as_blind_nil_is_bid(tmp_path: Path) -> None:
    """After Blind Nil the cards are seen: they were read only at the first card prompt,
    after everyone's bids; now right after "You bid Blind Nil.", once."""
    game, out = timed_game(tmp_path, b"blind nil\nq\n", lambda g: False, timer=None)
    assert game.run() == 0
    lines = out.getvalue().replace("Your bid: ", "").splitlines()
    bid = lines.index("You bid Blind Nil.")
    assert lines[bid + 1].startswith("Your hand, 13 cards: "), lines[bid:]
    assert lines[bid + 2].startswith("Your cards are numbered for this hand")
    assert sum(line.startswith("Your hand, ") for line in lines) == 1, lines[bid:]


def test_a_bid_at_the_card_prompt_is_refused_with_how_to_type_a_card(tmp_path: Path) -> None:
    """"nil" at the card prompt was refused with "bidding is over: play a card", which does
    not say how: now it says how a card is typed, as for any other entry that is no card."""
    game, out = timed_game(tmp_path, b"look\n3\nnil\nblind nil\nq\n", lambda g: False,
                           timer=None)
    assert game.run() == 0
    refusals = [line for line in out.getvalue().replace("Your card: ", "\n").splitlines()
                if line.startswith("Refused: ")]
    assert refusals == ["Refused: bidding is over: type a card like QH, 10h or queen of hearts, "
                        "or its number. It is still your turn."] * 2, refusals
