"""The rules profiles as OpenSpiel games (``pip install 'spades[learn]'``, or ``[openspiel]``).

Importing this module registers one Python game per profile with ``pyspiel.register_game``:
``python_spades_cardems``, ``python_spades_cardgames_club``, ``python_spades_race400``,
``python_spades_game93`` and ``python_spades_cards4net`` (see :data:`GAME_NAMES`), so that
OpenSpiel's algorithms play the exact rules::

    import pyspiel
    import spades.learn.openspiel  # registers the games
    game = pyspiel.load_game("python_spades_cards4net", {"jokers": True})

Parameters: ``players``, ``one_hand`` (default true: a game is one hand; false: a whole
match, cut after ``max_hands`` hands, default 100, to keep the game finite), ``dealer``
(the first dealer; default the last seat, so seat 0 bids and leads first as in OpenSpiel's
own ``spades``), ``teams`` (``"0,2;1,3"`` or ``"0+2;1+3"``, which the game keeps so that its
string loads again; ``"solo"``; or empty for the profile's), and every
other knob of :class:`~spades.engine.Rules` that is a number, a flag or a word.

Dealing is chance: chance action ``c`` gives card ``c`` to the next seat, one card at a time
starting left of the dealer. Player actions are the fixed space of
:mod:`spades.learn.encoding` (74 actions). Returns are each player's side's score so far
(the hand's points in a one-hand game); ``rewards()`` gives each hand's points as the hand
ends. The observation tensor is the AEC environment's
vector; the information-state tensor adds every card of the hand in the order played
(perfect recall within the hand; earlier hands of a match enter only through the scores and
bags). :meth:`SpadesState.resample_from_infostate` deals the unseen cards again consistently
with the voids a seat has shown, which OpenSpiel's Python ISMCTS bot needs.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from spades.bots.infer import sample_deals
from spades.engine import PROFILES, IllegalAction, Match, Rules, action_str, card_str, profile
from spades.engine.match import BID, DEAL, PLAY
from spades.learn.aec import render_text
from spades.learn.encoding import (
    NUM_ACTIONS,
    NUM_CARDS,
    check_fits,
    encode,
    from_engine,
    legal_actions,
    played_by_seat,
    to_engine,
    vector_size,
)

#: Profile → registered OpenSpiel game name.
GAME_NAMES = {name: "python_spades_" + name.replace("-", "_") for name in PROFILES}
DEFAULT_MAX_HANDS = 100
_SKIP = {"name", "players", "teams", "one_hand", "turn_timer", "hard_contract_from"}


def _knob_defaults(name: str) -> dict[str, Any]:
    base = profile(name)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Rules):
        value = getattr(base, f.name)
        if f.name not in _SKIP and isinstance(value, bool | int | str):
            out[f.name] = value
    return out


def _parameters(name: str) -> dict[str, Any]:
    counts = PROFILES[name][0]
    params: dict[str, Any] = {
        "players": counts[0] if len(counts) == 1 else 4,
        "one_hand": True,
        "max_hands": DEFAULT_MAX_HANDS,
        "dealer": -1,
        "teams": "",
    }
    params.update(_knob_defaults(name))
    return params


def _parse_teams(text: str) -> Any:
    """Sides split by ``;``, their seats by ``,`` or ``+`` (``"0,2;1,3"``, ``"0+2;1+3"``)."""
    text = text.strip()
    if text == "solo":
        return None
    try:
        return [[int(s) for s in side.replace("+", ",").split(",")] for side in text.split(";")]
    except ValueError:
        raise pyspiel.SpielError(
            f"teams: write sides of seats like '0,2;1,3' (or '0+2;1+3') or 'solo', "
            f"not {text!r}") from None


def _teams_param(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with ``teams`` written ``0+2;1+3``: with commas inside it a parameter
    breaks OpenSpiel's game string (``str(game)``, which pickling and
    ``serialize_game_and_state`` load again), so the game keeps this spelling."""
    teams = params.get("teams")
    if not isinstance(teams, str) or teams.strip() in ("", "solo"):
        return params
    sides = _parse_teams(teams)
    return {**params, "teams": ";".join("+".join(str(s) for s in side) for side in sides)}


def _load_game(name: str, params: dict[str, Any]) -> SpadesGame:
    """The game ``name`` with ``params`` (how a pickled game is loaded again)."""
    return pyspiel.load_game(name, params)  # type: ignore[no-any-return]


def rules_for(name: str, params: dict[str, Any]) -> tuple[Rules, int, int]:
    """The rules, first dealer and hand cap of a game of profile ``name``."""
    merged = _parameters(name)
    unknown = set(params) - set(merged)
    if unknown:
        raise pyspiel.SpielError(f"{sorted(unknown)[0]}: unknown parameter of {GAME_NAMES[name]}; "
                                 f"known: {', '.join(sorted(merged))}")
    merged.update(params)
    knobs = {k: v for k, v in merged.items() if k not in ("max_hands", "dealer", "teams")}
    if merged["teams"]:
        knobs["teams"] = _parse_teams(str(merged["teams"]))
    try:
        rules = profile(name, **knobs)
        check_fits(rules)
    except ValueError as exc:
        raise pyspiel.SpielError(str(exc)) from None
    dealer = int(merged["dealer"])
    if dealer == -1:
        dealer = rules.players - 1
    if not 0 <= dealer < rules.players:
        raise pyspiel.SpielError(f"dealer: must be a seat from 0 to {rules.players - 1}, "
                                 f"not {dealer}")
    max_hands = int(merged["max_hands"])
    if max_hands < 1:
        raise pyspiel.SpielError(f"max_hands: must be 1 or more, not {max_hands}")
    return rules, dealer, 1 if rules.one_hand else max_hands


