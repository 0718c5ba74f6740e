"""The seccomp filters by themselves, installed in a forked child: a command bot's allow-list
stops at the last call reviewed, so a call a newer kernel adds is refused until reviewed; a
Python bot sends itself no real-time signal and may ioctl only for its descriptors' own state."""

from __future__ import annotations

import ctypes
import errno
import os
from typing import Iterator

import pytest

from arena.sandbox import host, seccomp

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
PERSONALITY, GETPID, KILL, IOCTL, FCNTL, PRCTL = 135, 39, 62, 16, 72, 157  # x86_64
PROCESS_MADVISE, CLONE = 440, 56
CLONE_VFORK, CLONE_THREAD = 0x4000, 0x10000
F_SETSIG, F_GETSIG = 10, 11
NOBODY = 999_999_999  # above the kernel's largest pid (2**22)
ASKED = ((PERSONALITY, 0xFFFFFFFF), (GETPID,))  # personality(0xffffffff) only asks


@pytest.fixture
def shared_file() -> Iterator[int]:
    """A descriptor of a file every bot shares: a module of the standard library."""
    fd = os.open(os.__file__, os.O_RDONLY)
    try:
        yield fd
    finally:
        os.close(fd)


def answers_under(packed: bytes, calls: tuple[tuple[int, ...], ...] = ASKED) -> tuple[str, ...]:
    """What each of ``calls`` (a number, then arguments) answers in a child with the filters
    ``packed`` installed (by default personality and getpid)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: install, ask, report, and leave without pytest's cleanup
        try:
            os.close(reader)
            host._Filter(packed).install()
            os.write(writer, " ".join(_answer(*call) for call in calls).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        report = pipe.read().decode()
    os.waitpid(pid, 0)
    return tuple(report.split())


def _answer(number: int, *args: int) -> str:
    ctypes.set_errno(0)
    if libc.syscall(ctypes.c_long(number), *map(ctypes.c_long, args)) >= 0:  # all 64 bits
        return "ok"
    return errno.errorcode[ctypes.get_errno()]


def test_a_command_bot_may_make_every_reviewed_call() -> None:
    assert answers_under(seccomp.bot_filter(True)) == ("ok", "ok")


def test_a_call_past_the_last_reviewed_is_refused_as_if_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the review stopped just before personality, a command bot's personality call is
    refused with ENOSYS (what an older kernel answers), and the calls before it still work."""
    monkeypatch.setattr(seccomp, "LAST_REVIEWED", PERSONALITY - 1)
    assert answers_under(seccomp.bot_filter.__wrapped__(True)) == ("ENOSYS", "ok")


def test_a_python_bot_gets_only_its_list() -> None:
    assert "personality" not in seccomp.PYTHON_CALLS
    assert answers_under(seccomp.bot_filter(False)) == ("ENOSYS", "ok")


def test_every_reviewed_call_is_within_the_bound() -> None:
    """Names the allow-lists or the deny-list give by number are all reviewed calls."""
    assert max(seccomp.X86_64_NUMBERS.values()) <= seccomp.LAST_REVIEWED
    assert not set(seccomp.PYTHON_CALLS) & set(seccomp.DENIED)
    assert not set(seccomp.PYTHON_CALLS) & set(seccomp.PYTHON_CALLS_WITH)


def test_a_python_bot_may_name_its_threads_and_nothing_else_by_prctl() -> None:
    """PR_SET_NAME and PR_GET_NAME (Python 3.14 names its threads); not PR_SET_PDEATHSIG,
    PR_SET_SECCOMP (a filter of its own) or PR_SET_NAME with high bits set."""
    name = ctypes.create_string_buffer(b"arena-bot", 16)
    address = ctypes.addressof(name)
    calls = ((PRCTL, 15, address), (PRCTL, 16, address), (PRCTL, 1, 0), (PRCTL, 22, 0),
             (PRCTL, (1 << 32) | 15, address))
    assert answers_under(seccomp.bot_filter(False), calls) == ("ok", "ok", "ENOSYS", "ENOSYS", "ENOSYS")


