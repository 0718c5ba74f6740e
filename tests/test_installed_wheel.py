"""A regular install works anywhere (issue 11, point 1), not only a clone or an editable install.

The test builds the wheel as ``pip install .`` would (from a copy of the repository, so that the
build leaves nothing in it), installs it into a fresh virtual environment in a temporary folder
(its dependencies come from this environment's site-packages), and from a folder outside the
repository, with nothing on PYTHONPATH, runs what a new user runs first: ``arena bots``,
``arena rules``, ``arena new-bot``, a sandboxed ``arena duel`` and the shipped demo tournament.

Where a C compiler is present, that wheel's engine is compiled (setup.py, mypyc): the golden
transcripts, the OpenSpiel differential and the fast-path tests then run against the installed
compiled engine, a probe bot shows that a bot's sandbox imports the compiled engine too, and
the search bot plays the same sandboxed duel as it does on the pure-Python sources. A second wheel, built without a working C
compiler, is the pure-Python package and works as well.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from arena.tournament.shipment import code_identity
from timing_helpers import untimed

REPO = Path(__file__).resolve().parents[1]
# What the copy leaves out: the repository's history, the tests, and what runs leave behind.
NOT_BUILT = {".git", "tests", "results", "build", "dist", ".pytest_cache", ".mypy_cache"}
# The folders beside the package that the wheel carries inside it (pyproject.toml maps them).
MAPPED = {"bots": "arena/builtin_bots", "tournaments/demo.yaml": "arena/builtin_tournaments/demo.yaml"}
# What setup.py compiles, and the library the compiled modules share (inside the package).
COMPILED = {f"arena/engine/{name}" for name in ("game", "moves", "chains", "steps", "legality", "effects",
                                                 "playout", "determinize", "rules", "actions", "powers",
                                                 "native__mypyc")}
EXTENSION = sysconfig.get_config_var("EXT_SUFFIX")
# The engine's proofs, run once more against the installed compiled engine (with what they read).
PROOFS = ["tests/golden", "tests/engine/test_engine_openspiel_differential.py",
          "tests/engine/test_engine_fast_paths.py", "tests/engine/test_engine_search.py",
          "tests/engine/test_engine_notation.py"]
PROOF_FILES = [*PROOFS, "tests/engine/engine_helpers.py", "tournaments"]
# A bot that fails to start unless its sandbox imports the compiled engine (then plays legally).
PROBE_BOT = f'''"""Plays the first legal action, with the compiled engine only."""
import arena.engine.game


class Bot:
    def __init__(self):
        if not arena.engine.game.__file__.endswith("{EXTENSION}"):
            raise RuntimeError("the sandbox runs " + arena.engine.game.__file__)

    def act(self, obs):
        return obs.legal_actions()[0]
'''
# A duel of the search bot on a fixed budget (no time limit: the same moves at any speed).
SEARCH_DUEL = ["duel", "mcts", "heuristic", "--games", "4", "--seed", "3",
               "--option", "1:iterations=40", "--option", "1:time_ms=0"]


def test_a_wheel_in_a_fresh_venv_lists_the_bots_plays_a_duel_and_the_demo(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    _check_contents(wheel)
    compiled = _has_c_compiler()
    assert _compiled_modules(wheel) == (COMPILED if compiled else set())
    venv, python, work = _install(wheel, tmp_path)
    engine = _run([str(python), "-c", "import arena.engine.game as g; print(g.__file__)"], work).strip()
    assert engine.endswith(EXTENSION if compiled else ".py"), engine
    # the wheel holds the built-in bots inside arena/, a clone beside it: the same code either way
    # (what a store records as the version that played, and what a cluster's workers must match)
    installed = _run([str(python), "-c", "from arena.tournament.shipment import code_identity as c; "
                      "print(c())"], work).strip()
    assert installed == code_identity()

    arena = str(venv / "bin" / "arena")
    listed = _run([arena, "bots"], work)
    files = re.findall(r"\S+\.py", listed)
    assert len(files) == 4 and all(Path(f).is_file() and Path(f).is_relative_to(venv) for f in files), listed
    assert "switch-classic" in _run([arena, "rules"], work)
    _run([arena, "new-bot", "mine"], work)
    assert "class Bot" in (work / "bots" / "mine.py").read_text()
    duel = _run([arena, "duel", "greedy", "random", "--games", "20", "--seed", "1"], work)
    assert "greedy" in duel and "random" in duel
    demo = _run([arena, "run", "demo", "--max-games", "20"], work)
    assert "demo: 20 of 6000 games stored" in demo and "resume with: arena run demo" in demo
    assert (work / "results" / "demo.sqlite").is_file()
    if compiled:
        _check_compiled_engine(python, arena, work, tmp_path)


def test_without_a_c_compiler_the_wheel_is_the_pure_python_package(tmp_path: Path) -> None:
    """setup.py's fallback: the C build fails (``CC=false``), the build goes on without it."""
    wheel = _build_wheel(tmp_path, {"CC": "false"})
    _check_contents(wheel)
    assert _compiled_modules(wheel) == set()
    venv, python, work = _install(wheel, tmp_path)
    engine = _run([str(python), "-c", "import arena.engine.game as g; print(g.__file__)"], work).strip()
    assert Path(engine).is_relative_to(venv) and engine.endswith(".py"), engine
    assert "switch-classic" in _run([str(venv / "bin" / "arena"), "rules"], work)
    bench = _run([str(venv / "bin" / "arena"), "bench", "--rules", "openspiel", "--games", "20"], work)
    assert "arena's engine: pure Python" in bench


