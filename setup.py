"""Build: the hot modules are compiled with mypyc by default.

``pip install .`` and ``pip install -e .`` compile the engine's ``spades/engine/{actions,cards,
handstate,match,scoring}.py`` and the search's play-out policy, deal sampler, adapted
play-outs and end-play solver ``spades/bots/{policy,infer,adapt,solve}.py`` to C with mypyc
(mypy is a build requirement in pyproject.toml): the engine about twice as fast, the expert's
decisions about three times, with the same behaviour. Without a C compiler (or mypy, when building with
``--no-build-isolation``) the build prints one warning line and installs pure Python.
``SPADES_COMPILE=0`` forces the pure build. Compiled values pickle and copy like pure ones
(spades/engine/_pickling.py): the server sends observations to its CPU worker processes.

Every build writes ``spades/engine/_build.json``: which build it was and, for the compiled
one, the SHA-256 of each compiled source. At import, ``spades.engine`` compares it with the
sources and loads pure Python for all the hot modules if any of them changed since the build
(an editable install keeps its compiled modules next to the sources). The list of hot modules
is ``HOT_MODULES`` here and in spades/engine/_build.py (a test checks they agree).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

ROOT = Path(__file__).resolve().parent
#: The compiled modules, relative to spades/ (the same list as spades/engine/_build.py).
HOT_MODULES = ["engine/actions", "engine/cards", "engine/handstate", "engine/match",
               "engine/scoring", "bots/policy", "bots/infer", "bots/adapt", "bots/solve"]
STAMP = "_build.json"


def warn(reason: str) -> None:
    print(f"WARNING: spades: {reason}: installing the pure-Python engine (about half the speed);"
          " install a C compiler and rerun pip install to compile it with mypyc.",
          file=sys.stderr, flush=True)


def c_compiler() -> str | None:
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    return shutil.which(cc[0]) if cc else None


def source_hashes() -> dict[str, str]:
    package = ROOT / "spades"
    return {f"{m}.py": hashlib.sha256((package / f"{m}.py").read_bytes()).hexdigest()
            for m in HOT_MODULES}


def mypyc_extensions() -> tuple[list[Any], str]:
    """The extension modules to build, or none and the reason why."""
    if os.environ.get("SPADES_COMPILE") == "0":
        return [], "SPADES_COMPILE=0"
    if c_compiler() is None:
        warn("no C compiler found")
        return [], "no C compiler at build time"
    try:
        from mypyc.build import mypycify
    except ImportError:
        warn("mypy (mypyc) is not installed in the build environment")
        return [], "mypyc missing at build time"
    try:
        return mypycify([f"spades/{m}.py" for m in HOT_MODULES], opt_level="3"), ""
    except (Exception, SystemExit) as exc:  # a failed mypyc run must not fail the install
        warn(f"mypyc failed ({exc})")
        return [], "mypyc failed at build time"


# pip runs this file for metadata too (egg_info, dist_info): only a build compiles and warns.
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
EXTENSIONS, PURE_REASON = (mypyc_extensions() if BUILD_COMMANDS.intersection(sys.argv[1:])
                           else ([], "not built"))


def remove_compiled_modules(base: Path) -> None:
    """A pure build drops the compiled hot modules an earlier build left in place (editable)
    or in the build folder."""
    for m in HOT_MODULES:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            (base / "spades" / f"{m}{suffix}").unlink(missing_ok=True)


class BuildExt(build_ext):  # type: ignore[misc]
    """Builds the mypyc extensions, falling back to pure Python if the C build fails, and
    writes the build stamp next to the engine's sources (in place) or into the build."""

    def run(self) -> None:
        reason = PURE_REASON
        if self.extensions:
            try:
                super().run()
            except (CCompilerError, ExecError, PlatformError, OSError) as exc:
                warn(f"the C build failed ({exc})")
                reason = "the C build failed"
                self.extensions: list[Any] = []
        stamp: dict[str, Any]
        if self.extensions:
            stamp = {"build": "compiled", "sources": source_hashes()}
        else:
            stamp = {"build": "pure", "reason": reason}
        base = ROOT if self.inplace else Path(self.build_lib)
        if not self.extensions:
            remove_compiled_modules(base)
        target = base / "spades" / "engine" / STAMP
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(stamp, indent=1) + "\n")

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs() if self.extensions else []
        if not self.inplace:
            outputs.append(str(Path(self.build_lib) / "spades" / "engine" / STAMP))
        return outputs


class SpadesDistribution(Distribution):  # type: ignore[misc]
    """build_ext always runs, so that a pure build also writes its stamp."""

    def has_ext_modules(self) -> bool:
        return True


setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildExt}, distclass=SpadesDistribution)
