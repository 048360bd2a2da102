"""Optional compiled build of the engine's hot modules with mypyc.

``pip install .`` installs pure Python. ``SPADES_COMPILE=1 pip install --no-build-isolation .``
(with mypy installed) compiles the engine's hot path to C, about twice as fast; the
behaviour is the same, and ``spades bench engine`` says which one it measured.
"""

import os

from setuptools import setup

ext_modules = []
if os.environ.get("SPADES_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(
        [
            "spades/engine/actions.py",
            "spades/engine/cards.py",
            "spades/engine/handstate.py",
            "spades/engine/match.py",
            "spades/engine/scoring.py",
        ],
        opt_level="3",
    )

setup(ext_modules=ext_modules)
