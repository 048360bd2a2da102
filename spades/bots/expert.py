"""The ``expert`` level: determinized search (Perfect Information Monte Carlo).

For each decision it samples deals consistent with what its seat has seen (voids, revealed
spade counts, and bids as evidence: see :mod:`spades.bots.infer`), and in every sampled deal
plays each candidate action out to the end of the hand: with the intermediate policy for all
seats, or, for the last few tricks, by exact search. It takes the action with the best mean
outcome for its side (points minus the opponents', a bag costing its share of the penalty).
The same deals serve every candidate, so their comparison is not blurred by deal luck.
Deals come in batches and the candidates race: one clearly worse than the leader (paired
over the same deals) drops out, and its share of the budget goes to the close ones. The
rule-based card is kept unless the search finds a clearly better one, so sampling noise
does not replace a sound card by a dubious one.

With a budget in seconds (``expert:0.25cpu``), the cards are chosen by a tree search instead
(SO-ISMCTS, :func:`spades.bots.ismcts.tree_search`) to the end of the hand, over the expert's
play-outs and deals sampled as it samples them for bids (voids, spade counts and bids, read
with the seats' habits when it has them) but not weighted by how well the plays fit: a fresh
deal per iteration, one tree over the public plays that follow, so the later plays of every
seat are searched rather than assumed; each play-out stops two tricks before the end and
those are solved exactly in its deal (``TREE_EXACT``). Weighting each deal by its plays costs
a replay of the hand per deal, about half the tree's iterations at 0.25 s, and at equal time
the tree that reads plays was behind ``ismcts`` (bench/results/bots_pilot_tree_025cpu.md).

Bids are chosen by simulation too, the other seats bidding as the intermediate level does.
Under standard and Suicide bidding each sampled deal is played out once with a number bid
and every number candidate is scored on the tricks that play-out gave (a side's tricks
hardly depend on the number it bid), and once with Nil; so number bids are compared over
several times more deals. Under Mirror and Whiz, and for blind nil against looking, every
candidate is played out in each deal.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from spades.bots.adapt import SeatModel, Tendencies, adapted_rollout
from spades.bots.base import check_turn
from spades.bots.heuristic import own_state
from spades.bots.infer import sample_deals
from spades.bots.ismcts import tree_search
from spades.bots.policy import choose_bid, estimate_tricks, nil_risk, play_card, rollout
from spades.bots.solve import solve
from spades.engine import BID_BASE, BLIND_NIL, LOOK, NIL, PLAY, Observation
from spades.engine.errors import check_flag
from spades.engine.handstate import HandState

#: Default sampled deals per decision (the ``expert`` spec without a budget). 200 was tried
#: (issue 12): no better on the ceiling's 300 deals (+45.7 vs +45.9 against intermediate) at
#: twice the time.
DEFAULT_WORLDS = 100
#: The last tricks of a hand are solved exactly per deal: this many tricks, at most
#: :data:`EXACT_CARDS` cards in all (3 tricks with 3 or 4 players, 2 with 6).
EXACT_TRICKS = 3
EXACT_CARDS = 12
#: Racing: a candidate this many standard errors (of the paired difference) below the
#: leader drops out; survivors may get up to ``RACE_CAP`` times the base deals.
RACE_Z = 2.5
RACE_CAP = 3.0
#: The rule-based (intermediate) card is kept unless the best card beats it by this many
#: standard errors.
PREFER_DEFAULT_Z = 1.0
#: Deals for a bid, relative to a card decision (bids are few and decide the most).
BID_SCALE = 0.75
#: Weight of a sampled deal per play of this hand by another seat that the intermediate
#: level would not have made with that deal's cards (1: plays are not read; see
#: infer.play_mismatches). Chosen on pilot runs (seeds 12 and 14), not on the ceiling's deals.
PLAY_WEIGHT = 0.5
#: How a side's tricks in real play differ from the intermediate play-out of the same deal
#: with the same bids (shift: share), measured over 150 cardems hands (expert bids, every
#: card by ``ismcts:0.1cpu``; ``bench/trick_spread.py``): a play-out is one way the hand can
#: go, and searching players take it a trick or two elsewhere in three hands out of four.
TRICK_SPREAD = ((-3, 0.033), (-2, 0.12), (-1, 0.233), (0, 0.227), (1, 0.233), (2, 0.12),
                (3, 0.033))

#: In the tree, the last tricks solved exactly instead of played out (see ``tree_exact``).
#: Chosen on a pilot (100 deals at 0.25 s, seed 903): +8.1 [-0.8, +16.9] against the
#: tree played out to the end, its nils made 73% of the time against 57%.
TREE_EXACT = 2


class ExpertBot:
    """Determinized search; budget in sampled deals per decision, or in seconds."""

    name = "expert"

    def __init__(self, seed: int | None = None, worlds: float = DEFAULT_WORLDS,
                 seconds: float | None = None, bag_weight: float = 0.5,
                 rel: float = 1.0, spend: float = 1.0, cap: float = RACE_CAP,
                 z: float = RACE_Z, exact_cards: float | None = None,
                 zdef: float = PREFER_DEFAULT_Z, zdef_bid: float = 0.0,
                 bid_scale: float = BID_SCALE, bid_width: float = 2,
                 rescore: float = 1, adapt: bool = True, cpu: bool = False,
                 play_weight: float = PLAY_WEIGHT, tree: bool = True,
                 tree_play_weight: float = 1.0, nil_doubt: float = 0.0,
                 trick_noise: float | None = None, read_spread: bool = True,
                 guide: bool = False, bias: float = 0.0,
                 tree_exact: float = TREE_EXACT) -> None:
        for flag, value in (("adapt", adapt), ("cpu", cpu), ("tree", tree),
                            ("read_spread", read_spread), ("guide", guide)):
            check_flag(flag, value)  # adapt="no" is a mistake, not a wish to adapt
        #: In the tree (a budget in seconds, two sides, ``rel`` 1), play-outs stop when this
        #: many tricks are left, the one in progress among them, and the rest is solved
        #: exactly (0: played out to the end by the play-out policy).
        self.tree_exact = int(tree_exact)
        #: In the tree (a budget in seconds), try first the card the intermediate level
        #: would play in the node's sampled deal, and favour it by ``bias`` while counts
        #: are few (:func:`spades.bots.ismcts.tree_search`; off by default).
        self.guide = guide
        self.bias = bias
        #: Read each seat's bids as closely as it keeps to its habit, and move its bids in
        #: play-outs by its habit on average (adapt.model_of; False: the models before
        #: 2026-12-02, rounded shifts; docs/bots.md, "The partner who adapts").
        self.read_spread = read_spread
        #: Number bids scored over a spread of the play-out's tricks (``TRICK_SPREAD``, its
        #: off-centre part scaled by this; 0: on the play-out's tricks as they are). By
        #: default 1 with a budget in seconds, where every card is chosen by the tree as in
        #: the hands the spread was measured on, and 0 with a budget in deals.
        if trick_noise is None:
            trick_noise = 0.0 if seconds is None else 1.0
        self.trick_noise = trick_noise
        #: A Nil bid is valued as if its play-outs failed ``1 + nil_doubt`` times as often
        #: as they do (0: as they say; an experiment's knob, see docs/bots.md).
        self.nil_doubt = nil_doubt
        #: With a budget in seconds, choose the cards by a tree search (see :meth:`_play`);
        #: False: by play-outs of each card, the last tricks solved exactly.
        self.tree = tree
        #: ``play_weight`` of the tree's deals (1: plays are not read).
        self.tree_play_weight = tree_play_weight
        #: Weight of a sampled deal per play of this hand it does not explain (1: unused).
        self.play_weight = play_weight
        self.adapt = adapt
        #: The clock of a budget in seconds: wall time, or this thread's CPU time.
        self.clock = time.thread_time if cpu else time.perf_counter
        self._tendencies = Tendencies()
        self._models: list[SeatModel] | None = None
        self.rescore = bool(rescore)
        self.bid_scale = bid_scale
        self.bid_width = int(bid_width)
        self.zdef = zdef
        self.zdef_bid = zdef_bid
        self._values: list[list[float]] = []
        self.rng = random.Random(seed)
        self.rel = rel
        self.spend = spend
        self.cap = cap
        self.z = z
        self.exact_cards = None if exact_cards is None else int(exact_cards)
        self.worlds = max(2, int(worlds))
        self.seconds = seconds
        self.bag_weight = bag_weight

    # Budget ---------------------------------------------------------------------------

    def _deadline(self, share: float = 1.0) -> float | None:
        if self.seconds is None:
            return None
        return self.clock() + self.seconds * share

    def _rollout(self, s: HandState, stop: int = 0) -> None:
        if self._models is None:
            rollout(s, stop)
        else:
            adapted_rollout(s, self._models, stop)

    def _sample(self, obs: Observation, count: int, play_weight: float | None = None
                ) -> list[list[int]]:
        pw = self.play_weight if play_weight is None else play_weight
        return sample_deals(obs, self.rng, count, models=self._models, play_weight=pw)

    def _exact(self, obs: Observation) -> int:
        """How many cards left in the hand are few enough to solve exactly."""
        if self.exact_cards is not None:
            return self.exact_cards
        return min(EXACT_CARDS, EXACT_TRICKS * obs.rules.players)

    # Deciding -------------------------------------------------------------------------

    def act(self, obs: Observation) -> int:
        check_turn(obs)
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        self._models = (self._tendencies.models(obs, self.read_spread) if self.adapt
                        else None)
        if LOOK in legal:
            return self._blind_nil(obs)
        if obs.phase == "bid":
            return self._bid(obs, legal)
        return self._play(obs)

    def _evaluate(self, obs: Observation, candidates: list[int], scale: float,
                  play_out: bool) -> list[float]:
        """Mean utility of each candidate action over sampled deals, racing: deals come in
        batches played out for every candidate still in the race; after each batch a
        candidate clearly worse than the leader (paired over the same deals) drops out, so
        close decisions get more deals. The budget is a number of play-outs (``worlds``
        per candidate, times ``scale``), or seconds. Dropped candidates get -inf."""
        side = obs.my_side
        exact = self._exact(obs)
        k = len(candidates)
        values: list[list[float]] = [[] for _ in candidates]
        active = list(range(k))
        dropped: dict[int, float] = {}
        deadline = self._deadline()
        worlds = max(2, int(self.worlds * scale))
        budget = worlds * k * self.spend if deadline is None else 10**9
        cap = int(worlds * self.cap) if deadline is None else 4000
        batch = max(2, min(16, worlds // 4)) if deadline is None else 8
        spent = 0
        done = 0
        while True:
            size = batch
            if deadline is None:
                size = min(batch, cap - done, int(budget - spent) // len(active))
                if size < 1:
                    break
            for hands in self._sample(obs, size):
                base = HandState.from_obs(obs, hands)
                for i in active:
                    s = base.clone()
                    s.apply_int(candidates[i])
                    if play_out and s.phase is PLAY and _cards_left(s) <= exact:
                        values[i].append(solve(s, side, self.bag_weight, self.rel))
                    else:
                        self._rollout(s)
                        values[i].append(s.utility(side, self.bag_weight, self.rel))
                spent += len(active)
                done += 1
                if deadline is not None and done >= 4 and self.clock() > deadline:
                    break
            if deadline is not None and self.clock() > deadline:
                break
            active = _race(values, active, done, self.z, dropped)
            if len(active) == 1:
                break
        self._values = values
        out = []
        for i in range(k):
            if i in dropped:
                out.append(-1e9 + dropped[i])
            else:
                out.append(sum(values[i]) / max(1, len(values[i])))
        return out

    def _play(self, obs: Observation) -> int:
        candidates = distinct_cards(obs)
        if len(candidates) == 1:
            return candidates[0]
        deadline = self._deadline()
        if self.tree and deadline is not None:
            stop = self.tree_exact if len(obs.rules.sides) == 2 and self.rel == 1 else 0
            bag_weight, rel = self.bag_weight, self.rel
            return tree_search(obs, set(candidates),
                               lambda k: self._sample(obs, k, self.tree_play_weight),
                               lambda s: self._rollout(s, stop), self.rng, 10**9, deadline,
                               self.clock, bag_weight, rel, batch=16,
                               guide=play_card if self.guide else None, bias=self.bias,
                               finish=(lambda s: solve(s, 0, bag_weight, rel)) if stop else None)
        default = play_card(own_state(obs)) if self.zdef > 0 else -1
        if default >= 0 and default not in candidates:
            rep = max(c for c in candidates if c <= default)
            candidates[candidates.index(rep)] = default
        values = self._evaluate(obs, candidates, 1.0, play_out=True)
        best = max(range(len(candidates)), key=lambda i: (values[i], -candidates[i]))
        if default >= 0:
            best = self._prefer(candidates, values, best, candidates.index(default))
        return candidates[best]

    def _prefer(self, candidates: list[int], values: list[float], best: int,
                default: int) -> int:
        """Keep the rule-based choice ``default`` unless ``best`` beats it clearly
        (``zdef`` standard errors of the paired difference)."""
        if best == default or values[default] < -1e8:
            return best
        a, b = self._values[best], self._values[default]
        n = min(len(a), len(b))
        if n < 2:
            return best
        diffs = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
        d = sum(diffs) / n
        var = sum((x - d) ** 2 for x in diffs) / (n - 1)
        if d > self.zdef * math.sqrt(var / n):
            return best
        return default

    def _bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        hand = obs.hand or 0
        rules = obs.rules
        est = estimate_tricks(hand, rules)
        numbers = [a for a in legal if BID_BASE < a < BLIND_NIL]
        centre = round(est)
        w = self.bid_width
        if self.rescore and rules.bidding in ("standard", "suicide"):
            w += 1  # scoring one more number on the same play-outs costs nothing
        candidates = [a for a in numbers if centre - w <= a - BID_BASE <= centre + w]
        if not candidates and numbers:
            candidates = [min(numbers, key=lambda a: abs(a - BID_BASE - centre))]
        if NIL in legal and (nil_risk(hand, rules) < 4.5 or not candidates):
            candidates.append(NIL)
        if len(candidates) == 1:
            return candidates[0]
        default = -1
        if self.zdef > 0:
            default = choose_bid(own_state(obs), obs.scores, legal)
            if default not in candidates:
                candidates.append(default)
        if self.rescore and rules.bidding in ("standard", "suicide"):
            values = self._rescore_bids(obs, candidates, default)
        else:
            values = self._evaluate(obs, candidates, self.bid_scale, play_out=False)
        best = max(range(len(candidates)), key=lambda i: (values[i], -abs(
            candidates[i] - BID_BASE - est) if candidates[i] != NIL else -99))
        if default >= 0 and self.zdef_bid > 0:
            best = self._prefer(candidates, values, best, candidates.index(default))
        return candidates[best]

    def bid_without_nil(self, obs: Observation) -> int:
        """The bid this bot would choose at ``obs`` (a turn to bid) were Nil not allowed
        (the hints' choice when they do not suggest the Nil the search prefers)."""
        check_turn(obs)
        legal = tuple(a for a in obs.legal_actions if a != NIL)
        if len(legal) == 1:
            return legal[0]
        self._models = (self._tendencies.models(obs, self.read_spread) if self.adapt
                        else None)
        return self._bid(obs, legal)

    def _rescore_bids(self, obs: Observation, candidates: list[int], default: int) -> list[float]:
        """Mean utility of each candidate bid, number bids scored on one play-out per deal.

        The tricks a side takes hardly depend on which number it bid, so each sampled deal is
        played out once with a number bid (the rule-based one) and every number candidate is
        scored on the tricks that play-out gave (the bid-in-spades method of Cohensius et
        al., 2020). Nil, a different way of playing, gets its own play-out. With one play-out
        per deal for all numbers, the numbers are compared over several times more deals,
        and without deal-to-deal noise between them."""
        side = obs.my_side
        me = obs.seat
        numbers = [a for a in candidates if BID_BASE <= a < BLIND_NIL and a != NIL]
        anchor = -1  # the number bid each deal is played out with
        if default in numbers:
            anchor = default
        elif numbers:
            est = estimate_tricks(obs.hand or 0, obs.rules)
            anchor = min(numbers, key=lambda a: abs(a - BID_BASE - est))
        nil = NIL in candidates
        sums = dict.fromkeys(candidates, 0.0)
        count = 0
        deadline = self._deadline()
        # Deals without a time budget: 3 per base deal (about the play-outs it took to play
        # five or six candidates out in every deal).
        total = max(2, int(self.worlds * self.bid_scale * 3))
        while True:
            for hands in self._sample(obs, 8):
                base = HandState.from_obs(obs, hands)
                if anchor >= 0:
                    s = base.clone()
                    s.bid_int(anchor)
                    self._rollout(s)
                    if self.trick_noise:
                        self._shift_tricks(s, me)
                    for a in numbers:
                        s.bids[me] = a - BID_BASE
                        sums[a] += s.utility(side, self.bag_weight, self.rel)
                if nil:
                    s = base.clone()
                    s.bid_int(NIL)
                    self._rollout(s)
                    sums[NIL] += s.utility(side, self.bag_weight, self.rel)
                    if self.nil_doubt and s.tricks[me]:
                        # a failed Nil swings by twice its points
                        sums[NIL] -= self.nil_doubt * 2 * obs.rules.nil_points
                count += 1
            if deadline is None:
                if count >= total:
                    break
            elif self.clock() > deadline:
                break
        return [sums[a] / count if a in numbers or a == NIL else -1e9 for a in candidates]

    def _shift_tricks(self, s: HandState, me: int) -> None:
        """Move a random number of tricks (drawn from ``TRICK_SPREAD``, its off-centre part
        scaled by ``trick_noise``) between this seat and the opponent who took most, as real
        play moves them away from a finished play-out's."""
        r = self.rng.random()
        shift = 0
        for offset, share in TRICK_SPREAD:
            if offset:
                r -= share * self.trick_noise
                if r < 0:
                    shift = offset
                    break
        if not shift:
            return
        mine = s.side_of[me]
        opp = max((p for p in range(len(s.tricks)) if s.side_of[p] != mine),
                  key=lambda p: (s.bids[p] != 0, s.tricks[p]))
        shift = max(-s.tricks[me], min(s.tricks[opp], shift))
        s.tricks[me] += shift
        s.tricks[opp] -= shift

    def _blind_nil(self, obs: Observation) -> int:
        """Blind nil or look: simulate both over guessed hands for this seat too."""
        side = obs.my_side
        blind = normal = 0.0
        count = max(2, int(self.worlds * 0.75)) if self.seconds is None else 48
        for hands in self._sample(obs, count):
            base = HandState.from_obs(obs, hands)
            s = base.clone()
            s.bid_int(BLIND_NIL)
            self._rollout(s)
            blind += s.utility(side, self.bag_weight, self.rel)
            s = base.clone()
            s.bid_int(LOOK)
            s.bid_int(choose_bid(s, obs.scores))
            self._rollout(s)
            normal += s.utility(side, self.bag_weight, self.rel)
        return BLIND_NIL if blind > normal else LOOK


class AllSeeingBot(ExpertBot):
    """The expert with every sampled deal being the real hands: the ceiling of its search,
    for measurement only (``spades arena --a allseeing``). Never offered to players: only the
    arena shows it the hands, through :meth:`see`, before each decision."""

    name = "allseeing"

    def __init__(self, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(seed, adapt=False, **kwargs)
        self._hands: tuple[int, ...] = ()

    def see(self, hands: tuple[int, ...]) -> None:
        self._hands = hands

    def _sample(self, obs: Observation, count: int, play_weight: float | None = None
                ) -> list[list[int]]:
        if len(self._hands) != obs.rules.players:
            raise ValueError("the all-seeing expert was not shown the hands")
        return [list(self._hands) for _ in range(count)]


def _race(values: list[list[float]], active: list[int], done: int, z: float,
          dropped: dict[int, float]) -> list[int]:
    """The candidates still in the race: those not clearly worse than the leader over the
    ``done`` deals all of them have played (paired differences, ``z`` standard errors)."""
    if done < 8 or len(active) < 2:
        return active
    means = {i: sum(values[i][-done:]) / done for i in active}
    lead = max(active, key=lambda i: means[i])
    lv = values[lead][-done:]
    keep = []
    for i in active:
        if i == lead:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(lv, values[i][-done:], strict=True)]
        d = sum(diffs) / done
        var = sum((x - d) ** 2 for x in diffs) / (done - 1)
        se = math.sqrt(var / done)
        if d > z * se + 0.5:
            dropped[i] = means[i]
        else:
            keep.append(i)
    return keep


def _cards_left(s: HandState) -> int:
    return sum(h.bit_count() for h in s.hands)


def distinct_cards(obs: Observation) -> list[int]:
    """The legal cards, keeping one of each run of touching cards (cards with nothing
    between them but cards of finished tricks or held by this seat play the same; a card on
    the table in this trick separates them: one of them beats it, the other does not)."""
    hand = obs.hand or 0
    gone = ~obs.rules.deck
    for _, c in obs.plays:
        gone |= 1 << c
    for _, c in obs.trick:
        gone &= ~(1 << c)
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
