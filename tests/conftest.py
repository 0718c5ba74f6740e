"""Make the helpers at the top of tests/ importable from every test folder."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest

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


# tryfirst: xdist's worker reads the xdist_group markers in its own hook of this name (it turns
# them into an ``@serial`` suffix of the test's id, which is what its scheduler groups by). It is
# registered after this file, so it would otherwise run first and never see the markers: the
# "serial" tests were then spread over both processes (and each ran the attacks' runs).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests of :data:`SERIAL` in one xdist group, and those of :data:`FIRST` first
    (xdist hands out the serial group, its largest unit, then the rest in this order)."""
    root = Path(__file__).resolve().parent.parent
    first = []
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        if where.startswith(SERIAL):
            item.add_marker(pytest.mark.xdist_group("serial"))
        first.append(where.startswith(FIRST))
    order = sorted(range(len(items)), key=lambda index: not first[index])  # a stable sort
    items[:] = [items[index] for index in order]
