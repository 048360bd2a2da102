"""How an ``event`` frame grows with the match: the bytes of a card's frame at hand 1, 50
and 300, for a client whose hello says nothing (every scored hand in each frame) and for one
that asks for ``results: "new"`` (only the newly scored hands).

Run ``PYTHONPATH=. SPADES_PURE=1 python bench/frames_growth.py`` (about a minute): an
in-process server, a continued record of N scored hands (random CPUs, a target nobody
reaches) played on for eight cards. Figures of 2026-12: every hand, 1,125 / 5,621 /
28,888 bytes; only the new ones, 1,126 / 1,191 / 1,228.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from spades.engine import Match, profile, to_record
from spades.server.cpu import bot_act
from tests.server.helpers import Sized, in_process, limited


def record_of(hands: int, seed: int = 1) -> dict[str, Any]:
    m = Match(profile("cardems", target=100000), dealer=0, rng=random.Random(seed))
    while len(m.results) < hands:
        m.apply(bot_act("random", 1, m.observation(m.current_player)))
    return to_record(m)


def per_card(client: Any, hands: int, name: str, results: str | None) -> int:
    """The mean bytes of a card's frame at hand ``hands + 1`` (eight cards)."""
    p = Sized(client, name, results=results)
    auth = {"Authorization": f"Bearer {p.token}"}
    r = client.post("/api/records", json={"record": record_of(hands), "mode": "continue",
                                          "seat": 0, "options": {"cpu": "random"}},
                    headers=auth)
    p.request({"type": "join", "table_id": r.json()["table_id"]})
    out: list[int] = []
    while len(out) < 8:
        if p.my_turn():
            assert p.view is not None
            p.request({"type": "act", "action": p.view["legal_actions"][0]})
        elif (m := p.recv())["type"] == "event" and m["event"]["kind"] == "play":
            out.append(p.sizes[-1])
    p.close()
    return sum(out) // len(out)


def main() -> None:
    with tempfile.TemporaryDirectory() as d, in_process(limited(Path(d))) as client:
        for mode in (None, "new"):
            sizes = {n + 1: per_card(client, n, f"M{n}{mode}", mode) for n in (0, 49, 299)}
            print(f"results {mode or 'all (default)'}: bytes of a card's frame by hand: {sizes}")


if __name__ == "__main__":
    main()
