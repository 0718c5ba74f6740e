"""A regular install works anywhere (issue 11, point 1), not only a clone or an editable install.

The test builds the wheel as ``pip install .`` would (from a copy of the repository, so that the
build leaves nothing in it), installs it into a fresh virtual environment in a temporary folder
(its dependencies come from this environment's site-packages), and from a folder outside the
repository, with nothing on PYTHONPATH, runs what a new user runs first: ``arena bots``,
``arena rules``, ``arena new-bot``, a sandboxed ``arena duel`` and the shipped demo tournament.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# What the copy leaves out: the repository's history, the tests, and what runs leave behind.
NOT_BUILT = {".git", "tests", "results", "build", "dist", ".pytest_cache", ".mypy_cache"}
# The folders beside the package that the wheel carries inside it (pyproject.toml maps them).
MAPPED = {"bots": "arena/builtin_bots", "tournaments/demo.yaml": "arena/builtin_tournaments/demo.yaml"}


def test_a_wheel_in_a_fresh_venv_lists_the_bots_plays_a_duel_and_the_demo(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path)
    _check_contents(wheel)
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], tmp_path)
    python = venv / "bin" / "python"
    # The venv has no pip of its own: this environment's pip (a system site-package) installs there.
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], tmp_path)
    work = tmp_path / "work"  # a user's folder: no bots/, no tournaments/, far from the repository
    work.mkdir()
    where = _run([str(python), "-c", "import arena; print(arena.__file__)"], work).strip()
    assert Path(where).is_relative_to(venv), f"the venv imports {where}, not the wheel's arena"

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


def _build_wheel(tmp_path: Path) -> Path:
    """The wheel pip builds from a copy of the repository (with the build isolation a plain
    ``pip install .`` uses)."""
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
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(source)], tmp_path)
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


def _run(command: list[str], cwd: Path) -> str:
    """Run ``command`` in ``cwd`` as a user would (no PYTHONPATH, wide output); its stdout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ARENA_HOME")}
    env["COLUMNS"] = "400"
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{command}: exit {result.returncode}\n{result.stdout[-2000:]}{result.stderr[-3000:]}"
    return result.stdout
