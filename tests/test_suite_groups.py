"""The suite's own scheduling: the tests that must run one after another really share one test
process (scheduling.py's SERIAL group), whatever order pytest-xdist's hooks run in."""

from __future__ import annotations

import pytest

from scheduling import is_serial


def test_the_serial_tests_and_only_they_are_scheduled_as_one_group(
        request: pytest.FixtureRequest) -> None:
    """Each test of the SERIAL paths carries the group's marker, and under ``--dist loadgroup``
    (the suite's addopts) also the ``@serial`` suffix of its id that xdist's scheduler groups
    by: xdist's worker adds it from the markers it sees in its own collection hook, so a marker
    added after that hook leaves the test ungrouped (as it once did, spreading these tests and
    the attacks' module-wide runs over both processes)."""
    items = request.session.items
    assert is_serial(request.node), "this test is one of the SERIAL tests (scheduling.py)"
    for item in items:
        groups = {mark.args[0] for mark in item.iter_markers("xdist_group")}
        assert groups == ({"serial"} if is_serial(item) else set()), (item.nodeid, groups)
    if request.config.getoption("loadgroup", False):  # on an xdist worker (dist is "no" there)
        assert [item.nodeid for item in items if item.nodeid.endswith("@serial") != is_serial(item)] == []
