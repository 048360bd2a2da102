"""A blind player's trial of how ``spades play --plain`` ends a hand and a match: the hand's
details name the rule behind a number (10 for 200, the contract bonuses), ``look`` with the
cards already seen is answered, not refused, and whole matches played to their end under
the profiles and variants say who won (you, your side, a player or side by name, a draw)
and why."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from spades.engine import LOOK, NIL, OVER, profile
from spades.tui import text
from tests.tables import scored_hands
from tests.terminal.driver import (
    BID_PROMPT,
    CARD_PROMPT,
    PAUSE_PROMPT,
    listing_cards,
    run_cli,
    spawn,
)
from tests.terminal.test_console_text import make_game

#: At most this many bids of yours before a match is taken to be stuck.
MAX_BIDS = 30


def _details(game_out: str, hand: int = 1) -> list[str]:
    """The lines of hand ``hand``'s details, up to the next blank line or match result."""
    lines = game_out.split(f"Hand {hand} in detail:\n", 1)[1].splitlines()
    end = next((i for i, line in enumerate(lines)
                if not line or " the match " in line), len(lines))
    return lines[:end]


def test_a_contract_of_10_under_10_for_200_says_the_rule_in_the_hands_details(
        tmp_path: Path) -> None:
    """With 10 for 200 on, a side that bid 10 was told "bid 10 and took 8: contract set,
    -200." (or +200 made): -200 for a contract of 10, with nothing to say why (the rule is
    only in `r`). The line names the rule, in the words `r` uses for it."""
    from spades.present.rules import ten_for_200_words

    game = make_game(tmp_path, "cards4net", ten_for_200=True, one_hand=True)
    game.pause = False
    game.deal()
    game.commit(2, LOOK)  # South looks at the cards ...
    game.commit(2, NIL + 5)  # ... and bids 5; West 1, North 5 (a contract of 10), East 1
    for bid in (1, 5, 1):
        game.commit(game.match.current_player, NIL + bid)
    while game.match.phase is not OVER:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    out = game.console.out.getvalue()  # type: ignore[attr-defined]
    rule = ten_for_200_words(game.match.rules)
    assert rule == "10 for 200: a contract of exactly 10 scores +200 made, -200 set"
    first = _details(out)[0]
    assert re.fullmatch(r"Your side \(North and South\) bid 10 and took \d+: contract "
                        rf"(made, \+200|set, -200) \({re.escape(rule)}\)\.", first), first
    east_west = next(line for line in _details(out) if line.startswith("East and West bid"))
    assert "10 for 200" not in east_west, east_west  # a contract of 2: the rule is not said
    said = " ".join(text.rules_lines(game.match.rules, game.names))  # r: the same words
    assert f"a set contract loses 10 per trick bid ({rule})." in said, said


def test_a_bonus_in_the_hands_details_says_which_bonus(tmp_path: Path) -> None:
    """race400's details said "Bonus: +20." (or +30) without saying for what: the small
    contract bonus or the hard one, which `r` explains. The line says it as `r` does."""
    from spades.engine import Match
    from spades.tui.cpu import make_cpu

    rules = profile("race400", players=3, target=5000)  # (hands enough to see both)
    said = text.rules_lines(rules, text.default_names(3, 0))
    assert "A contract of 1 or 2 made exactly earns +20." in said, said
    assert "A made contract above 9 earns +10 for each trick above it." in said, said
    match = Match.new(rules, seed=3)
    bots = [make_cpu("intermediate", 30 + s)[0] for s in range(3)]
    seen: set[str] = set()
    for result in scored_hands(match, bots, 60):
        if len(seen) == 2:
            break
        for line in text.result_lines(result, rules, text.default_names(3, 0)):
            if line.startswith("Bonus: "):
                assert line in ("Bonus: +20 for a contract of 1 or 2 made exactly.",
                                *(f"Bonus: +{10 * n} for a made contract above 9, 10 for "
                                  "each trick above it." for n in range(1, 9))), line
                seen.add(line.split()[1])
    assert "+20" in seen and len(seen) == 2, seen  # both kinds


