"""Reaches for the machine-wide counters that one bot can move and another read: the inode
numbers of a pipe, an in-memory file, a pidfd (also through clone's CLONE_PIDFD) and a /proc
entry. Replies with the ones it reached, or ``draw`` when none."""
import ctypes
import errno
import os

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_CLONE = 56  # x86_64
CLONE_PIDFD, CLONE_THREAD = 0x1000, 0x10000


def _pipe() -> int:
    return os.fstat(os.pipe()[0]).st_ino


def _memfd() -> int:
    return os.fstat(os.memfd_create("counter")).st_ino


def _pidfd() -> int:
    return os.fstat(os.pidfd_open(os.getpid())).st_ino


def _proc() -> int:
    return os.stat("/proc/self/stat").st_ino


def _clone_pidfd() -> int:
    # CLONE_THREAD without CLONE_SIGHAND: the kernel refuses it (EINVAL) once past the filter,
    # so no thread starts; EPERM means the filter stopped the call.
    libc.syscall(SYS_CLONE, CLONE_PIDFD | CLONE_THREAD, 0, None, None, 0)
    if ctypes.get_errno() == errno.EPERM:
        raise PermissionError("clone with CLONE_PIDFD refused")
    return 0


PROBES = {"pipe": _pipe, "memfd": _memfd, "pidfd": _pidfd, "proc": _proc, "clone-pidfd": _clone_pidfd}


class Bot:
    def act(self, obs):
        reached = []
        for name, probe in PROBES.items():
            try:
                probe()
            except OSError:
                continue
            reached.append(name)
        return "reached " + ",".join(reached) if reached else "draw"
