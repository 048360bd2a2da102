"""What a new user trips on in their first hour with the command line: each mistake is
refused in one line that says what is wrong and where, without a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from spades.cli import main
from spades.server.cpu import register_external, strengths
from spades.server.limits import parse_limit
from tests.server.helpers import ctrl_c, process_family, wait_until
from tests.terminal.driver import run_cli


def _refused(done: subprocess.CompletedProcess[str], command: str, *words: str) -> None:
    code, err = done.returncode, done.stderr
    assert code == 2, (code, err)
    assert "Traceback" not in err, err
    assert err.startswith(f"spades {command}: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("command", [["history"], ["stats"], ["show", "last"],
                                     ["export", "last"], ["import", "RECORD"]])
def test_a_db_that_is_a_folder_is_named_as_one(tmp_path: Path, command: list[str]) -> None:
    # "--db ~/games" (a folder) gave "cannot open the database ...: unable to open database
    # file", status 1 (2 for a folder that does not exist), without saying why.
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"format": "spades-record/1", "rules": "cardems",
                                  "hands": []}), encoding="utf-8")
    args = [str(record) if a == "RECORD" else a for a in command]
    done = run_cli(*args, "--db", str(tmp_path), input="")
    _refused(done, command[0], f"--db {tmp_path}: that is a folder, not a database file",
             str(tmp_path / "spades.sqlite3"))


def test_serve_check_db_on_a_folder_says_it_is_one(tmp_path: Path) -> None:
    done = run_cli("serve", "--check-db", "--db", str(tmp_path))
    _refused(done, "serve", "that is a folder, not a database file")


@pytest.mark.parametrize("spec, why", [
    ("cmd:", "cmd: needs a program to run"),
    ('cmd:"python3 bot.py', "cannot split the command into words (no closing quotation)"),
    # a program that is not there: refused at the start, as spades play and arena do
    # (before: offered, and every table that chose it had its seats covered by a CPU)
    ("cmd:/no/such/bot --fast", "cannot run the program '/no/such/bot': not found"),
])
def test_serve_refuses_a_bot_command_it_could_never_run(spec: str, why: str) -> None:
    # spades play refuses these before the game starts; spades serve took them, and offered
    # a strength that could only fail at every table.
    with pytest.raises(ValueError, match=r"^--bot mine: ") as err:
        register_external("mine", spec)
    assert why in str(err.value)
    assert "mine" not in strengths()


@pytest.mark.parametrize("name, spec, why", [
    ("mine", "", "--bot mine: after the = give the program as cmd:PROGRAM ARGS"),
    ("mine", "bot.py", "after the = give the program as cmd:PROGRAM ARGS, not 'bot.py'"),
    ("", "cmd:bot", "give the strength a NAME before the ="),
    ("hard", "cmd:bot", "hard is already a CPU strength; choose another NAME"),
])
def test_serve_bot_refusals_say_which_part_is_wrong(name: str, spec: str, why: str) -> None:
    # It was always "use a new name and cmd:PROGRAM ARGS", whichever part was wrong.
    with pytest.raises(ValueError) as err:
        register_external(name, spec)
    assert why in str(err.value)


@pytest.mark.parametrize("item, why", [("lobby_rate", "no value (no =)"),
                                       ("=3", "no NAME before the ="),
                                       ("lobby_rte=3", "no limit is named 'lobby_rte'")])
def test_limit_refusals_say_which_part_is_wrong(item: str, why: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_limit(item)
    assert str(err.value).startswith(f"--limit {item}: {why}; use NAME=VALUE"), err.value


def test_hint_names_the_file_that_is_not_a_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # spades import said "spades import: bad.json: line 1: not JSON ...", spades hint the
    # same without the file.
    bad = tmp_path / "bad.json"
    bad.write_text("not json\n")
    assert main(["hint", str(bad)]) == 2
    assert capsys.readouterr().err == (f"spades hint: {bad}: line 1: not JSON: Expecting "
                                       "value at column 1\n")


def test_hint_names_the_seat_whose_cards_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    # "Seat 2 holds ..." where every other command says South.
    assert main(["hint", "--hand", "AS KS 7S 2S AH QH 5H 9D 4D KC 8C 6C 3C", "--seat",
                 "south", "--worlds", "4"]) == 0
    assert capsys.readouterr().out.startswith("South (seat 2) holds ")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("command", ["import", "replay", "hint"])
def test_reading_a_record_from_a_terminal_says_how_to_end_it(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # "spades import -" at a prompt waited without a word: it looked hung.
    monkeypatch.setattr("sys.stdin", _Terminal(""))
    args = [command, "-"] + (["--db", str(tmp_path / "g.db")] if command == "import" else [])
    main(args)
    err = capsys.readouterr().err
    assert err.startswith(f"spades {command}: reading a record from standard input: paste "
                          "it, then press Enter and Ctrl-D"), err


def test_reading_a_record_from_a_pipe_says_nothing_more(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    main(["replay", "-"])
    assert "standard input" not in capsys.readouterr().err


def test_the_top_level_help_starts_with_what_a_newcomer_runs(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The commands were listed by module name: arena and bench first, play and serve buried.
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.split("COMMAND\n", 1)[1].split("\n\n")[0]
              .splitlines() if line.startswith("    ") and not line.startswith("     ")]
    assert listed[:2] == ["play", "serve"], listed
    assert "To start: spades play" in " ".join(out.split())


def test_ctrl_c_stops_an_arena_of_several_jobs_in_one_line(tmp_path: Path) -> None:
    # Each of the --jobs workers took the terminal's SIGINT too, and the stop printed
    # "Process ForkPoolWorker-1:" (the start of a traceback the pool's end cut short).
    err = tmp_path / "err.txt"
    with err.open("w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "spades", "arena", "--a", "expert",
                                 "--b", "random", "--deals", "200", "--jobs", "2"],
                                stdout=subprocess.DEVNULL, stderr=sink)
        try:
            wait_until(lambda: "1/200 deals" in err.read_text(), "the first deal", seconds=120)
            assert len(process_family(proc.pid)) > 2  # the arena and its two workers
            ctrl_c(proc.pid)
            assert proc.wait(60) == 130
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    text = err.read_text()
    assert "Process" not in text and "Traceback" not in text, text[-2000:]


@pytest.mark.parametrize("command", ["show", "export"])
def test_an_empty_game_id_is_said_to_be_empty(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # spades show '' (an unset shell variable) said "'' matches more than one game".
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"format": "spades-record/1", "rules": "cardems",
                                  "hands": []}), encoding="utf-8")
    db = str(tmp_path / "g.db")
    for _ in range(2):
        assert main(["import", str(record), "--db", db]) == 0
    capsys.readouterr()
    assert main([command, "", "--db", db]) == 1
    assert capsys.readouterr().err == (f"spades {command}: no game id given: type a game's "
                                       "id, or its first letters (spades history lists "
                                       "them), or last\n")
