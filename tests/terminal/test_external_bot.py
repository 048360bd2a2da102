"""An external program can sit at the terminal table; a dead one is replaced by a CPU."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIMPLE_BOT = ROOT / "examples" / "bots" / "simple_bot.py"


def test_external_program_plays_and_a_dead_one_is_replaced(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades", "play", "--db", str(tmp_path / "g.db"), "--plain",
         "--one-hand", "--seed", "3", "--no-pause",
         "--cpu", f"west=cmd:{sys.executable} {SIMPLE_BOT}", "--cpu", "east=cmd:false"],
        input="nil\n", capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    out = done.stdout
    assert "East's program failed" in out and "takes the seat" in out
    assert "East bids" in out  # the replacement CPU bid for East
    assert "West bids" in out  # the external program bid for West
    assert "You bid Nil." in out


def test_a_dead_program_is_told_once(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spades", "play", "--db", str(tmp_path / "g.db"), "--plain",
         "--one-hand", "--seed", "3", "--no-pause", "--cpu", "east=cmd:false"],
        input="nil\n", capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    told = (done.stdout + done.stderr).count("the program has exited")
    assert told == 1, done.stdout + done.stderr


def test_a_cpu_program_with_nothing_to_run_is_refused(tmp_path: Path) -> None:
    for spec, why in [("west=cmd:", "cmd: needs a program to run"),
                      ("cmd:", "cmd: needs a program to run"),
                      ('west=cmd:"bot.py', "cannot split the command into words")]:
        done = subprocess.run(
            [sys.executable, "-m", "spades", "play", "--db", str(tmp_path / "g.db"), "--plain",
             "--cpu", spec], input="", capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert done.returncode == 2, done.stdout
        assert f"spades play: --cpu {spec!r}: " in done.stderr and why in done.stderr
        assert "Traceback" not in done.stderr and "CPU level" not in done.stdout


def test_a_program_that_cannot_be_run_gives_its_seat_to_the_intermediate_level() -> None:
    """An old saved game whose program cannot be run: intermediate, as for a program that
    fails during play (docs/terminal.md), and the note is good English for one seat."""
    from spades.tui import cpu

    _, used = cpu.make_cpu("cmd:", 1)
    assert used == "intermediate" == cpu.DEFAULT_LEVEL
    assert cpu.fallback_note("cmd:", used, ["West"]) == (
        "The program '' cannot be run: West plays at the intermediate level instead.")
    assert cpu.fallback_note("ismcts", "expert", ["West", "East"]).endswith(
        "West and East play at the expert level instead.")
    assert cpu.fallback_note("ismcts", "expert", ["West"]).endswith(
        "West plays at the expert level instead.")
