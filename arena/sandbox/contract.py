"""What a Python bot file must hold, read from its source without running it.

The contract (docs/writing-bots.md): the file parses, and defines at its top level the class a
tournament or ``arena submit`` names (``Bot`` by default) with an ``act`` method, or assigns that
name. It is read with :mod:`ast`, so a broken file is refused in a few milliseconds, with the
line of the error, before any sandbox is started. ``arena submit`` runs it as its ``contract``
check, a tournament on every Python bot before its first game; whether the bot also loads and
plays is for the games' own machinery to say (:meth:`arena.play.referee.Referee.probe`).
"""

from __future__ import annotations

import ast
from pathlib import Path

from arena.errors import ArenaError
from arena.sandbox.spec import DEFAULT_CLASS

#: The largest bot source the parent reads. A bot is a program, not its data: a bigger file is
#: refused before it is read, so a submitted file cannot make the parent parse gigabytes.
MAX_SOURCE_BYTES = 4 * 1024 * 1024


class SourceError(ArenaError):
    """A bot's source cannot be read as Python: the message says why, on one line."""


def parse_source(path: Path) -> ast.Module:
    """The syntax tree of the bot file ``path`` (never run), or :class:`SourceError` saying why
    not: too large, unreadable, a syntax error (with its line and text), nested too deeply."""
    try:
        with path.open("rb") as handle:
            source = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from None
    if len(source) > MAX_SOURCE_BYTES:
        raise SourceError(f"the source is larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MiB")
    try:
        return ast.parse(source, str(path))
    except SyntaxError as error:
        if error.lineno is None:  # the file as a whole is no source: NUL bytes, a binary
            raise SourceError(f"not Python source: {error.msg}") from None
        text = (error.text or "").strip()
        raise SourceError(f"syntax error at line {error.lineno}: {error.msg}"
                          + (f": {text}" if text else "")) from None
    except ValueError as error:
        raise SourceError(f"cannot read the source: {error}") from None
    except (RecursionError, MemoryError):
        raise SourceError("the source nests too deeply to be read") from None


def contract_problem(path: Path, class_name: str = DEFAULT_CLASS) -> str | None:
    """What breaks the contract in the bot file ``path``, on one line, or ``None``.

    A syntax error names its line and shows it: ``syntax error at line 2: invalid syntax:
    def act(self obs):``.
    """
    try:
        tree = parse_source(path)
    except SourceError as error:
        return str(error)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    node = classes.get(class_name)
    if node is None:
        assigned = any(isinstance(n, ast.Assign) and any(getattr(t, "id", None) == class_name for t in n.targets)
                       for n in tree.body)
        return None if assigned else f"no class {class_name!r} at the top level of {path.name}"
    methods = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if "act" not in methods and not node.bases:
        return f"class {class_name!r} has no act(self, obs) method"
    return None
