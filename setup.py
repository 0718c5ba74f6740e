"""The build of ``pip install .``: the engine's hot modules compiled by mypyc where it can be.

mypyc (part of mypy, a build requirement in pyproject.toml) turns the modules of
:data:`COMPILED` into one C extension; the package is otherwise the pure-Python one, and the
two play exactly the same games (tests/test_installed_wheel.py holds a compiled wheel to the
golden transcripts and to OpenSpiel). The pure-Python package is built instead, with one line
on the build's output saying why, when there is no C compiler, when mypyc refuses the code,
for an editable install (which imports the sources themselves: a compiled copy beside them
would shadow every later edit) and when ``ARENA_PURE_PYTHON=1`` asks for it.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The engine's hot path, and the rule set, power and action classes it reads on every decision
# (an attribute of a compiled class is a C field; of a Python one, a dictionary lookup).
COMPILED = ["arena/engine/game.py", "arena/engine/moves.py", "arena/engine/chains.py",
            "arena/engine/steps.py", "arena/engine/legality.py", "arena/engine/effects.py",
            "arena/engine/playout.py", "arena/engine/determinize.py", "arena/engine/rules.py",
            "arena/engine/actions.py", "arena/engine/powers.py"]
# The compiled modules share one library, kept inside the package as arena/engine/native__mypyc
# (the sandbox's runtime copies the package, and the library with it).
GROUP = "arena.engine.native"
# The commands that build the package's files; the others (pip asks for the metadata first)
# need no extensions, and generating them takes a type check of the engine.
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}
EDITABLE = {"editable_wheel", "develop"}


def _say(message: str) -> None:
    print(f"arena build: {message}", file=sys.stderr)


def compiled_extensions() -> list[Any]:
    """mypyc's extensions for :data:`COMPILED`, or none (and why) where they cannot be built."""
    commands = set(sys.argv[1:])
    if not commands & BUILDS or commands & EDITABLE:
        if commands & EDITABLE:
            _say("an editable install runs the sources: pure Python")
        return []
    if os.environ.get("ARENA_PURE_PYTHON") == "1":
        _say("ARENA_PURE_PYTHON=1: pure Python")
        return []
    if not _c_compiler_works():
        _say("no C compiler builds against this Python's headers: pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: pure Python")
        return []
    try:
        return list(mypycify(["--cache-dir", "build/mypy-cache", *COMPILED], opt_level="3",
                             group_name=GROUP))
    except (Exception, SystemExit) as error:  # mypyc exits on code it refuses
        _say(f"mypyc cannot compile the engine ({error}): pure Python")
        return []


def _c_compiler_works() -> bool:
    """Whether this Python's C compiler (``CC`` overrides it, as for the build itself) compiles
    a file against its headers: checked before mypyc spends seconds on C no one can build."""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "probe.c")
        with open(source, "w") as probe:
            probe.write("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            done = subprocess.run([*command, "-I", sysconfig.get_paths()["include"], "-c", source,
                                   "-o", os.path.join(folder, "probe.o")], capture_output=True, timeout=120)
        except (OSError, subprocess.SubprocessError):
            return False
    return done.returncode == 0


class OptionalBuildExt(build_ext):
    """Builds every compiled module or none of them: a failed C build leaves the pure package."""

    def run(self) -> None:
        if self.inplace:
            _say("no compiled modules beside the sources (build_ext --inplace): pure Python")
            return
        try:
            super().run()
        except Exception as error:  # no compiler, or one that fails: the build goes on without C
            _say(f"the C build failed ({error}): pure Python")
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)


if __name__ == "__main__":
    setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
