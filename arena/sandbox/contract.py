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


def contract_problem(path: Path, class_name: str = "Bot") -> str | None:
    """What breaks the contract in the bot file ``path``, on one line, or ``None``.

    A syntax error names its line and shows it: ``syntax error at line 2: invalid syntax:
    def act(self obs):``.
    """
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except SyntaxError as error:
        source = (error.text or "").strip()
        return f"syntax error at line {error.lineno}: {error.msg}" + (f": {source}" if source else "")
    except ValueError as error:
        return f"cannot read the source: {error}"
    except (RecursionError, MemoryError):
        return "the source nests too deeply to be read"
    except OSError as error:
        return f"cannot read {path}: {error.strerror or error}"
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