def test_look_with_the_cards_already_seen_is_answered_not_refused(tmp_path: Path) -> None:
    """`look` after looking (blind nil offered to the first bidder) answered "Refused: the
    cards have already been seen.": an error for a harmless request, unlike `w` ("every
    move is already saved") or `n` before looking. It says the cards are shown and how to
    hear them; the same in the play, and between hands there is no hand to look at."""
    db = str(tmp_path / "look.db")
    out = run_cli("play", "--db", db, "--plain", "--rules", "cards4net", "--opener", "south",
                  "--seed", "7", "--cpu", "random", "--one-hand",
                  input="look\nlook\nh\n3\nlook\nq\n").stdout
    assert "Refused" not in out, out
    shown = "Your cards are already shown: type h to hear your hand, or n for their numbers."
    assert out.count(shown) == 2, out
    at = out.index(shown)
    assert out.index("You look at your cards.") < at < out.index("You bid 3.")
    assert "Your hand, 13 cards: " in out[at:out.index("You bid 3.")]  # h, as it says
    from tests.terminal.test_console_text import pipe_console

    game = make_game(tmp_path / "pause", "cards4net")
    game.console, between, _w = pipe_console(b"look\n\n")
    game.hand_pause()  # between hands: nothing to look at, and what to do instead
    said = between.getvalue()
    assert said.count("No hand is being played: press Enter to deal the next hand.") == 1, said
    assert "not a command" not in said, said


def _play_to_the_end(tmp_path: Path, *args: str) -> str:
    """A whole match of ``spades play --plain ARGS``: you look at your cards (where you may
    bid blind nil), bid 2 (or the first bid the rules leave you), play the first card you
    may, and press Enter between hands; the transcript."""
    child = spawn(tmp_path / "end.db", "--plain", *args, timeout=60)
    out: list[str] = []
    bids = 0
    while True:
        i = child.expect([CARD_PROMPT, BID_PROMPT, PAUSE_PROMPT, pexpect.EOF])
        out.append(child.before)
        if i == 3:
            break
        if i == 2:
            child.sendline("")
        elif i == 1:
            bids += 1
            assert bids <= MAX_BIDS, "".join(out)[-2000:]
            if "type blind nil, or look to see them" in child.before:  # first to bid
                child.sendline("look")
                continue
            offered = re.findall(r"Type a bid: ([^\r\n]*)\.", child.before)[-1]
            low, _, high = offered.partition(" to ")
            ok = ("2" in re.findall(r"\d+", offered)
                  or (high and int(low) <= 2 <= int(high.split(",")[0])))
            child.sendline("2" if ok else re.findall(r"\d+|nil", offered)[0])
        else:
            child.sendline(listing_cards(child.before)[0])
    child.close()
    assert child.exitstatus == 0
    return "".join(out).replace("\r", "")


ENDINGS = [
    # (options, the winner's sentence, the reason's sentence)
    (("--seed", "1", "--target", "100"),
     "You and your partner North win the match with 119 points.",
     "The first side to reach 100 points with the highest score wins; a tie at the top "
     "plays on. Final scores: your side 119, East and West -25."),
    (("--rules", "cardems", "--target", "150", "--bag-limit", "4", "--seed", "10"),
     "East and West win the match with 170 points.",
     "The first side to reach 150 points with the highest score wins; a tie at the top "
     "plays on. Final scores: East and West 170, your side 91; your side's bag penalty this "
     "hand cost it 100 points."),
    (("--rules", "race400", "--seed", "3", "--target", "60"),
     "East wins the match with 63 points.",
     "The first player to reach 60 points with the highest score wins; a tie at the top "
     "plays on. Final scores: East 63, West 61, North 51, you 1."),
    (("--rules", "race400", "--players", "3", "--target", "100", "--bag-limit", "4",
      "--seed", "46"),
     "Southeast wins the match with 102 points.",
     "The first player to reach 100 points with the highest score wins; a tie at the top "
     "plays on. Final scores: Southeast 102, you 43, Southwest 5; Southwest's bag penalty "
     "this hand cost them 100 points."),
    (("--rules", "race400", "--players", "3", "--jokers", "--target", "60", "--seed", "7",
      "--cpu", "random"),
     "You win the match with 65 points.",
     "The first player to reach 60 points with the highest score wins; a tie at the top "
     "plays on. Final scores: you 65, Southwest -63, Southeast -210."),
    (("--rules", "race400", "--players", "6", "--teams", "2+2+2", "--seed", "4",
      "--target", "60"),
     "Northeast and Southwest win the match with 120 points.",
     "The first side to reach 60 points with the highest score wins; a tie at the top plays "
     "on. Final scores: Northeast and Southwest 120, your side 30, Southeast and Northwest "
     "-40."),
    (("--rules", "cards4net", "--bidding", "mirror", "--seed", "6", "--target", "100"),
     "You and your partner North win the match with 131 points.",
     "The first side to reach 100 points with the highest score wins; a tie at the top "
     "plays on. Final scores: your side 131, East and West 30."),
    (("--rules", "cards4net", "--bidding", "suicide", "--seed", "6", "--one-hand"),
     "East and West win the match with -48 points.",
     "One-hand match: the higher score after one hand wins; equal scores draw. Final "
     "scores: East and West -48, your side -76."),
    (("--rules", "cards4net", "--bidding", "whiz", "--seed", "2", "--one-hand", "--seat",
      "west"),
     "You and your partner East win the match with 62 points.",
     "One-hand match: the higher score after one hand wins; equal scores draw. Final "
     "scores: your side 62, North and South -59."),
    (("--rules", "game93", "--one-hand", "--seed", "1", "--cpu", "random"),
     "The match is a draw at -110 points.",
     "One-hand match: the higher score after one hand wins; equal scores draw. Final "
     "scores: your side -110, East and West -110."),
    (("--one-hand", "--seed", "1", "--cpu", "random"),
     "The match is a draw at -110 points.",
     "One-hand match: the higher score after one hand wins; equal scores draw. Final "
     "scores: your side -110, East and West -110."),
    (("--rules", "race400", "--players", "3", "--one-hand", "--seed", "39", "--cpu",
      "beginner"),
     "The match is a draw at 34 points: Southeast ties with Southwest.",
     "One-hand match: the higher score after one hand wins; equal scores draw. Final "
     "scores: Southeast 34, Southwest 34, you 21."),
]


