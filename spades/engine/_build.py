"""Which build of the hot modules runs: compiled with mypyc, or pure Python.

The hot modules are the engine's ``actions``, ``cards``, ``handstate``, ``match`` and
``scoring`` and the search's ``spades.bots.policy``, ``infer``, ``adapt`` and ``solve`` (which
import the engine first). This module is imported by ``spades.engine`` before any of them. The build
(setup.py) writes ``_build.json`` next to it: the SHA-256 of each compiled source. An editable
install keeps the compiled modules next to their sources, so when any hot source changed since
the build, all the hot modules load from their ``.py`` sources (never a mix) and one warning
says so. ``SPADES_PURE=1`` in the environment loads pure Python even from a compiled build
(to measure one against the other). Only module names, files and that variable are read here:
the engine imports nothing outside it.
"""

from __future__ import annotations

import hashlib as _hashlib
import importlib.abc as _importlib_abc
import importlib.machinery as _machinery
import importlib.util as _importlib_util
import json as _json
import os as _os
import sys as _sys
import warnings as _warnings
from collections.abc import Sequence as _Sequence
from pathlib import Path as _Path
from types import ModuleType as _ModuleType

#: The compiled modules, relative to the ``spades`` package (the same list as setup.py's).
HOT_MODULES = ("engine/actions", "engine/cards", "engine/handstate", "engine/match",
               "engine/scoring", "bots/policy", "bots/infer", "bots/adapt", "bots/solve")
_HERE = _Path(__file__).resolve().parent
_ROOT = _HERE.parent  # the spades package
_TOP = __name__.split(".")[0]  # "spades"
_BY_NAME = {f"{_TOP}." + m.replace("/", "."): m for m in HOT_MODULES}
STALE_WARNING = ("the compiled engine is older than its sources; using pure Python"
                 " — rebuild with pip install -e .")


def _is_compiled(module: str) -> bool:
    return any((_ROOT / f"{module}{suffix}").exists() for suffix in _machinery.EXTENSION_SUFFIXES)


def _read_stamp() -> dict[str, object]:
    try:
        stamp = _json.loads((_HERE / "_build.json").read_text())
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _check_build() -> tuple[str, str]:
    """``(BUILD, BUILD_NOTE)``: whether the compiled hot modules can be used, and if not, why."""
    stamp = _read_stamp()
    compiled = [m for m in HOT_MODULES if _is_compiled(m)]
    if not compiled:
        reason = stamp.get("reason") if stamp.get("build") == "pure" else None
        return "pure", str(reason or "not compiled")
    sources = stamp.get("sources") if stamp.get("build") == "compiled" else None
    if len(compiled) < len(HOT_MODULES) or not isinstance(sources, dict):
        return "stale", "the compiled engine does not match its build stamp"
    for m in HOT_MODULES:
        digest = _hashlib.sha256((_ROOT / f"{m}.py").read_bytes()).hexdigest()
        if sources.get(f"{m}.py") != digest:
            return "stale", f"{m.rpartition('/')[2]}.py changed since the compiled build"
    return "compiled", ""


class _PureSourceFinder(_importlib_abc.MetaPathFinder):
    """Loads the hot modules from their ``.py`` sources, ahead of the compiled ones."""

    def find_spec(self, fullname: str, path: _Sequence[str] | None,
                  target: _ModuleType | None = None) -> _machinery.ModuleSpec | None:
        module = _BY_NAME.get(fullname)
        if module is None:
            return None
        return _importlib_util.spec_from_file_location(fullname, _ROOT / f"{module}.py")


BUILD, BUILD_NOTE = _check_build()
if BUILD == "compiled" and _os.environ.get("SPADES_PURE") == "1":
    # Measuring the compiled build against pure Python on one install (bench/expert_speed.py).
    BUILD, BUILD_NOTE = "pure", "SPADES_PURE=1"
    _sys.meta_path.insert(0, _PureSourceFinder())
elif BUILD == "stale":
    BUILD = "pure"
    _sys.meta_path.insert(0, _PureSourceFinder())
    _warnings.warn(STALE_WARNING, RuntimeWarning, stacklevel=1)
