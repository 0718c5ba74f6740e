"""The process table as Linux shows it in /proc: a process's status fields and its descendants.

Two callers need to see processes from the outside: the cluster benchmark, which adds up the
CPU of every process a run used (:mod:`arena.services.cluster_bench`), and the tests that check
that nothing a run started is left running.
"""

from __future__ import annotations

import os


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (``[0]`` the state, ``[1]`` the
    parent's pid), or ``None`` when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            # The command name, in parentheses, may hold spaces and ')': cut at the last one.
            return f.read().rpartition(")")[2].split()
    except OSError:
        return None


def descendants(root: int, *, zombies: bool = True) -> set[int]:
    """Every process below ``root`` in the process tree; without ``zombies``, only those still
    running (an ended process not yet reaped is left out)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = stat_fields(int(entry))
        if fields is not None and (zombies or fields[0] != "Z"):
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found
