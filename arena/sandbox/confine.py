"""What the isolation needs from this machine, checked once; and how a bot's template starts.

The isolation (docs/sandbox.md) is built by the bot host itself from user namespaces, which an
ordinary user may create where the kernel allows it; nothing here needs root. As root, each bot
additionally runs under a uid of its own, leased under a lock (:mod:`arena.sandbox.leases`), so
that no two live bots on the machine share one.

:func:`check_isolation` raises :class:`IsolationUnavailable` with one line saying what is
missing and how to enable it. There is no degraded mode: the caller either has every layer or
asks for ``trusted`` (no confinement at all: only for bots you wrote yourself).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
from dataclasses import dataclass
from functools import lru_cache

from arena.errors import ArenaError
from arena.sandbox import host, seccomp

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
CPU_BACKSTOP = 3600       # seconds of CPU after which a process is killed whatever happens
_PROBE_FLAGS = (host.CLONE_NEWUSER | host.CLONE_NEWNS | host.CLONE_NEWNET | host.CLONE_NEWIPC
                | host.CLONE_NEWPID)


class IsolationUnavailable(ArenaError):
    """A layer the bot isolation needs is missing on this machine (the message says which)."""


def is_root() -> bool:
    """Whether the referee runs as root (bots then get leased uids of their own)."""
    return os.geteuid() == 0


@lru_cache(maxsize=1)
def isolation_problem() -> str | None:
    """``None`` when every layer works here, else one line: what is missing and how to fix it."""
    try:
        seccomp.bot_filter()
    except (seccomp.SeccompUnavailable, OSError, AttributeError) as exc:
        return (f"seccomp is unavailable ({exc}): install libseccomp "
                "(Debian: apt-get install libseccomp2)")
    return _probe_namespaces()


def check_isolation() -> None:
    """Raise :class:`IsolationUnavailable` unless bots can be fully isolated here."""
    problem = isolation_problem()
    if problem is not None:
        raise IsolationUnavailable(f"bot isolation unavailable: {problem}; pass --trusted only "
                                   "to run bots you wrote yourself without it")


def _probe_namespaces() -> str | None:
    """Try what a template does, in a throwaway child: user, mount, network, IPC and PID
    namespaces, a tmpfs and a /proc of its own (as root, after dropping to a leased uid)."""
    from arena.sandbox.leases import lease_uid

    lease = lease_uid() if is_root() else None
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the probe child
        os.close(read)
        os.write(write, _probe_in_child(lease.uid if lease else None).encode()[:500])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        answer = f.read().decode()
    os.waitpid(pid, 0)
    if lease is not None:
        lease.release()
    return answer or None


def _probe_in_child(uid: int | None) -> str:
    """The probe's body: an empty text when everything worked, else what failed."""
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        if uid is not None:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # the uid change made /proc/self root's
        outer_uid, outer_gid = os.geteuid(), os.getegid()
        if libc.unshare(_PROBE_FLAGS) != 0:
            return (f"the kernel refuses unprivileged user namespaces "
                    f"({os.strerror(ctypes.get_errno())}): enable them with "
                    "'sysctl kernel.unprivileged_userns_clone=1' and "
                    "'sysctl user.max_user_namespaces=15000' (and, under AppArmor, "
                    "'sysctl kernel.apparmor_restrict_unprivileged_userns=0')")
        host.map_ids(outer_uid, outer_gid)
        host.make_mounts_private()
        if libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, b"size=64k") != 0:
            return f"cannot mount a tmpfs in a user namespace ({os.strerror(ctypes.get_errno())})"
        child = os.fork()
        if child == 0:  # a command bot's game process's own /proc, as it mounts it
            ok = libc.mount(b"proc", b"/proc", b"proc", 0, host.GAME_PROC_OPTIONS.encode()) == 0
            os._exit(0 if ok else 1)
        _, status = os.waitpid(child, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            return ("cannot mount a /proc of its own (subset=pid) in a new PID namespace "
                    "(Linux 5.8 or later is needed)")
        return ""
    except (OSError, host.SetupError) as exc:
        return f"namespace setup failed: {exc}"


@dataclass
class Confinement:
    """How a template process starts: computed in the referee, applied by :meth:`preexec`.

    The namespaces are entered by the host itself; this only sets what must be set before the
    interpreter starts: limits, the leased uid (as root), the CPU pinning, and death with the
    referee.
    """

    uid: int | None
    memory_bytes: int
    file_bytes: int
    nofile: int = 64
    cpus: set[int] | None = None

    def __post_init__(self) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._parent = os.getpid()

    def preexec(self) -> None:
        """Run in the child between fork and exec (as root when the referee is root)."""
        if self.cpus:
            os.sched_setaffinity(0, self.cpus)
        for which, value in (
            (resource.RLIMIT_AS, self.memory_bytes),
            (resource.RLIMIT_FSIZE, self.file_bytes),
            (resource.RLIMIT_NOFILE, self.nofile),
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_CPU, CPU_BACKSTOP),
        ):
            resource.setrlimit(which, (value, value))
        if self.uid is not None:
            os.setgroups([])
            os.setresgid(self.uid, self.uid, self.uid)
            os.setresuid(self.uid, self.uid, self.uid)
        # Set after the uid drop, which clears it; the parent check closes the race with a
        # referee that died before the call.
        self._libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != self._parent:
            os._exit(1)
