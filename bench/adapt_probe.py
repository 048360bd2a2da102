"""What the adapting CPU makes of the other seats: play whole matches of one level in all four
seats (cardems) and print, after each, the seat models seat 0 has formed of seats 1-3.

    python bench/adapt_probe.py expert:noadapt 8
    python bench/adapt_probe.py intermediate 8

Each line: hands played, then per seat (bid offset, bid shift in play-outs, bid drift in
play-outs, bid spread read, Nil risk, plays its highest when following, does not cover), as
the adapting expert models it (``read_spread``, the default since commit d8e0e0e)."""

from __future__ import annotations

import sys

from spades.bots.adapt import Tendencies
from spades.bots.arena import deal_seed, make_player
from spades.engine.match import Match
from spades.engine.rules import profile


def main(spec: str, matches: int, seed: int = 99) -> None:
    rules = profile("cardems")
    for i in range(matches):
        dseed = deal_seed(seed, i)
        match = Match.new(rules, dseed)
        bots = [make_player(spec, dseed * 8 + s) for s in range(rules.players)]
        while not match.is_over() and len(match.results) < 40:
            seat = match.current_player
            match.apply(bots[seat].act(match.observation(seat)))
        models = Tendencies().models(match.observation(0), read_spread=True) or []
        print(len(match.results), [(round(m.bid_offset, 2), m.bid_shift, round(m.bid_drift, 2),
                                    round(m.bid_sd, 2), round(m.nil_risk, 2), m.high_follower,
                                    m.no_cover) for m in models[1:]],
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
