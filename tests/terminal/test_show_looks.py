"""``spades show`` did not say that the first bidder looked at the cards before bidding
(Cards4net offers blind nil until then): a bid made after looking read as any bid, beside a
Blind Nil. The record holds it (the look before the bid; ``looked`` in a hand cut there)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from spades.engine import Match, profile
from spades.engine.actions import BID_BASE, BLIND_NIL, LOOK
from tests.terminal.driver import run_cli


def _record() -> dict[str, object]:
    """Cards4net: hand 1's first bidder bids Blind Nil, hand 2's looks and bids, and the
    match stops in hand 3 just after its first bidder looked."""
    match = Match(profile("cards4net"), rng=random.Random(5), dealer=3)
    pick = random.Random(2)
    for first in (BLIND_NIL, LOOK):
        match.apply(first)
        number = match.hand_number
        while len(match.results) < number:
            match.apply(pick.choice(list(match.legal_actions())))
    assert not match.is_over()
    match.apply(LOOK)
    record: dict[str, object] = match.to_record(names=["Ann", "Bob", "Cy", "Di"], human=0)
    return record


def test_show_says_who_looked_before_bidding_and_who_bid_blind_nil(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    record = _record()
    assert record["hands"][-1].get("looked") is True  # type: ignore[index]
    path.write_text(json.dumps(record), encoding="utf-8")
    db = tmp_path / "g.sqlite3"
    assert run_cli("import", str(path), "--db", str(db)).returncode == 0
    out = run_cli("show", "last", "--db", str(db))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # hand 1: dealer West (seat 3), North (Ann) bid first, blind
    one = lines.index("Hand 1 (dealer Di):")
    assert "  Ann bid Blind Nil without looking at the cards." in lines[one:one + 4], lines
    two = lines.index("Hand 2 (dealer Ann):")
    said = [line for line in lines[two:two + 4] if "looked at the cards" in line]
    assert len(said) == 1 and said[0].startswith("  Bob looked at the cards before bidding "), \
        lines
    assert said[0].endswith(", so not Blind Nil."), said
    # the hand it stopped in: Cy looked, and has yet to bid
    assert "Cy looked at the cards and has yet to bid: too late for Blind Nil." in lines, lines


def test_show_says_the_turn_timer_looked_for_a_first_bidder_who_had_not(tmp_path: Path) -> None:
    """The turn timer ran out for a first bidder who had not looked: it looks for them and
    bids, in one move, so no look of their own is in the hand. ``spades show`` said of that
    hand, finished or under way, "has not looked at the cards yet: Blind Nil is still
    open." It says the timer showed them the cards, as docs/terminal.md says."""
    match = Match(profile("cards4net", turn_timer=30), rng=random.Random(5), dealer=3)
    pick = random.Random(2)
    bids = []
    for _ in range(2):
        assert not match.looked[match.turn]
        bids.append(match.apply_timeout())
        number = match.hand_number
        while len(match.results) < number and number == 1:
            match.apply(pick.choice(list(match.legal_actions())))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(match.to_record(names=["Ann", "Bob", "Cy", "Di"], human=0)),
                    encoding="utf-8")
    db = tmp_path / "g.sqlite3"
    assert run_cli("import", str(path), "--db", str(db)).returncode == 0
    out = run_cli("show", "last", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "has not looked" not in out.stdout, out.stdout
    from spades.present.sheet import bid_words

    for who, bid in zip(("Ann", "Bob"), bids, strict=True):
        said = (f"{who} looked at the cards (the turn timer showed them) before bidding "
                f"{bid_words(bid - BID_BASE)}")
        assert said in out.stdout, out.stdout
