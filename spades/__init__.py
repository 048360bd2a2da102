"""Spades: rules engine, CPU players, and the apps that play them.

The engine (:mod:`spades.engine`) is pure; bots (:mod:`spades.bots`) build on it; the
terminal, server and web apps build on both.
"""

from spades.engine import Match, Observation, Rules, profile

__version__ = "0.1.0"
__all__ = ["Match", "Observation", "Rules", "__version__", "profile"]
