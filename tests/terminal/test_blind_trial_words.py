"""A blind player's trial of ``spades play``: the words for you and your side, bids typed
as words, the help at 40 columns, the status during bidding and the hints' reasons."""

from __future__ import annotations

import re
from pathlib import Path

from spades.engine import NIL, OVER
from spades.tui import text
from tests.terminal.driver import run_cli
from tests.terminal.test_console_text import make_game


def _one_hand_played(tmp_path: Path) -> list[str]:
    """The lines of a one-hand game where you (South) bid 3 and your partner North Nil."""
    game = make_game(tmp_path, one_hand=True)
    game.pause = False
    game.deal()
    for bid in (3, 3, 0, 3):  # South (you), West, North (Nil), East
        game.commit(game.match.current_player, NIL + bid)
    while game.match.phase is not OVER:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    out = game.console.out.getvalue()  # type: ignore[attr-defined]
    details = out.split("Hand 1 in detail:\n", 1)[1].splitlines()
    return details[:next(i for i, line in enumerate(details) if " the match " in line)]


def test_the_hands_details_name_your_side_as_the_score_line_does(tmp_path: Path) -> None:
    """The score line said "your side -110" and the details right under it "North and
    South bid 11 ...": "Your side (North and South)" where first named, then "Your side",
    and your partner's Nil "Your partner North's Nil"."""
    lines = _one_hand_played(tmp_path)
    assert lines[0].startswith("Your side (North and South) bid 3 and took "), lines
    assert any(line.startswith("Your partner North's Nil ") for line in lines), lines
    assert any(line.startswith("Your side: ") and " this hand, " in line
               for line in lines), lines
    assert any(line.startswith("East and West: ") for line in lines), lines
    assert not any("North and South:" in line or line.startswith("North and South ")
                   for line in lines), lines


def test_the_trick_sentence_names_your_partner_as_the_play_by_play_does() -> None:
    """The play-by-play said "Your partner North plays the three of diamonds." and the
    trick sentence at your turn "This trick: North played the three of diamonds, ...";
    the bids so far said "North 8" too. Both say "your partner North" now."""
    import random

    from spades.engine import Match, profile

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), rng=random.Random(5), dealer=3)  # North first
    match.apply(NIL + 8)
    match.apply(NIL + 2)
    obs = match.observation(2)
    assert text.bids_so_far(obs, names) == "your partner North 8, East 2"
    assert text.trick_sentence(obs, names).startswith(
        "Bidding is under way (bids so far: your partner North 8, East 2); ")
    match.apply(NIL + 3)
    match.apply(NIL + 1)
    obs = match.observation(2)
    assert text.trick_sentence(obs, names).startswith(
        "No card has been played to this trick yet; your partner North leads.")
    match.apply(match.legal_actions()[0])
    match.apply(match.legal_actions()[0])
    said = text.trick_sentence(match.observation(2), names)
    assert said.startswith("This trick: your partner North led the "), said
    assert ", East played the " in said, said
    said = text.trick_sentence(match.observation(1), names)  # to East: North is no partner
    assert said.startswith("This trick: North led the "), said
    assert ", you played the " in said, said


def test_the_trick_sentence_says_who_led(tmp_path: Path) -> None:
    """The plain mode's "This trick: your partner North played the three of diamonds, East
    played the queen of diamonds." said "played" of every seat: only the order told who
    led, which decides the suit to follow. It says "led" of the first card, as the colour
    view marks it ("North 3♦ led")."""
    out = run_cli("play", "--plain", "--db", str(tmp_path / "t.sqlite3"), "--seed", "3",
                  "--cpu", "random", input="3\nt\nq\n").stdout
    said = re.findall(r"This trick: [^\n]*", out)
    assert len(said) == 2 and said[0] == said[1], out  # at the turn, then `t`
    assert said[0] == ("This trick: your partner North led the three of diamonds, East played "
                       "the queen of diamonds. Spades are not broken yet."), out


