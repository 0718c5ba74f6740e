"""Make the helpers at the top of tests/ importable from every test folder, and write the
bytecode the suite's processes import."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest

from bytecode_helpers import write_bytecode
from scheduling import ROOT, is_first, is_serial


def pytest_configure(config: pytest.Config) -> None:
    """Name the group marker where pytest-xdist is absent too (the ordinary user's run of the
    isolation tests has no xdist), so that it is known rather than warned about. Before the
    test processes start, write the bytecode of the package, the bots and the tests: the suite
    starts hundreds of Python processes (the workers of each run, the bots' templates, the
    commands run as a user would), and with PYTHONDONTWRITEBYTECODE set each compiled what it
    imported, a quarter of the CPU of tests/cli/test_tournament_cli.py (33 s without, 25 s with)."""
    config.addinivalue_line("markers", "xdist_group(name): tests that share one test process")
    if not hasattr(config, "workerinput"):  # the main process (xdist's workers come after it)
        for folder in ("arena", "bots", "tests"):
            write_bytecode(ROOT / folder)


# tryfirst: xdist's worker reads the xdist_group markers in its own hook of this name (it turns
# them into an ``@serial`` suffix of the test's id, which is what its scheduler groups by). It is
# registered after this file, so it would otherwise run first and never see the markers: the
# "serial" tests were then spread over both processes (and each ran the attacks' runs).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests of :data:`scheduling.SERIAL` in one xdist group, and those of
    :data:`scheduling.FIRST` first (xdist hands out the serial group, its largest unit, then the
    rest in this order)."""
    for item in items:
        if is_serial(item):
            item.add_marker(pytest.mark.xdist_group("serial"))
    items.sort(key=lambda item: not is_first(item))  # a stable sort
