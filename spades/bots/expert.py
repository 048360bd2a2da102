"""The ``expert`` level: determinized search (Perfect Information Monte Carlo).

For each decision it samples deals consistent with what its seat has seen (voids, revealed
spade counts, and bids as evidence: see :mod:`spades.bots.infer`), and in every sampled deal
plays each candidate action out to the end of the hand: with the intermediate policy for all
seats, or, for the last few tricks, by exact search. It takes the action with the best mean
outcome for its side (points minus the opponents', a bag costing its share of the penalty).
The same deals serve every candidate, so their comparison is not blurred by deal luck.

Bids are chosen the same way: every candidate bid (nil and blind nil included) is played
out in each sampled deal, the other seats bidding as the intermediate level does.
"""

from __future__ import annotations

import random
import time

from spades.bots.infer import sample_deals
from spades.bots.policy import choose_bid, estimate_tricks, nil_risk, rollout
from spades.bots.sim import Sim
from spades.engine import BID_BASE, BLIND_NIL, LOOK, NIL, Observation

#: Default sampled deals per decision (the ``expert`` spec without a budget).
DEFAULT_WORLDS = 100
#: Remaining cards (all seats) at or below which the hand is solved exactly per deal.
EXACT_CARDS = 8


class ExpertBot:
    """Determinized search; budget in sampled deals per decision, or in seconds."""

    name = "expert"

    def __init__(self, seed: int | None = None, worlds: float = DEFAULT_WORLDS,
                 seconds: float | None = None, bag_weight: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.worlds = max(2, int(worlds))
        self.seconds = seconds
        self.bag_weight = bag_weight

    # Budget ---------------------------------------------------------------------------

    def _deadline(self, share: float = 1.0) -> float | None:
        if self.seconds is None:
            return None
        return time.perf_counter() + self.seconds * share

    # Deciding -------------------------------------------------------------------------

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if LOOK in legal:
            return self._blind_nil(obs)
        if obs.phase == "bid":
            return self._bid(obs, legal)
        return self._play(obs)

    def _evaluate(self, obs: Observation, candidates: list[int], scale: float,
                  play_out: bool) -> list[float]:
        """Mean utility of each candidate action over sampled deals: a fixed number of
        deals, or batches of deals until the time budget is spent."""
        side = obs.my_side
        totals = [0.0] * len(candidates)
        done = 0
        deadline = self._deadline()
        count = max(2, int(self.worlds * scale)) if deadline is None else 16
        while True:
            for hands in sample_deals(obs, self.rng, count):
                base = Sim.from_obs(obs, hands)
                for i, action in enumerate(candidates):
                    s = base.clone()
                    s.apply(action)
                    if play_out and s.phase == 1 and _cards_left(s) <= EXACT_CARDS:
                        totals[i] += solve(s, side, self.bag_weight)
                    else:
                        rollout(s)
                        totals[i] += s.utility(side, self.bag_weight)
                done += 1
                if deadline is not None and done >= 4 and time.perf_counter() > deadline:
                    break
            if deadline is None or time.perf_counter() > deadline or done >= 2000:
                break
        return [t / max(done, 1) for t in totals]

    def _play(self, obs: Observation) -> int:
        candidates = distinct_cards(obs)
        if len(candidates) == 1:
            return candidates[0]
        values = self._evaluate(obs, candidates, 1.0, play_out=True)
        best = max(range(len(candidates)), key=lambda i: (values[i], -candidates[i]))
        return candidates[best]

    def _bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        hand = obs.hand or 0
        rules = obs.rules
        est = estimate_tricks(hand, rules)
        numbers = [a for a in legal if BID_BASE < a < BLIND_NIL]
        centre = round(est)
        candidates = [a for a in numbers if centre - 2 <= a - BID_BASE <= centre + 2]
        if not candidates and numbers:
            candidates = [min(numbers, key=lambda a: abs(a - BID_BASE - centre))]
        if NIL in legal and (nil_risk(hand, rules) < 4.5 or not candidates):
            candidates.append(NIL)
        if len(candidates) == 1:
            return candidates[0]
        values = self._evaluate(obs, candidates, 0.75, play_out=False)
        best = max(range(len(candidates)), key=lambda i: (values[i], -abs(
            candidates[i] - BID_BASE - est) if candidates[i] != NIL else -99))
        return candidates[best]

    def _blind_nil(self, obs: Observation) -> int:
        """Blind nil or look: simulate both over guessed hands for this seat too."""
        side = obs.my_side
        blind = normal = 0.0
        count = max(2, int(self.worlds * 0.75)) if self.seconds is None else 48
        for hands in sample_deals(obs, self.rng, count):
            base = Sim.from_obs(obs, hands)
            s = base.clone()
            s.bid(BLIND_NIL)
            rollout(s)
            blind += s.utility(side, self.bag_weight)
            s = base.clone()
            s.bid(choose_bid(s, obs.scores, tuple(a for a in s.legal_bids() if a != BLIND_NIL)))
            rollout(s)
            normal += s.utility(side, self.bag_weight)
        return BLIND_NIL if blind > normal else LOOK


def _cards_left(s: Sim) -> int:
    return sum(h.bit_count() for h in s.hands)


def distinct_cards(obs: Observation) -> list[int]:
    """The legal cards, keeping one of each run of touching cards (cards with nothing
    between them but cards already played or held by this seat play the same)."""
    hand = obs.hand or 0
    gone = ~obs.rules.deck
    for _, c in obs.plays:
        gone |= 1 << c
    filler = gone | hand
    out: list[int] = []
    prev = -1
    for c in sorted(obs.legal_actions):
        if (prev >= 0 and prev // 13 == c // 13) or (prev >= 39 and c >= 39):
            between = ((1 << c) - 1) & ~((2 << prev) - 1)
            if between & filler == between:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


def solve(s: Sim, side: int, bag_weight: float) -> float:
    """Exact value of the rest of the hand for ``side`` (its seats maximize, the other
    seats minimize), by alpha-beta search over every play."""
    return _alphabeta(s, side, -1e9, 1e9, bag_weight)


def _alphabeta(s: Sim, side: int, alpha: float, beta: float, bag_weight: float) -> float:
    if s.phase != 1:
        return s.utility(side, bag_weight)
    legal = s.legal_mask()
    cards = []
    m = legal
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    maximize = s.side_of[s.turn] == side
    if maximize:
        value = -1e9
        for c in reversed(cards):
            child = s.clone()
            child.play(c)
            value = max(value, _alphabeta(child, side, alpha, beta, bag_weight))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = 1e9
    for c in cards:
        child = s.clone()
        child.play(c)
        value = min(value, _alphabeta(child, side, alpha, beta, bag_weight))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value
