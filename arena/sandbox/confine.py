"""The confinement layers of a bot process, and which of them this machine offers.

Each layer is probed once per referee process; a missing one is reported with ONE warning
on the ``arena.sandbox`` logger and then skipped (docs/sandbox.md says what each blocks).
Everything here runs in the referee, except :meth:`Confinement.preexec`, which runs in the
forked child just before ``exec`` (as root when the referee is root).
"""

from __future__ import annotations

import atexit
import ctypes
import logging
import os
import resource
import signal
import time
from dataclasses import dataclass, field
from functools import lru_cache

from arena.sandbox import seccomp

log = logging.getLogger("arena.sandbox")

UID_BASE = 61000          # slot N runs as uid/gid UID_BASE + N (no passwd entry needed)
CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1
MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
# World-writable places a bot could leave files in; made read-only in its mount namespace.
SHARED_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
CGROUP_PIDS = "/sys/fs/cgroup/pids"
PIDS_MAX = 64
CPU_HARD_GRACE = 5


@dataclass(frozen=True)
class Layers:
    """What this machine offers; computed once by :func:`available_layers`."""

    uid: bool            # root: one unprivileged uid per slot
    netns: bool          # unshare(CLONE_NEWNET): no network at all
    mountns: bool        # unshare(CLONE_NEWNS): shared temp folders read-only
    cgroup: bool         # a pids cgroup per bot: descendants are found and killed
    seccomp_base: bytes | None = field(default=None, repr=False)
    seccomp_host: bytes | None = field(default=None, repr=False)


@lru_cache(maxsize=1)
def available_layers() -> Layers:
    """Probe every layer once; warn once for each one that is missing."""
    root = os.geteuid() == 0
    if not root:
        _warn("not running as root: bots run under the referee's own uid (no per-slot uid, "
              "no network or mount namespace, no pids cgroup)")
    namespaces = root and _probe_unshare(CLONE_NEWNET | CLONE_NEWNS)
    if root and not namespaces:
        _warn("unshare(CLONE_NEWNET|CLONE_NEWNS) failed: bots keep the network and can write "
              "into shared temp folders")
    cgroup = root and _probe_cgroup()
    if root and not cgroup:
        _warn(f"no writable pids cgroup at {CGROUP_PIDS}: descendants are found by uid instead")
    base, host = _probe_seccomp()
    return Layers(root, namespaces, namespaces, cgroup, base, host)


def _warn(message: str) -> None:
    """The single warning for one missing layer."""
    log.warning("sandbox layer unavailable: %s", message)


def _probe_unshare(flags: int) -> bool:
    """Whether a child can unshare ``flags`` and make its mounts private."""
    libc = ctypes.CDLL(None, use_errno=True)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the probe child
        ok = libc.unshare(flags) == 0 and libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) == 0
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _probe_cgroup() -> bool:
    """Whether a pids cgroup can be created (and removed) here."""
    path = os.path.join(CGROUP_PIDS, f"arena-probe-{os.getpid()}")
    try:
        os.mkdir(path)
        os.rmdir(path)
        return True
    except OSError:
        return False


def _probe_seccomp() -> tuple[bytes | None, bytes | None]:
    """The compiled filters, or ``(None, None)`` with a warning."""
    try:
        return seccomp.build_filters()
    except (seccomp.SeccompUnavailable, OSError, AttributeError) as exc:
        _warn(f"seccomp filter not available ({exc}): bots may fork, exec and open sockets "
              "(stopped only by the other layers)")
        return None, None


def slot_uid(slot: int) -> int:
    """The unprivileged uid (and gid) of a concurrent sandbox slot."""
    return UID_BASE + slot


class Cgroup:
    """A pids cgroup holding one bot and everything it starts."""

    live: set["Cgroup"] = set()

    def __init__(self, name: str) -> None:
        self.path = os.path.join(CGROUP_PIDS, name)
        os.makedirs(self.path, exist_ok=True)
        with open(os.path.join(self.path, "pids.max"), "w") as f:
            f.write(str(PIDS_MAX))
        self.procs_file = os.path.join(self.path, "cgroup.procs").encode()
        self.owner = os.getpid()
        Cgroup.live.add(self)

    def pids(self) -> list[int]:
        """Processes currently in the group."""
        try:
            with open(self.procs_file) as f:
                return [int(line) for line in f if line.strip()]
        except OSError:
            return []

    def remove(self) -> None:
        """Delete the (empty) group."""
        Cgroup.live.discard(self)
        try:
            os.rmdir(self.path)
        except OSError as exc:
            log.debug("could not remove cgroup %s: %s", self.path, exc)


@atexit.register
def _remove_forgotten_cgroups() -> None:
    """Bots never closed still must not outlive the referee, nor leave cgroup folders."""
    for group in list(Cgroup.live):
        if group.owner == os.getpid():
            kill_pids(group.pids())
            time.sleep(0.01)  # let the kernel move the killed tasks out before rmdir
            group.remove()


