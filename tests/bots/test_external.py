"""The external bot protocol, with the example bot and with misbehaving programs."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from spades.bots import make_bot
from spades.bots.arena import ArenaConfig, run_arena
from spades.bots.external import BotDied, BotRefused, BotTimeout, ExternalBot, parse_answer
from spades.engine import NIL, Match, parse_card, profile
from tests.bots.conftest import play_hand

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "simple_bot.py"
BROKEN = Path(__file__).with_name("broken_bot.py")


def cmd(path: Path, *args: str) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(path), *args))


@pytest.mark.parametrize("rules_name", ["cardems", "cards4net"])
def test_example_bot_plays_a_whole_hand(rules_name: str) -> None:
    rules = profile(rules_name, jokers=True) if rules_name == "cards4net" else profile(rules_name)
    match = Match.new(rules, seed=2)
    bot = ExternalBot(cmd(EXAMPLE))
    try:
        bots = [bot if s == 0 else make_bot("beginner", s) for s in range(4)]
        play_hand(match, bots)
    finally:
        bot.close()
    assert len(match.results) == 1
    assert bot.problems == []


def _first_decision(bot: ExternalBot) -> int:
    match = Match.new(profile("cardems"), seed=1)
    return bot.act(match.observation(match.current_player))


def test_crash_raises_bot_died() -> None:
    bot = ExternalBot(cmd(BROKEN, "crash"))
    with pytest.raises(BotDied):
        _first_decision(bot)
    assert bot.problems


def test_garbage_is_refused_then_gives_up() -> None:
    bot = ExternalBot(cmd(BROKEN, "garbage"), retries=2)
    with pytest.raises(BotRefused):
        _first_decision(bot)
    assert len(bot.problems) == 4  # three refused answers, then giving up


def test_giving_up_says_what_the_last_refused_answer_was_and_why() -> None:
    # The arena's void reason was only "3 refused answers in a row": a bot's author could
    # not tell what was wrong with the answers without the logs.
    bot = ExternalBot(cmd(BROKEN, "garbage"), retries=2)
    with pytest.raises(BotRefused) as caught:
        _first_decision(bot)
    assert str(caught.value).endswith(
        "3 refused answers in a row (the last, 'what is a spade?': 'what is a spade?' is not "
        "an action: write a card like 'QH' or '10H', a bid like '3' or 'nil', 'blind-nil' or "
        "'look'; anything else a program prints goes to standard error)")


def test_a_failure_names_the_decision_and_the_exit_status() -> None:
    # "external bot '...': the program has exited" named neither the hand nor the decision
    # it was asked, and mostly not the status either (read before the program had ended).
    bot = ExternalBot(cmd(BROKEN, "crash"))
    with pytest.raises(BotDied) as caught:
        _first_decision(bot)
    assert str(caught.value).endswith(
        "' at seat 2's bid in hand 1: the program has exited (status 3)")
    assert bot.problems == ["seat 2's bid in hand 1: the program has exited (status 3)"]


def test_a_crash_mid_hand_names_the_trick_and_card() -> None:
    match = Match.new(profile("cardems"), seed=1)
    bot = ExternalBot(cmd(BROKEN, "crash-in-play"))
    seat = (match.dealer + 1) % 4  # the leader of the first trick
    bots = [bot if s == seat else make_bot("beginner", s) for s in range(4)]
    with pytest.raises(BotDied) as caught:
        play_hand(match, bots)
    assert str(caught.value).endswith(
        f"' at seat {seat}'s card 1 of trick 1 in hand 1: the program has exited (status 5)")
    assert bot.proc is None


def test_a_timeout_reminds_that_answers_are_flushed() -> None:
    # A Python bot that print()s without flush=True hangs at its first answer: the message
    # said only "no answer within 10 s".
    bot = ExternalBot(cmd(BROKEN, "sleep"), timeout=0.3, start_timeout=0.0)
    with pytest.raises(BotTimeout, match=r"seat 2's bid in hand 1: no answer within 0\.3 s "
                                         r"\(an answer must end with a newline and be "
                                         r"flushed\)$"):
        _first_decision(bot)


def test_timeout_stops_the_program() -> None:
    bot = ExternalBot(cmd(BROKEN, "sleep"), timeout=0.3, start_timeout=0.0)
    with pytest.raises(BotTimeout):
        _first_decision(bot)
    assert bot.proc is None


def test_refused_answer_is_asked_again() -> None:
    bot = ExternalBot(cmd(BROKEN, "illegal-once"))
    try:
        action = _first_decision(bot)
    finally:
        bot.close()
    assert action == NIL
    assert len(bot.problems) == 1 and "not legal" in bot.problems[0]


def test_an_answer_of_digits_that_are_no_number_is_refused() -> None:
    # '²' is a digit to str.isdigit() but not to int(): it was a bare ValueError out of act
    # (and out of the arena), not a refused answer.
    bot = ExternalBot(cmd(BROKEN, "superscript"), retries=1)
    with pytest.raises(BotRefused):
        _first_decision(bot)
    assert len(bot.problems) == 3 and "'\u00b2' is not a bid" in bot.problems[0]
    assert parse_answer("9" * 5000, {NIL})[0] is None


def test_missing_program() -> None:
    with pytest.raises(BotDied):
        _first_decision(ExternalBot("/nonexistent/bot-program"))


@pytest.mark.parametrize(("program", "why"), [
    ("{tmp}/no-such-bot", "not found"),
    ("{tmp}/bot.py", "not executable (make it executable, or put its interpreter first"),
    ("{tmp}", "a folder, not a program"),
    ("no-such-bot-on-path-7f3a", "not found on PATH"),
])
def test_arena_refuses_a_program_that_cannot_be_run_before_any_deal(
        program: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Every deal was played and voided ("cannot start ..."), one after another.
    from spades.cli import main

    (tmp_path / "bot.py").write_text("print('hi')\n", encoding="utf-8")
    (tmp_path / "bot.py").chmod(0o644)
    program = program.format(tmp=tmp_path)
    for side in ("--a", "--b"):
        other = "--b" if side == "--a" else "--a"
        code = main(["arena", side, f"cmd:{program} --fast", other, "beginner",
                     "--deals", "3", "--jobs", "1"])
        out, err = capsys.readouterr()
        assert code == 2
        assert err == (f"spades arena: {side}: cmd:{program} --fast: cannot run the program "
                       f"{program!r}: {why}" + err[err.index(why) + len(why):])
        assert err.count("\n") == 1 and out == ""  # no deal, no progress


def test_play_refuses_a_cpu_program_that_cannot_be_run(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-bot"
    done = subprocess.run(
        [sys.executable, "-m", "spades", "play", "--db", str(tmp_path / "g.db"), "--plain",
         "--cpu", f"west=cmd:{missing}"], input="", capture_output=True, text=True,
        timeout=60, cwd=ROOT)
    assert done.returncode == 2, done.stdout
    assert done.stderr == (f"spades play: --cpu 'west=cmd:{missing}': cmd:{missing}: "
                           f"cannot run the program '{missing}': not found\n")
    assert done.stdout == ""


def test_parse_answer() -> None:
    legal = {parse_card("QH"), parse_card("2C")}
    assert parse_answer("QH", legal) == (parse_card("QH"), "")
    assert parse_answer('{"action": "2c"}', legal)[0] == parse_card("2C")
    assert parse_answer("AS", legal)[0] is None
    assert parse_answer("", legal)[0] is None
    assert parse_answer("{oops", legal)[0] is None


def test_arena_voids_deals_of_a_dead_program() -> None:
    cfg = ArenaConfig(a=f"cmd:{cmd(BROKEN, 'crash')}", b="beginner", rules=profile("cardems"),
                      deals=2)
    result = run_arena(cfg, jobs=1)
    assert result["void"] == 2 and result["deals"] == 0
    # which deal, which play of it, which program, which decision, and why ("deal seed
    # 1000003: external bot '...': the program has exited" named no deal of the run)
    program = re.escape(cmd(BROKEN, "crash"))
    for index, reason in enumerate(result["void_reasons"]):
        assert re.fullmatch(rf"deal {index} \(seed {1_000_003 + index}\), play 1 of 2: "
                            rf"external bot '{program}' at seat \d's bid in hand 1: the "
                            r"program has exited \(status 3\)", reason), reason


@pytest.mark.parametrize(("answer", "why"), [
    ('{"action": 64.0}', 'a JSON answer needs "action" as text or a whole number, not 64.0'),
    ('{"action": true}', 'a JSON answer needs "action" as text or a whole number, not true'),
    ('{"action": null}', 'a JSON answer needs "action" as text or a whole number, not null'),
    ('{"move": "QH"}', 'a JSON answer needs "action"'),
])
def test_a_json_answer_whose_action_is_no_text_or_integer_says_so(answer: str, why: str) -> None:
    assert parse_answer(answer, {parse_card("QH"), 65}) == (None, why)


@pytest.mark.parametrize(("knobs", "error", "message"), [
    ({"timeout": "10"}, TypeError, r"^timeout: must be a number of seconds above 0, not '10'"),
    ({"timeout": 0}, ValueError, r"^timeout: must be a number of seconds above 0, not 0"),
    ({"timeout": float("nan")}, ValueError, r"^timeout: must be a number of seconds above 0"),
    ({"timeout": True}, TypeError, r"^timeout: must be a number of seconds above 0, not True"),
    ({"start_timeout": -5}, ValueError, r"^start_timeout: must be a number of seconds, 0 or "),
    ({"start_timeout": float("inf")}, ValueError, r"^start_timeout: must be a number of seco"),
    ({"retries": -1}, ValueError, r"^retries: must be a whole number 0 or more, not -1"),
    ({"retries": 1.5}, TypeError, r"^retries: must be a whole number 0 or more, not 1.5"),
])
def test_bad_time_limits_and_retries_are_refused_by_name(knobs: dict[str, object],
                                                         error: type[Exception],
                                                         message: str) -> None:
    # ExternalBot(cmd, timeout="10") raised "can only concatenate str (not "float") to str"
    # at the first act, retries=-1 "0 refused answers in a row" without asking, timeout=0
    # was taken.
    with pytest.raises(error, match=message):
        ExternalBot(cmd(EXAMPLE), **knobs)  # type: ignore[arg-type]
    bot = ExternalBot(cmd(EXAMPLE), timeout=5, start_timeout=0, retries=0)
    assert (bot.timeout, bot.start_timeout, bot.retries) == (5, 0, 0)


def test_an_external_bot_is_a_context_manager_that_closes_its_program() -> None:
    with ExternalBot(cmd(EXAMPLE)) as bot:
        action = _first_decision(bot)
        proc = bot.proc
        assert proc is not None and proc.poll() is None
    assert bot.proc is None and proc.poll() is not None
    assert action >= NIL


@pytest.mark.parametrize("command", [["python3", "my_bot.py"], None, 3])
def test_a_command_that_is_no_text_is_refused_by_name(command: object) -> None:
    # ExternalBot(["python3", "my_bot.py"]) was AttributeError: 'list' object has no
    # attribute 'read' (shlex.split of a list); shlex.split(None) reads standard input.
    with pytest.raises(TypeError, match=r"^command: must be text like 'python3 my_bot\.py', "
                                        rf"not {re.escape(repr(command))}$"):
        ExternalBot(command)  # type: ignore[arg-type]


@pytest.mark.parametrize("setup", [
    "from spades.bots.arena import _leave_ctrl_c; _leave_ctrl_c()",
    "import os; from spades.server.cpu import _watch_parent; _watch_parent(os.getppid())",
])
def test_a_program_started_by_a_worker_does_not_ignore_ctrl_c(setup: str) -> None:
    # The arena's and the server's workers ignored SIGINT (SIG_IGN), and an ignored signal
    # stays ignored across exec: after a Ctrl-C the run ended, but a bot program that was
    # thinking (or hung) went on running, orphaned.
    code = (f"{setup}\n"
            "from spades.bots.external import ExternalBot\n"
            f"bot = ExternalBot({cmd(EXAMPLE)!r})\n"
            "proc = bot._spawn()\n"
            "status = open(f'/proc/{proc.pid}/status').read()\n"
            "print(next(line for line in status.splitlines() if line.startswith('SigIgn:')))\n"
            "bot.close()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    ignored = int(done.stdout.split()[1], 16)
    assert not ignored & (1 << (signal.SIGINT - 1)), done.stdout


def test_a_byte_order_mark_and_crlf_line_ends_are_no_part_of_the_answer() -> None:
    # A program whose output began with a UTF-8 byte order mark (as some Windows programs
    # write) had its first answer refused: '\ufeffnil' is not an action.
    with ExternalBot(cmd(BROKEN, "bom-crlf"), retries=0) as bot:
        assert _first_decision(bot) == NIL
        assert _first_decision(bot) == NIL
        assert bot.problems == []


def test_the_arena_reports_refused_answers_of_deals_that_went_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A program whose answers were refused, then given right when asked again, played on
    # without a word anywhere: the arena silences the programs' log, and a bot printing a
    # greeting on standard output had every decision refused once, unseen.
    from spades.cli.arena import print_report

    cfg = ArenaConfig(a=f"cmd:{cmd(BROKEN, 'illegal-once')}", b="beginner",
                      rules=profile("cardems"), deals=1)
    result = run_arena(cfg, jobs=1)
    assert result["deals"] == 1 and result["void"] == 0
    assert result["refused"] == {"a": 4, "b": 0}  # each program, two seats a play, once
    first = result["refused_examples"][0]
    assert re.fullmatch(r"A: deal 0 \(seed 1000003\), play 1 of 2: seat \d's bid in hand 1: "
                        r"refused answer '14': 14 is not legal now; legal: nil 1 2 .* 13",
                        first), first
    print_report(result)
    out = capsys.readouterr().out
    assert f"  A {cfg.a}: 4 answers refused and asked again; the first: {first[3:]}\n" in out
    clean = run_arena(ArenaConfig(a=f"cmd:{cmd(EXAMPLE)}", b="beginner",
                                  rules=profile("cardems"), deals=1), jobs=1)
    assert "refused" not in clean and "refused_examples" not in clean


def test_a_program_writing_without_end_is_stopped() -> None:
    # Its output was kept in memory, without limit, until its time was up.
    bot = ExternalBot(cmd(BROKEN, "flood"), timeout=60)
    with pytest.raises(BotRefused, match=r"seat 2's bid in hand 1: an answer line longer "
                                         r"than 1048576 bytes \(it begins b'xxxx"):
        _first_decision(bot)
    assert bot.proc is None
