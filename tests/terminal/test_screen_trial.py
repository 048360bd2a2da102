"""What a sighted player saw of ``spades play``'s richer view in terminals of several sizes,
each through a real pseudo-terminal: nothing cut by the terminal in the middle of a word or
a card, and the open trick laid out so that each seat's card stays with its name."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pexpect

from spades.engine import mask_of, parse_card
from spades.tui import text
from spades.tui.console import Console, LineReader, sheet_hang
from tests.terminal.driver import BID_PROMPT, MATCH_OVER, env, run_cli, spawn

ANSI = re.compile(r"\x1b\[[0-9;]*m")
EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def rich(db: Path, *args: str, columns: int) -> pexpect.spawn:
    e = env()
    e["TERM"] = "xterm"
    return pexpect.spawn(sys.executable, ["-m", "spades", "play", "--rich", "--db", str(db),
                                          *args], env=e, encoding="utf-8", timeout=30,
                         dimensions=(50, columns))


def shown(text: str) -> list[str]:
    """The screen's lines of ``text``, without colour codes."""
    return ANSI.sub("", text).replace("\r", "").split("\n")


def test_a_refusal_in_colour_breaks_between_words(tmp_path: Path) -> None:
    # In the richer view the red "Refused:" kept the whole refusal from being broken
    # between words: the terminal cut it at its width ("n lists the cards y" / "ou still
    # hold"), as all lines with a colour code were left whole.
    child = rich(tmp_path / "r.sqlite3", "--seed", "3", "--opener", "east", "--cpu", "random",
                 columns=40)
    child.expect(r"South, your bid: ")
    child.sendline("lots")
    child.expect(r"South, your bid: ")
    lines = [line for line in shown(child.before) if line]
    start = next(i for i, line in enumerate(lines) if line.startswith("Refused:"))
    refusal = lines[start:]
    assert len(refusal) > 1 and all(len(line) <= 40 for line in refusal), refusal
    assert " ".join(refusal) == (
        "Refused: 'lots' is not a bid: you can bid 0 to 13, or nil, in digits or words (4 or "
        "four); ? lists the commands. It is still your turn."), refusal
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_the_trick_fits_a_narrow_terminal(tmp_path: Path) -> None:
    # At 34 columns the row "West ·                      East 9♥" was cut by the terminal
    # between East's rank and suit; the trick now fits, West and East closer together.
    child = rich(tmp_path / "n.sqlite3", "--seed", "3", "--opener", "east", "--cpu", "random",
                 columns=34)
    child.expect(r"South, your bid: ")
    child.sendline("3")
    child.expect(r"South, your card: ")
    lines = shown(child.before)
    top = max(i for i, line in enumerate(lines) if line.strip().startswith("North "))
    table = lines[top:top + 3]
    assert all(len(line) <= 34 for line in table), table
    assert re.fullmatch(r"West · {3,}East \S+ led", table[1]), table
    assert table[2].strip() == "South ?", table
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_long_name_at_west_stays_apart_from_east(tmp_path: Path) -> None:
    # A West name longer than the row's first 28 columns ran into East's: "...Westmoreland
    # ?East 9♥".
    name = "Bartholomew the Great of Westmoreland"
    child = rich(tmp_path / "w.sqlite3", "--seat", "west", "--name", name, "--seed", "5",
                 "--opener", "north", "--cpu", "random", columns=100)
    child.expect(r", your bid: ")
    child.sendline("3")
    child.expect(r", your card: ")
    row = next(line for line in shown(child.before) if line.startswith(name + " "))
    assert re.fullmatch(re.escape(name) + r" \? {3,}East \S+", row), row
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_long_row_of_cards_goes_on_under_its_cards(tmp_path: Path) -> None:
    # A suit's row longer than the terminal (its cards have colour codes) was cut by the
    # terminal in the middle of a card; it breaks between cards, under the first card.
    hand = mask_of(parse_card(c) for c in ("2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h",
                                           "th", "jh", "qh", "kh", "ah"))
    r, _w = os.pipe()
    out = io.StringIO()
    console = Console(out, LineReader(r), rich=True, columns=lambda: 40)
    for row in text.hand_rich(hand, 0, symbols=True):
        console.say(row, hang=6)  # as the game says them (text.HAND_HANG)
    lines = shown(out.getvalue())[:-1]
    assert all(len(line) <= 40 for line in lines), lines
    assert lines[1].startswith("  ♥   1:2♥") and len(lines) > 2
    assert all(re.match(r" {6}\d+:", line) for line in lines[2:]), lines


