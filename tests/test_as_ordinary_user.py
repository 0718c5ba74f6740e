"""The isolation works for an ordinary user, not only for root (issue 8, point 3).

Nobody runs tournaments as root on their own machine, so the isolation tests must pass for an
ordinary user too. As root (CI), this test creates such a user, copies what the tests need
where that user can read it (the repository's package, bots and tests, and the installed
distributions they import), and runs the isolation tests as that user. As an ordinary user, the
run that includes this test already is that check; the test then runs them once more, which
costs little and keeps the test meaningful either way.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Iterator

import pytest
from packaging.requirements import Requirement

from arena.sandbox.runtime import find_python, reachable_by_others
from bytecode_helpers import write_bytecode

REPO = Path(__file__).resolve().parents[1]
USER = "arena-ci"
# The sandbox's and the attacks' tests, and of the tournament's fault tests those about the
# bots' processes (none left behind, none outliving a killed parent); the others there test the
# schedule and the discipline, which are the same whoever runs them.
ISOLATION_TESTS = ["tests/sandbox", "tests/attacks",
                   "tests/tournament/test_runner_faults.py::test_a_bot_broken_from_the_start_is_refused_before_the_first_game",
                   "tests/tournament/test_runner_faults.py::test_a_looping_bot_is_refused_by_its_probe_and_times_out_in_games",
                   "tests/tournament/test_runner_faults.py::test_kill_9_of_the_parent_takes_workers_and_bots_with_it"]
# The distributions the copied tests import, with everything they require.
ROOTS = ("pytest", "trueskill", "multiprocessing-logging", "typer", "rich", "PyYAML", "packaging")


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder of its own in the system's temporary folder, not under pytest's ``tmp_path``:
    every pytest session started as root (another run on the machine) makes pytest's folder
    /tmp/pytest-of-root private again, which would lock the test user out mid-run."""
    path = Path(tempfile.mkdtemp(prefix="arena-ordinary-user-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_isolation_tests_pass_as_an_ordinary_user(folder: Path) -> None:
    tree = folder / "tree"
    shutil.copytree(REPO / "arena", tree / "arena", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "bots", tree / "bots", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "tests", tree / "tests", ignore=shutil.ignore_patterns("__pycache__", "results"))
    shutil.copy(REPO / "pyproject.toml", tree / "pyproject.toml")
    python, paths = _interpreter(folder / "site")
    write_bytecode(folder)  # as an installation does: the run below may not write it
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(folder / "home"),
           "PYTHONPATH": os.pathsep.join([str(tree), *paths]), "PYTHONDONTWRITEBYTECODE": "1"}
    (folder / "home").mkdir()
    tests = [t for t in ISOLATION_TESTS if (tree / t.partition("::")[0]).exists()]
    # one process, not the suite's two (-o addopts=): these tests are one serial group anyway,
    # and the user's Python holds only the distributions above
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-x", *tests]
    user = _ordinary_user()
    if user is not None:
        _hand_over(folder, user)
    result = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=900,
                            **_as(user))
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert " passed" in output and " failed" not in output and "skipped" not in output
    assert "not found" not in output  # every test named above still exists


def _ordinary_user() -> pwd.struct_passwd | None:
    """As root, the test user (created if missing); as an ordinary user, None (run as is)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        USER], check=True, capture_output=True)
        return pwd.getpwnam(USER)


def _as(user: pwd.struct_passwd | None) -> dict:
    """subprocess.run arguments that drop to ``user`` (nothing when None)."""
    if user is None:
        return {}
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


def _hand_over(folder: Path, user: pwd.struct_passwd) -> None:
    """Give the test user the copied tree (and a way into it through the temp folders)."""
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)
    for parent in folder.parents:
        if parent == Path("/"):
            break
        parent.chmod(parent.stat().st_mode | 0o111)


def _interpreter(site: Path) -> tuple[str, list[str]]:
    """A Python the test user can run, and where it finds the distributions the tests import.

    This interpreter when others can run it; otherwise the system's Python of the same version,
    with a copy of the distributions (their installed files only, not all of site-packages).
    """
    if reachable_by_others(sys.executable):
        return sys.executable, []
    python = find_python(True)
    assert python is not None, "no Python an ordinary user can run (install python3 system-wide)"
    version = subprocess.run([python, "-c", "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version == str(sys.version_info[:2]), f"{python} is Python {version}"
    _copy_distributions(site)
    return python, [str(site)]


def _copy_distributions(site: Path) -> None:
    """Copy the files of the ROOTS distributions and of everything they require."""
    todo, seen = list(ROOTS), set()
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        seen.add(key)
        dist = metadata.distribution(name)
        # the site-packages folder it is installed in: this environment's, or, in a venv with
        # --system-site-packages, the system's (the venv's purelib would miss it)
        base = Path(dist.locate_file(""))
        for file in dist.files or ():
            source = Path(dist.locate_file(file))
            if source.is_file() and base in source.parents and "__pycache__" not in source.parts:
                target = site / source.relative_to(base)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        for requirement in map(Requirement, dist.requires or ()):
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