def test_a_bid_typed_as_a_word_is_read(tmp_path: Path) -> None:
    """The prompt says "Type a bid: 0 to 13, or nil." and a player typed "five": refused,
    "'five' is not a bid: type a number, or nil". Number words are read ("Five", "ten",
    "zero" as Nil), and the refusal of other text says what is read."""
    from tests.terminal.driver import run_cli

    db = str(tmp_path / "w.db")
    out = run_cli("play", "--db", db, "--plain", "--seed", "3", "--opener", "south",
                  "--cpu", "random", input="lots\nFive\nq\n").stdout
    assert ("Refused: 'lots' is not a bid: you can bid 0 to 13, or nil, in digits or words "
            "(4 or four); ? lists the commands. It is still your turn."
            in out), out
    assert "You bid 5." in out, out
    game = make_game(tmp_path / "g")
    game.deal()
    obs = game.match.observation(2)
    for word, bid in (("ten", 10), ("TEN", 10), ("one", 1), ("thirteen", 13), ("zero", 0),
                      (" six ", 6)):
        assert game.parse_entry(word, obs) == NIL + bid, word
    help_text = "\n".join(text.help_lines())
    assert "To bid type a number, in digits or in words (4 or four), or nil" in help_text


def test_a_help_line_broken_at_40_columns_goes_on_under_its_description(
        tmp_path: Path) -> None:
    """At 40 columns `?` broke "  n  numbers your cards with their numbers (they stay the
    same ...)" and went on at the keys' indent: "  numbers (they stay the same for the
    whole hand)" read as the command `numbers`. A description goes on under itself."""
    import io
    import os

    from spades.tui.console import Console, LineReader

    game = make_game(tmp_path)
    out = io.StringIO()
    game.console = Console(out, LineReader(os.pipe()[0]), columns=lambda: 40)
    assert game.command("?", None)
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 40 for line in lines), lines
    at = next(i for i, line in enumerate(lines) if line.startswith("  n  numbers "))
    assert lines[at] == "  n  numbers your cards with their"
    assert lines[at + 1] == " " * 13 + "numbers (they stay the same"
    assert lines[at + 2] == " " * 13 + "for the whole hand)"
    assert lines[at + 3].startswith("  t  trick   ")
    for line in lines:  # every further line of a command's is under its description
        if line.startswith("  ") and not line.startswith("   "):
            assert line[2] in "hntspirwq?" and line[3:5] == "  ", line
    assert any(line.startswith("To play a card type it") for line in lines)  # at column 0


def test_the_status_during_bidding_says_the_bids_so_far_not_a_contract_of_0() -> None:
    """`s` during the bidding said "East and West: contract 0, 0 tricks taken." of a side
    with a Nil bid and a bid still to come (and of sides that had not bid at all): a side
    has its contract once all its players have bid; until then the bids so far and who has
    yet to bid. Your side is "Your side (North and South)", as in the hand's details."""
    from spades.engine import Match, profile
    from spades.tui.game import deal_masks

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), dealer=2)  # West bids first, South (you) last
    match.deal(deal_masks(match, 5))
    assert text.status_lines(match, names, me=2)[2:4] == [
        "Your side (North and South): neither has bid yet.",
        "East and West: neither has bid yet."]
    match.apply(NIL)  # West: Nil
    match.apply(NIL + 8)  # North
    assert text.status_lines(match, names, me=2)[2:4] == [
        "Your side (North and South): North bid 8, you have yet to bid; no contract yet.",
        "East and West: West bid Nil, East has yet to bid; no contract yet."]
    assert text.status_lines(match, names)[2] == (
        "North and South: North bid 8, South has yet to bid; no contract yet.")
    match.apply(NIL + 2)  # East: East and West's contract is 2
    assert text.status_lines(match, names, me=2)[3] == "East and West: contract 2, 0 tricks taken."
    match.apply(NIL + 3)
    assert text.status_lines(match, names, me=2)[2] == (
        "Your side (North and South): contract 11, 0 tricks taken.")
    assert not any("contract 0" in line for line in text.status_lines(match, names, me=2))


