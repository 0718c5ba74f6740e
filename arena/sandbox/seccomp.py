"""The bot's seccomp filters, a deny-list and an allow-list, compiled with libseccomp (through
ctypes) into raw BPF bytes.

The filters are compiled once per referee process and written into the runtime; each game
process installs them with ``prctl(PR_SET_SECCOMP)`` (microseconds) after its confinement is
set up and before the bot's code runs. The deny-list denies:

* new processes (fork, vfork, clone without ``CLONE_THREAD``) and ``execve`` (allowed to
  command bots, which must exec their command): a bot is one process, with threads allowed
  (not with ``CLONE_VFORK``: its parent thread would wait, neither running nor stopped);
* sockets, tracing or reading other processes, namespace, mount, module and kernel-key calls;
* every channel through a file two bots can both read (the runtime and the standard library
  are shared read-only): ``flock``, POSIX and open-file-description record locks, leases and
  directory notifications (``fcntl``), ``inotify`` and ``fanotify``; and every exact probe or
  eviction of the shared page cache (``mincore``, ``cachestat``, ``preadv2`` with
  ``RWF_NOWAIT``, ``posix_fadvise``, ``readahead``, ``madvise`` cold/pageout, and
  ``process_madvise``, which gives the same advice through a pidfd, AIO), which would
  tell whether another bot read a page of a shared file; and the file systems' ``ioctl``
  commands (type ``'f'``: ``FS_IOC_FIEMAP``, ext4's ``EXT4_IOC_GET_ES_CACHE``), which mark a
  shared file and read the mark, whether anyone has read it, without any I/O.

* SysV shared memory, semaphores and message queues, and POSIX message queues: memory
  outside the address-space limit, and channels (each game also has its own IPC namespace);
* leaving the CPU its worker pinned it to (``sched_setaffinity``), and ``sysinfo``, whose
  machine-wide counts (threads, free memory) one bot could move and another read;
* timers (``setitimer``, ``alarm``, ``timer_create``, ``timerfd_create``): with them, a
  single-threaded bot blocked reading its next request could wake up and run code;
* every call that hands out a file whose inode number comes from a machine-wide counter:
  pipes, in-memory files (``memfd_create``, ``memfd_secret``) and pidfds (``pidfd_open``,
  ``clone`` with ``CLONE_PIDFD``). One bot can move such a counter by making files and another
  read it from the next one's number (``fstat``): an exact channel between two seats, and
  from one game to the next. (The game process has no ``/proc``, whose entries draw from the
  same counter as pipes.) And ``syslog``: the kernel's log, where a crash leaves a message.
* ``seccomp`` itself: a filter of the bot's own with a notification listener
  (``SECCOMP_FILTER_FLAG_NEW_LISTENER``) lets one of its threads have a copy of any of its
  descriptors installed at a number of its choosing (``SECCOMP_IOCTL_NOTIF_ADDFD``), past the
  rules below; ``ustat``, which answers for any filesystem of the machine by its device
  number (the free blocks and inodes of another bot's folder: an exact channel between seats),
  and ``sysfs``, ``statmount`` and ``listmount`` (mounts and their machine-wide ids);
  ``getrusage``, whose count of major page faults tells exactly whether a page of a shared
  file was cached (another bot's reads); and shared futex waits: a futex word in a page of
  a file is keyed by the file, so two bots that map one standard-library file could wait and
  wake each other (:data:`SHARED_FUTEX_WAITS`, :data:`FUTEX2_CALLS`).
* for a Python bot, the numbers of the files the referee hands it, descriptors 0 to 3 (its
  requests and replies, pipes; its log, an in-memory file): ``fstat``, ``newfstatat`` and
  ``statx`` of them, and their copies (``dup``, ``dup2``, ``dup3``, ``fcntl`` ``F_DUPFD``). The
  referee makes them at each game's start, numbered from counters other processes move (a
  bot's own shared anonymous mappings move the in-memory files' one), so their numbers would
  tell a bot what a partner did in the previous game.
* for a Python bot, sending itself a real-time signal (``kill``, ``tkill``, ``tgkill`` with a
  signal of 32 or more, and ``fcntl`` ``F_SETSIG``, which would have its descriptors' I/O
  send one; the calls that queue one with data are outside its allow-list). The
  kernel counts queued real-time signals per user, up to ``RLIMIT_SIGPENDING``, and without
  root every bot runs under the referee's uid: one bot could hold a number of them pending and
  another count how many more it may queue, an exact channel (and a way to take the user's
  whole quota). The standard signals it may still hold pending, at most one of each per
  thread, are counted but never refused: too few to fill the quota, and no way to measure it.

Denied calls fail with ``EPERM`` (``clone3`` with ``ENOSYS`` so threads fall back to
``clone``), so a bot sees an ordinary ``OSError`` rather than dying.

Behind the deny-list, a second filter allows only what was reviewed, so that a call nobody
looked at is refused rather than allowed (``ENOSYS``, as a kernel without it would answer):

* a Python bot gets :data:`PYTHON_CALLS`, what the interpreter and its standard library do
  to the bot's own process, memory and files, and :data:`PYTHON_CALLS_WITH`, calls allowed
  only with some values of an argument (``ioctl`` for a descriptor's own state, ``prctl`` to
  name a thread);
* a command bot, whose runtime may be anything, gets every call up to :data:`LAST_REVIEWED`:
  what a newer kernel adds is refused until someone adds it to the review.

The kernel runs both filters on every call and keeps the stricter answer; it caches the
allow filter's verdict per call number, so an allowed call costs nothing more.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import platform
import struct
from functools import lru_cache
from typing import Callable

_ACT_ALLOW = 0x7FFF0000
_CLONE_THREAD = 0x00010000
_CLONE_PIDFD = 0x00001000
_CLONE_VFORK = 0x00004000
_SCMP_CMP_EQ = 4
_SCMP_CMP_GE = 5
_SCMP_CMP_MASKED_EQ = 7

# Syscalls no bot needs; each would let it reach beyond its process.
DENIED = (
    "fork", "vfork", "execve", "execveat", "socket", "socketpair", "ptrace",
    "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp", "unshare", "setns",
    "mount", "umount2", "pivot_root", "chroot", "bpf", "perf_event_open", "keyctl", "add_key",
    "request_key", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "init_module", "finit_module", "delete_module", "kexec_load", "reboot", "swapon",
    "swapoff", "acct", "open_by_handle_at", "name_to_handle_at", "mount_setattr", "fsopen",
    "fsmount", "fsconfig", "fspick", "move_mount", "open_tree", "flock", "inotify_init",
    "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark", "mincore",
    "setitimer", "alarm", "timer_create", "timerfd_create",
    "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "semget",
    "semop", "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
    "mq_notify", "mq_getsetattr",
    "fadvise64", "fadvise64_64", "arm_fadvise64_64", "readahead", "cachestat", "io_setup",
    "io_submit", "io_getevents", "io_pgetevents", "io_cancel", "io_destroy",
    "sched_setaffinity", "sched_setattr", "sched_setscheduler", "sysinfo",
    "pipe", "pipe2", "memfd_create", "memfd_secret", "pidfd_open", "syslog",
    "seccomp", "ustat", "sysfs", "statmount", "listmount", "getrusage", "open_tree_attr",
    "process_madvise",
)
# Calls an older libseccomp may not know by name, by their x86_64 numbers.
X86_64_NUMBERS = {"statmount": 457, "listmount": 458, "futex_waitv": 449, "futex_wake": 454,
                  "futex_wait": 455, "futex_requeue": 456, "open_tree_attr": 467,
                  "process_madvise": 440}
# The newest call reviewed for DENIED: Linux 6.17's file_setattr. Since Linux 5.1 every
# architecture gives a new call the same number, so one bound serves all of them.
LAST_REVIEWED = 469
# What a Python bot's game process may call (each name where this architecture has it): the
# interpreter, its threads and the standard library acting on the bot's own memory, files,
# descriptors, clocks and signals. Calls the deny-list refuses in part (clone, futex, fcntl,
# madvise, the stat calls, dup) are here; the deny-list still has the last word on them.
PYTHON_CALLS = (
    # files and descriptors: its own folder and the read-only runtime
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2",
    "pwritev2", "open", "openat", "openat2", "creat", "close", "close_range", "lseek",
    "_llseek", "stat", "lstat", "fstat", "newfstatat", "statx", "stat64", "lstat64", "fstat64",
    "fstatat64", "statfs", "fstatfs", "statfs64", "fstatfs64", "access", "faccessat",
    "faccessat2", "readlink", "readlinkat", "getdents", "getdents64", "getcwd", "chdir",
    "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat",
    "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat",
    "fchmodat2", "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "fallocate",
    "utime", "utimes", "utimensat", "futimesat", "fsync", "fdatasync", "umask", "dup", "dup2",
    "dup3", "fcntl", "fcntl64", "sendfile", "sendfile64", "copy_file_range",
    "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr",
    "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    "poll", "ppoll", "select", "_newselect", "pselect6", "epoll_create", "epoll_create1",
    "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2",
    # memory
    "brk", "mmap", "mmap2", "munmap", "mremap", "mprotect", "madvise", "msync",
    # the process and its threads
    "clone", "exit", "exit_group", "set_tid_address", "set_robust_list", "rseq", "futex",
    "gettid", "getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getresuid",
    "getresgid", "getgroups", "getpgrp", "getpgid", "getsid", "arch_prctl", "uname",
    "getrandom", "getrlimit", "setrlimit", "prlimit64", "times", "getcpu", "sched_yield",
    "sched_getaffinity", "sched_getparam", "sched_getscheduler", "sched_get_priority_max",
    "sched_get_priority_min", "getpriority", "setpriority",
    # signals (its PID namespace holds only itself) and clocks
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigreturn", "sigaltstack",
    "rt_sigpending", "rt_sigsuspend", "rt_sigtimedwait", "kill", "tgkill", "tkill", "pause",
    "restart_syscall", "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep",
    "gettimeofday", "time",
)
# The ioctl commands a Python bot may use, on its own descriptors: TCGETS (isatty), TIOCGWINSZ
# (the terminal's size), FIONREAD (bytes waiting), FIONBIO, FIONCLEX and FIOCLEX (inheritance).
# The others answer ENOSYS: a file system's own commands tell too much of files every bot
# shares (ext4's cache of a file's extents, EXT4_IOC_GET_ES_CACHE, says whether anyone read
# it: a one-bit mark per file of /usr, which FS_IOC_FIEMAP sets), and FIOASYNC would queue
# signals.
PYTHON_IOCTLS = (0x5401, 0x5413, 0x541B, 0x5421, 0x5450, 0x5451)
PR_SET_NAME, PR_GET_NAME = 15, 16
# Calls a Python bot may make only with some values of one argument: call -> (the argument,
# the values), compared on all 64 bits. prctl only names its threads (Python 3.14's threading
# does; the name is seen nowhere outside the bot's PID namespace).
PYTHON_CALLS_WITH = {"ioctl": (1, PYTHON_IOCTLS), "prctl": (0, (PR_SET_NAME, PR_GET_NAME))}
# futex operations that wait (FUTEX_WAIT, FUTEX_WAIT_BITSET, FUTEX_WAIT_REQUEUE_PI), refused
# when shared: without FUTEX_PRIVATE_FLAG (128), a futex in a file's page is keyed by the
# file, so two bots that map one standard-library file would wait and wake each other.
SHARED_FUTEX_WAITS = (0, 9, 11)
FUTEX_PRIVATE_FLAG = 128
# The futex2 calls take their flags in memory (futex_waitv) or need none to be shared; glibc
# uses none of them, so they are refused with ENOSYS, as a kernel without them would.
FUTEX2_CALLS = ("futex_waitv", "futex_wake", "futex_wait", "futex_requeue")
EXEC_CALLS = ("execve", "execveat")
# Allowed to command bots: the runtimes of other languages make pipes as they start (Node.js's
# libuv), so a command bot keeps the inode-number channel these open (docs/sandbox.md).
COMMAND_CALLS = ("pipe", "pipe2", "memfd_create", "pidfd_open")
# madvise advice that evicts a file's pages from the page cache: MADV_COLD, MADV_PAGEOUT.
DENIED_MADVISE = (20, 21)
RWF_NOWAIT = 0x8   # preadv2 flag: tells whether a page is cached without reading it
# The type byte ('f') of the file systems' common ioctl commands, and ext4's: FS_IOC_FIEMAP
# loads a file's extents into memory and EXT4_IOC_GET_ES_CACHE counts those kept there, a
# mark on every file of /usr that no read leaves so exactly (refused to command bots too).
FS_IOCTL_TYPE = 0x66
# fcntl commands that share state through a file: F_GETLK, F_SETLK, F_SETLKW, F_SETLEASE,
# F_GETLEASE, F_NOTIFY, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW.
DENIED_FCNTL = (5, 6, 7, 1024, 1025, 1026, 36, 37, 38)
# The descriptors a Python bot's game process gets from the referee (requests, log, log,
# replies), the calls that would read their inode numbers, and fcntl's F_DUPFD and
# F_DUPFD_CLOEXEC, which copy them.
REFEREE_FDS = (0, 1, 2, 3)
FD_NUMBER_CALLS = ("fstat", "fstat64", "newfstatat", "fstatat64", "statx", "dup", "dup2", "dup3")
DUP_FCNTL = (0, 1030)
# The calls that send a signal to a thread or process of the bot's own, and which argument is
# the signal; a Python bot may send itself no real-time signal (SIGRTMIN, 32, and up).
SIGNAL_ARGUMENT = {"kill": 1, "tkill": 1, "tgkill": 2}
FIRST_REALTIME_SIGNAL = 32
F_SETSIG = 10  # fcntl: the signal a descriptor's I/O sends, a real-time one if it likes


class _ArgCmp(ctypes.Structure):
    """``struct scmp_arg_cmp``."""

    _fields_ = [
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    ]


class SeccompUnavailable(Exception):
    """libseccomp cannot be loaded or refused to build the filter."""


def _errno_action(code: int) -> int:
    """``SCMP_ACT_ERRNO(code)``."""
    return 0x00050000 | (code & 0xFFFF)


def _load_library() -> ctypes.CDLL:
    """libseccomp.so.2, by soname first (no compiler or ldconfig needed)."""
    for name in ("libseccomp.so.2", ctypes.util.find_library("seccomp")):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name, use_errno=True)
        except OSError:
            continue
        lib.seccomp_init.restype = ctypes.c_void_p
        lib.seccomp_init.argtypes = [ctypes.c_uint32]
        lib.seccomp_rule_add_array.argtypes = [
            ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(_ArgCmp)
        ]
        lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
        lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.seccomp_release.argtypes = [ctypes.c_void_p]
        return lib
    raise SeccompUnavailable("libseccomp.so.2 not found")


@lru_cache(maxsize=2)
def bot_filter(allow_exec: bool = False) -> bytes:
    """The filters to install, in order (the deny-list, then the allow-list), each a native
    ``uint32`` count of instructions and then the BPF program (the host's ``_programs`` reads
    them); :class:`SeccompUnavailable` if libseccomp is missing.

    ``allow_exec`` is the variant for command bots, whose game process must exec the command
    (it still cannot fork), and whose runtime may need pipes (:data:`COMMAND_CALLS`).
    """
    lib = _load_library()
    return b"".join(_counted(program) for program in
                    (_deny_list(lib, allow_exec), _allow_list(lib, allow_exec)))


def _counted(program: bytes) -> bytes:
    """``program`` preceded by its instruction count (eight bytes each)."""
    return struct.pack("=I", len(program) // 8) + program


def _allow_list(lib: ctypes.CDLL, allow_exec: bool) -> bytes:
    """ENOSYS for every call but :data:`PYTHON_CALLS` and :data:`PYTHON_CALLS_WITH`, or for a
    command bot every call numbered up to :data:`LAST_REVIEWED`."""
    numbers = (range(LAST_REVIEWED + 1) if allow_exec
               else [nr for nr in (_number(lib, name) for name in PYTHON_CALLS) if nr >= 0])
    with_values = {} if allow_exec else PYTHON_CALLS_WITH

    def allow(ctx: int) -> None:
        for nr in numbers:
            _add(lib, ctx, _ACT_ALLOW, nr, [])
        # (the rest answer the default: an unconditional ENOTTY or EINVAL rule beside these
        # would win over them in libseccomp 2.5)
        for name, (arg, values) in with_values.items():
            nr = _number(lib, name)
            for value in values if nr >= 0 else ():
                _add(lib, ctx, _ACT_ALLOW, nr, [_ArgCmp(arg, _SCMP_CMP_EQ, value, 0)])

    return _compile(lib, _errno_action(errno.ENOSYS), allow)


def _add(lib: ctypes.CDLL, ctx: int, action: int, nr: int, cmps: list[_ArgCmp]) -> None:
    """``action`` for call ``nr`` when every comparison holds, or :class:`SeccompUnavailable`."""
    rc = lib.seccomp_rule_add_array(ctx, action, nr, len(cmps), (_ArgCmp * len(cmps))(*cmps))
    if rc < 0:
        raise SeccompUnavailable(f"seccomp_rule_add({nr}) failed: {os.strerror(-rc)}")


def _compile(lib: ctypes.CDLL, default: int, add_rules: Callable[[int], None]) -> bytes:
    """The BPF program of a filter whose action is ``default`` but where ``add_rules`` says."""
    ctx = lib.seccomp_init(default)
    if not ctx:
        raise SeccompUnavailable("seccomp_init failed")
    try:
        add_rules(ctx)
        return _export(lib, ctx)
    finally:
        lib.seccomp_release(ctx)


def _deny_list(lib: ctypes.CDLL, allow_exec: bool) -> bytes:
    """The deny-list (module docstring), over a default of allowing."""

    def deny(ctx: int) -> None:
        for name in DENIED:
            if not (allow_exec and name in EXEC_CALLS + COMMAND_CALLS):
                _deny(lib, ctx, name)
        _deny_clone(lib, ctx)
        _deny_shared_futex_waits(lib, ctx)
        for call in ("fcntl", "fcntl64"):
            for command in DENIED_FCNTL:
                _deny_with_arg(lib, ctx, call, 1, command)
        for advice in DENIED_MADVISE:
            _deny_with_arg(lib, ctx, "madvise", 2, advice)
        for call in ("preadv2", "pwritev2"):
            _deny_with_arg(lib, ctx, call, 5, RWF_NOWAIT, mask=RWF_NOWAIT)
        _deny_with_arg(lib, ctx, "ioctl", 1, FS_IOCTL_TYPE << 8, mask=0xFF00)
        if not allow_exec:  # a command bot has /proc and pipes of its own (docs/sandbox.md)
            _deny_referee_fd_numbers(lib, ctx)
            _deny_realtime_signals(lib, ctx)
            for call in ("fcntl", "fcntl64"):
                _deny_with_arg(lib, ctx, call, 1, F_SETSIG)

    return _compile(lib, _ACT_ALLOW, deny)


def syscall_number(name: str) -> int | None:
    """The native number of system call ``name`` (None without libseccomp)."""
    try:
        number = _number(_load_library(), name)
    except SeccompUnavailable:
        return None
    return number if number >= 0 else None


def _deny_with_arg(lib: ctypes.CDLL, ctx: int, name: str, arg: int, value: int,
                   mask: int = 0xFFFFFFFF) -> None:
    """EPERM for ``name`` when the 32-bit argument ``arg``, masked with ``mask``, equals
    ``value`` (unknown names skipped).

    Only the low 32 bits are compared: the kernel reads such an argument (fcntl's command is
    an ``unsigned int``) from the low half of the register, while seccomp sees all 64 bits, so
    an exact 64-bit comparison lets ``syscall(SYS_fcntl, fd, (1 << 32) | F_OFD_SETLK, ...)``
    through.
    """
    _deny_with_args(lib, ctx, name, ((arg, value, mask),))


def _deny_with_args(lib: ctypes.CDLL, ctx: int, name: str,
                    tests: tuple[tuple[int, int, int], ...], code: int = errno.EPERM) -> None:
    """Error ``code`` for ``name`` when every ``(arg, value, mask)`` holds (always, with none):
    the argument's low 32 bits, masked, equal the value (see :func:`_deny_with_arg`)."""
    _add_rule(lib, ctx, name, [_ArgCmp(arg, _SCMP_CMP_MASKED_EQ, mask, value)
                               for arg, value, mask in tests], code)


