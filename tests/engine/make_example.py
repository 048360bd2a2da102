"""Write spades/data/example-match.json: a complete cardems match, always the same.

    python tests/engine/make_example.py          # (re)write the file
    python tests/engine/make_example.py --check  # exit 1 if the file is not up to date

Four simple players (count the likely tricks to bid; win cheaply while the side still needs
tricks, duck otherwise, and keep a Nil bidder out of tricks) play from a fixed seed until
one side wins. test_cli.py checks the bundled file equals what this script writes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from spades.engine import NIL, Match, profile, suggested_bid
from spades.engine.actions import BID_BASE
from spades.engine.cards import SUIT_OF

SEED = 22
NAMES = ["Nora", "Emil", "Sofia", "Walt"]
PATH = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"


def beats(card: int, best: int) -> bool:
    """Would ``card`` beat the trick's best card so far?"""
    if SUIT_OF[card] == SUIT_OF[best]:
        return card > best
    return SUIT_OF[card] == 3


def choose(match: Match) -> int:
    legal = match.legal_actions()
    seat = match.turn
    if match.phase == "bid":
        want = suggested_bid(match.hands[seat], match.rules)
        return NIL if want == 0 and NIL in legal else BID_BASE + max(1, want)
    trick = match.trick
    best = max(trick, key=lambda c: (SUIT_OF[c] == 3, SUIT_OF[c] == SUIT_OF[trick[0]], c),
               default=-1)
    winners = [c for c in legal if best < 0 or beats(c, best)]
    losers = [c for c in legal if c not in winners]
    by_rank = sorted(legal, key=lambda c: (c % 13, c))
    if match.bids[seat] == 0:  # Nil: the highest card that loses, else the lowest
        return max(losers, key=lambda c: (c % 13, c)) if losers else by_rank[0]
    mates = match.rules.sides[match.rules.side_of[seat]]
    contract = sum(max(0, match.bids[s]) for s in mates)
    taken = sum(match.tricks[s] for s in mates)
    if taken < contract and winners:
        return min(winners, key=lambda c: (c % 13, c))
    return min(losers, key=lambda c: (c % 13, c)) if losers else by_rank[0]


def example() -> dict[str, Any]:
    match = Match(profile("cardems"), rng=random.Random(SEED), dealer=0)
    while not match.is_over():
        match.apply(choose(match))
    return match.to_record(names=NAMES)


def text() -> str:
    record = example()
    # One hand per line keeps the file readable and diffs small.
    head = {k: v for k, v in record.items() if k != "hands"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "hands": [')
    hands = [f"    {json.dumps(h)}" for h in record["hands"]]
    lines.append(",\n".join(hands))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    new = text()
    if "--check" in argv:
        return 0 if PATH.exists() and PATH.read_text(encoding="utf-8") == new else 1
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(new, encoding="utf-8")
    print(f"wrote {PATH} ({len(json.loads(new)['hands'])} hands)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
