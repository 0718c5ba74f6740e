"""The process table reader shared by the cluster benchmark and the tests' leak checks."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from arena.services.processes import descendants, stat_fields


def test_a_child_and_its_grandchild_are_descendants_and_the_parent_field_says_whose() -> None:
    # The child starts a grandchild (a sleep) and waits on it: both are below this process.
    child = subprocess.Popen([sys.executable, "-c",
                              "import subprocess; subprocess.run(['sleep', '30'])"])
    try:
        deadline = time.monotonic() + 10
        while not _children_of(child.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        below = descendants(os.getpid())
        grandchildren = _children_of(child.pid)
        assert child.pid in below and len(grandchildren) == 1 and grandchildren <= below
        assert stat_fields(child.pid)[1] == str(os.getpid())
    finally:
        child.kill()
        child.wait()


def test_an_unreaped_child_is_a_zombie_counted_only_when_asked() -> None:
    child = subprocess.Popen(["true"])
    deadline = time.monotonic() + 10
    while stat_fields(child.pid)[0] != "Z" and time.monotonic() < deadline:
        time.sleep(0.02)  # it ends at once, and stays a zombie until waited for
    assert child.pid in descendants(os.getpid())
    assert child.pid not in descendants(os.getpid(), zombies=False)
    child.wait()
    assert stat_fields(child.pid) is None  # reaped: gone from /proc


def _children_of(pid: int) -> set[int]:
    """The processes whose parent field is ``pid``, read one by one (not by the code tested)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/status") as f:
                    if f"PPid:\t{pid}\n" in f.read():
                        found.add(int(entry))
            except OSError:
                pass
    return found
