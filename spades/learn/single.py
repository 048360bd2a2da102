"""A Gymnasium environment: one seat learns, project bots play every other seat.

>>> from spades.learn import single_agent_env
>>> e = single_agent_env("cardems", opponents="intermediate", partner="beginner")
>>> obs, info = e.reset(seed=1)
>>> action = int(obs["action_mask"].argmax())
>>> obs, reward, terminated, truncated, info = e.step(action)

The observation and action spaces are those of the AEC environment (docs/learn.md). An
action the mask forbids ends the episode with ``illegal_reward`` (``illegal_action="end"``,
the default, so that Gymnasium's checker and unmasked samplers can run), or raises
:class:`~spades.engine.IllegalAction` (``illegal_action="raise"``).
"""

from __future__ import annotations

import operator
import random
from typing import Any, Literal, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from spades.bots import make_bot
from spades.bots.base import Bot
from spades.bots.external import check_program
from spades.engine import IllegalAction, Match, Rules
from spades.engine.actions import whole_number
from spades.learn.aec import (
    RewardMode,
    check_env_options,
    check_number,
    make_rules,
    render_in_mode,
)
from spades.learn.encoding import (
    NUM_ACTIONS,
    Mask,
    Vector,
    action_mask,
    as_action,
    bounds,
    encode,
    to_engine,
)

IllegalMode = Literal["end", "raise"]


NOT_RESET = "call reset() before step()"
#: Why step() is refused once the episode has ended (the match's end, an illegal action in
#: ``illegal_action="end"``, or ``max_hands``).
OVER = "the episode is over: call reset()"


class BotError(RuntimeError):
    """A bot playing another seat raised an error or chose something that is not a legal
    action; ``str()`` names the seat and its spec (``seat 1 (opponents='py:my_bots:Bot'):
    act gave 999, …``). Not the learner's mistake, so not an :class:`IllegalAction`. The
    episode stops there: the next ``step`` asks for ``reset()``."""