def test_a_set_knob_refused_is_named_as_typed(tmp_path: Path) -> None:
    # "spades play --set spades_break=maybe" said "spades_break: must be ...": not the
    # option, nor what was typed; and "--timer 3" said "must be off or ...", while
    # "--timer off" is not accepted.
    db = str(tmp_path / "s.sqlite3")
    out = run_cli("play", "--db", db, "--set", "spades_break=maybe")
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "spades play: --set spades_break=maybe: must be 'any' or 'trump', not 'maybe'")
    out = run_cli("play", "--db", db, "--set", "foo=1")
    assert out.returncode == 2
    assert out.stderr.startswith("spades play: --set foo=1: unknown rules knob; known: ")
    out = run_cli("play", "--db", db, "--timer", "3")
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "spades play: --timer: must be a whole number of seconds, 5 to 600, not 3")
    assert not (tmp_path / "s.sqlite3").exists()


def test_the_list_to_resume_goes_on_under_each_game(tmp_path: Path) -> None:
    # At 60 columns a game of the list went on under its number, like a game of its own:
    # "  1. bfe21099, ..., hand 1: North and South 0 to" / "  East and West 0".
    db = tmp_path / "l.sqlite3"
    child = spawn(db, "--plain", "--seed", "3", "--cpu", "random", dimensions=(50, 60))
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child = spawn(db, "--plain", "--resume", dimensions=(50, 60))
    child.expect(r"Continuing the only one\.")
    lines = shown(child.before)
    start = next(i for i, line in enumerate(lines) if line.startswith("  1. "))
    rest = lines[start + 1:lines.index("", start)] if "" in lines[start:] else lines[start + 1:]
    assert rest and all(line.startswith("     ") and line[5] != " " for line in rest), lines
    assert all(len(line) <= 60 for line in lines), lines
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_the_help_keeps_the_commands_in_view_of_a_small_terminal(tmp_path: Path) -> None:
    # At 60x20 `?` scrolled its list of commands (h, n, t, s, p) off the screen: it came
    # first, followed by how to type cards and bids and five lines on how the hard and
    # expert CPUs adapt, said at a table of intermediate CPUs too.
    db = tmp_path / "h.sqlite3"
    child = spawn(db, "--plain", "--seed", "3", "--cpu", "intermediate", dimensions=(20, 60))
    child.expect(BID_PROMPT)
    child.sendline("?")
    child.expect(BID_PROMPT)
    screen = shown(child.before)[-20:-1]  # the 19 rows above the prompt's
    assert any(line.startswith("Commands, at any prompt") for line in screen), screen
    assert any(line.startswith("  h  hand") for line in screen), screen
    assert screen[-1].startswith("  ?  help"), screen
    assert "adapt" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    child = spawn(db, "--plain", "--seed", "3", "--cpu", "east=hard")
    child.expect(BID_PROMPT)
    child.sendline("?")
    child.expect(r"The hard and expert CPUs adapt: [^\r\n]*they never see hidden cards\.")
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_history_show_and_stats_break_between_words_at_a_terminal(tmp_path: Path) -> None:
    # In a terminal of 60 columns `spades show` printed "...; you sat Sou" / "th." and
    # "...; p" / "oints +40": its lines, and those of history and stats, were left to the
    # terminal to cut. They break between words as the game's do, an item of a list going
    # on two columns further in; piped, they stay whole.
    db = tmp_path / "s.sqlite3"
    child = spawn(db, "--plain", "--seed", "3", "--cpu", "random", "--one-hand", "--no-pause")
    while child.expect([r"Your (?:bid|card): ", MATCH_OVER]) == 0:
        child.sendline("i")
        child.expect(r"Hint: [^\r\n]*")
        hint = child.after
        child.expect(r"Your (?:bid|card): ")
        number = re.search(r"It is card (\d+)", hint)
        child.sendline(number.group(1) if number else "3")
    child.expect(pexpect.EOF)
    for command in (["history"], ["show", "last"], ["stats"]):
        whole = run_cli(*command, "--db", str(db)).stdout.splitlines()
        e = env()
        screen = pexpect.spawn(sys.executable, ["-m", "spades", *command, "--db", str(db)],
                               env=e, encoding="utf-8", timeout=30, dimensions=(50, 60))
        screen.expect(pexpect.EOF)
        lines = shown(screen.before)[:-1]
        assert all(len(line) <= 60 for line in lines), lines
        assert len(lines) > len(whole), (command, lines)
        # each whole line is its broken lines put together again, an item's going on two
        # columns further in than it starts; in the score sheet (show's lines after its
        # first) every line goes on further in than any row starts
        rest = iter(lines)
        for at, original in enumerate(whole):
            line = next(rest)
            indent = len(line) - len(line.lstrip(" "))
            hang = sheet_hang(line) if command[0] == "show" and at else indent + 2 if indent else 0
            while len(line) < len(original):
                more = next(rest)
                assert more.startswith(" " * hang + more.lstrip(" ")[:1])
                line += " " + more.lstrip(" ")
            assert line == original, (command, lines)
        assert next(rest, None) is None


