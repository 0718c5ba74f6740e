"""Which tests share one test process, and which start first: read by conftest.py, which marks
them, and by test_suite_groups.py, which checks the marks took (a module of its own, since
``from conftest import`` finds whichever of the suite's conftest.py files was imported first)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The suite runs on two test processes (pytest-xdist, ``-n 2 --dist loadgroup`` in
# pyproject.toml). These tests share one of them, one after another: they look at every process
# on the machine (leftover bot processes), or measure the page cache and the CPU as an attacker
# would, so another test's processes beside them could blur what they see; the cluster's tests
# kill a worker whose bots the leftover checks must not catch dying. (test_suite_groups.py checks
# the group's scheduling on itself among others, so that it has a test to look at when run alone.)
SERIAL = ("tests/sandbox/", "tests/attacks/", "tests/test_as_ordinary_user.py",
          "tests/tournament/test_runner_faults.py", "tests/tournament/test_runner_cluster.py",
          "tests/test_suite_groups.py")

# The longest single tests (building and installing the wheels: about two minutes together),
# handed out first: started late, they would run on alone after every other test had ended.
FIRST = ("tests/test_installed_wheel.py",)


def suite_path(item: pytest.Item) -> str:
    """The test's file as a path from the repository's top, as SERIAL and FIRST name them."""
    return Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()


def is_serial(item: pytest.Item) -> bool:
    """Whether the test is one of the :data:`SERIAL` group's."""
    return suite_path(item).startswith(SERIAL)


def is_first(item: pytest.Item) -> bool:
    """Whether the test is one of :data:`FIRST`, handed out before the others."""
    return suite_path(item).startswith(FIRST)