def utility_bound(rules: Rules) -> int:
    """No side scores more than this, or less than minus this, in one hand."""
    size = rules.hand_size
    seats = max(len(side) for side in rules.sides)
    nil = seats * max(rules.nil_points, rules.blind_nil_points)
    bags = (rules.bag_limit - 1 + size) // rules.bag_limit * rules.bag_penalty
    return 20 * size + 10 * size + rules.small_contract_bonus + size + nil + bags


def _game_type(name: str) -> Any:
    counts = PROFILES[name][0]
    return pyspiel.GameType(
        short_name=GAME_NAMES[name],
        long_name=f"Spades ({name} rules, spades engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class _MatchBox:
    """Holds the match; OpenSpiel clones a Python state by deep-copying its attributes,
    and this makes that copy the engine's cheap :meth:`Match.clone`."""

    __slots__ = ("match",)

    def __init__(self, match: Match) -> None:
        self.match = match

    def __deepcopy__(self, memo: dict[int, Any]) -> _MatchBox:
        return _MatchBox(self.match.clone())


class SpadesGame(pyspiel.Game):  # type: ignore[misc]
    """One profile as an OpenSpiel game (see the module docstring)."""

    PROFILE = "cardems"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.profile_name = self.PROFILE
        self.rules, self.first_dealer, self.max_hands = rules_for(name, dict(params or {}))
        rules = self.rules
        bound = utility_bound(rules) * self.max_hands
        per_hand = rules.players + 1 + rules.hand_size * rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=rules.players,
            min_utility=-float(bound),
            max_utility=float(bound),
            max_game_length=per_hand * self.max_hands,
        )
        super().__init__(_game_type(name), info, _teams_param(dict(params or {})))

    def __reduce__(self) -> tuple[Any, ...]:
        # The game is its name and parameters: loaded again, it is built (and its rules
        # checked) as when it was first loaded, for pickle and copy alike.
        return _load_game, (self.get_type().short_name, self.get_parameters())

    def new_initial_state(self) -> SpadesState:
        return SpadesState(self)

    def max_chance_nodes_in_history(self) -> int:
        return int(self.rules.deck.bit_count() * self.max_hands)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SpadesObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return SpadesObserver(self, iig_obs_type)


