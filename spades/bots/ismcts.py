"""The ``ismcts`` level: single-observer Information Set Monte Carlo Tree Search
(Cowling, Powley and Whitehouse, 2012).

One tree, keyed by the sequence of actions since the decision, all of which this seat
observes (bids and cards played are public), so nodes are shared by every determinization.
Each iteration samples a fresh deal consistent with the observation, descends the tree
among the actions legal in that deal (UCB1 with availability counts: a child's exploration
term uses how often it was available, not its parent's visits), adds one node, plays the
rest of the hand out with the intermediate policy, and credits every node with the result
for the side that chose it. The root action visited most is played.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection

from spades.bots.base import check_turn
from spades.bots.heuristic import settled
from spades.bots.infer import sample_deals
from spades.bots.policy import rollout
from spades.engine import BID, DEAL, PLAY, Observation
from spades.engine.cards import cards_of_int
from spades.engine.errors import check_flag
from spades.engine.handstate import HandState

DEFAULT_ITERATIONS = 1500
#: Exploration constant, for utilities measured in hundreds of points.
EXPLORATION = 0.7
_SCALE = 100.0


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def _actions(s: HandState) -> list[int]:
    if s.phase is BID:
        return list(s.legal_bids())
    return cards_of_int(s.legal_mask())


def tree_search(obs: Observation, root_actions: Collection[int],
                sample: Callable[[int], list[list[int]]], play_out: Callable[[HandState], None],
                rng: random.Random, iterations: int, deadline: float | None = None,
                clock: Callable[[], float] = time.perf_counter, bag_weight: float = 0.5,
                rel: float = 1.0, batch: int = 32,
                guide: Callable[[HandState], int] | None = None, bias: float = 0.0,
                finish: Callable[[HandState], float] | None = None) -> int:
    """SO-ISMCTS from ``obs``: the root action (among ``root_actions``) visited most.

    ``sample(k)`` gives ``k`` guesses of the hidden hands and ``play_out`` plays a hand to
    its end from a state; ``iterations`` bounds the search, and so does ``deadline`` (on
    ``clock``) once 8 iterations are done. Each side's result is its points minus ``rel``
    times the other sides' mean (a bag costing ``bag_weight`` of its share of the penalty).

    With ``guide`` (a policy: the card it would play in a state), a node's untried card that
    the policy plays in this iteration's deal is tried first, and while the tree's own counts
    are few that card is favoured by ``bias / (visits + 1)`` (progressive bias): the other
    seats in the tree play their sampled hands as a player would, not at random.

    With ``finish`` (two sides only), a play-out that stops before the end of the hand is
    valued by ``finish``: side 0's utility, side 1's being its negative (an exact solve of
    the last tricks, say)."""
    root = _Node()
    log = math.log
    sqrt = math.sqrt
    sides = len(obs.rules.sides)
    deals: list[list[int]] = []
    for it in range(iterations):
        if deadline is not None and it >= 8 and clock() > deadline:
            break
        if not deals:
            deals = sample(batch)
        s = HandState.from_obs(obs, deals.pop())
        node = root
        path: list[tuple[_Node, int]] = []
        while s.phase is not DEAL:
            actions = _actions(s)
            if node is root:
                actions = [a for a in actions if a in root_actions]
            side = s.side_of[s.turn]
            children = node.children
            hint = guide(s) if guide is not None and s.phase is PLAY else -1
            untried = []
            for a in actions:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                if hint in untried:
                    a = hint
                else:
                    a = untried[int(rng.random() * len(untried))]
                child = _Node()
                child.avail = 1
                children[a] = child
                s.apply_int(a)
                path.append((child, side))
                break
            best_value = -1e18
            best_action = actions[0]
            for a in actions:
                child = children[a]
                value = (child.total / child.visits
                         + EXPLORATION * sqrt(log(child.avail) / child.visits))
                if a == hint:
                    value += bias / (child.visits + 1)
                if value > best_value:
                    best_value, best_action = value, a
            node = children[best_action]
            s.apply_int(best_action)
            path.append((node, side))
        play_out(s)
        if finish is not None and s.phase is PLAY:
            x = finish(s) / _SCALE
            utility = [x, -x]
        else:
            values = s.side_values(bag_weight)
            total = sum(values)
            utility = [(v - rel * (total - v) / (sides - 1)) / _SCALE for v in values]
        for n, side in path:
            n.visits += 1
            n.total += utility[side]
    if not root.children:
        return min(root_actions)
    return max(root.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))[0]


class IsmctsBot:
    """SO-ISMCTS; budget in iterations per decision, or in seconds."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: float = DEFAULT_ITERATIONS,
                 seconds: float | None = None, bag_weight: float = 0.5,
                 cpu: bool = False) -> None:
        check_flag("cpu", cpu)
        self.rng = random.Random(seed)
        #: The clock of a budget in seconds: wall time, or this thread's CPU time.
        self.clock = time.thread_time if cpu else time.perf_counter
        self.iterations = max(1, int(iterations))
        self.seconds = seconds
        self.bag_weight = bag_weight

    def act(self, obs: Observation) -> int:
        check_turn(obs)
        given = settled(obs)
        if given is not None:
            return given
        rng = self.rng
        deadline = None if self.seconds is None else self.clock() + self.seconds
        limit = self.iterations if deadline is None else 10**9
        return tree_search(obs, set(obs.legal_actions), lambda k: sample_deals(obs, rng, k),
                           rollout, rng, limit, deadline, self.clock, self.bag_weight)