def pids_of_uid(uid: int) -> list[int]:
    """Every live (not zombie) process of uid ``uid`` (the fallback without a cgroup)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid and not _is_zombie(entry):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def _is_zombie(pid: str) -> bool:
    """Whether /proc says the process has exited and waits to be reaped."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        return f.read().rpartition(b")")[2].split()[0] == b"Z"


def kill_pids(pids: list[int]) -> None:
    """SIGKILL each pid, ignoring ones already gone."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@dataclass
class Confinement:
    """How to confine one bot process: computed in the parent, applied by :meth:`preexec`."""

    layers: Layers
    uid: int | None
    workdir: str
    memory_bytes: int
    file_bytes: int
    nproc: int = 32
    nofile: int = 64
    cpu_seconds: int = 3600
    cgroup_procs: bytes | None = None
    cpus: set[int] | None = None
    _seccomp: seccomp.Installer | None = field(default=None, init=False)
    _libc: ctypes.CDLL = field(default_factory=lambda: ctypes.CDLL(None, use_errno=True), init=False)
    _parent: int = field(default_factory=os.getpid, init=False)

    def __post_init__(self) -> None:
        if self.layers.seccomp_base is not None:
            self._seccomp = seccomp.Installer(self.layers.seccomp_base)

    def preexec(self) -> None:
        """Run in the child between fork and exec: every layer, strongest-privilege first.

        Order matters: the cgroup, namespaces and mounts need root, so they come before the
        uid drop; seccomp comes last because it forbids some of the calls before it.
        """
        if self.cgroup_procs is not None:
            fd = os.open(self.cgroup_procs, os.O_WRONLY)
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
        if self.layers.netns:
            self._unshare_and_mount()
        if self.cpus:
            os.sched_setaffinity(0, self.cpus)
        self._set_rlimits()
        if self.uid is not None:
            os.setgroups([])
            os.setresgid(self.uid, self.uid, self.uid)
            os.setresuid(self.uid, self.uid, self.uid)
        self._die_with_parent()
        # Re-enter the folder: the bind mount above hides the directory entered by Popen.
        os.chdir(self.workdir)
        if self._seccomp is not None:
            self._seccomp.install()

    def _die_with_parent(self) -> None:
        """SIGKILL the bot when the process that started it dies (a SIGKILLed tournament
        worker), even if it ignores its closed pipe. Set after the uid drop, which clears it;
        the parent check closes the race with a parent that died before the call."""
        self._libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != self._parent:
            os._exit(1)

    def _unshare_and_mount(self) -> None:
        """No network; shared temp folders read-only except the bot's own folder."""
        libc = self._libc
        flags = CLONE_NEWNET | (CLONE_NEWNS if self.layers.mountns else 0)
        if libc.unshare(flags) != 0:
            raise OSError(ctypes.get_errno(), "unshare failed")
        if not self.layers.mountns:
            return
        # Private propagation first, or the read-only mounts would leak to the host.
        self._mount(None, b"/", MS_REC | MS_PRIVATE)
        for place in SHARED_WRITABLE:
            if os.path.isdir(place) and os.stat(place).st_mode & 0o002:
                path = place.encode()
                self._mount(path, path, MS_BIND | MS_REC)
                self._mount(None, path, MS_REMOUNT | MS_BIND | MS_RDONLY)
        work = self.workdir.encode()
        self._mount(work, work, MS_BIND)
        self._mount(None, work, MS_REMOUNT | MS_BIND)

    def _mount(self, source: bytes | None, target: bytes, flags: int) -> None:
        """mount(2) or OSError."""
        if self._libc.mount(source, target, None, flags, None) != 0:
            raise OSError(ctypes.get_errno(), f"mount {target!r} failed")

    def _set_rlimits(self) -> None:
        """Memory, file size, process count, open files, core dumps, CPU backstop."""
        for which, value in (
            (resource.RLIMIT_AS, self.memory_bytes),
            (resource.RLIMIT_FSIZE, self.file_bytes),
            (resource.RLIMIT_NOFILE, self.nofile),
            (resource.RLIMIT_CORE, 0),
        ):
            resource.setrlimit(which, (value, value))
        if self.uid is not None:
            # Counted per uid: only meaningful for a uid of the bot's own (and ignored for root).
            resource.setrlimit(resource.RLIMIT_NPROC, (self.nproc, self.nproc))
        # A backstop in case the referee dies: SIGXCPU at the soft limit, SIGKILL at the hard
        # one. The referee (root) raises both with prlimit as the bot's total CPU grows; a
        # non-root referee could not raise a hard limit again, so it leaves it open.
        hard = self.cpu_seconds + CPU_HARD_GRACE if self.uid is not None else resource.RLIM_INFINITY
        resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_seconds, hard))
