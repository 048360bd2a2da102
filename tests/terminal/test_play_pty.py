"""A whole match of ``spades play`` through a pseudo-terminal: bids, plays, a refused
card, every command, a kill -9 and a resume in the middle of a trick, quit and resume,
then export, replay and import of the record."""

from __future__ import annotations

import json
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest

from spades.store import Store
from tests.terminal.driver import (
    BID_PROMPT,
    CARD_PROMPT,
    MATCH_OVER,
    PAUSE_PROMPT,
    export,
    listing_cards,
    numbered,
    run_cli,
    saved_game,
    spawn,
)

ARGS = ("--plain", "--seed", "11", "--target", "150", "--cpu", "intermediate")


def test_whole_match_with_commands_kill_resume_export_import(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    child = spawn(db, *ARGS)
    game = saved_game(child)

    # The first bid: every command, then bad bids, then a good one.
    child.expect(BID_PROMPT)
    assert "Your hand, 13 cards: hearts:" in child.before or "Your hand, 13 cards:" in child.before
    for command, reply in [
        ("?", r"Commands, at any prompt"), ("help", r"q  quit"),
        ("h", r"Your hand, 13 cards:"), ("hand", r"Your hand, 13 cards:"),
        ("t", r"Bidding is under way \((bids so far: [^)]*|nobody has bid yet)\); no card has "
              r"been played\. Spades are not broken yet\."),
        ("s", r"; you have not bid yet, 0 tricks;"),
        ("status", r"Scores: Your side \(North and South\): 0 points"),
        ("p", r"Score sheet: cardems"), ("sheet", r"No hand has been scored yet"),
        ("i", r"Hint: (Bid|Look)[^\r\n]+"), ("r", r"Rules: cardems, 4 players"),
        ("rules", r"The first side to reach 150 points"),
        ("w", r"Saved: every move is stored"), ("save", r"Resume it any time with"),
    ]:
        child.sendline(command)
        child.expect(reply)
        child.expect(BID_PROMPT)
    for bad, reason in [("14", r"Refused: a bid must be from 0 to 13, not 14\. It is still"),
                        ("QH", r"Refused: it is time to bid, not to play a card"),
                        ("lots", r"Refused: 'lots' is not a bid")]:
        child.sendline(bad)
        child.expect(reason)
        child.expect(BID_PROMPT)
    child.sendline("3")
    child.expect(r"You bid 3\.")

    refused = kills = quits = 0
    turns = 0
    hands_seen = 1
    while True:
        i = child.expect([CARD_PROMPT, BID_PROMPT, PAUSE_PROMPT, MATCH_OVER])
        if i == 3:
            break
        if i == 2:
            hands_seen += 1
            if hands_seen == 2:  # commands at the pause between hands
                child.sendline("p")
                child.expect(r"Hand 1 \(dealer")
                child.expect(PAUSE_PROMPT)
            child.sendline("")
            continue
        if i == 1:
            child.sendline("nil" if hands_seen % 2 == 0 else "2")
            continue
        turns += 1
        before = child.before
        cards = listing_cards(before)
        trick = re.findall(r"Your turn\. This trick: ([^\r\n]*)\r?\n", before)
        if trick and turns > 2 and "You can play" in before and not refused:
            # A card not allowed now: refused with the reason, nothing changes.
            child.sendline("n")  # the numbers, which have not moved since the deal
            child.expect(r"Card numbers: [^\r\n]*\.\r?\n")
            numbers = numbered(child.after)
            assert sorted(numbers.values()) == list(numbers.values())
            child.expect(CARD_PROMPT)
            wrong = next(n for name, n in numbers.items() if name not in cards)
            child.sendline(str(wrong))
            child.expect(r"Refused: (must follow suit|[^\r\n]*)\. It is still your turn\.")
            # ... and the cards that may be played instead, with their numbers.
            offered = numbered(child.after, title="You can play")
            assert offered == {name: numbers[name] for name in cards}, child.after
            refused += 1
            child.expect(CARD_PROMPT)
            child.sendline("t")
            child.expect(re.escape("This trick: " + trick[-1].split("This trick: ")[-1]))
            child.expect(CARD_PROMPT)
            child.sendline("h")
            child.expect(r"Your hand, \d+ cards")
            child.expect(CARD_PROMPT)
            child.sendline("i")
            child.expect(r"Hint: [^\r\n]*It is card \d+ in your hand\.")
            child.expect(CARD_PROMPT)
        if trick and turns > 4 and kills == 0:
            # kill -9 at our turn in the middle of a trick, then resume: same trick, same hand.
            hand_line = re.findall(r"((?:You can play|Your hand), [^\r\n]*)", before)[-1]
            child.kill(signal.SIGKILL)
            child.wait()
            child = spawn(db, "--plain", "--resume")
            child.expect(r"Continuing the only one\.")
            child.expect(rf"Resuming game {game}")
            child.expect(CARD_PROMPT)
            assert trick[-1] in child.before
            assert hand_line in child.before
            kills += 1
            before = child.before
        if trick and turns > 8 and kills == 1:
            # kill -9 just after our card is announced: the card is not lost.
            played_before = sum(len(h["plays"]) for h in export(db)["hands"])
            child.sendline(cards[0])
            child.expect(r"You play the ([a-z ]+)\.\r?\n")
            card = child.match.group(1)
            child.kill(signal.SIGKILL)
            child.wait()
            record = export(db)
            plays = [p for h in record["hands"] for p in h["plays"]]
            assert len(plays) >= played_before + 1
            assert card in _names(plays[played_before:played_before + 1])
            child = spawn(db, "--plain", "--resume", game)
            child.expect(rf"Resuming game {game}")
            kills += 1
            continue
        if turns == 14 and quits == 0:
            child.sendline("q")
            child.expect(r"The game is saved\. Resume it with: spades play --resume")
            child.expect(pexpect.EOF)
            child = spawn(db, "--plain", "--resume")
            child.expect(r"Continuing the only one\.")
            quits += 1
            continue
        child.sendline(cards[0])
    # The score sheet after the match's last event, to its line's end (matched as far as the
    # output had come, it once ended in the middle of a score: "Totals: North and South -").
    child.expect(r"Totals: [^\r\n]*\r?\n")
    final = child.after
    child.expect(r"see its score sheet with spades show " + game)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert refused == 1 and kills == 2 and quits == 1 and hands_seen >= 2

    # Export: the record replays to the same result; import it back and show it.
    out_file = db.parent / "match.json"
    done = run_cli("export", game, str(out_file), "--db", str(db))
    assert done.returncode == 0, done.stderr
    replayed = run_cli("replay", "--json", str(out_file))
    assert replayed.returncode == 0, replayed.stdout
    result = json.loads(replayed.stdout)
    assert result["finished"] is True
    for score in result["scores"]:
        assert str(score) in final
    store = Store.open(db)
    stored = store.find_game(game)
    assert stored.status == "finished" and stored.result == result
    store.close()
    imported = run_cli("import", str(out_file), "--db", str(db))
    assert imported.returncode == 0, imported.stderr
    new_id = re.search(r"Imported as game ([0-9a-f]{8}) \(finished\)", imported.stdout)
    assert new_id, imported.stdout
    shown = run_cli("show", new_id.group(1), "--db", str(db))
    original = run_cli("show", game, "--db", str(db))
    assert shown.returncode == original.returncode == 0
    sheet = lambda s: s[s.index("Score sheet"):]  # noqa: E731
    assert sheet(shown.stdout) == sheet(original.stdout)
    history = run_cli("history", "--db", str(db))
    assert history.stdout.count(", won: ") + history.stdout.count(", lost: ") == 2
    stats = run_cli("stats", "--db", str(db), "--json")
    book = json.loads(stats.stdout)
    assert book["by_profile"]["cardems"]["matches_played"] == 1  # the import is a copy
    assert book["total"]["hands_played"] == len(result["hands"])


def _names(cards: list[str]) -> str:
    from spades.engine import card_name, parse_card

    return " ".join(card_name(parse_card(c)) for c in cards)


def test_turn_timer_counts_down_and_plays_with_a_penalty_bag(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    child = spawn(db, "--plain", "--one-hand", "--timer", "5", "--seed", "4", "--opener",
                  "south", "--cpu", "random")
    child.expect(r"You have 5 seconds\.")
    child.expect(BID_PROMPT)
    child.expect(r"3 seconds left\.", timeout=8)
    child.expect(r"Time is up for you: the game bids for you, and your side takes 1 penalty "
                 r"bag, 1 bag now\.", timeout=8)
    child.expect(r"You bid (\d+|nil)\.")
    child.expect(CARD_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    record = export(db)
    assert record["hands"][0]["timeouts"] == [{"bid": 1}]


@pytest.mark.parametrize("args, message", [
    (["--rules", "nope"], "unknown rules profile 'nope'"),
    (["--players", "5"], "players: cardems is played by 4 players, not 5 (race400"),
    # (was "race400 is played by 3 or 4 or 5 or 6 players, not 7 (race400 is played by 3 to 6)")
    (["--rules", "race400", "--players", "7"], "players: race400 is played by 3 to 6 players, "
                                               "not 7\n"),
    (["--seat", "up"], "--seat: 'up' is not a seat"),
    (["--cpu", "godlike"], "unknown CPU level 'godlike'"),
    # (was "turn_timer: must be off (null) or ...": the rules knob, not the option typed)
    (["--timer", "2"], "--timer: must be a whole number of seconds, 5 to 600, not 2"),
    (["--rules", "race400", "--players", "5", "--teams", "0,1/2,3"],
     "--teams: every seat 0 to 4 must be on exactly one side, not 0,1/2,3"),
    (["--bag-limit", "0"], "--bag-limit: must be a whole number 1 or more, not 0"),
    # (were "bidding: ..." and "blind_nil: ...": the rules knobs, not the options typed)
    (["--no-nil", "--bidding", "suicide"],
     "spades play: --bidding suicide: suicide bidding needs Nil to be allowed\n"),
    (["--blind-nil", "--bidding", "mirror"],
     "spades play: --blind-nil: mirror bidding has no blind nil\n"),
    (["--rules", "race400", "--players", "5", "--teams", "teams"], "not possible with 5"),
    (["--set", "bogus=1"], "--set bogus=1: unknown rules knob"),
    (["--resume", "ffffffff"], "no game with id 'ffffffff'"),
    # said with spades play's usage, not the top-level one ("usage: spades [-h] ... COMMAND")
    (["--bogus"], "usage: spades play [-h]"),
    (["--bogus"], "spades play: error: unrecognized arguments: --bogus"),
])
def test_bad_options_get_a_clear_error(tmp_path: Path, args: list[str], message: str) -> None:
    out = run_cli("play", "--db", str(tmp_path / "x.sqlite3"), *args)
    assert out.returncode in (1, 2)
    assert message in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("args, message", [
    (["history", "--db", "NOT-A-DATABASE"], "cannot open the database"),
    (["show", "nope"], "no game with id 'nope'"),
    (["export", "last"], "there are no saved games yet"),
    (["import", "/no/such/file.json"], "cannot read /no/such/file.json"),
])
def test_game_commands_explain_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    if "--db" not in args:
        args = [*args, "--db", str(tmp_path / "empty.sqlite3")]
    if "NOT-A-DATABASE" in args:  # a file that is there but is not a database
        garbage = tmp_path / "garbage.sqlite3"
        garbage.write_text("not a database\n", encoding="utf-8")
        args = [str(garbage) if a == "NOT-A-DATABASE" else a for a in args]
    out = run_cli(*args)
    # A file that cannot be read: 2, as for spades replay and spades hint (docs/records.md).
    assert out.returncode == (2 if args[0] == "import" else 1)
    assert message in out.stderr
    assert "Traceback" not in out.stderr
    assert out.stderr.count("cannot open the database") <= 1, out.stderr  # (it was said twice)


def test_import_refuses_a_broken_record_and_history_stats_start_empty(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    bad = tmp_path / "bad.json"
    bad.write_text('{"rules": "cardems", "hands": [{"dealer": 0, "deal": [], "bids": []}]}')
    out = run_cli("import", str(bad), "--db", db)
    assert out.returncode == 1 and "hand 1: deal:" in out.stderr
    assert "No saved games yet" in run_cli("history", "--db", db).stdout
    assert "No games played yet" in run_cli("stats", "--db", db).stdout


def test_rich_view_when_the_terminal_supports_it(tmp_path: Path) -> None:
    from tests.terminal.driver import env

    e = env()
    e["TERM"] = "xterm-256color"
    e.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "spades", "play", "--db",
                                           str(tmp_path / "r.sqlite3"), "--seed", "3",
                                           "--opener", "east", "--cpu", "random"],
                          env=e, encoding="utf-8", timeout=30, dimensions=(50, 120))
    child.expect(r"South, your bid: ")
    assert "\x1b[31m" in child.before  # red hearts or diamonds
    assert re.search(r"♥|♦", child.before)
    child.sendline("2")
    child.expect(r"South, your card: ")
    # East led, so the trick is laid out round the table with South to play.
    assert re.search(r"North .*\r\n.*West .*East .*\r\n +South \x1b\[1m\?", child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_the_line_view_breaks_long_lines_between_words_at_a_narrow_terminal(
        tmp_path: Path) -> None:
    """At 40 columns `spades play --plain` wrote its long lines whole, and the terminal cut
    them wherever its width ended, in the middle of words. They are broken between words,
    no line longer than the terminal; piped, every sentence stays on one line."""
    child = spawn(tmp_path / "w.sqlite3", "--plain", "--seed", "3", "--opener", "east",
                  "--cpu", "random", dimensions=(20, 40))
    child.expect(r"Your\s+bid: ")
    said = child.before + child.after
    lines = said.replace("\r\n", "\n").split("\n")
    assert all(len(line) <= 40 for line in lines), [x for x in lines if len(x) > 40]
    words = " ".join(said.split())  # the lines joined again: every sentence whole
    assert "Your cards are numbered for this hand, and keep their numbers until it is over:" \
        in words, words
    assert re.search(r"Your hand, 13 cards: hearts: [a-z, ;:]+\.", words), words
    child.sendline("?")
    child.expect(r"Your\s+bid: ")
    lines = child.before.replace("\r\n", "\n").split("\n")
    assert all(len(line) <= 40 for line in lines), [x for x in lines if len(x) > 40]
    child.sendline("q")
    child.expect(pexpect.EOF)
    piped = run_cli("play", "--db", str(tmp_path / "p.sqlite3"), "--plain", "--seed", "3",
                    "--opener", "east", "--cpu", "random", input="q\n").stdout
    assert re.search(r"^Your cards are numbered for this hand, and keep their numbers until "
                     r"it is over: hearts 1 to \d+, .*\.$", piped, re.M), piped