def _add_rule(lib: ctypes.CDLL, ctx: int, name: str, cmps: list[_ArgCmp], code: int) -> None:
    """Error ``code`` for ``name`` when every comparison holds; unknown names skipped."""
    nr = _number(lib, name)
    if nr >= 0:
        _add(lib, ctx, _errno_action(code), nr, cmps)


def _deny_realtime_signals(lib: ctypes.CDLL, ctx: int) -> None:
    """EPERM for sending a real-time signal (module docstring): the signal's whole 64-bit
    argument at least 32, which also catches high bits set over a low number."""
    for name, arg in SIGNAL_ARGUMENT.items():
        _add_rule(lib, ctx, name, [_ArgCmp(arg, _SCMP_CMP_GE, FIRST_REALTIME_SIGNAL, 0)],
                  errno.EPERM)


def _deny_shared_futex_waits(lib: ctypes.CDLL, ctx: int) -> None:
    """A shared futex wait answers EAGAIN (the word changed), which glibc's waits handle by
    looking again: a ``pthread_join``, whose wait is shared, still works, by spinning."""
    for command in SHARED_FUTEX_WAITS:
        _deny_with_args(lib, ctx, "futex", ((1, command, 0x7F | FUTEX_PRIVATE_FLAG),),
                        code=errno.EAGAIN)
    for name in FUTEX2_CALLS:
        _deny(lib, ctx, name, errno.ENOSYS)


