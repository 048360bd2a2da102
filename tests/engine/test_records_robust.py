"""The malformed records of issue 15, each one error line saying where, through the real
``spades replay`` command: the records around them are still scored, and nothing prints a
traceback."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades.cli.replay import read_records
from spades.engine import Match, RecordError, Rules, replay, summary
from spades.engine.records import record_names
from spades.engine.rules import shown

EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
GOOD: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
GOOD_LINE = json.dumps(GOOD).encode()
SHORT = {"rules": "cardems", "hands": []}


def spades_replay(data: bytes, tmp_path: Path, *flags: str) -> tuple[int, list[str], str]:
    path = tmp_path / "records.jsonl"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "spades", "replay", str(path), *flags],
                          capture_output=True, timeout=120, check=False)
    return done.returncode, done.stdout.decode("utf-8").splitlines(), done.stderr.decode()


# (the bad line, the start of its error)
BAD_LINES: list[tuple[bytes, str]] = [
    (b'{"rules":{"preset":"cardems","name":"x"},"hands":[]}',
     "rules: name: 'x' is not the preset 'cardems'"),
    (b'{"rules":{"preset":"custom","name":7},"hands":[]}',
     "rules: name: must be text of 1 to 100 characters, not 7"),
    (b"[" * 1000 + b"]" * 1000, "line 2: not JSON that can be read: nested too deeply"),
    (b"[" * 100_000 + b"]" * 100_000, "line 2: not JSON that can be read: nested too deeply"),
    (b'{"rules":"cardems","hands":' + b"[" * 500 + b"]" * 500 + b"}",
     "hand 1: must be an object with dealer, deal, bids and plays, not a list of 1 item"),
    (b'{"rules":' + b'{"a":' * 900 + b"1" + b"}" * 900 + b',"hands":[]}',
     "rules: an object needs \"preset\""),
    (b'{"rules":"cardems","hands":[], "id": \xff\xfe}', "line 2: not UTF-8 text: byte 0xff"),
    (b'{"rules":"cardems","hands":[],"id":' + b"7" * 5000 + b"}",
     "line 2: not JSON that can be read: a number has too many digits"),
    (b'{"rules":{"preset":"cardems","target":NaN},"hands":[]}',
     "rules: target: must be a whole number 1 or more, not nan"),
    (b'{"rules":{"preset":"cardems","target":1e999},"hands":[]}',
     "rules: target: must be a whole number 1 or more, not inf"),
    (b'{"rules":{"preset":"cardems","players":[[4]]},"hands":[]}',
     "rules: players: must be a number, true or false, text or null, not a list of 1 item"),
    (b'{"rules":{"preset":"race400","teams":[[0,"2"],[1,3]]},"hands":[]}',
     "rules: teams: side 0: a seat must be a whole number, not '2'"),
    (b'{"rules":{"preset":"cardems","\\ud800\\n":1},"hands":[]}',
     "rules: '\\ud800\\n': unknown rules knob"),
    (b'{"rules":"' + b"x" * 100_000 + b'","hands":[]}', "rules: unknown rules profile 'xxx"),
    (b'{"rules":"cardems","hands":[{"dealer":3,"deal":[[{"c":1}],[],[],[]]}]}',
     "hand 1: deal: seat 0: a card must be text like 'AS', not {'c': 1}"),
    (b'{"rules":"cardems","hands":[{"dealer":3,"deal":' + json.dumps(GOOD["hands"][0]["deal"])
     .encode() + b',"bids":["\xc2\xb2"]}]}', "hand 1, bid 1: '\u00b2' is not a bid"),
    (b'{"rules":"cardems","hands":[{"dealer":3,"deal":' + json.dumps(GOOD["hands"][0]["deal"])
     .encode() + b',"bids":["' + b"9" * 5000 + b'"]}]}', "hand 1, bid 1: '99999"),
    (b'{"rules":"cardems","hands":[{"dealer":3,"deal":' + json.dumps(GOOD["hands"][0]["deal"])
     .encode() + b',"bids":[1,1,1,1],"plays":[[["AS"]]]}]}',
     "hand 1, play 1: a card must be text like 'AS', not a list of 1 item"),
    (b'{"rules":"cardems","hands":[{"dealer":3,"deal":[],"timeouts":[{"bid":[1]}]}]}',
     "hand 1: deal: 0 hands do not fit the rules"),
    (b'{"rules":"cardems","format":{"v":[1]},"hands":[]}',
     "record: format must be 'spades-record/1', not an object of 1 key"),
    (b'{"rules":"cardems","hands":[{"dealer":3,"deal":' + json.dumps(GOOD["hands"][0]["deal"])
     .encode() + b',"timeout":[{"bid":1}]}]}',  # (it was ignored: no penalty bag)
     "hand 1: 'timeout': unknown field (did you mean 'timeouts'?); a hand has dealer, deal, "
     "bids, plays, timeouts and looked"),
    (b'"cardems"', "record: must be a JSON object, not 'cardems'"),
    (b"NaN", "record: must be a JSON object, not nan"),
    (b"{\"rules\":\"cardems\",", "line 2: not JSON: Expecting property name enclosed"),
    # (was "Unterminated string starting at at column 11")
    (b'{"rules":"cardems', "line 2: not JSON: Unterminated string starting at column 10"),
]


def test_each_malformed_record_is_one_located_error_between_scored_ones(tmp_path: Path) -> None:
    # One file: the example, then each bad line followed by a short good record.
    data = GOOD_LINE + b"\n" + b"".join(bad + b"\n" + json.dumps(SHORT).encode() + b"\n"
                                        for bad, _ in BAD_LINES)
    status, lines, err = spades_replay(data, tmp_path, "--json")
    assert (status, err) == (1, "")
    assert len(lines) == 1 + 2 * len(BAD_LINES), lines
    assert json.loads(lines[0]) == summary(replay(GOOD))
    messages = []
    for i, (_, error) in enumerate(BAD_LINES):
        assert json.loads(lines[2 + 2 * i]) == summary(replay(SHORT))
        message = json.loads(lines[1 + 2 * i])["error"]
        where = error.replace("line 2:", f"line {2 + 2 * i}:")
        assert message.startswith(where), (i, message)
        assert len(message) <= 500
        messages.append(message)
    status, text, err = spades_replay(data, tmp_path)
    assert (status, err) == (1, "")
    for i, message in enumerate(messages):
        assert f"record {2 + 2 * i}: error: {message}" in text
        assert f"Record {3 + 2 * i}" in text
    assert text[0] == "Record 1"


def test_a_whole_file_that_cannot_be_read(tmp_path: Path) -> None:
    for data, error in [(b"", "record: the input is empty"), (b" \n\n", "record: the input is empty"),
                        (b"\xff\xfe\x00", "line 1: not UTF-8 text: byte 0xff at column 1"),
                        (b"[" * 5000, "line 1: not JSON that can be read: nested too deeply")]:
        status, lines, err = spades_replay(data, tmp_path, "--json")
        assert (status, err, lines) == (1, "", [json.dumps({"error": error})])


def test_a_byte_order_mark_and_a_record_spanning_lines_are_read(tmp_path: Path) -> None:
    text = json.dumps(GOOD, indent=2).encode()
    status, lines, _ = spades_replay(b"\xef\xbb\xbf" + text, tmp_path, "--json")
    assert (status, lines) == (0, [json.dumps(summary(replay(GOOD)))])


def test_names_that_are_not_text_are_ignored_on_the_score_sheet(tmp_path: Path) -> None:
    record = {**GOOD, "names": ["Nora\u202e\n", {"x": 1}, "\ud800Sofia", "W" * 100]}
    assert record_names(record, 4) == ["Nora", "", "Sofia", "W" * 24]
    assert record_names({"names": {"0": "x"}, "players": 4}, 2) == ["", ""]
    data = json.dumps(record).encode()
    status, text, err = spades_replay(data, tmp_path)
    assert (status, err) == (0, "")
    assert any("Nora" in line and "Sofia" in line for line in text)


def test_a_broken_record_spanning_lines_is_one_error_on_the_line_where_it_breaks(
        tmp_path: Path) -> None:
    text = json.dumps(SHORT, indent=2).replace('"hands"', '"hands" "x"')
    line = 1 + text[:text.index('"x"')].count("\n")
    status, lines, err = spades_replay(b"\n" + text.encode(), tmp_path, "--json")
    assert (status, err) == (1, "")
    assert lines == [json.dumps({"error": f"line {line + 1}: not JSON: Expecting ':' delimiter "
                                          "at column 11"})]
    deep = "{\n" + '"hands":' + "[\n" * 3000 + "]\n" * 3000 + "}\n"
    status, lines, _ = spades_replay(b"\n\n" + deep.encode(), tmp_path, "--json")
    assert lines == [json.dumps({"error": "line 3: not JSON that can be read: nested too deeply"})]
    bad = json.dumps(GOOD, indent=1).encode().replace(b'"AS"', b'"A\xffS"', 1)
    status, lines, _ = spades_replay(bad, tmp_path, "--json")
    assert len(lines) == 1 and json.loads(lines[0])["error"].startswith("line ")
    assert "not UTF-8 text: byte 0xff at column" in lines[0]


def test_read_records_takes_text_or_bytes() -> None:
    assert read_records('{"a": 1}\n{"b": 2}') == [{"a": 1}, {"b": 2}]
    assert read_records(b'{"a": 1}\n{"b": 2}') == [{"a": 1}, {"b": 2}]
    bad = read_records(b'{"a": 1}\n\xff\n{"b": 2}')
    assert bad[0] == {"a": 1} and bad[2] == {"b": 2}
    assert isinstance(bad[1], RecordError) and str(bad[1]).startswith("line 2: not UTF-8")


def test_shown_is_short_and_never_recursive() -> None:
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    assert shown(deep) == "a list of 1 item"
    assert shown("x" * 1000).endswith("... (1000 characters)")
    assert shown(10**1000) == "a number too large to be one"
    assert shown({"bid": True}) == "{'bid': true}"
    assert shown(float("nan")) == "nan"
    with pytest.raises(RecordError, match=r"^hand 1: must be an object"):
        replay({"rules": "cardems", "hands": [deep]})


@pytest.mark.parametrize("rules", [
    Rules(players=4, teams=None), Rules(players=3, teams=None),
    Rules(players=6, teams=((0, 3), (1, 4), (2, 5))), Rules(players=5, teams=None, jokers=True),
    Rules(bidding="mirror", turn_timer=30, spades_break="trump"),
])
def test_custom_rules_come_back_from_their_record(rules: Rules) -> None:
    match = Match(rules, rng=random.Random(5))
    for _ in range(30):
        match.apply_timeout() if rules.turn_timer else match.apply(match.legal_actions()[0])
        if match.phase == "deal":
            match.deal()
    record = json.loads(json.dumps(match.to_record()))
    assert record["rules"]["preset"] == "custom"
    assert replay(record).rules == rules
    assert summary(replay(record)) == summary(match)


def test_the_sheet_prints_on_an_ascii_terminal(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    path.write_text(json.dumps({**GOOD, "names": ["Zoë", "Émil", "李", "W"]}), encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "spades", "replay", str(path)],
                          capture_output=True, timeout=120, check=False, env=env)
    assert (done.returncode, done.stderr) == (0, b"")
    # As the game writes (docs/terminal.md): ASCII stand-ins, anything else as "?".
    assert b"Zo? and ?" in done.stdout and b"Winner:" in done.stdout
    assert b"Score sheet: cardems" in done.stdout and b"\\" not in done.stdout


def test_hint_and_import_say_where_a_file_is_not_utf8(tmp_path: Path) -> None:
    good = json.loads((Path(__file__).resolve().parents[2] / "spades" / "data" /
                       "example-match.json").read_text())
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(json.dumps(good).encode() + b"\n" + b'{"hands": "\xff"}\n')
    env = dict(os.environ, SPADES_DB=str(tmp_path / "g.sqlite3"))
    hint = subprocess.run([sys.executable, "-m", "spades", "hint", str(path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in hint.stderr
    # (the file named, as import names it: tests/cli/test_first_hour.py)
    assert hint.stderr.startswith(f"spades hint: {path}: line 2: not UTF-8 text"), hint.stderr
    imported = subprocess.run([sys.executable, "-m", "spades", "import", str(path)],
                              capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in imported.stderr
    assert "line 2: not UTF-8 text" in imported.stderr + imported.stdout
    assert "record 1" in imported.stdout  # the good record is still imported


def _timer_record() -> dict[str, Any]:
    """A race400 hand under the turn timer, cut after 9 plays, its bid 1 and play 3 timed out."""
    match = Match.new(Rules(players=4, teams=None, turn_timer=20), seed=8)
    for step in range(4 + 9):
        match.apply_timeout() if step in (0, 6) else match.apply(match.legal_actions()[0])
    record: dict[str, Any] = json.loads(json.dumps(match.to_record()))
    assert record["hands"][0]["timeouts"] == [{"bid": 1}, {"play": 3}]
    return record


@pytest.mark.parametrize(("timeouts", "error"), [
    ([{"bid": 1}, {"play": 10}], 'hand 1: timeout {"play": 10}: the hand has no play 10 '
                                 "(its plays are 1 to 9)"),
    ([{"bid": 0}, {"play": 3}], 'hand 1: timeout {"bid": 0}: the hand has no bid 0 (its bids are 1 to 4)'),
    ([{"bid": 1}, {"play": -3}], 'hand 1: timeout {"play": -3}: the hand has no play -3'),
    ([{"bid": 1}, {"play": 3}, {"bid": 1}], 'hand 1: timeout {"bid": 1} is listed twice'),
    ([{"bid": True}, {"play": 3}], 'hand 1: bad timeout {\'bid\': true}; use {"bid": B}'),
])
def test_a_timeout_naming_no_action_of_the_hand_is_an_error(timeouts: list[Any], error: str) -> None:
    # Such timeouts were ignored: a tampered record replayed as if they were not there.
    record = _timer_record()
    assert summary(replay(record))["bags"] == [1, 0, 1, 0]
    record["hands"][0]["timeouts"] = timeouts
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert str(caught.value).startswith(error)


def test_a_timeout_in_a_hand_with_no_plays_yet_is_an_error() -> None:
    record = _timer_record()
    record["hands"][0]["plays"] = []
    record["hands"][0]["timeouts"] = [{"bid": 1}, {"play": 1}]
    with pytest.raises(RecordError, match=r'^hand 1: timeout \{"play": 1\}: the hand has no plays$'):
        replay(record)


@pytest.mark.parametrize(("record", "error"), [
    ({"rules": {"preset": "cardems", "match": "one-hand", "one_hand": False}, "hands": []},
     "rules: match: 'one-hand' contradicts one_hand: false; give one of them"),
    ({"rules": {"preset": "cardems", "match": "target", "one_hand": True}, "hands": []},
     "rules: match: 'target' contradicts one_hand: true; give one of them"),
    ({"rules": {"preset": "cardems", "teams": None}, "teams": [[0, 2], [1, 3]], "hands": []},
     "rules: teams: the record's teams [[0, 2], [1, 3]] contradict the rules' null; give one of them"),
    ({"rules": {"preset": "race400", "players": 6, "teams": [[0, 3], [1, 4], [2, 5]]},
      "teams": [[0, 2, 4], [1, 3, 5]], "hands": []},
     "rules: teams: the record's teams [[0, 2, 4], [1, 3, 5]] contradict the rules' "
     "[[0, 3], [1, 4], [2, 5]]; give one of them"),
])
def test_rules_that_contradict_themselves_are_an_error(record: dict[str, Any], error: str) -> None:
    # One of the two was silently dropped: "match" won over "one_hand", "teams" over the rules'.
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert str(caught.value) == error


def test_rules_that_say_the_same_twice_are_read() -> None:
    rules = Rules(players=6, teams=((0, 3), (1, 4), (2, 5)), one_hand=True)
    record = json.loads(json.dumps(Match(rules, dealer=0).to_record()))
    assert record["teams"] == [[0, 3], [1, 4], [2, 5]] and record["rules"]["match"] == "one-hand"
    record["rules"]["teams"] = [(0, 3), [1, 4], [2, 5]]
    record["rules"]["one_hand"] = True
    assert replay(record).rules == rules
    assert replay({"rules": {"preset": "game93", "match": "one-hand", "one_hand": True},
                   "hands": []}).rules.one_hand


def test_a_look_not_yet_followed_by_a_bid_is_kept_by_the_record() -> None:
    # A record cut just after a look did not keep it: a game exported then imported was
    # back before the look, and blind nil (only for who has not seen the cards) was offered.
    from spades.engine import BLIND_NIL, LOOK, Match, RecordError, profile, replay

    match = Match(profile("cards4net"), rng=random.Random(16), dealer=1)
    assert BLIND_NIL in match.legal_actions()
    match.apply(LOOK)
    record = match.to_record()
    assert record["hands"][-1]["looked"] is True
    again = replay(json.loads(json.dumps(record)))
    assert again.looked[again.turn] and BLIND_NIL not in again.legal_actions()
    assert again.to_record() == record
    match.apply(match.legal_actions()[0])  # the bid: the look shows in it, not as "looked"
    assert "looked" not in match.to_record()["hands"][-1]
    for bad, why in [("yes", "looked must be true or false, not 'yes'"),
                     (True, "looked: only a hand cut where the seat to bid has looked")]:
        broken = match.to_record()
        broken["hands"][-1]["looked"] = bad
        with pytest.raises(RecordError, match=f"^hand 1: {why}"):
            replay(broken)


@pytest.mark.parametrize("value", [
    "game.json", '{"rules": "cardems", "hands": []}', b'{"rules": "cardems", "hands": []}',
    Path("game.json"), io.StringIO('{"rules": "cardems", "hands": []}')],
    ids=["file name", "JSON text", "bytes", "Path", "open file"])
def test_replay_of_a_file_or_unparsed_text_says_to_parse_it_first(value: object) -> None:
    # A newcomer's first try, replay("game.json") or replay(path.read_text()), said only
    # "record: must be a JSON object, not 'game.json'" (or "not a PosixPath").
    with pytest.raises(RecordError, match=r"^record: must be a JSON object, not .+ \(replay "
                       r"takes the record parsed: json\.load\(file\) or json\.loads\(text\)\)$"):
        replay(value)
    with pytest.raises(RecordError, match=r"^record: must be a JSON object, not 'cardems'$"):
        replay("cardems")  # a JSON value in a record file: no such advice


@pytest.mark.parametrize(("record", "error"), [
    ({"a": 1}, 'record: "rules" and "hands" are missing: a record gives its rules (a profile '
     'name such as "cardems", or an object) and its hands (a list, [] before the first deal)'),
    ({"rules": "cardems"}, 'record: "hands" is missing: a record gives'),
    ({"hands": []}, 'record: "rules" is missing: a record gives'),
    ({"rules": "cardems", "hands": None}, 'record: "hands" must be a list, not null'),
    ({"rules": "cardems", "hands": [{"deal": GOOD["hands"][0]["deal"]}]},
     'hand 1: "dealer" is missing: a hand gives its dealer\'s seat and its deal (the cards of '
     "each seat)"),
    ({"rules": "cardems", "hands": [{"dealer": 0}]}, 'hand 1: "deal" is missing: a hand gives'),
    ({"rules": "cardems", "hands": [{"bids": []}]}, 'hand 1: "dealer" and "deal" are missing'),
    ({"rules": "cardems", "hands": [{"dealer": None, "deal": GOOD["hands"][0]["deal"]}]},
     "hand 1: dealer must be a seat from 0 to 3, not null"),
])
def test_a_missing_field_is_said_to_be_missing(record: dict[str, Any], error: str) -> None:
    """A record without "hands" (or "rules") was refused with '"hands" must be a list, not
    null' (or 'rules: must be a profile name or an object, not null'), a hand without its
    dealer (or deal) with 'dealer must be a seat from 0 to 3, not null': a null the file does
    not hold, sending whoever edited it to look for one."""
    with pytest.raises(RecordError) as err:
        replay(record)
    assert str(err.value).startswith(error), err.value


def test_shown_counts_in_words() -> None:
    # replay([record]) said "record: must be a JSON object, not a list of 1 items".
    assert (shown([[1]]), shown([[1], [2]])) == ("a list of 1 item", "a list of 2 items")
    assert (shown({"k": [1]}), shown({"a": [1], "b": [2]})) == (
        "an object of 1 key", "an object of 2 keys")
    with pytest.raises(RecordError, match=r"^record: must be a JSON object, not a list of 1 item$"):
        replay([{"rules": "cardems", "hands": []}])


def test_a_comma_after_the_last_item_is_said_at_the_comma() -> None:
    """A record edited by hand with a comma left after the last name (``"West",`` before
    ``]``) said ``line 281: not JSON: Expecting value at column 2``: the bracket on the next
    line, and nothing of the comma. It says what is wrong and where the comma is; JSON Lines
    say it on the line, and the record on the next line is still read."""
    record = {**GOOD, "names": ["Nora", "Emil", "Sofia", "Walt"]}
    text = json.dumps(record, indent=1).replace('  "Walt"\n ]', '  "Walt",\n ]')
    comma_line = next(n for n, line in enumerate(text.split("\n"), 1) if '"Walt",' in line)
    [error] = read_records(text)
    assert isinstance(error, RecordError)
    assert str(error) == (f"line {comma_line}: not JSON: a comma with no item after it at "
                          f"column 9, before the ']' on line {comma_line + 1}: JSON allows "
                          "no comma after the last item; remove it"), error
    # An object's last field, and JSON Lines: each line on its own.
    lines = '{"rules": "cardems", "hands": [],}\n' + json.dumps(SHORT) + "\n"
    error, good = read_records(lines)
    assert str(error) == ("line 1: not JSON: a comma with no item after it at column 33, "
                          "before the '}': JSON allows no comma after the last item; remove "
                          "it"), error
    assert good == SHORT
    # Other errors are said as before.
    [other] = read_records('{"rules": "cardems" "hands": []}')
    assert str(other) == "line 1: not JSON: Expecting ',' delimiter at column 21"


def test_a_card_dealt_twice_names_both_seats() -> None:
    """A deal edited by hand (seat 0's first card changed to the ace of spades, which seat 3
    holds) said "hand 1: deal: seat 3 holds AS, dealt twice": not which other seat holds it,
    so the user, who changed seat 0, looked at seat 3. Both seats are named."""
    record = json.loads(json.dumps(GOOD))
    deal = record["hands"][0]["deal"]
    holder = next(s for s, cards in enumerate(deal) if "AS" in cards)
    other = (holder + 1) % 4
    first, last = sorted((holder, other))
    deal[other][0] = "AS"
    with pytest.raises(RecordError) as info:
        replay({**record, "hands": record["hands"][:1]})
    assert str(info.value) == f"hand 1: deal: seat {last} holds AS, dealt twice (also to seat {first})"
