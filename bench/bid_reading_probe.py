"""How closely the adapting expert's sampled deals read its partner's hand from its bid.

Plays cardems matches with ``PARTNER`` in seat 0 and the intermediate level elsewhere; from
the seventh hand on, at each bid of seat 2 after seat 0 bid a number, samples 100 deals as
seat 2 would (no seat models, the models of ``Tendencies().models``, and with
``read_spread``) and prints the mean over those bids of (the partner's worth in the sampled
deals − its real worth), and its absolute value.

    python bench/bid_reading_probe.py human:under 10
"""

from __future__ import annotations

import random
import statistics
import sys

from spades.bots.adapt import Tendencies
from spades.bots.arena import make_player
from spades.bots.infer import sample_deals
from spades.bots.policy import estimate_tricks
from spades.engine.match import Match
from spades.engine.rules import profile


def main(partner: str, matches: int) -> None:
    rules = profile("cardems")
    errors: dict[str, list[float]] = {"plain": [], "adapt": [], "read_spread": []}
    for i in range(matches):
        match = Match.new(rules, 4242 + i)
        specs = [partner, "intermediate", "intermediate", "intermediate"]
        bots = [make_player(spec, i * 8 + s) for s, spec in enumerate(specs)]
        while not match.is_over() and len(match.results) < 12:
            seat = match.current_player
            obs = match.observation(seat)
            if (seat == 2 and obs.phase == "bid" and len(match.results) >= 6
                    and obs.bids[0] not in (None, 0)):
                real = estimate_tricks(match.hands[0], rules)
                for key, models in (("plain", None), ("adapt", Tendencies().models(obs)),
                                    ("read_spread", Tendencies().models(obs, True))):
                    deals = sample_deals(obs, random.Random(1), 100, models=models)
                    worth = statistics.mean(estimate_tricks(d[0], rules) for d in deals)
                    errors[key].append(worth - real)
            match.apply(bots[seat].act(obs))
    for key, errs in errors.items():
        print(f"{partner} {key}: {len(errs)} bids, sampled minus real "
              f"{statistics.mean(errs):+.2f}, mean |error| "
              f"{statistics.mean(abs(e) for e in errs):.2f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