class SpadesState(pyspiel.State):  # type: ignore[misc]
    """A state of :class:`SpadesGame`: the engine's match and the cards dealt so far."""

    def __init__(self, game: SpadesGame) -> None:
        super().__init__(game)
        self._box = _MatchBox(Match(game.rules, dealer=game.first_dealer))
        self._dealt: list[int] = []
        self._max_hands = game.max_hands
        self._last_points: tuple[int, ...] = ()

    @property
    def match(self) -> Match:
        return self._box.match

    def _cut(self) -> bool:
        return len(self.match.results) >= self._max_hands

    def current_player(self) -> int:
        match = self.match
        if match.is_over() or self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        if match.phase == DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return match.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self.match)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = 0
        for c in self._dealt:
            dealt |= 1 << c
        left = [c for c in range(NUM_CARDS) if (self.match.rules.deck & ~dealt) >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        """Apply a chance or player action; one that is not legal now raises
        :class:`IllegalAction` saying why, before anything changes (OpenSpiel then leaves
        the history as it was)."""
        match = self.match
        if self.is_terminal():
            raise IllegalAction(f"the game is over: no action is legal, not {action!r}")
        if match.phase == DEAL:
            self._check_deal(action)
            self._dealt.append(action)
            deck = match.rules.deck.bit_count()
            if len(self._dealt) == deck:
                n = match.n
                masks = [0] * n
                for i, c in enumerate(self._dealt):
                    masks[(match.dealer + 1 + i) % n] |= 1 << c
                self._dealt = []
                match.deal(masks)
            return  # the points of a hand just scored stay the reward until the next move
        player = match.current_player
        try:
            engine_action = to_engine(action)
        except (TypeError, ValueError) as exc:
            raise IllegalAction(f"player {player} cannot take action {action!r}: {exc}") from None
        scored = len(match.results)
        try:
            match.apply(engine_action)  # checks the action; an illegal one changes nothing
        except IllegalAction as exc:
            raise IllegalAction(f"player {player} cannot take action {action} "
                                f"({action_str(engine_action)}): {exc}") from None
        self._last_points = match.results[-1].points if len(match.results) > scored else ()

    def _check_deal(self, card: int) -> None:
        """Refuse a chance action that is not a card left to deal (one of
        :meth:`chance_outcomes`)."""
        if not 0 <= card < NUM_CARDS:
            raise IllegalAction(f"chance cannot deal card {card!r}: not a card "
                                f"(cards are 0 to {NUM_CARDS - 1})")
        if not self.match.rules.deck >> card & 1:
            raise IllegalAction(f"chance cannot deal card {card} ({card_str(card)}): "
                                "not in this game's deck")
        if card in self._dealt:
            raise IllegalAction(f"chance cannot deal card {card} ({card_str(card)}): "
                                "it was dealt already")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {card_str(action)}"
        return action_str(to_engine(action))

    def is_terminal(self) -> bool:
        return self.match.is_over() or self._cut()

    def rewards(self) -> list[float]:
        """Each player's side's points for the hand the last move finished (else 0)."""
        if not self._last_points:
            return [0.0] * self.match.n
        return [float(self._last_points[k]) for k in self.match.rules.side_of]

    def returns(self) -> list[float]:
        match = self.match
        return [float(match.scores[k]) for k in match.rules.side_of]

    def __str__(self) -> str:
        return render_text(self.match)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpadesState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        again, never a suit a seat has shown it lacks (nor, under Mirror and Whiz, more or
        fewer spades than its bid revealed)."""
        match = self.match
        if match.phase not in (BID, PLAY):
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(float(probability_sampler()) * 2**52))
        hands = sample_deals(match.observation(player_id), rng, 1, evidence=False)[0]
        played = played_by_seat(match)
        deal = [h | p for h, p in zip(hands, played, strict=True)]
        n = match.n
        history = list(self.history())
        # Everything before this hand's deal is replayed as it was; then the new deal.
        this_hand = len(match.log[-1].actions)
        deck = match.rules.deck.bit_count()
        prefix = history[:len(history) - this_hand - deck]
        state = self.get_game().new_initial_state()
        for a in prefix:
            state.apply_action(a)
        cards = [sorted(c for c in range(NUM_CARDS) if deal[s] >> c & 1) for s in range(n)]
        for i in range(deck):
            state.apply_action(cards[(match.dealer + 1 + i) % n].pop())
        for a in match.log[-1].actions:
            state.apply_action(from_engine(a))
        return state  # type: ignore[no-any-return]


class SpadesObserver:
    """OpenSpiel's observer interface: the observation vector, or with ``perfect_recall``
    the information-state vector (the observation and the hand's plays in order)."""

    def __init__(self, game: SpadesGame, iig_obs_type: Any) -> None:
        rules = game.rules
        n = rules.players
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.plays = rules.hand_size * n
        size = vector_size(n)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", size, (size,))]
        if self.perfect_recall:
            pieces.append(("play_order", self.plays * NUM_CARDS, (self.plays, NUM_CARDS)))
        self.tensor = np.zeros(sum(p[1] for p in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, length, shape in pieces:
            self.dict[name] = self.tensor[at:at + length].reshape(shape)
            at += length

    def set_from(self, state: SpadesState, player: int) -> None:
        match = state.match
        vector = encode(match, player)
        if not self.private:
            vector[:NUM_CARDS] = 0.0
        self.dict["observation"][:] = vector
        if self.perfect_recall:
            order = self.dict["play_order"]
            order.fill(0.0)
            if match.phase in (BID, PLAY):
                for i, card in enumerate(match.log[-1].plays):
                    order[i, card] = 1.0

    def string_from(self, state: SpadesState, player: int) -> str:
        match = state.match
        if not self.perfect_recall:
            view = match.observation(player).to_json()
            view.pop("results")
            if not self.private:
                view.pop("hand")
            return json.dumps(view, separators=(",", ":"))
        parts = [f"seat {player}"]
        for k, log in enumerate(match.log):
            current = k == len(match.log) - 1 and match.phase in (BID, PLAY)
            seen = not current or match.looked[player]
            own = " ".join(card_str(c) for c in range(NUM_CARDS) if log.deal[player] >> c & 1)
            cards = own if seen and self.private else "?"
            acts = " ".join(action_str(a) for a in log.actions)
            parts.append(f"hand {k + 1} dealer {log.dealer} [{cards}] {acts}")
        return " | ".join(parts)


#: One game class per profile (OpenSpiel builds a game by calling its class with the
#: parameters; a class, unlike a closure, is also safe for it to hold until exit).
GAME_CLASSES: dict[str, type[SpadesGame]] = {
    name: type(f"SpadesGame_{name.replace('-', '_')}", (SpadesGame,), {"PROFILE": name})
    for name in PROFILES
}


def register() -> None:
    """Register every profile's game (done on import; calling again does nothing)."""
    known = set(pyspiel.registered_names())
    for name, game_name in GAME_NAMES.items():
        if game_name not in known:
            pyspiel.register_game(_game_type(name), GAME_CLASSES[name])


register()

__all__ = ["GAME_CLASSES", "GAME_NAMES", "SpadesGame", "SpadesObserver", "SpadesState", "register",
           "rules_for"]
