"""A second blind player's trial of ``spades play --plain``, with the house rules the first
left out: Mirror, Whiz and Suicide bidding, three players with jokers, six players."""

from __future__ import annotations

from pathlib import Path

from spades.engine import profile
from spades.tui import text
from tests.terminal.driver import run_cli


def test_a_forced_bid_says_the_rule_that_forces_it(tmp_path: Path) -> None:
    """Under Mirror bidding the game said "Only one bid is allowed (mirror bidding), so the
    game bids it for you." then "You bid 4.": not why 4 (the spades you hold; your hand is
    not told until your first card). It says the rule: "Mirror bidding: your bid is the
    number of spades you hold, ...". A forced Whiz or Suicide Nil says its reason too."""
    db = str(tmp_path / "m.db")
    out = run_cli("play", "--db", db, "--plain", "--rules", "cards4net", "--bidding", "mirror",
                  "--seed", "7", "--opener", "north", "--cpu", "beginner",
                  input="q\n").stdout
    assert "Only one bid is allowed" not in out, out
    lines = out.splitlines()
    at = lines.index("Mirror bidding: your bid is the number of spades you hold, so the game "
                     "bids it for you.")
    assert lines[at + 1].startswith("You bid "), lines
    assert text.forced_bid_sentence("mirror", 0) == (
        "Mirror bidding: you hold no spades, so the game bids Nil for you.")
    assert text.forced_bid_sentence("whiz", 0) == (
        "Whiz bidding: you hold no spades, so your only bid is Nil; the game bids it for you.")
    assert text.forced_bid_sentence("suicide", 0) == (
        "Suicide bidding: nobody else on your side has bid Nil, so you must; the game bids "
        "it for you.")


def test_the_rules_of_a_game_each_on_their_own_name_no_side() -> None:
    """`r` at three players each on their own said "The first side to reach 400 points ..."
    (and with a turn timer "your side takes 1 penalty bag"): there are no sides. It says
    "The first player" and "you take"; a team game keeps "side"."""
    solo = text.rules_lines(profile("race400", players=3, turn_timer=30),
                            text.default_names(3, 0))
    assert ("The first player to reach 400 points with the highest score wins; a tie at the "
            "top plays on.") in solo, solo
    assert any(line.endswith("the game plays for you and you take 1 penalty bag.")
               for line in solo), solo
    assert not any(" side" in line for line in solo), solo
    teams = text.rules_lines(profile("race400", players=4, teams=[[0, 2], [1, 3]], turn_timer=30),
                             text.default_names(4, 2))
    assert any(line.startswith("The first side to reach 400 points") for line in teams)
    assert any(line.endswith("and your side takes 1 penalty bag.") for line in teams)


def test_the_rules_say_which_joker_is_higher_and_that_jokers_are_spades() -> None:
    """`r` with jokers said "Rules: race400, 3 players, 18 cards each, with the two jokers as
    the highest trumps." and then "The big and little jokers are added: 54 cards, 18 each.":
    18 each twice, and not which joker beats which, nor that a joker is a spade (it follows
    spades, cannot be led before spades are broken and breaks them). Once each now."""
    lines = text.rules_lines(profile("race400", players=3, jokers=True),
                             text.default_names(3, 0))
    assert lines[:3] == [
        "Rules: race400, 3 players, 18 cards each.",
        "The big and little jokers are added: 54 cards, 18 each.",
        "The jokers are spades: the big joker is the highest trump, then the little joker, "
        "then the ace of spades."], lines
    plain = text.rules_lines(profile("race400", players=3), text.default_names(3, 0))
    assert not any("joker" in line for line in plain), plain
