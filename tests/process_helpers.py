"""Finding processes from the outside, as a test must to check that nothing is left running."""

from __future__ import annotations

import os
import time

from arena.services.processes import descendants as process_tree_below
from arena.services.processes import stat_fields


def is_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped does not)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def all_pids() -> list[int]:
    """Every process visible in /proc."""
    return [int(e) for e in os.listdir("/proc") if e.isdigit()]


def descendants(root: int) -> set[int]:
    """Every live process below ``root`` in the process tree."""
    return process_tree_below(root, zombies=False)


def command_line(pid: int) -> str:
    """The process's command line, spaces between arguments ('' if it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def bot_processes(marker: str = "arena_host.py") -> list[int]:
    """Live bot processes (templates, their inits and game processes) whose command line
    holds ``marker`` (every bot process runs the host script of its referee's runtime)."""
    return [p for p in all_pids() if marker in command_line(p) and is_alive(p)]


def wait_until_gone(pids: set[int] | list[int], timeout: float = 10.0) -> list[int]:
    """Wait for every process to end; the ones still alive after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        left = [p for p in pids if is_alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def orphaned_bot_processes() -> list[int]:
    """Bot processes whose referee has finished (its runtime folder is gone): leaks."""
    left = []
    for pid in bot_processes():
        for word in command_line(pid).split():
            if word.endswith("arena_host.py") and not os.path.exists(word):
                left.append(pid)
    return left