def test_a_ten_led_from_the_six_ten_and_king_is_not_called_a_low_lead() -> None:
    """Your side had its tricks and you held the six, ten and king of diamonds; the hint
    said "Lead the ten of diamonds: your side has its tricks; a low lead avoids bags." The
    ten is not low, and not your lowest: the reason says why the ten rather than the six
    (it can still be beaten now; the six is kept)."""
    from spades.bots.hints import explain
    from spades.engine import Match, parse_card, profile
    from tests.bots.test_hint_texts import _deal

    match = Match(profile("cardems"), dealer=1)  # South (you) bids and leads first
    match.deal(_deal({0: "4H 7H", 1: "5H 8H", 2: "AH KH 6D TD KD", 3: "6H 9H"}, no_hearts=3))
    for bid in (1, 5, 1, 5):  # South, West, North, East: your side's contract is 2
        match.apply(NIL + bid)
    for card in ("AH", "6H", "4H", "5H", "KH", "9H", "7H", "8H"):  # South takes two tricks
        match.apply(parse_card(card))
    obs = match.observation(2)
    assert obs.seat == match.current_player and not obs.trick
    ten = explain(obs, parse_card("TD"))
    assert not re.search(r"\blow\b", ten), ten
    assert ten == ("Lead the ten of diamonds: your side has its tricks; higher diamonds are "
                   "still out to beat it now, while later it could take a trick and a bag, "
                   "and your lower six of diamonds is kept for later.")
    assert explain(obs, parse_card("6D")) == (
        "Lead the six of diamonds: your side has its tricks; a low lead avoids bags.")
    king = explain(obs, parse_card("KD"))
    assert "the ace of diamonds is still out to beat it now" in king, king
    assert "your lower six and ten of diamonds are kept for later" in king, king


def test_the_score_line_names_your_side_as_the_hands_details_do() -> None:
    """The score line ("Scores: North and South: 0 points, ...", in `s` and in the opening
    of a resumed game) named your side by its seats, where the hand's details say "Your
    side (North and South)". It says "Your side (North and South)" too (a side of one:
    "You"); told to nobody, the seats."""
    from spades.engine import Match, profile

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), dealer=2)
    assert text.scores_sentence(match, names, me=2) == (
        "Scores: Your side (North and South): 0 points, 0 bags; East and West: 0 points, "
        "0 bags.")
    assert text.status_lines(match, names, me=1)[-1] == (
        "Scores: North and South: 0 points, 0 bags; Your side (East and West): 0 points, "
        "0 bags.")
    assert text.scores_sentence(match, names) == (
        "Scores: North and South: 0 points, 0 bags; East and West: 0 points, 0 bags.")
    solo = Match(profile("race400", players=3), dealer=0)
    three = text.default_names(3, 0)
    assert text.scores_sentence(solo, three, me=0).startswith(
        f"Scores: You: 0 points, 0 bags; {three[1]}: 0 points, 0 bags; {three[2]}: ")


def test_the_status_names_your_partner_as_the_play_by_play_does(tmp_path: Path) -> None:
    """`s` said "North bid 8, 0 tricks" where the play-by-play says "your partner North";
    it says "your partner North bid 8, 0 tricks" now, and so does the "This hand so far"
    line of a resumed game (lower case after its colon)."""
    from spades.engine import Match, profile
    from spades.tui.game import deal_masks
    from tests.terminal.driver import run_cli

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), dealer=3)  # North bids first
    match.deal(deal_masks(match, 5))
    match.apply(NIL + 8)
    assert text.status_lines(match, names, me=2)[1] == (
        "Your partner North bid 8, 0 tricks; East has not bid yet, 0 tricks; you have not "
        "bid yet, 0 tricks; West has not bid yet, 0 tricks.")
    assert text.status_lines(match, names, me=1)[1].startswith("North bid 8, 0 tricks; you ")
    assert text.status_lines(match, names)[1].startswith("North bid 8, 0 tricks; East ")
    db = str(tmp_path / "r.db")
    run_cli("play", "--db", db, "--plain", "--seed", "3", "--opener", "east",
            "--cpu", "random", input="3\n1\nq\n")
    again = run_cli("play", "--resume", "last", "--db", db, "--plain", input="q\n").stdout
    so_far = next(line for line in again.splitlines() if line.startswith("This hand so far"))
    assert so_far.startswith("This hand so far: your partner North bid "), so_far