def _check_compiled_engine(python: Path, arena: str, work: Path, tmp_path: Path) -> None:
    """The installed compiled engine plays exactly the pure one's games: the engine's proofs
    pass against it, and a sandboxed search bot, whose sandbox runs the compiled engine copied
    with the package, plays the duel the sources play."""
    proofs = tmp_path / "proofs"  # the tests and what they read, and no arena/: the venv's is used
    for name in PROOF_FILES:
        (proofs / name).parent.mkdir(parents=True, exist_ok=True)
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, proofs / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO / name, proofs / name)
    used = _run([str(python), "-c", "import arena.engine.playout as p; print(p.__file__)"], proofs)
    assert used.strip().endswith(EXTENSION), used
    _run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *PROOFS], proofs)
    (work / "probe.py").write_text(PROBE_BOT)
    probed = _run([arena, "duel", "./probe.py", "random", "--games", "2"], work)
    assert "probe" in probed and "faulted" not in probed, probed
    compiled = _run([arena, *SEARCH_DUEL], work)
    pure = _run([sys.executable, "-m", "arena", *SEARCH_DUEL], REPO)  # the sources: pure Python
    # the same games and moves; only the ms/move cells (wall clock) differ between two runs
    assert "vs heuristic over 2 deals" in compiled and untimed(compiled) == untimed(pure)
    assert untimed(compiled).count("<ms>") >= 2, compiled
    bench = json.loads(_run([arena, "bench", "--rules", "openspiel", "--games", "20", "--json"], work))
    assert bench["build"] == "mypyc" and bench["games"] == 20


def _install(wheel: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A fresh venv holding the wheel, its python, and a user's folder far from the repository."""
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], tmp_path)
    python = venv / "bin" / "python"
    # The venv has no pip of its own: this environment's pip (a system site-package) installs there.
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], tmp_path)
    work = tmp_path / "work"  # a user's folder: no bots/, no tournaments/, far from the repository
    work.mkdir()
    where = _run([str(python), "-c", "import arena; print(arena.__file__)"], work).strip()
    assert Path(where).is_relative_to(venv), f"the venv imports {where}, not the wheel's arena"
    return venv, python, work


def _has_c_compiler() -> bool:
    """Whether the C compiler this Python builds extensions with is installed."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(compiler.split()[0]) is not None


def _compiled_modules(wheel: Path) -> set[str]:
    """The compiled modules in the wheel, by module path (``arena/engine/game``)."""
    return {name[: -len(EXTENSION)] for name in zipfile.ZipFile(wheel).namelist() if name.endswith(EXTENSION)}


def _build_wheel(tmp_path: Path, env: dict[str, str] | None = None) -> Path:
    """The wheel pip builds from a copy of the repository (with the build isolation a plain
    ``pip install .`` uses), with ``env`` added to the build's environment."""
    source = tmp_path / "source"
    source.mkdir()
    for entry in REPO.iterdir():
        if entry.name in NOT_BUILT or entry.name.endswith(".egg-info"):
            continue
        if entry.is_dir():
            shutil.copytree(entry, source / entry.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(entry, source / entry.name)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)], tmp_path, env)
    (wheel,) = dist.glob("arena-*.whl")
    return wheel


def _check_contents(wheel: Path) -> None:
    """Every file of the package, each built-in bot and example, and the demo are in the wheel."""
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {p.relative_to(REPO).as_posix() for p in (REPO / "arena").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts}
    for top, inside in MAPPED.items():
        folder = REPO / top
        if folder.is_file():
            wanted.add(inside)
        else:
            wanted |= {f"{inside}/{p.relative_to(folder).as_posix()}" for p in folder.rglob("*.py")
                       if "__pycache__" not in p.parts}
    assert {"arena/builtin_bots/greedy.py", "arena/builtin_bots/examples/first_legal_cmd.py"} <= wanted
    assert sorted(wanted - names) == []


def _run(command: list[str], cwd: Path, extra: dict[str, str] | None = None) -> str:
    """Run ``command`` in ``cwd`` as a user would (no PYTHONPATH, wide output, ``extra`` in the
    environment); its stdout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ARENA_HOME")}
    env["COLUMNS"] = "400"
    env.update(extra or {})
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{command}: exit {result.returncode}\n{result.stdout[-2000:]}{result.stderr[-3000:]}"
    return result.stdout
