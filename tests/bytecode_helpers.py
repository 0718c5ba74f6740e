"""Writing the bytecode of a tree of Python files before many processes import them."""

from __future__ import annotations

import compileall
import os
import warnings
from pathlib import Path


def write_bytecode(folder: Path) -> None:
    """Write the bytecode of every Python file under ``folder`` (beside it, in the
    ``__pycache__`` folders git ignores), each only when missing or out of date, as an
    installation does. Where PYTHONDONTWRITEBYTECODE is set, as in many containers and CI
    images, every process would otherwise compile from source what it imports. Nothing is
    done in a folder this user cannot write (compiling there would be wasted)."""
    if not os.access(folder, os.W_OK):
        return
    with warnings.catch_warnings():  # the files' own, e.g. a distribution's invalid escape
        warnings.simplefilter("ignore")
        compileall.compile_dir(folder, quiet=2, workers=1)
