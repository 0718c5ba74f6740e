"""The package's layout is its architecture: layers import downwards only, nothing imports in a
circle, no module reaches into another's private names, and every module says its one job.

The layers, bottom first: the foundation (``arena.errors``, ``arena.settings``, ``arena.digest``), the rules engine
(``arena.engine``), the built-in players' judgement that bots import (``arena.heuristic``: it plays
through the engine's observation only), the referee (``arena.play``), the sandbox (``arena.sandbox``), tournaments
(``arena.tournament``), the services (``arena.services``) and the command line (``arena.cli``).
Imports needed only for annotations (under ``if TYPE_CHECKING:``) are not dependencies.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "arena"
LAYERS = ["foundation", "engine", "heuristic", "play", "sandbox", "tournament", "services", "cli"]
FOUNDATION = {"arena", "arena.errors", "arena.settings", "arena.digest", "arena.__main__"}
STDLIB_PRIVATE_OK = {"_exit"}  # os._exit is the documented way out of a forked child


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    if module in FOUNDATION:
        return "cli" if module == "arena.__main__" else "foundation"
    return module.split(".")[1]


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def runtime_imports(path: Path) -> set[str]:
    """The arena modules ``path`` imports when it runs (at the top or inside a function)."""
    tree = ast.parse(path.read_text())
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("arena"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("arena"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
    return {m for m in found if m in MODULES}


GRAPH = {name: runtime_imports(path) for name, path in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_layers(module: str) -> None:
    mine = LAYERS.index(layer(module))
    upward = sorted(m for m in GRAPH[module] if LAYERS.index(layer(m)) > mine)
    assert not upward, f"{module} ({layer(module)}) imports a higher layer: {upward}"


def test_no_module_imports_itself_through_others() -> None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(GRAPH[module]):
            # a package's __init__ importing its own modules is how packages re-export
            if target == module or module.startswith(target + ".") and MODULES[target].name == "__init__.py":
                continue
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target] if target in path else [module, target])
            elif target not in state:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])
    assert not cycles, f"import cycles: {cycles}"


def _own_private_names(tree: ast.Module) -> set[str]:
    """Private names the module itself defines (functions, classes, methods, attributes)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __slots__ entries
    return {n for n in names if n.startswith("_")}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_reach_into_another_modules_private_names(module: str) -> None:
    tree = ast.parse(MODULES[module].read_text())
    own = _own_private_names(tree)
    reached = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("arena"):
            reached.update(f"{node.module}.{a.name}" for a in node.names
                           if a.name.startswith("_") and not a.name.startswith("__"))
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if node.attr not in own and node.attr not in STDLIB_PRIVATE_OK:
                reached.add(f"{ast.unparse(node.value)}.{node.attr}")
    assert not reached, f"{module} uses private names of other modules: {sorted(reached)}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_says_its_job(module: str) -> None:
    doc = ast.get_docstring(ast.parse(MODULES[module].read_text()))
    assert doc and len(doc.split()) >= 5, f"{module} has no docstring saying what it is for"


def test_the_top_level_holds_only_the_layers_and_the_foundation() -> None:
    top = sorted(p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists())
    assert top == ["__init__.py", "__main__.py", "cli", "digest.py", "engine", "errors.py", "heuristic.py", "play",
                   "sandbox", "services", "settings.py", "tournament"]