@pytest.mark.parametrize(("args", "winner", "reason"), ENDINGS,
                         ids=[" ".join(a) for a, _, _ in ENDINGS])
def test_a_match_played_to_its_end_says_who_won_and_why(
        tmp_path: Path, args: tuple[str, ...], winner: str, reason: str | None) -> None:
    """The end of a match said only "East and West win the match with 170 points.": not
    the rule that decided it (a one-hand match's higher score, even below zero; the target
    reached with the highest score), the scores it was decided against, nor that a bag
    penalty in the last hand cost a side the match. After the winner's sentence the game
    says why, in the words of `r`, with every side's final score, highest first, as the
    play names them (you, your side); the score sheet's last line names the winner or,
    with three sides or more, who drew."""
    out = _play_to_the_end(tmp_path, "--no-pause", "--cpu", "intermediate", *args)
    lines = out.splitlines()
    at = lines.index(winner)
    assert lines.count(winner) == 1
    said = lines[at + 1]
    if reason is not None:
        assert said == reason, said
    assert said.startswith(("The first ", "One-hand match: ")) and " Final scores: " in said
    assert lines[at + 2] == "" and lines[at + 3].startswith("Score sheet: ")
    sheet_end = next(line for line in lines[at + 3:] if line.startswith(("Winner: ",
                                                                      "The match is a draw")))
    if "draw" in winner and "ties with" in winner:
        tied = winner.split(": ", 1)[1].removesuffix(".").split(" ties with ")
        assert sheet_end == (f"The match is a draw: {tied[0]} and {tied[1]} tie at "
                             f"{winner.split(' at ')[1].split(' ')[0]} points."), sheet_end
    elif "draw" in winner:
        assert sheet_end == "The match is a draw.", sheet_end
    else:
        assert sheet_end.startswith("Winner: "), sheet_end


def test_a_resumed_finished_match_says_the_result_as_the_play_does(tmp_path: Path) -> None:
    """A match whose last card was stored but whose end was never told (the program killed
    then) said on resume "North and South win the match: North and South 41, East and West
    80." (no "you"), where the play says "You and your partner North win the match with 41
    points.", and after the score sheet, not before it as the play does. It says the play's
    sentence, then why, then the score sheet."""
    from spades.engine import MatchOver
    from spades.store import rebuild
    from spades.tui.game import TerminalGame
    from tests.terminal.test_console_text import pipe_console

    game = make_game(tmp_path, one_hand=True)
    game.pause = False
    game.deal()
    while game.match.phase is not OVER:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    game.store.update_game(game.game_id, status="active")
    console, again, _w = pipe_console()
    resumed = TerminalGame(game.store, game.game_id,
                           rebuild(game.match.rules, 1, game.store.events(game.game_id)),
                           console, names=list(text.COMPASS), human=2,
                           levels=["random", "random", None, "random"], seed=5)
    assert resumed.run() == 0
    out = again.getvalue()
    m = game.match
    said = game.narrator.say(MatchOver(m.winner, tuple(m.scores)))
    assert said.startswith(("You and your partner North ", "East and West ",
                            "The match is a draw")), said
    lines = out.splitlines()
    assert said in lines, out
    at = lines.index(said)
    assert lines[at + 1] == text.match_end_reason(m, game.names, me=2)
    assert lines[at + 2] == "" and lines[at + 3].startswith("Score sheet: ")  # as in the play