def test_a_python_bot_sends_no_realtime_signal() -> None:
    """Queued real-time signals count against the user's quota, which bots sharing a uid (no
    root) could fill and measure. Sent to a pid that cannot exist, a signal the filter lets
    through meets ESRCH, and a refused one EPERM: 0 (a probe) and SIGUSR1 go, 32 and up do not,
    high bits set over a low number included; a command bot's go."""
    signals = (0, 10, 32, 34, 64, (1 << 32) | 34)
    calls = tuple((KILL, NOBODY, signal) for signal in signals)
    answers = answers_under(seccomp.bot_filter(False), calls)
    assert answers == ("ESRCH", "ESRCH", "EPERM", "EPERM", "EPERM", "EPERM")
    assert answers_under(seccomp.bot_filter(True), calls[3:4]) == ("ESRCH",)


def test_a_python_bot_cannot_have_its_io_signal_it(shared_file: int) -> None:
    """fcntl F_SETSIG would have a descriptor's I/O queue a real-time signal (with F_SETOWN
    and O_ASYNC): refused to a Python bot, which may still ask for it (F_GETSIG)."""
    calls = ((FCNTL, shared_file, F_SETSIG, 34), (FCNTL, shared_file, F_GETSIG, 0))
    assert answers_under(seccomp.bot_filter(False), calls) == ("EPERM", "ok")
    assert answers_under(seccomp.bot_filter(True), calls) == ("ok", "ok")


def test_a_python_bot_may_ioctl_only_for_its_descriptors_state(shared_file: int) -> None:
    """isatty (TCGETS), the terminal's size, FIONREAD, FIONBIO and FIOCLEX/FIONCLEX reach the
    kernel (a file is no terminal: ENOTTY from the kernel itself); a file system's
    commands do not: FS_IOC_FIEMAP and ext4's EXT4_IOC_GET_ES_CACHE, which tell whether anyone
    read a shared file, nor FIOASYNC, nor TCGETS with high bits set. A command bot is refused
    only the file systems' commands."""
    commands = (0x5401, 0x5413, 0x5451, 0xC020660B, 0xC020662A, 0x5452, (1 << 32) | 0x5401)
    calls = tuple((IOCTL, shared_file, command, 0) for command in commands)
    python = answers_under(seccomp.bot_filter(False), calls)
    command_bot = answers_under(seccomp.bot_filter(True), calls)
    assert python == ("ENOTTY", "ENOTTY", "ok", "ENOSYS", "ENOSYS", "ENOSYS", "ENOSYS")
    # a command bot: the file systems' commands refused, the others reach the kernel
    assert command_bot[3:5] == ("EPERM", "EPERM") and command_bot[2] == "ok"
    assert "EPERM" not in command_bot[5:] and "ENOSYS" not in command_bot


def test_no_bot_gives_advice_through_a_pidfd() -> None:
    """process_madvise gives madvise's advice (MADV_PAGEOUT, MADV_COLD: eviction from the page
    cache) through a pidfd, past the rule on madvise itself; refused to every bot."""
    calls = ((PROCESS_MADVISE, -1, 0, 0, 21, 0),)  # a bad pidfd: EBADF if the call got through
    assert answers_under(seccomp.bot_filter(True), calls) == ("EPERM",)
    assert answers_under(seccomp.bot_filter(False), calls)[0] in ("EPERM", "ENOSYS")


def test_no_bot_makes_a_vfork_thread() -> None:
    """clone with CLONE_VFORK and CLONE_THREAD would leave the calling thread waiting, neither
    running nor stopped, until the child ends: a frozen bot that never reads as stopped. Asked
    without CLONE_SIGHAND, the kernel itself would answer EINVAL: the filters answer first."""
    calls = ((CLONE, CLONE_VFORK | CLONE_THREAD, 0, 0, 0, 0),)
    assert answers_under(seccomp.bot_filter(False), calls) == ("EPERM",)
    assert answers_under(seccomp.bot_filter(True), calls) == ("EPERM",)
    assert answers_under(seccomp.bot_filter(False), ((CLONE, CLONE_THREAD, 0, 0, 0, 0),)) == ("EINVAL",)
