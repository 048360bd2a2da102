"""A blind player's trial of the terminal: what the listings read aloud."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.terminal.driver import run_cli

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def test_dates_read_aloud_without_a_leading_zero(tmp_path: Path) -> None:
    """`spades history` and `spades show` wrote "05 Dec 2026 08:58": read "zero five Dec".
    They write "5 December 2026 at 08:58"."""
    db = str(tmp_path / "g.db")
    assert run_cli("import", str(EXAMPLE), "--db", db).returncode == 0
    when = r"[1-9]\d? (January|February|March|April|May|June|July|August|September|October|"
    when += r"November|December) \d{4} at \d\d:\d\d"
    listing = run_cli("history", "--db", db).stdout
    assert re.search(rf"^  [0-9a-f]{{8}}, {when}, ", listing, re.M), listing
    shown = run_cli("show", "last", "--db", db).stdout
    assert re.search(rf"^Game [0-9a-f]{{8}}, started {when}; ", shown), shown


def test_the_score_sheet_and_the_history_say_and_not_ampersand_nor_a_dash(
        tmp_path: Path) -> None:
    """The sheet's title was "Score sheet — cardems, ..." and its sides "Nora & Sofia": a
    screen reader leaves the dash unsaid (or says "em dash") and reads "&" as "ampersand"
    or not at all. Words: "Score sheet: cardems, ...", "Nora and Sofia"; the history's
    scores too."""
    db = str(tmp_path / "g.db")
    assert run_cli("import", str(EXAMPLE), "--db", db).returncode == 0
    for out in (run_cli("show", "last", "--db", db).stdout,
                run_cli("replay", str(EXAMPLE)).stdout):
        assert "Score sheet: cardems, 4 players, target 500" in out, out
        assert "  Nora and Sofia: Nora bid 4 took 5, Sofia bid 4 took 4;" in out, out
        assert "Totals: Nora and Sofia 539" in out, out
        assert "—" not in out and "&" not in out, out
    listing = run_cli("history", "--db", db).stdout
    assert "won: Nora and Sofia 539 to Emil and Walt 526 (imported)" in listing, listing
    assert "&" not in listing, listing


def test_a_continued_records_cpus_are_said_to_be_cpus_once_in_the_sheet(
        tmp_path: Path) -> None:
    """A record of a match continued on the server names its CPUs "Nora (CPU)": the sheet
    said "Nora (CPU)" in every hand, twice a line. Once now, where its side is first named
    ("Nora (CPU) and Sofia: Nora bid 4 took 5, ..."), then "Nora"."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["names"] = ["Nora (CPU)", "Emil (CPU)", "Sofia", "Walt (CPU)"]
    path = tmp_path / "continued.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = run_cli("replay", str(path)).stdout
    for cpu in ("Nora", "Emil", "Walt"):
        assert out.count(f"{cpu} (CPU)") == 1, out
    assert "  Nora (CPU) and Sofia: Nora bid 4 took 5, Sofia bid 4 took 4;" in out, out
    assert "  Emil (CPU) and Walt (CPU): Emil bid 2 took 2, Walt bid 1 took 2;" in out, out
    assert "Hand 2 (dealer Emil):\n  Nora and Sofia: Nora bid 3 took 3" in out, out


def test_a_continued_records_cpus_are_said_to_be_cpus_once_in_the_terminal(
        tmp_path: Path) -> None:
    """Resuming a continued record at the terminal said "Nora (CPU)" in every event, in
    the hand's details twice a line ("Nora (CPU) and Sofia bid 4 ...", "Nora (CPU) and
    Sofia: +42 this hand") and in the status. The opening says the marks once; the play
    says "Nora"; a block (the details, the status, the sheet) marks each CPU where it
    first names it."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["names"] = ["Nora (CPU)", "Emil (CPU)", "Sofia", "Walt (CPU)"]
    record["human"] = 2
    record["hands"] = record["hands"][:2]
    record["hands"][1]["plays"] = record["hands"][1]["plays"][:44]  # Sofia leads trick 12
    path = tmp_path / "continued.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    db = str(tmp_path / "g.db")
    assert run_cli("import", str(path), "--db", db).returncode == 0
    # Sofia holds the ten and the jack of spades, cards 6 and 7 of her hand
    out = run_cli("play", "--resume", "last", "--db", db, "--plain",
                  input="6\n7\ns\nq\n").stdout
    opening, _, rest = out.partition("Your card: ")
    assert ("Spades, cardems rules: Nora (CPU) and Sofia against Emil (CPU) and Walt (CPU), "
            "to 500 points.\nYou are Sofia and sit South; your partner Nora sits North; Emil sits "
            "East and Walt sits West. CPU level: intermediate.\n"
            "Scores: Your side (Nora and Sofia): 81 points, 1 bag; Emil and Walt: 31 points, 1 bag.\n"
            in opening), opening
    play, _, details = rest.partition("Hand 2 in detail:\n")
    assert "Your partner Nora plays the eight of spades." in play, play
    assert details, out
    assert "(CPU)" not in play, play
    details, _, status = details.partition("Press Enter for the next hand")
    assert details.startswith("Your side (Nora (CPU) and Sofia) bid 4 and took 6: contract "
                              "made, +40.\n"), details
    assert "\nYour side: +42 this hand, 123 in all, 3 bags.\n" in details, details
    assert "\nEmil (CPU) and Walt (CPU) bid 6 and took 7: " in details, details
    assert "\nEmil and Walt: +61 this hand, 92 in all, 2 bags." in details, details
    for block in (details, status):
        for cpu in ("Nora", "Emil", "Walt"):
            assert block.count(f"{cpu} (CPU)") == 1, block
    assert "Scores: Your side (Nora and Sofia): 123 points, 3 bags; Emil and Walt: 92 points" in status


def test_a_game_resumed_after_the_bidding_says_the_bids(tmp_path: Path) -> None:
    """Resumed in the middle of a hand, the game told the scores and the open trick but
    not the bids (a blind player had to think of `s` to learn their partner's Nil or the
    contract they play for). It says each player's bid and tricks so far."""
    db = str(tmp_path / "r.db")
    first = run_cli("play", "--db", db, "--plain", "--seed", "3", "--opener", "east",
                    "--cpu", "random", input="3\n1\nq\n").stdout
    assert "You play the five of hearts." in first, first
    again = run_cli("play", "--resume", "last", "--db", db, "--plain", input="q\n").stdout
    lines = again.splitlines()
    at = lines.index("Scores: Your side (North and South): 0 points, 0 bags; East and West: "
                     "0 points, 0 bags.")
    assert re.fullmatch(r"This hand so far: your partner North bid (Nil|\d+), \d tricks?; "
                        r"East bid (Nil|\d+), \d tricks?; you bid 3, 0 tricks; "
                        r"West bid (Nil|\d+), \d tricks?\.",
                        lines[at + 1]), lines
    assert lines[at + 2].startswith("Your turn. This trick: "), lines


def test_the_trick_command_tells_your_own_lead_as_yours() -> None:
    """`t` at your own lead said "No card has been played to this trick yet; South leads."
    where everything else says "you" ("Your turn to lead.", the status)."""
    import random

    from spades.engine import Match, profile
    from spades.tui import text

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), rng=random.Random(5), dealer=1)  # South leads
    while match.phase == "bid":
        match.apply(match.legal_actions()[0])
    assert text.trick_sentence(match.observation(2), names) == (
        "No card has been played to this trick yet; you lead. Spades are not broken yet.")
    assert text.trick_sentence(match.observation(0), names).startswith(
        "No card has been played to this trick yet; your partner South leads.")
