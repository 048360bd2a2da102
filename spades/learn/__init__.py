"""Spades for learning agents: PettingZoo, Gymnasium and OpenSpiel interfaces on the engine.

These need the optional ``learn`` extra (``pip install 'spades[learn]'``: pettingzoo,
gymnasium, numpy, open-spiel, matplotlib); the game itself never imports them.

* :func:`env`: the PettingZoo AEC environment (every seat an agent);
* :func:`single_agent_env`: a Gymnasium environment where one seat learns and project bots
  play the others;
* :mod:`spades.learn.openspiel`: the profiles registered as OpenSpiel games.

See docs/learn.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spades.engine import Rules
    from spades.learn.aec import SpadesEnv
    from spades.learn.single import SingleAgentEnv

EXTRA_HINT = "spades.learn needs the learn extra: pip install 'spades[learn]' " \
             "(pettingzoo, gymnasium, numpy)"


def env(rules: str | Rules = "cardems", players: int | None = None, one_hand: bool = True,
        **options: Any) -> SpadesEnv:
    """The PettingZoo AEC environment for a profile (any knob as a keyword), e.g.
    ``env("race400", players=6, teams=[[0, 3], [1, 4], [2, 5]])``.

    Options besides the rules knobs: ``reward`` (``"hand"``: each hand, the points of the
    agent's side; ``"match"``: at the end, its side's final score minus the mean of the
    other sides'), ``reward_scale``, ``max_hands`` (truncate a match), ``render_mode``
    (``"ansi"`` or ``"human"``).
    """
    try:
        from spades.learn.aec import SpadesEnv
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise ImportError(f"{EXTRA_HINT} ({exc})") from exc
    return SpadesEnv(rules, players, one_hand, **options)


def single_agent_env(rules: str | Rules = "cardems", players: int | None = None,
                     one_hand: bool = True, **options: Any) -> SingleAgentEnv:
    """The Gymnasium environment: one seat learns (``seat``, default 0), the others are bots
    (``opponents="intermediate"``, ``partner=`` a spec for teammates, default the same as
    the opponents). See :class:`spades.learn.single.SingleAgentEnv`."""
    try:
        from spades.learn.single import SingleAgentEnv
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise ImportError(f"{EXTRA_HINT} ({exc})") from exc
    return SingleAgentEnv(rules, players, one_hand, **options)


__all__ = ["env", "single_agent_env"]
