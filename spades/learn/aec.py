"""The PettingZoo AEC environment: every seat an agent, on the exact engine.

>>> from spades.learn import env
>>> e = env(rules="cardems", one_hand=True)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     e.step(action)

See docs/learn.md for the observation layout, the action space and the rewards.
"""

from __future__ import annotations

import math
import numbers
import random
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from spades.engine import IllegalAction, Match, Rules, action_name, profile
from spades.engine.actions import whole_number
from spades.engine.cards import card_str, sorted_for_display
from spades.engine.match import BID, PLAY
from spades.learn.encoding import (
    NUM_ACTIONS,
    Mask,
    Vector,
    action_mask,
    as_action,
    bounds,
    check_fits,
    encode,
    to_engine,
)

RewardMode = Literal["hand", "match"]
REWARD_MODES: tuple[RewardMode, ...] = ("hand", "match")


def make_rules(rules: str | Rules = "cardems", players: int | None = None,
               one_hand: bool | None = None, **knobs: Any) -> Rules:
    """Rules from a profile name (or a :class:`Rules`) and knob overrides, refused (a
    ``ValueError`` naming the knob) when they do not fit the action space
    (:func:`~spades.learn.encoding.check_fits`)."""
    if isinstance(rules, Rules):
        changes = dict(knobs)
        if players is not None and players != rules.players:
            raise ValueError("players: give a profile name to change the number of players "
                             "of a Rules object")
        if one_hand is not None:
            changes["one_hand"] = one_hand
        made = rules.replace(**changes) if changes else rules
    else:
        if players is not None:
            knobs["players"] = players
        if one_hand is not None:
            knobs["one_hand"] = one_hand
        made = profile(rules, **knobs)
    check_fits(made)
    return made


def check_env_options(reward: str, max_hands: int | None, render_mode: str | None,
                      render_modes: list[str]) -> int | None:
    """Refuse (ValueError, naming the option) a reward mode, a hand limit or a render mode
    that an environment does not have; the hand limit as an int (a numpy integer is taken
    as that int, a bool is none)."""
    if reward not in REWARD_MODES:
        raise ValueError(f"reward: must be 'hand' or 'match', not {reward!r}")
    limit = None if max_hands is None else whole_number(max_hands)
    if max_hands is not None and (limit is None or limit < 1):
        raise ValueError(f"max_hands: must be a whole number 1 or more, not {max_hands!r}")
    if render_mode is not None and render_mode not in render_modes:
        raise ValueError(f"render_mode: must be 'ansi', 'human' or None, not {render_mode!r}")
    return limit


