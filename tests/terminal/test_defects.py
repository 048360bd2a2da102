"""Issue 11's terminal defects, each through a real pseudo-terminal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tests.terminal.driver import BID_PROMPT, CARD_PROMPT, env, run_cli, saved_game, spawn


def test_signs_and_odd_digits_are_read_or_refused_clearly(tmp_path: Path) -> None:
    child = spawn(tmp_path / "d.sqlite3", "--plain", "--seed", "3", "--opener", "east",
                  "--cpu", "random")
    child.expect(BID_PROMPT)
    for typed, reason in [("-1", r"Refused: a bid cannot be negative \(-1\): type a number "
                                 r"from 0 to 13, or nil\. It is still your turn\."),
                          ("²", r"Refused: '²' is not a number that can be read here: type "
                                r"it with the digits 0 to 9\. It is still your turn\.")]:
        child.sendline(typed)
        child.expect(reason)
        child.expect(BID_PROMPT)
    child.sendline("+3")
    child.expect(r"You bid 3\.")
    child.expect(CARD_PROMPT)
    for typed, reason in [("-11", r"Refused: there is no card number -11: your cards are "
                                  r"numbered 1 to 13 for this hand\."),
                          ("²", r"Refused: '²' is not a number that can be read here")]:
        child.sendline(typed)
        child.expect(reason)
        child.expect(CARD_PROMPT)
    child.sendline("+1")  # East led a heart; the 5 of hearts is card 1 and may be played
    child.expect(r"You play the five of hearts\.")
    child.expect(CARD_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_rich_view_on_an_ascii_terminal(tmp_path: Path) -> None:
    e = env()
    e["TERM"] = "xterm"
    e["PYTHONIOENCODING"] = "ascii"
    child = pexpect.spawn(sys.executable, ["-m", "spades", "play", "--rich", "--db",
                                           str(tmp_path / "a.sqlite3"), "--seed", "3",
                                           "--opener", "east", "--cpu", "random"],
                          env=e, encoding="ascii", codec_errors="replace", timeout=30,
                          dimensions=(50, 120))
    child.expect(r"South, your bid: ")
    child.sendline("3")
    child.expect(r"South, your card: ")
    assert "North ." in child.before  # the empty places of the trick
    for command, reply in [("p", r"Score sheet: cardems"), ("r", r"Rules: cardems")]:
        child.sendline(command)
        child.expect(reply)
        child.expect(r"South, your card: ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    child.close()
    assert child.exitstatus == 0


def test_seats_at_six_players_are_named_by_where_they_sit(tmp_path: Path) -> None:
    child = spawn(tmp_path / "s.sqlite3", "--plain", "--rules", "race400", "--players", "6",
                  "--teams", "2+2+2", "--seed", "3", "--cpu", "random")
    child.expect(r"Spades, race400 rules: North and South against Northeast and Southwest "
                 r"against Southeast and Northwest, to 400 points\.")
    child.expect(r"You are North; your partner is South\.")
    child.expect(BID_PROMPT)
    assert "Seat " not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_name_that_is_another_seats_is_refused(tmp_path: Path) -> None:
    out = run_cli("play", "--db", str(tmp_path / "n.sqlite3"), "--name", "North")
    assert out.returncode == 2
    assert ("--name North: that is the name of another seat at this table (seat 0); choose "
            "another name, or sit there with --seat north") in out.stderr
    assert "Traceback" not in out.stderr


def test_resume_last(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    none = run_cli("play", "--db", str(db), "--resume", "last")
    assert none.returncode == 1 and "There is no unfinished game to resume" in none.stdout
    child = spawn(db, "--plain", "--seed", "3")
    game = saved_game(child)
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child = spawn(db, "--plain", "--resume", "last")
    child.expect(rf"Resuming game {game}")
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_timer_keeps_typed_text_apart_and_shows_it_at_the_warning(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    child = spawn(db, "--plain", "--one-hand", "--timer", "5", "--seed", "4", "--opener",
                  "south", "--cpu", "random")
    child.expect(r"You have 5 seconds\.\r?\n")
    child.expect(BID_PROMPT)
    child.send("x")  # typed, never entered
    child.expect(r"3 seconds left\.\r?\nYour bid: x", timeout=8)
    child.expect(r"Time is up for you: the game bids for you[^\r\n]*\.", timeout=8)
    child.expect(r"What you had typed \(x\) was not used\.")
    child.expect(r"You have 5 seconds\.\r?\n")
    child.expect(CARD_PROMPT)
    child.sendline("t")  # read as the trick command, not as "xt"
    child.expect(r"(This trick: |No card has been played to this trick yet)")
    child.expect(CARD_PROMPT)
    child.send("p")
    child.expect(r"3 seconds left\.\r?\nYour card: p", timeout=8)
    child.sendline("")  # what the screen shows is what is entered: the score sheet
    child.expect(r"Totals: North and South 0 \(1 bag\); East and West 0 \(0 bags\)")
    child.expect(CARD_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_hand_summary_once_per_side_then_the_next_deal(tmp_path: Path) -> None:
    from tests.terminal.driver import PAUSE_PROMPT, listing_cards

    child = spawn(tmp_path / "h.sqlite3", "--plain", "--seed", "5", "--cpu", "random",
                  "--opener", "south", "--nil", "--target", "2000")
    child.expect(BID_PROMPT)
    child.sendline("nil")
    seen = ""
    while True:
        i = child.expect([CARD_PROMPT, PAUSE_PROMPT])
        seen += child.before
        if i == 1:
            break
        child.sendline(listing_cards(child.before)[0])
    summary = seen[seen.index("Hand 1 scored: "):]
    lines = [line for line in summary.splitlines() if line.strip()]
    assert seen.count("Hand 1 scored: ") == 1 and seen.count("Hand 1 in detail:") == 1
    assert lines[1] == "Hand 1 in detail:"  # the details follow the hand's score
    assert ("Your Nil is broken." in seen) != ("Your Nil is made." in seen)  # told once
    assert any(line.startswith("Your Nil ") for line in lines)  # as the play says it
    for who in ("Your side", "East and West"):
        assert sum(line.startswith(f"{who}: ") and "this hand" in line for line in lines) == 1
    assert any("contract made" in line or "contract set" in line for line in lines)
    child.sendline("")
    child.expect(r"Hand 2: you deal and West bids first\.")
    assert "Hand 1 scored: " not in child.before
    child.expect(r"Your (bid|card): ")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_every_command_writes_ascii_stand_ins_on_an_ascii_terminal(tmp_path: Path) -> None:
    """hint, show and replay print as the game does on an ASCII terminal: QH, -, ..."""
    import json
    import subprocess

    from spades.bots import make_bot
    from spades.engine import Match, profile

    db = tmp_path / "a.sqlite3"
    child = spawn(db, "--plain", "--seed", "5")
    saved_game(child)
    child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    match = Match.new(profile("cardems"), seed=5)
    bot = make_bot("intermediate", seed=1)
    for _ in range(7):
        match.apply(bot.act(match.observation(match.current_player)))
    record = tmp_path / "mid.json"
    record.write_text(json.dumps(match.to_record()), encoding="utf-8")
    example = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
    e = env()
    e["PYTHONIOENCODING"] = "ascii"
    for args, expected in [(["hint", str(record)], "holds 5H 10H"),
                           (["show", "last", "--db", str(db)], "Score sheet: cardems"),
                           (["replay", str(example)], "Score sheet: cardems")]:
        done = subprocess.run([sys.executable, "-m", "spades", *args], capture_output=True,
                              env=e, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        out = done.stdout.decode("ascii")  # every byte is ASCII
        assert expected in out and "\\u" not in out and "Traceback" not in out


def test_stats_refuses_an_unknown_rules_profile_as_play_does(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    stats = run_cli("stats", "--rules", "nope", "--db", db)
    play = run_cli("play", "--rules", "nope", "--db", db)
    assert stats.returncode == play.returncode == 2
    assert "unknown rules profile 'nope'; choose one of cardems" in stats.stderr
    assert stats.stderr.split(": ", 1)[1] == play.stderr.split(": ", 1)[1]
    assert "No games played yet" not in stats.stdout
    assert "No games played yet under race400 rules" in run_cli(
        "stats", "--rules", "race400", "--db", db).stdout


def _one_hand_played(tmp_path: Path) -> Path:
    """A record of a cardems match stopped between hands 1 and 2."""
    import json

    from spades.bots import make_bot
    from spades.engine import Match, profile
    from spades.tui.game import deal_masks

    match = Match(profile("cardems"), dealer=0)
    match.deal(deal_masks(match, 7))
    bot = make_bot("intermediate", 1)
    while not match.results:
        match.apply(bot.act(match.observation(match.current_player)))
    assert match.phase == "deal"
    path = tmp_path / "one-hand.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    return path


def test_resuming_between_hands_says_the_next_hand(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite3")
    assert run_cli("import", str(_one_hand_played(tmp_path)), "--db", db).returncode == 0
    out = run_cli("play", "--resume", "last", "--plain", "--db", db, input="q\n").stdout
    # (the rules are said once, on the line after it: "Spades, cardems rules: ...")
    assert re.search(r"Resuming game \w+: hand 2 is next \(hand 1 is over\)\.\r?\n"
                     r"Spades, cardems rules: ", out), out
    assert "hand 1." not in out.split("Resuming game", 1)[1].splitlines()[0]
    assert "Hand 2:" in out


def test_resume_refuses_options_that_set_the_rules(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite3")
    assert run_cli("import", str(_one_hand_played(tmp_path)), "--db", db).returncode == 0
    for extra in (["--rules", "race400"], ["--rules", "cardems"], ["--target", "300"]):
        done = run_cli("play", "--resume", "last", "--plain", "--db", db, *extra, input="q\n")
        assert done.returncode == 2, done.stdout
        assert f"spades play: {extra[0]}: a resumed game keeps the rules it was started " \
               "with" in done.stderr
        assert "Resuming game" not in done.stdout
    kept = run_cli("play", "--resume", "last", "--plain", "--db", db, "--seed", "3",
                   input="q\n")
    assert kept.returncode == 0
    assert "Resuming: the options for a new game (--seed) are not used." in kept.stdout


def test_the_saved_message_after_ctrl_d_starts_its_own_line(tmp_path: Path) -> None:
    done = run_cli("play", "--plain", "--seed", "5", "--db", str(tmp_path / "d.sqlite3"),
                   input="")
    assert done.returncode == 0
    assert "Your bid: \nThe game is saved. Resume it with:" in done.stdout


def test_commands_that_only_read_do_not_create_a_database(tmp_path: Path) -> None:
    db = tmp_path / "nothing here" / "new.sqlite3"
    for args, status, said in [(["show", "last"], 1, "no saved games yet"),
                               (["export", "last"], 1, "no saved games yet"),
                               (["history"], 0, "No saved games yet"),
                               (["stats"], 0, "No games played yet")]:
        done = run_cli(*args, "--db", str(db))
        assert done.returncode == status and said in done.stdout + done.stderr
        assert not db.exists() and not db.parent.exists(), args


def test_a_hint_reads_as_one_sentence_with_the_record_spelling_after() -> None:
    # Before: "Hint: bids 2 (2). Bid 2: a cautious bid ..." said the action twice, as a verb
    # in the third person.
    out = run_cli("hint", "--hand", "KS 5C QH 5D 8S JH TH 2S 4C 9H 2H JS TC")
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[-1]
    assert line.startswith("Hint: Bid 2: ") and line.endswith(" [2]"), line
    assert "bids" not in line


def test_resume_last_is_the_game_last_played_not_the_last_started(tmp_path: Path) -> None:
    db = str(tmp_path / "p.sqlite3")
    ids = []
    for seed in ("1", "2"):
        out = run_cli("play", "--plain", "--seed", seed, "--db", db, input="q\n").stdout
        ids.append(re.search(r"Game ([0-9a-f]{8}) is saved as you play", out).group(1))
    played = run_cli("play", "--plain", "--resume", ids[0], "--db", db, input="3\nq\n").stdout
    assert "You bid 3." in played
    out = run_cli("play", "--plain", "--resume", "last", "--db", db, input="q\n").stdout
    assert f"Resuming game {ids[0]}" in out
    listed = run_cli("history", "--db", db).stdout
    assert listed.index(ids[0]) < listed.index(ids[1])
    assert run_cli("show", "last", "--db", db).stdout == run_cli("show", ids[0], "--db", db).stdout


def _refusals(out: str) -> list[str]:
    return re.findall(r"(?:Refused: |What you had typed |is not one of the numbers)[^\r\n]*",
                      out)


def test_long_junk_is_quoted_short_at_the_bid_and_the_card_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path / "j.sqlite3", "--plain", "--seed", "3", "--opener", "east",
                  "--cpu", "random")
    child.expect(BID_PROMPT)
    child.sendline("x" * 3000)
    child.expect(r"Refused: ([^\r\n]*)\r?\n")
    assert child.match.group(1) == (
        "'xxxxxxxxxxxxxxxxxxxx...' is not a bid: you can bid 0 to 13, or nil, in digits or "
        "words (4 or four); ? lists the commands. It is still your turn.")
    child.expect(BID_PROMPT)
    child.sendline("3")
    child.expect(CARD_PROMPT)
    child.sendline("y" * 3000)
    child.expect(r"Refused: ([^\r\n]*)\r?\n")
    assert child.match.group(1).startswith("'yyyyyyyyyyyyyyyyyyyy...' is not a card or a command")
    child.expect(CARD_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_long_junk_piped_in_is_quoted_short(tmp_path: Path) -> None:
    db = str(tmp_path / "k.sqlite3")
    out = run_cli("play", "--plain", "--seed", "1", "--db", db,
                  input="x" * 200_000 + "\nq\n").stdout
    # (each refusal says what is read: a bid's, "you can bid 0 to 13, or nil, ...", is longer)
    assert _refusals(out) and all(len(line) < 160 for line in _refusals(out)), _refusals(out)
    run_cli("play", "--plain", "--seed", "2", "--db", db, input="q\n")
    out = run_cli("play", "--plain", "--resume", "--db", db,
                  input="z" * 200_000 + "\nq\n").stdout
    assert ("'zzzzzzzzzzzzzzzzzzzz...' is not one of the numbers 1 to 2, nor the start of "
            "one of these games' ids.") in out
    assert len(out) < 5000


def test_long_junk_under_the_timer_is_quoted_short(tmp_path: Path) -> None:
    child = spawn(tmp_path / "u.sqlite3", "--plain", "--one-hand", "--timer", "5", "--seed",
                  "4", "--opener", "south", "--cpu", "random")
    child.expect(BID_PROMPT)
    child.sendline("x" * 3000)
    child.expect(r"Refused: ([^\r\n]*)\r?\n")
    assert child.match.group(1).startswith("'xxxxxxxxxxxxxxxxxxxx...' is not a bid: ")
    assert len(child.match.group(1)) < 160  # (with what is read: "you can bid 0 to 13, ...")
    child.expect(BID_PROMPT)
    child.send("w" * 3000)  # typed, never entered
    child.expect(r"What you had typed \(([^\r\n]*)\) was not used\.", timeout=15)
    assert child.match.group(1) == "wwwwwwwwwwwwwwwwwwww..."
    child.expect(CARD_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_any_bid_too_large_is_refused_with_the_range(tmp_path: Path) -> None:
    child = spawn(tmp_path / "b.sqlite3", "--plain", "--seed", "3", "--opener", "east",
                  "--cpu", "random")
    child.expect(BID_PROMPT)
    for typed in ("14", "18", "19", "30", "99", "999999"):
        child.sendline(typed)
        child.expect(r"Refused: ([^\r\n]*)\r?\n")
        assert child.match.group(1) == f"a bid must be from 0 to 13, not {typed}. It is " \
                                       "still your turn.", typed
        child.expect(BID_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_bid_too_large_under_other_bidding_rules_gives_their_reason(tmp_path: Path) -> None:
    out = run_cli("play", "--plain", "--seed", "3", "--opener", "east", "--cpu", "random",
                  "--set", "bidding=whiz", "--db", str(tmp_path / "w.sqlite3"),
                  input="18\n30\nq\n").stdout
    refusals = re.findall(r"Refused: ([^\r\n]*)", out)
    assert len(refusals) == 2 and refusals[0] == refusals[1], refusals
    assert refusals[0].startswith("whiz bidding: the bid must be nil or the number of spades")


def test_the_bid_prompt_says_what_a_bid_is_and_the_card_prompt_what_a_card_is(
        tmp_path: Path) -> None:
    child = spawn(tmp_path / "i.sqlite3", "--plain", "--seed", "3", "--opener", "east",
                  "--cpu", "random")
    child.expect(r"Type a bid: 0 to 13, or nil\.\r?\n" + BID_PROMPT)
    assert "Type a card" not in child.before
    child.sendline("3")
    child.expect(r"Type a card by its number or its name, like qh or queen of hearts; n lists "
                 r"the numbers\.\r?\n" + CARD_PROMPT)
    assert "Type a bid" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_the_bid_prompt_names_the_bids_of_other_rules(tmp_path: Path) -> None:
    def bid_lines(*options: str) -> list[str]:
        out = run_cli("play", "--plain", "--seed", "3", "--opener", "east", "--cpu", "random",
                      *options, "--db", str(tmp_path / f"{len(options)}.sqlite3"),
                      input="q\n").stdout
        assert "Type a card" not in out
        return re.findall(r"Type a bid: [^\r\n]*", out)

    assert bid_lines("--set", "nil=false") == ["Type a bid: 1 to 13."]
    assert bid_lines("--set", "bidding=whiz", "--set", "blind_nil=false") \
        == ["Type a bid: 2, or nil."]


def test_show_says_the_place_you_sat_and_the_name_you_played_under(tmp_path: Path) -> None:
    # With --name Bob, spades show said "you sat Bob." (a name, not a place).
    db = str(tmp_path / "g.sqlite3")
    run_cli("play", "--plain", "--seed", "3", "--name", "Bob", "--db", db, input="q\n")
    run_cli("play", "--plain", "--seed", "4", "--db", db, input="q\n")
    shown = run_cli("show", "last", "--db", db).stdout
    assert "; you sat South. Result:" in shown, shown
    games = re.findall(r"\b([0-9a-f]{8})\b", run_cli("history", "--db", db).stdout)
    named = [run_cli("show", g, "--db", db).stdout for g in games]
    assert any("; you sat South as Bob. Result:" in s for s in named), named


def test_an_imported_records_human_true_is_no_seat(tmp_path: Path) -> None:
    # "human": true was taken as seat 1 (a bool is an int): the game was then shown from
    # East's side. A human that is not a seat number is ignored, as other bad values are.
    import json

    from spades.engine import Match, profile

    db = str(tmp_path / "g.sqlite3")
    record = Match.new(profile("cardems"), seed=3).to_record(human=True)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert run_cli("import", str(path), "--db", db).returncode == 0
    shown = run_cli("show", "last", "--db", db).stdout
    assert "; you sat South." in shown, shown


def test_the_whole_hand_is_read_after_blind_nil_before_what_may_be_played(tmp_path: Path) -> None:
    # After blind nil (no bid prompt after looking) only "You can play, 10 cards: ..." was
    # read: the spades, which may not be led yet, were never named.
    db = str(tmp_path / "g.sqlite3")
    out = run_cli("play", "--plain", "--rules", "cards4net", "--seed", "16", "--opener", "south",
                  "--db", db, input="blind nil\nq\n").stdout
    after = out[out.index("You bid Blind Nil."):]
    assert "Your hand, 13 cards: " in after and "spades: five, eight, jack" in after, after
    assert after.index("Your hand, 13 cards: ") < after.index("You can play, 10 cards: ")


def test_a_resume_during_others_bids_tells_the_bids_so_far(tmp_path: Path) -> None:
    # It said "Bidding is under way; no card has been played." and never the bids made.
    import json
    import random

    from spades.engine import Match, bid_action, profile

    db = str(tmp_path / "g.sqlite3")
    match = Match(profile("cardems"), rng=random.Random(5), dealer=3)  # North bids first
    match.apply(bid_action(3))
    record = tmp_path / "r.json"
    record.write_text(json.dumps(match.to_record(human=2)), encoding="utf-8")
    assert run_cli("import", str(record), "--db", db).returncode == 0
    out = run_cli("play", "--plain", "--resume", "last", "--db", db, input="q\n").stdout
    assert ("Bidding is under way (bids so far: your partner North 3); no card has been "
            "played.") in out, out


def test_a_resume_mid_hand_numbers_only_the_cards_still_held(tmp_path: Path) -> None:
    # "Your cards are numbered for this hand ...: hearts 1 to 3, ..., clubs 8 to 13" named
    # the numbers of every card dealt, those played too ("clubs 8" with no club left).
    import json
    import random

    from spades.engine import Match, profile
    from spades.tui import text

    db = str(tmp_path / "g.sqlite3")
    match = Match(profile("cardems"), rng=random.Random(5), dealer=1)  # South leads
    while match.phase == "bid":
        match.apply(match.legal_actions()[-1] if match.current_player != 2 else
                    match.legal_actions()[3])
    while len(match.log[-1].plays) < 20:  # five tricks
        match.apply(match.legal_actions()[0])
    dealt, held = match.log[-1].deal[2], match.hands[2]
    record = tmp_path / "r.json"
    record.write_text(json.dumps(match.to_record(human=2)), encoding="utf-8")
    assert run_cli("import", str(record), "--db", db).returncode == 0
    out = run_cli("play", "--plain", "--resume", "last", "--db", db, input="q\n").stdout
    said = re.search(r"keep their numbers until it is over: (.*)\.\n", out)
    assert said, out
    named: set[int] = set()
    for span in re.findall(r"\d+(?: to \d+)?", said.group(1)):
        a, _, b = span.partition(" to ")
        named |= set(range(int(a), int(b or a) + 1))
    numbers = text.card_numbers(dealt)
    assert named == {numbers[c] for c in numbers if held >> c & 1}, (said.group(1), out)


def test_your_own_card_in_the_trick_is_told_as_yours() -> None:
    # On a resume mid-trick it said "This trick: South played the three of hearts" of
    # the reader's own card.
    import random

    from spades.engine import Match, profile
    from spades.tui import text

    match = Match(profile("cardems"), rng=random.Random(5), dealer=1)  # South leads
    while match.phase == "bid":
        match.apply(match.legal_actions()[0])
    match.apply(match.legal_actions()[0])
    said = text.trick_sentence(match.observation(2), ["North", "East", "South", "West"])
    assert said.startswith("This trick: you led the "), said


def test_the_cpu_line_says_which_seat_plays_at_which_level(tmp_path: Path) -> None:
    """It listed the levels alone ("CPU level: cmd:false, intermediate."), not whose."""
    db = str(tmp_path / "c.sqlite3")
    for cpus, said in [(["--cpu", "west=cmd:false"],
                        "CPU players: West cmd:false, North and East intermediate."),
                       (["--cpu", "hard", "--cpu", "north=random"],
                        "CPU players: East and West hard, North random."),
                       (["--cpu", "beginner"], "CPU level: beginner."),
                       ([], "CPU level: intermediate.")]:
        out = run_cli("play", "--plain", "--seed", "3", "--db", db, *cpus, input="q\n").stdout
        assert f"You are South; your partner is North. {said}\n" in out, out[:400]


def test_leaving_the_resume_chooser_says_nothing_was_resumed(tmp_path: Path) -> None:
    """q, Ctrl-D and Ctrl-C at "Which game?" left without a word."""
    db = tmp_path / "q.sqlite3"
    for seed in ("1", "2"):
        run_cli("play", "--plain", "--seed", seed, "--db", str(db), input="q\n")
    for typed, tail in [("q\n", "(Enter for 1, q to quit): Nothing resumed.\n"),
                        ("", "(Enter for 1, q to quit): \nNothing resumed.\n")]:
        done = run_cli("play", "--plain", "--resume", "--db", str(db), input=typed)
        assert done.returncode == 0 and done.stdout.endswith(tail), done.stdout[-200:]
    child = spawn(db, "--plain", "--resume")
    child.expect(r"Which game\? ")
    child.sendintr()
    child.expect(r"\r\nNothing resumed\.\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # as Ctrl-C during a game


@pytest.mark.parametrize("mode", ["--plain", "normal"])
def test_the_timeout_is_told_on_a_line_of_its_own(tmp_path: Path, mode: str) -> None:
    """Nothing typed until the timer runs out: the prompt's line ends, and "Time is up"
    starts a line of its own (not "Your bid: Time is up..."), in line mode and in the
    normal (colour) view."""
    e = env()
    args = ["-m", "spades", "play", "--db", str(tmp_path / "t.sqlite3"), "--one-hand",
            "--timer", "5", "--seed", "4", "--opener", "south", "--cpu", "random"]
    if mode == "--plain":
        args.append("--plain")
    else:
        e["TERM"] = "xterm"  # a real terminal: the normal view is the colour one
    child = pexpect.spawn(sys.executable, args, env=e, encoding="utf-8", timeout=30,
                          dimensions=(50, 200))
    prompt = r"Your (bid|card): " if mode == "--plain" else r"South, your (bid|card): "
    for _ in range(2):  # the bid, then the first card
        child.expect(r"You have 5 seconds\.")
        child.expect(prompt)
        child.expect(r"Time is up for you", timeout=10)
        shown = re.sub(r"\x1b\[[0-9;]*m", "", child.before)
        assert shown.endswith("\r\n"), repr(shown[-80:])
        last = shown.rstrip("\r\n").rpartition("\n")[2]
        assert last.strip() in ("Your bid:", "Your card:", "South, your bid:",
                                "South, your card:"), repr(shown[-80:])
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("command", [["play", "--plain"], ["import", "RECORD"]])
def test_a_db_path_in_a_folder_that_does_not_exist_is_refused(tmp_path: Path,
                                                              command: list[str]) -> None:
    """``--db`` naming a file in a folder that is not there (a typo) is refused with the
    path and the reason, exit status 2, and nothing is made (the folder was made)."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"format": "spades-record/1", "rules": "cardems",
                                  "hands": []}), encoding="utf-8")
    db = tmp_path / "nosuchdir" / "x.db"
    args = [str(record) if a == "RECORD" else a for a in command]
    done = run_cli(*args, "--db", str(db), input="")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr == (f"spades {command[0]}: --db {db}: the folder {db.parent} does not "
                           "exist; make it first, or give a path in a folder that exists\n")
    assert not db.parent.exists()