def _deny_referee_fd_numbers(lib: ctypes.CDLL, ctx: int) -> None:
    """No stat or copy of descriptors 0 to 3 (module docstring): their first argument, compared
    on its low 32 bits like every descriptor the kernel reads."""
    for fd in REFEREE_FDS:
        for name in FD_NUMBER_CALLS:
            _deny_with_arg(lib, ctx, name, 0, fd)
        for call in ("fcntl", "fcntl64"):
            for command in DUP_FCNTL:
                _deny_with_args(lib, ctx, call, ((0, fd, 0xFFFFFFFF), (1, command, 0xFFFFFFFF)))


def _number(lib: ctypes.CDLL, name: str) -> int:
    """The native number of ``name``: libseccomp's, else :data:`X86_64_NUMBERS` on x86_64;
    negative when neither knows it (the call is then skipped)."""
    nr: int = lib.seccomp_syscall_resolve_name(name.encode())
    if nr < 0 and platform.machine() == "x86_64":
        return X86_64_NUMBERS.get(name, nr)
    return nr


def _deny(lib: ctypes.CDLL, ctx: int, name: str, code: int = errno.EPERM) -> None:
    """Error ``code`` for every call of ``name``; names unknown to this kernel/arch are skipped."""
    _deny_with_args(lib, ctx, name, (), code)