class SingleAgentEnv(gym.Env[dict[str, Any], int]):
    """One learning seat against bots. Build it with :func:`spades.learn.single_agent_env`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(self, rules: str | Rules = "cardems", players: int | None = None,
                 one_hand: bool | None = True, *, seat: int = 0,
                 opponents: str = "intermediate", partner: str | None = None,
                 reward: RewardMode = "hand", reward_scale: float = 1.0,
                 max_hands: int | None = None, illegal_action: IllegalMode = "end",
                 illegal_reward: float = -200.0, render_mode: str | None = None,
                 **knobs: Any) -> None:
        self.rules = make_rules(rules, players, one_hand, **knobs)
        n = self.rules.players
        number = whole_number(seat)  # a numpy integer is that int; a bool is none
        if number is None or not 0 <= number < n:
            raise ValueError(f"seat: must be 0 to {n - 1}, not {seat!r}")
        seat = number
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action: must be 'end' or 'raise', not {illegal_action!r}")
        max_hands = check_env_options(reward, max_hands, render_mode,
                                      self.metadata["render_modes"])
        self.seat = seat
        self.side = self.rules.side_of[seat]
        mates = set(self.rules.sides[self.side])
        mate_spec = opponents if partner is None else partner
        self.specs = [None if s == seat else mate_spec if s in mates else opponents
                      for s in range(n)]
        # Refuse a bad spec now, with make_bot's reason and the argument it came from.
        for arg, spec in (("opponents", opponents), ("partner", partner)):
            if spec is not None and spec in self.specs:
                try:
                    make_bot(spec, 0)
                    if spec.startswith("cmd:"):  # a program that cannot be started, too
                        check_program(spec[4:])
                except ValueError as exc:
                    raise ValueError(f"{arg}: {exc}") from None
                except TypeError as exc:
                    raise TypeError(f"{arg}: {exc}") from None
        self.reward_mode = reward
        self.reward_scale = check_number("reward_scale", reward_scale)
        self.max_hands = max_hands
        self.illegal_action = illegal_action
        self.illegal_reward = check_number("illegal_reward", illegal_reward)
        self.render_mode = render_mode
        low, high = bounds(n)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(NUM_ACTIONS)  # type: ignore[assignment]
        self.match = Match(self.rules, rng=random.Random(0))
        self.bots: list[Bot | None] = [None] * n
        self._played_by = [0] * n
        self._hands_seen = 0
        self._match_paid = False
        #: Why step() cannot go on now (no reset yet, or a bot failed); None when it can.
        self._halted: str | None = NOT_RESET

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:  # (gymnasium takes a Python int only: a numpy one is that int)
            number = whole_number(seed)
            if number is None:
                raise ValueError(f"seed: must be a whole number or None, not {seed!r}"[:200])
            seed = number
        super().reset(seed=seed)
        self._halted = NOT_RESET
        base = int(self.np_random.integers(2**62))
        self.match = Match(self.rules, rng=random.Random(base))
        self.bots = [None if spec is None else make_bot(spec, base + 1 + s)
                     for s, spec in enumerate(self.specs)]
        self._played_by = [0] * self.rules.players
        self._hands_seen = 0
        self._match_paid = False
        points, _ = self._advance()
        self._halted = None
        return self._obs(), {"points_before_first_turn": points}

    def _obs(self) -> dict[str, Vector | Mask]:
        """The learner's observation; once the episode is over, no action in its mask."""
        mask = action_mask(self.match, self.seat)
        return {"observation": encode(self.match, self.seat, self._played_by),
                "action_mask": np.zeros_like(mask) if self._halted == OVER else mask}

    def _apply(self, action: int) -> None:
        match = self.match
        if match.phase == "play":
            self._played_by[match.current_player] |= 1 << action
        match.apply(action)
        if len(match.results) > self._hands_seen:
            self._played_by = [0] * self.rules.players

    def _advance(self) -> tuple[float, bool]:
        """Let the bots act until it is the learner's turn or the episode ends; the reward
        earned meanwhile, and whether the episode was cut by ``max_hands``."""
        reward = 0.0
        match = self.match
        while True:
            reward += self._collect()
            cut = self.max_hands is not None and len(match.results) >= self.max_hands
            if match.is_over() or cut or match.current_player == self.seat:
                return reward, cut and not match.is_over()
            seat = match.current_player
            bot = self.bots[seat]
            assert bot is not None  # reset() gave every seat but the learner's a bot
            self._apply(self._bot_action(seat, bot))

    def _bot_action(self, seat: int, bot: Bot) -> int:
        """The bot's action for ``seat`` as an int (a numpy integer is fine); BotError naming
        the seat and its spec if the bot raises or gives what the engine refuses (then the
        match is as it was, and the episode stops)."""
        match = self.match
        arg = "partner" if self.rules.side_of[seat] == self.side else "opponents"
        who = f"seat {seat} ({arg}={self.specs[seat]!r})"
        try:
            given = bot.act(match.observation(seat))
        except Exception as exc:
            self._halted = f"the episode stopped: {who}: its bot failed; call reset()"
            raise BotError(f"{who}: act raised {type(exc).__name__}: {exc}") from exc
        why = None
        action = -1
        if isinstance(given, bool | np.bool_):
            why = "not an action (a whole number)"
        else:
            try:
                action = operator.index(given)
            except TypeError:
                why = "not an action (a whole number)"
        if why is None:
            try:
                match.check(action)
            except IllegalAction as exc:
                why = f"which the engine refuses: {exc}"
        if why is not None:
            self._halted = f"the episode stopped: {who}: its bot failed; call reset()"
            raise BotError(f"{who}: act gave {given!r}, {why}")
        return action

    def _collect(self) -> float:
        """The reward for hands scored since the last call."""
        match = self.match
        reward = 0.0
        while self._hands_seen < len(match.results):
            result = match.results[self._hands_seen]
            self._hands_seen += 1
            if self.reward_mode == "hand":
                reward += result.points[self.side]
        if self.reward_mode == "match":
            over = match.is_over() or (self.max_hands is not None
                                       and len(match.results) >= self.max_hands)
            if over and not self._match_paid:
                self._match_paid = True
                scores = match.scores
                others = (sum(scores) - scores[self.side]) / (len(scores) - 1)
                reward += scores[self.side] - others
        return reward * self.reward_scale

    def step(self, action: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._halted is not None:
            raise IllegalAction(self._halted)
        match = self.match
        if match.is_over() or match.current_player != self.seat:
            raise IllegalAction(OVER)
        try:
            index = as_action(action)
        except TypeError as exc:  # not an action at all: refused in either mode
            raise IllegalAction(f"seat {self.seat} cannot take action {action!r}: {exc}") from None
        try:
            engine_action = to_engine(index)
            legal = match.is_legal(engine_action)
        except ValueError:
            engine_action, legal = -1, False
        if not legal:
            why = "outside the action space" if engine_action < 0 else None
            if why is None:
                try:
                    match.check(engine_action)
                except IllegalAction as exc:
                    why = str(exc)
            message = f"seat {self.seat} cannot take action {action!r}: {why}"
            if self.illegal_action == "raise":
                raise IllegalAction(message)
            self._halted = OVER
            return (self._obs(), self.illegal_reward * self.reward_scale, True, False,
                    {"illegal_action": message})
        self._apply(engine_action)
        reward, cut = self._advance()
        if match.is_over() or cut:
            self._halted = OVER
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, match.is_over(), cut, {}

    def render(self) -> str | None:
        return render_in_mode(self.match, self.render_mode)