def test_a_spades_db_in_a_folder_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    """``$SPADES_DB`` is a path the user gave, like ``--db``: a missing folder is refused
    (status 2, the variable named), not made."""
    db = tmp_path / "nosuchdir" / "x.db"
    e = env()
    e["SPADES_DB"] = str(db)
    done = subprocess.run([sys.executable, "-m", "spades", "play", "--plain", "--seed", "5"],
                          capture_output=True, text=True, env=e, input="", timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr == (f"spades play: $SPADES_DB {db}: the folder {db.parent} does not "
                           "exist; make it first, or give a path in a folder that exists\n")
    assert not db.parent.exists()


def test_import_with_a_seat_no_table_has_is_a_usage_error(tmp_path: Path) -> None:
    """``--seat 9`` fits no record (tables have 3 to 6 seats): refused once, status 2, before
    any record is read, not said again as each record's error (status 1)."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"format": "spades-record/1", "rules": "cardems",
                                  "hands": []}), encoding="utf-8")
    done = run_cli("import", str(record), "--seat", "9", "--db", str(tmp_path / "g.db"))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("spades import: --seat: '9' is not a seat"), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "g.db").exists()


def test_the_default_database_folder_is_still_made(tmp_path: Path) -> None:
    e = env()
    e["XDG_DATA_HOME"] = str(tmp_path / "data")
    done = subprocess.run([sys.executable, "-m", "spades", "play", "--plain", "--seed", "5"],
                          capture_output=True, text=True, env=e, input="", timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "spades" / "spades.sqlite3").is_file()


def test_export_does_not_replace_a_file_without_force(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite3"
    assert run_cli("play", "--plain", "--seed", "5", "--db", str(db), input="").returncode == 0
    target = tmp_path / "game.json"
    target.write_text("my notes\n", encoding="utf-8")
    done = run_cli("export", "last", str(target), "--db", str(db))
    assert done.returncode == 1
    assert done.stderr == f"spades export: {target} exists; use --force to replace it\n"
    assert target.read_text(encoding="utf-8") == "my notes\n"
    done = run_cli("export", "last", str(target), "--force", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "spades-record/1"
    fresh = tmp_path / "new.json"
    assert run_cli("export", "last", str(fresh), "--db", str(db)).returncode == 0
    assert fresh.read_text(encoding="utf-8") == target.read_text(encoding="utf-8")
    for args in ([], ["-"], ["-", "--force"]):  # standard output, as before
        done = run_cli("export", "last", *args, "--db", str(db))
        assert done.returncode == 0 and json.loads(done.stdout)["format"] == "spades-record/1"
    assert "--force" in run_cli("export", "--help").stdout


def test_the_time_left_is_said_after_a_look_and_a_command(tmp_path: Path) -> None:
    """With the turn timer, "look" shows the hand and asks for the bid again within the same
    turn, whose clock runs on: the prompt came back without the seconds left (only "You have
    30 seconds." before the look). Now they are said before the prompt comes back, after a
    look and after a command (the status, the hint) too."""
    child = spawn(tmp_path / "l.sqlite3", "--plain", "--one-hand", "--rules", "cards4net",
                  "--timer", "30", "--seed", "7", "--opener", "south", "--cpu", "random")
    child.expect(r"You have 30 seconds\.\r?\n")
    child.expect(BID_PROMPT)
    child.sendline("look")
    child.expect(r"You look at your cards\.")
    child.expect(r"Type a bid: [^\r\n]*\r?\n")
    child.expect(r"\A(You have (\d+) seconds left\.\r?\n)")
    assert 1 <= int(child.match.group(2)) <= 30
    child.expect(r"\AYour bid: ")
    child.sendline("s")
    child.expect(r"Scores: [^\r\n]*\r?\n")
    child.expect(r"\AYou have \d+ seconds? left\.\r?\nYour bid: ")
    child.sendline("2")
    child.expect(r"You bid 2\.")
    child.expect(r"You have 30 seconds\.\r?\n")
    child.expect(CARD_PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
