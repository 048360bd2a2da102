"""Drive ``spades play`` through a real pseudo-terminal with pexpect."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect

CARD_PROMPT = "Your card: "
BID_PROMPT = "Your bid: "
PAUSE_PROMPT = r"Press Enter for the next hand \(or type a command\): "
MATCH_OVER = r"wins? the match with -?\d+ points\.|The match is a draw at -?\d+ points\."
LISTING = re.compile(r"(?:You can play|Your hand), \d+ cards?: ([^\r\n]*)\.\r?\n")


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.pop("SPADES_DB", None)
    e["TERM"] = "dumb"
    e["PYTHONUNBUFFERED"] = "1"
    return e


def spawn(db: Path, *args: str, timeout: float = 30,
          dimensions: tuple[int, int] = (50, 1000)) -> pexpect.spawn:
    """``spades play`` in a pseudo-terminal of ``dimensions`` (rows, columns): by default
    wide enough that no line is broken (the game breaks lines at the terminal's width), so
    a sentence is matched on one line."""
    child = pexpect.spawn(sys.executable, ["-m", "spades", "play", "--db", str(db), *args],
                          env=env(), encoding="utf-8", timeout=timeout,
                          dimensions=dimensions)
    return child


def saved_game(child: pexpect.spawn) -> str:
    """The id of the game ``child`` has just started (it says it is saved as you play)."""
    child.expect(r"Game ([0-9a-f]{8}) is saved as you play")
    game: str = child.match.group(1)
    return game


def run_cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades", *args], capture_output=True,
                          text=True, env=env(), input=input, timeout=60)


def listing_cards(text: str) -> list[str]:
    """The cards of the last hand listing in ``text`` (the playable ones), as names like
    ``queen of hearts``: the listing reads ``hearts: four, queen; spades: ace``."""
    found = LISTING.findall(text)
    assert found, f"no hand listing in {text[-500:]!r}"
    cards = []
    for group in found[-1].split("; "):
        suit, _, ranks = group.partition(": ")
        cards += [r if "joker" in r else f"{r} of {suit}" for r in ranks.split(", ")]
    return cards


def numbered(text: str, title: str = "Card numbers") -> dict[str, int]:
    """The last ``Card numbers: 1 four of hearts, ...`` line of ``text`` (or the list after
    another ``title``, such as ``You can play``): name -> number."""
    found = re.findall(re.escape(title) + r": (\d[^\r\n]*?)\.(?: |\r?\n|$)", text)
    assert found, f"no {title} in {text[-500:]!r}"
    return {name: int(n) for n, name in (item.split(" ", 1) for item in found[-1].split(", "))}


def export(db: Path, game: str = "last") -> dict[str, Any]:
    out = run_cli("export", game, "--db", str(db))
    assert out.returncode == 0, out.stderr
    record: dict[str, Any] = json.loads(out.stdout)
    return record