def test_the_colour_view_says_spades_are_not_broken_yet_as_plain_does(tmp_path: Path) -> None:
    # The plain mode said "Spades are not broken yet." and the colour view "Spades are not
    # broken.": the same fact in other words.
    child = rich(tmp_path / "b.sqlite3", "--seed", "3", "--opener", "east", "--cpu", "random",
                 columns=80)
    child.expect(r"South, your bid: ")
    child.sendline("3")
    child.expect(r"South, your card: ")
    lines = shown(child.before)
    assert "Spades are not broken yet." in lines, lines
    assert "Spades are not broken." not in lines, lines
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_the_opening_says_where_a_named_player_sits(tmp_path: Path) -> None:
    # With --name the opening said "You are Ana; your partner is North.": not at which seat
    # Ana sits. It says so in both views, as the seats are named elsewhere ("you sit South").
    out = run_cli("play", "--plain", "--db", str(tmp_path / "p.sqlite3"), "--name", "Ana",
                  "--seed", "3", "--cpu", "random", input="q\n").stdout
    assert "You are Ana and sit South; your partner is North. CPU level: random.\n" in out, out
    out = run_cli("play", "--plain", "--db", str(tmp_path / "q.sqlite3"), "--seat", "east",
                  "--seed", "3", "--cpu", "random", input="q\n").stdout
    assert "You are East; your partner is West. CPU level: random.\n" in out, out
    child = rich(tmp_path / "r.sqlite3", "--name", "Ana", "--seat", "west", "--seed", "3",
                 "--cpu", "random", columns=80)
    child.expect(r"Ana, your bid: ")
    assert "You are Ana and sit West; your partner is East." in " ".join(shown(child.before))
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_the_trick_in_colour_marks_who_led_it(tmp_path: Path) -> None:
    # The colour view laid the open trick out round the table without saying whose card
    # led it (the plain mode names the seats in the order they played, the leader first).
    child = rich(tmp_path / "l.sqlite3", "--seat", "west", "--seed", "5", "--opener", "north",
                 "--cpu", "random", columns=80)
    child.expect(r"West, your bid: ")
    child.sendline("3")
    child.expect(r"West, your card: ")
    lines = shown(child.before)
    top = max(i for i, line in enumerate(lines) if line.strip().startswith("North "))
    table = lines[top:top + 3]
    assert re.fullmatch(r" *North \S+ led", table[0]), table
    assert re.fullmatch(r"West \? {3,}East \S+", table[1]), table
    assert re.fullmatch(r" *South \S+", table[2]), table
    child.sendline("q")
    child.expect(pexpect.EOF)