def _deny_clone(lib: ctypes.CDLL, ctx: int) -> None:
    """clone() of a new process is denied, of a thread allowed (without a pidfd or
    CLONE_VFORK); clone3 says ENOSYS.

    clone3 passes its flags in memory, which seccomp cannot read, so it is refused as a
    whole; glibc then retries with clone(), which the flag checks cover.
    """
    _deny(lib, ctx, "clone3", errno.ENOSYS)
    _deny_with_arg(lib, ctx, "clone", 0, _CLONE_PIDFD, mask=_CLONE_PIDFD)
    # a thread with CLONE_VFORK: its parent thread waits, in a state that is neither running
    # nor stopped, until the child ends (a frozen bot that never reads as stopped)
    _deny_with_arg(lib, ctx, "clone", 0, _CLONE_VFORK, mask=_CLONE_VFORK)
    _deny_with_arg(lib, ctx, "clone", 0, 0, mask=_CLONE_THREAD)  # a process, not a thread


def _export(lib: ctypes.CDLL, ctx: int) -> bytes:
    """The filter's BPF instructions (``struct sock_filter[]``), via an in-memory file."""
    fd = os.memfd_create("arena-seccomp")
    try:
        rc = lib.seccomp_export_bpf(ctx, fd)
        if rc < 0:
            raise SeccompUnavailable(f"seccomp_export_bpf failed: {os.strerror(-rc)}")
        size = os.lseek(fd, 0, os.SEEK_CUR)
        return os.pread(fd, size, 0)
    finally:
        os.close(fd)
