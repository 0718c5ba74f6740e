"""One run per tournament at a time: a lock file beside the results store.

A run holds an exclusive ``fcntl.flock`` on ``<results>/<name>.lock`` from before it reads the
store until it returns, and writes its pid there. A second run of the same tournament (the same
results name, in the same folder) finds the lock taken and stops at once with
:class:`TournamentBusyError` ("tournament 'demo' is already being run by process 4242"),
before it plays or stores anything; it never plays games the first one is playing too.

The kernel releases the lock when the holder's file is closed, so however a run ends (a
return, an error, Ctrl-C, ``kill -9``) the next one can start. Only the parent holds it: the
descriptor is not inherited by the worker processes, which never write the store. The file
itself stays (removing it would let a third run lock a new file while the second still holds
the old one); readers such as ``arena rankings`` ignore it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from arena.tournament.errors import StoreError, StoreWriteError


class TournamentBusyError(StoreError):
    """Another process is running this tournament now."""


def lock_path(name: str, results_dir: str | Path) -> Path:
    """The lock file of tournament ``name``: ``<results_dir>/<name>.lock``."""
    return Path(results_dir) / f"{name}.lock"


@contextlib.contextmanager
def run_lock(name: str, results_dir: str | Path) -> Iterator[Path]:
    """Hold tournament ``name``'s lock while the block runs; raise
    :class:`TournamentBusyError` if another run holds it (after :data:`PROBE_GRACE_S`)."""
    path = lock_path(name, results_dir)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise StoreWriteError(f"{path}: cannot open the tournament's lock: {exc.strerror or exc}") from exc
    try:
        if not _take(fd):
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            by = f"process {holder}" if holder.isdigit() else "another process"
            raise TournamentBusyError(f"tournament {name!r} is already being run by {by} "
                                      f"(lock {path}); wait for it to end or stop it") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield path
    finally:
        os.close(fd)  # releases the lock


# A reader's probe (:func:`is_running`) holds a shared lock for microseconds: a run that finds the
# lock taken tries again for this long before it calls the tournament busy.
PROBE_GRACE_S = 0.5


def _take(fd: int) -> bool:
    """Take the exclusive lock, waiting out readers' probes; False if a run holds it."""
    deadline = time.monotonic() + PROBE_GRACE_S
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)


def is_running(name: str, results_dir: str | Path) -> bool:
    """Whether a run holds tournament ``name``'s lock now. A probe that writes nothing: a reader
    asks before upgrading an old store's file, which a run of an older arena may be writing.
    (flock has no test without taking: the probe takes a shared lock for an instant, which a
    run starting then waits out, see :data:`PROBE_GRACE_S`.)"""
    try:
        fd = os.open(lock_path(name, results_dir), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False    # no lock file: no run has ever held it
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)    # releases the probe's shared lock at once
    return False