def continued_game(tmp_path: Path, names: list[str] | None = None) -> Path:
    """A database holding the example match stopped in hand 2, Sofia (South) to lead (the
    players named ``names`` when given)."""
    tmp_path.mkdir(exist_ok=True)
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    if names:
        record["names"] = names
    record["human"] = 2
    record["hands"] = record["hands"][:2]
    record["hands"][1]["plays"] = record["hands"][1]["plays"][:44]  # Sofia leads trick 12
    path = tmp_path / "continued.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    db = tmp_path / "c.sqlite3"
    assert run_cli("import", str(path), "--db", str(db)).returncode == 0
    return db


def test_the_score_sheet_in_a_narrow_terminal_goes_on_further_in(tmp_path: Path) -> None:
    # At 40 columns `p` broke a side's line ("  Nora and Sofia: Nora bid 4 took 5, Sofia")
    # and went on at the column it starts at ("  bid 4 took 4; points +81, ..."): a line
    # that looked like a row of its own. A line goes on further in than any row starts.
    db = continued_game(tmp_path)
    whole = run_cli("play", "--resume", "last", "--db", str(db), "--plain",
                    input="p\nq\n").stdout
    sheet = whole[whole.index("Score sheet: "):].splitlines()
    sheet = sheet[:next(i for i, line in enumerate(sheet) if "Your card: " in line)]
    for view in ("--plain", "--rich"):
        e = env()
        e["TERM"] = "xterm"
        child = pexpect.spawn(sys.executable, ["-m", "spades", "play", view, "--resume", "last",
                                               "--db", str(db)],
                              env=e, encoding="utf-8", timeout=30, dimensions=(50, 40))
        child.expect(r"(?:Sofia, y|Y)our card: ")
        child.sendline("p")
        child.expect(r"(?:Sofia, y|Y)our card: ")
        lines = shown(child.before)
        lines = lines[next(i for i, line in enumerate(lines) if line.startswith("Score sheet")):]
        lines = [line for line in lines if line]
        assert all(len(line) <= 40 for line in lines), lines
        assert len(lines) > len(sheet), lines
        rest = iter(lines)
        for original in sheet:  # each row starts where it does, and goes on at column 4 or 6
            line = next(rest)
            assert line.startswith(original[:20]), (original, lines)
            indent = len(line) - len(line.lstrip(" "))
            while len(line) < len(original):
                more = next(rest)
                assert re.match(" " * (indent + 2 if indent else 4) + r"\S", more), (more, lines)
                line += " " + more.lstrip(" ")
            assert line == original, lines
        assert next(rest, None) is None, lines
        child.sendline("q")
        child.expect(pexpect.EOF)


def test_the_opening_says_where_each_named_player_sits(tmp_path: Path) -> None:
    # A continued record's opening said "You are Sofia and sit South; your partner is
    # Nora.": Nora, Emil and Walt by their names alone, nowhere where they sit, while the
    # seats are how the table is laid out (the colour view's trick, the hints). Each named
    # player's seat is said once, in the opening.
    db = continued_game(tmp_path, names=["Nora (CPU)", "Emil (CPU)", "Sofia", "Walt (CPU)"])
    out = run_cli("play", "--resume", "last", "--db", str(db), "--plain", input="q\n").stdout
    assert ("\nYou are Sofia and sit South; your partner Nora sits North; Emil sits East and "
            "Walt sits West. CPU level: intermediate.\n") in out, out
    # a player named by the seat is not said to sit there ("North sits North")
    db = continued_game(tmp_path / "seats", names=["North", "Emil", "Sofia", "West"])
    out = run_cli("play", "--resume", "last", "--db", str(db), "--plain", input="q\n").stdout
    assert ("\nYou are Sofia and sit South; your partner is North; Emil sits East. "
            "CPU level: intermediate.\n") in out, out
