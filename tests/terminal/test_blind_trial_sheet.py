"""A blind player's trial of the score sheet and the "Hand N scored" sentence under the
10-for-200 rule: a contract of 10 scored -200 (or +200) there with nothing to say why, and
only the hand's details named the rule. Both name it briefly, in the words of the rules."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect

from spades.present.rules import TEN_FOR_200
from tests.terminal.driver import (
    BID_PROMPT,
    CARD_PROMPT,
    PAUSE_PROMPT,
    listing_cards,
    run_cli,
    saved_game,
    spawn,
)

#: At most this many prompts before the hand is taken to be stuck.
MAX_PROMPTS = 40


def test_the_sheet_and_the_hand_scored_sentence_name_10_for_200(tmp_path: Path) -> None:
    """Under 10 for 200, your side bids 10 (your partner North bids first, you bid the
    rest): "Hand 1 scored: your side -200, ..." and the sheet's "points -200, total -200"
    did not say that the rule made a contract of 10 worth 200. They say "-200 (10 for 200,
    set)" (or "+200 (10 for 200, made)"): in the sentence, in `p` between hands and in
    `spades show`."""
    db = tmp_path / "ten.db"
    child = spawn(db, "--plain", "--rules", "cards4net", "--ten-for-200", "--opener", "west",
                  "--seed", "3", "--cpu", "random", timeout=60)
    game = saved_game(child)
    out: list[str] = []
    for _ in range(MAX_PROMPTS):
        i = child.expect([CARD_PROMPT, BID_PROMPT, PAUSE_PROMPT])
        out.append(child.before)
        if i == 2:
            break
        if i == 1:
            partner = re.findall(r"Your partner North bids (\d+)\.", child.before)
            assert partner, child.before  # West, then North, bid before you
            child.sendline(str(10 - int(partner[-1])))
        else:
            child.sendline(listing_cards(child.before)[0])
    else:
        raise AssertionError("".join(out)[-2000:])
    said = "".join(out).replace("\r", "")
    assert "Bidding is over with " in said and "your side bids 10" in said, said
    scored = re.search(r"^Hand 1 scored: your side ([+-]\d+)( \([^)]*\))?, ", said, re.M)
    assert scored, said
    points = int(scored.group(1))
    made = "made" if points > 0 else "set"
    assert scored.group(2) == f" ({TEN_FOR_200}, {made})", scored.group(0)
    child.sendline("p")  # the score sheet between hands
    child.expect(PAUSE_PROMPT)
    sheet = child.before.replace("\r", "")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    line = re.search(r"^  North and South: .*$", sheet, re.M)
    assert line, sheet
    assert f"; points {points:+d} ({TEN_FOR_200}, {made}), total " in line.group(0), sheet
    assert "East and West: " in sheet and sheet.count(TEN_FOR_200) == 1, sheet
    shown = run_cli("show", game, "--db", str(db)).stdout
    assert line.group(0) in shown.splitlines(), shown
