"""Expert variants for pilot runs that the bot specs do not name (``py:`` specs).

    PYTHONPATH=bench spades arena --a py:pilot_bots:guided_025cpu --b expert:0.25cpu \\
        --deals 100 --jobs 2 --seed 501 --json
"""

from __future__ import annotations

from spades.bots.expert import ExpertBot


def guided_025cpu(seed: int | None) -> ExpertBot:
    """The expert at 0.25 s of CPU, its tree guided by the intermediate level's card with
    progressive bias 0.5 (docs/bots.md, "A tree guided by the policy")."""
    return ExpertBot(seed, seconds=0.25, cpu=True, guide=True, bias=0.5, tree_exact=0)


def exact2_025cpu(seed: int | None) -> ExpertBot:
    """The expert at 0.25 s of CPU, its tree's play-outs stopping two tricks before the end
    of the hand, the rest solved exactly (``tree_exact=2``)."""
    return ExpertBot(seed, seconds=0.25, cpu=True, tree_exact=2)
