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
    assert "You bid nil." in out