def check_number(name: str, value: object) -> float:
    """``value`` as a float if it is a finite real number (an int, a float, a numpy number;
    not a bool nor text), else ValueError naming the option ``name``."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not math.isfinite(value)):
        raise ValueError(f"{name}: must be a finite number, not {value!r}")
    return float(value)


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class SpadesEnv(AECEnv[str, dict[str, Any], int | np.integer[Any] | None]):  # type: ignore[misc]
    """Spades as a PettingZoo AEC environment. Build it with :func:`spades.learn.env`.

    Agents are ``player_0`` .. ``player_{N-1}``, one per seat. Each observation is
    ``{"observation": float32 vector, "action_mask": int8 vector of 74}``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "spades_v0",
                "is_parallelizable": False}

    def __init__(self, rules: str | Rules = "cardems", players: int | None = None,
                 one_hand: bool | None = True, *, reward: RewardMode = "hand",
                 reward_scale: float = 1.0, max_hands: int | None = None,
                 render_mode: str | None = None, **knobs: Any) -> None:
        super().__init__()
        self.rules = make_rules(rules, players, one_hand, **knobs)
        max_hands = check_env_options(reward, max_hands, render_mode,
                                      self.metadata["render_modes"])
        self.reward_mode = reward
        self.reward_scale = check_number("reward_scale", reward_scale)
        self.max_hands = max_hands
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = bounds(n)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.match = Match(self.rules, rng=random.Random(0))
        self._played_by = [0] * n
        self._rewarded = False
        self._started = False  # reset() has been called

    # The PettingZoo API ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            number = whole_number(seed)  # (a numpy integer is that int)
            if number is None:
                raise ValueError(f"seed: must be a whole number or None, not {seed!r}"[:200])
            self._rng = random.Random(number)
        self.match = Match(self.rules, rng=random.Random(self._rng.getrandbits(64)))
        self._played_by = [0] * self.rules.players
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.match.current_player)
        self._rewarded = False
        self._started = True

    def observe(self, agent: str) -> dict[str, Vector | Mask]:
        seat = self.agent_name_mapping[agent]
        return {
            "observation": encode(self.match, seat, self._played_by),
            "action_mask": action_mask(self.match, seat),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        if not self._started:
            raise IllegalAction("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for agents whose game is over")
        match = self.match
        seat = match.current_player
        try:
            engine_action = to_engine(action)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise IllegalAction(f"{agent} (seat {seat}) cannot take action {action!r}: "
                                f"{exc}") from None
        scored = len(match.results)
        playing = match.phase == PLAY
        try:
            match.apply(engine_action)  # checks the action; an illegal one changes nothing
        except IllegalAction as exc:
            raise IllegalAction(f"{agent} (seat {seat}) cannot take action {as_action(action)} "
                                f"({_describe(engine_action)}): {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        if playing:
            self._played_by[seat] |= 1 << engine_action
        if self._rewarded:  # clear last step's rewards (only hands' ends give any)
            self._rewarded = False
            for a in self.agents:
                self.rewards[a] = 0.0
        if len(match.results) > scored:
            self._hand_scored()
            self._rewarded = True
            self._accumulate_rewards()
        if not match.is_over() and not (self.truncations and self.truncations[agent]):
            self.agent_selection = self.possible_agents[match.current_player]
        if self.render_mode == "human":
            self.render()

    def _hand_scored(self) -> None:
        match = self.match
        result = match.results[-1]
        self._played_by = [0] * self.rules.players
        side_of = self.rules.side_of
        over = match.is_over()
        cut = not over and self.max_hands is not None and len(match.results) >= self.max_hands
        if self.reward_mode == "hand":
            for a in self.agents:
                self.rewards[a] = result.points[side_of[self.agent_name_mapping[a]]] * self.reward_scale
        elif over or cut:
            scores = match.scores
            nsides = len(scores)
            for a in self.agents:
                k = side_of[self.agent_name_mapping[a]]
                others = (sum(scores) - scores[k]) / (nsides - 1)
                self.rewards[a] = (scores[k] - others) * self.reward_scale
        for a in self.agents:
            self.infos[a] = {"hand": result.number, "points": list(result.points),
                             "scores": list(result.scores)}
        if over:
            for a in self.agents:
                self.terminations[a] = True
        elif cut:
            for a in self.agents:
                self.truncations[a] = True

    def render(self) -> str | None:
        return render_in_mode(self.match, self.render_mode)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return "spades_v0"


def _describe(action: int) -> str:
    try:
        return action_name(action)
    except Exception:
        return "not an action"


def render_text(match: Match) -> str:
    """The whole table in text (every hand shown: a view for people debugging, not for an
    agent)."""
    rules = match.rules
    lines = [f"{rules.name}, {rules.players} players, hand {match.hand_number}, "
             f"dealer seat {match.dealer}, {match.phase}"]
    live = match.phase in (BID, PLAY)
    for s in range(rules.players):
        bid = match.bids[s] if live else -1
        bid_text = "-" if bid < 0 else ("blind nil" if match.blind[s] else
                                         "nil" if bid == 0 else str(bid))
        hand = " ".join(card_str(c) for c in sorted_for_display(match.hands[s])) if live else ""
        turn = " <" if match.current_player == s else ""
        tricks = match.tricks[s] if live else 0
        lines.append(f"  seat {s} (side {rules.side_of[s]}): bid {bid_text}, "
                     f"tricks {tricks}: {hand}{turn}")
    if match.phase == PLAY and match.trick:
        lines.append("  trick: " + " ".join(
            f"{(match.leader + i) % rules.players}:{card_str(c)}"
            for i, c in enumerate(match.trick)))
    if match.phase == PLAY:
        lines.append(f"  spades {'broken' if match.broken else 'not broken'}")
    lines.append("  scores " + ", ".join(
        f"side {k}: {score} ({bags} bags)"
        for k, (score, bags) in enumerate(zip(match.scores, match.bags, strict=True))))
    if match.is_over():
        lines.append(f"  over: {'draw' if match.winner is None else f'side {match.winner} wins'}")
    return "\n".join(lines)


def render_in_mode(match: Match, render_mode: str | None) -> str | None:
    """An environment's ``render``: :func:`render_text`, printed in "human" mode (None is
    returned then), returned as it is otherwise."""
    text = render_text(match)
    if render_mode == "human":
        print(text)
        return None
    return text
