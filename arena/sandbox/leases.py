"""Unprivileged uids leased to bots when the referee runs as root: one live bot, one uid.

Every run on the machine (tournaments, duels, submits, benchmarks) takes its bots' uids from the
same lease table: a file per uid in a root-only folder, held with ``flock`` by the referee for as
long as the bot lives. The kernel drops the lock when the referee dies, so a crashed run frees
its uids, and any process left under a uid is killed before the uid is leased again.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import signal
import stat
from dataclasses import dataclass

from arena.errors import ArenaError

LEASE_DIR = "/run/arena-uid-leases"
UID_FIRST = 2_100_000_000   # far above login, system and container (subuid) ranges
UID_COUNT = 65_536
SPREAD = 1024               # leases start at a random one of the first SPREAD uids


class LeaseError(ArenaError):
    """No uid could be leased (the lease folder is unsafe, or every uid is taken)."""


@dataclass
class UidLease:
    """A uid held by this process until :meth:`release` (or its death)."""

    uid: int
    fd: int

    def release(self) -> None:
        """Give the uid back (idempotent)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lease_uid() -> UidLease:
    """A free uid of the table, locked for this process; :class:`LeaseError` if none.

    The first free one from a random place among the first :data:`SPREAD`: a command bot
    reads its outer uid (/proc/self/uid_map), and the first free one from the start would
    count the bots living on the machine. (Not the whole table: a lease leaves its file.)"""
    folder = _lease_folder()
    start = secrets.randbelow(SPREAD)
    try:
        for index in ((start + step) % UID_COUNT for step in range(UID_COUNT)):
            fd = os.open(str(index), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600, dir_fd=folder)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            uid = UID_FIRST + index
            kill_processes_of(uid)
            return UidLease(uid, fd)
    finally:
        os.close(folder)
    raise LeaseError(f"all {UID_COUNT} bot uids are leased")


def _lease_folder() -> int:
    """The lease folder, opened without following links; refused unless root-owned and 0700."""
    try:
        os.mkdir(LEASE_DIR, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise LeaseError(f"cannot create {LEASE_DIR}: {exc.strerror}") from None
    fd = os.open(LEASE_DIR, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    info = os.fstat(fd)
    if info.st_uid != 0 or stat.S_IMODE(info.st_mode) & 0o077:
        os.close(fd)
        raise LeaseError(f"{LEASE_DIR} must be a folder owned by root with mode 0700")
    return fd


def processes_of(uid: int) -> list[int]:
    """Every live (not zombie) process whose real uid is ``uid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as f:
                status = f.read()
        except OSError:
            continue
        fields = dict(line.split(b":", 1) for line in status.splitlines() if b":" in line)
        if fields.get(b"State", b"").strip().startswith(b"Z"):
            continue
        if int(fields.get(b"Uid", b"-1").split()[0]) == uid:
            found.append(int(entry))
    return found


def kill_processes_of(uid: int) -> None:
    """SIGKILL whatever still runs under ``uid`` (nothing should)."""
    for pid in processes_of(uid):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
