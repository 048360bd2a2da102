"""A won trick's count says whose it is. "East wins trick 11 with the jack of clubs, 3
tricks so far." counted East's own tricks, while the sentence that follows a decided contract
counts the side's ("East and West's contract of 5 is made"): the count was read as the
side's. It is "3 tricks so far for East" now, in the plain and the richer view alike, and
in a game of everyone alone (race400) too."""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from spades.engine import DEAL, OVER, Match, profile
from spades.store import Store
from spades.tui import text
from spades.tui.console import Console, LineReader
from spades.tui.game import TerminalGame

WON = re.compile(r"^(You win|(?:Your partner )?(\w+) wins) trick (\d+) with the [a-z ]+, "
                 r"(\d+) tricks? so far for (\w+)\.$")


def one_hand(tmp_path: Path, rules_name: str, *, rich: bool) -> tuple[list[str], Match]:
    """The lines a hand played by the first legal move each turn tells South (seat 2)."""
    rules = profile(rules_name, one_hand=True)
    store = Store.open(tmp_path / f"{rules_name}-{rich}.sqlite3")
    gid = store.create_game("terminal", rules, seats=[{"name": n} for n in text.COMPASS],
                            first_dealer=1, options={"human": 2, "seed": 5})
    out = io.StringIO()
    console = Console(out, LineReader(os.pipe()[0]), rich=rich)
    game = TerminalGame(store, gid, Match(rules, dealer=1), console, names=list(text.COMPASS),
                        human=2, levels=["random", "random", None, "random"], seed=5)
    game.deal()
    while game.match.phase not in (OVER, DEAL):
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    return out.getvalue().splitlines(), game.match


@pytest.mark.parametrize("rules_name", ["cardems", "race400"])
def test_a_won_tricks_count_says_whose_it_is(tmp_path: Path, rules_name: str) -> None:
    plain, match = one_hand(tmp_path, rules_name, rich=False)
    won = [line for line in plain if re.search(r"\bwins? trick \d+ ", line)]
    assert len(won) == match.rules.hand_size, plain
    counts: Counter[str] = Counter()
    for line in won:
        said = WON.match(line)
        assert said, line
        winner = "you" if said.group(1) == "You win" else said.group(2)
        assert said.group(5) == winner, line  # the count is the winner's, and says so
        counts[winner] += 1
        assert int(said.group(4)) == counts[winner], line
    # the plain view and the richer one tell it in the same words
    rich, _ = one_hand(tmp_path, rules_name, rich=True)
    assert [line for line in rich if WON.match(line)] == won
