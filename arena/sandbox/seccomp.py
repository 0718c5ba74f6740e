"""A seccomp deny-list compiled with libseccomp (through ctypes) into raw BPF bytes.

The filter is compiled once per referee process; the child only hands the bytes to
``prctl(PR_SET_SECCOMP)``, which costs microseconds (SANDBOX.md: a ctypes binding that
compiles in every child costs 30-40 ms). Two programs are built:

* the *base* filter, installed just before ``exec``: no new processes (fork, vfork, clone
  without ``CLONE_THREAD``), no sockets, no tracing or reading other processes, no
  namespace, mount, module or kernel-key calls;
* the *host* filter, stacked by the Python bot host once the interpreter is up: no
  ``execve``. (The base filter cannot deny it: the bot's own interpreter is exec'd after it.)

Denied calls fail with ``EPERM`` (``clone3`` with ``ENOSYS`` so threads fall back to
``clone``), so a bot sees an ordinary ``OSError`` rather than dying.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os

_ACT_ALLOW = 0x7FFF0000
_CLONE_THREAD = 0x00010000
_SCMP_CMP_MASKED_EQ = 7

# Syscalls no bot needs; each would let it reach beyond its process.
BASE_DENIED = (
    "fork", "vfork", "socket", "socketpair", "ptrace", "process_vm_readv",
    "process_vm_writev", "pidfd_getfd", "kcmp", "unshare", "setns", "mount", "umount2",
    "pivot_root", "chroot", "bpf", "perf_event_open", "keyctl", "add_key", "request_key",
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "init_module",
    "finit_module", "delete_module", "kexec_load", "reboot", "swapon", "swapoff", "acct",
    "open_by_handle_at", "name_to_handle_at", "mount_setattr", "fsopen", "fsmount",
    "move_mount", "open_tree",
)
HOST_DENIED = ("execve", "execveat")


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


def build_filters() -> tuple[bytes, bytes]:
    """Compile ``(base, host)`` BPF programs; :class:`SeccompUnavailable` if impossible."""
    lib = _load_library()
    base = _compile(lib, BASE_DENIED, deny_process_clone=True)
    host = _compile(lib, HOST_DENIED, deny_process_clone=False)
    return base, host


def _compile(lib: ctypes.CDLL, names: tuple[str, ...], deny_process_clone: bool) -> bytes:
    """One filter: allow by default, ``EPERM`` for ``names``; export it as raw BPF."""
    ctx = lib.seccomp_init(_ACT_ALLOW)
    if not ctx:
        raise SeccompUnavailable("seccomp_init failed")
    try:
        for name in names:
            _deny(lib, ctx, name, _errno_action(errno.EPERM))
        if deny_process_clone:
            _deny_clone(lib, ctx)
        return _export(lib, ctx)
    finally:
        lib.seccomp_release(ctx)


def _deny(lib: ctypes.CDLL, ctx: int, name: str, action: int) -> None:
    """Add one unconditional rule; names unknown to this kernel/arch are skipped."""
    nr = lib.seccomp_syscall_resolve_name(name.encode())
    if nr < 0:
        return
    rc = lib.seccomp_rule_add_array(ctx, action, nr, 0, None)
    if rc < 0:
        raise SeccompUnavailable(f"seccomp_rule_add({name}) failed: {os.strerror(-rc)}")


def _deny_clone(lib: ctypes.CDLL, ctx: int) -> None:
    """clone() of a new process is denied, of a thread allowed; clone3 says ENOSYS.

    clone3 passes its flags in memory, which seccomp cannot read, so it is refused as a
    whole; glibc then retries with clone(), which the flag check covers.
    """
    _deny(lib, ctx, "clone3", _errno_action(errno.ENOSYS))
    nr = lib.seccomp_syscall_resolve_name(b"clone")
    cmp = _ArgCmp(0, _SCMP_CMP_MASKED_EQ, _CLONE_THREAD, 0)
    rc = lib.seccomp_rule_add_array(ctx, _errno_action(errno.EPERM), nr, 1, ctypes.byref(cmp))
    if rc < 0:
        raise SeccompUnavailable(f"seccomp_rule_add(clone) failed: {os.strerror(-rc)}")


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


class _SockFprog(ctypes.Structure):
    """``struct sock_fprog``."""

    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


class Installer:
    """Holds a compiled program ready to install in a freshly forked child.

    Everything that allocates is done here, in the parent, so the child only calls prctl.
    """

    def __init__(self, program: bytes) -> None:
        self._buffer = ctypes.create_string_buffer(program, len(program))
        self._fprog = _SockFprog(len(program) // 8, ctypes.addressof(self._buffer))
        self._prctl = ctypes.CDLL(None, use_errno=True).prctl

    def install(self) -> None:
        """Set no-new-privileges and load the filter into the calling process."""
        if self._prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        if self._prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(self._fprog), 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
