"""The trained numpy policy as a bot: ``spades arena --a py:policy_bot:PolicyBot ...``
(with this folder on ``PYTHONPATH``).

It reads the weights from ``policy.npz`` beside this file (or the file named by
``$SPADES_POLICY``), turns the seat's observation into the environments' vector and plays
the legal action with the highest score.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import numpy.typing as npt

from spades.engine import Observation
from spades.learn.encoding import encode_observation, observation_mask, to_engine

HERE = Path(__file__).resolve().parent
_CACHE: dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = {}


def load_weights(path: str | None = None) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``(W, b)`` of the linear policy: logits = W @ x + b."""
    name = path or os.environ.get("SPADES_POLICY") or str(HERE / "policy.npz")
    if name not in _CACHE:
        with np.load(name) as data:
            _CACHE[name] = (data["W"], data["b"])
    return _CACHE[name]


def logits(weights: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
           x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float64]:
    w, b = weights
    if w.shape[1] != x.shape[0]:  # trained at another table size: the vectors differ
        raise ValueError(f"the policy was trained on {w.shape[1]} inputs "
                         f"({(w.shape[1] - 64) // 136} players), this table's observation has "
                         f"{x.shape[0]} ({(x.shape[0] - 64) // 136} players)")
    z = w @ x + b
    return np.where(mask > 0, z, -np.inf)


class PolicyBot:
    """A bot playing the trained policy greedily (the same seed, the same play)."""

    name = "numpy-policy"

    def __init__(self, seed: int | None = None) -> None:
        self.weights = load_weights()

    def act(self, obs: Observation) -> int:
        z = logits(self.weights, encode_observation(obs), observation_mask(obs))
        return to_engine(int(np.argmax(z)))
