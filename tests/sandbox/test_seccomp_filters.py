"""The seccomp filters by themselves, installed in a forked child: a command bot's allow-list
stops at the last call reviewed, so a call a newer kernel adds is refused until reviewed."""

from __future__ import annotations

import ctypes
import errno
import os

import pytest

from arena.sandbox import host, seccomp

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
PERSONALITY, GETPID = 135, 39  # x86_64; personality(0xffffffff) only asks


def answers_under(packed: bytes) -> tuple[str, str]:
    """What personality and getpid answer in a child with the filters ``packed`` installed."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: install, ask, report, and leave without pytest's cleanup
        try:
            os.close(reader)
            host._Filter(packed).install()
            answers = [_answer(PERSONALITY, 0xFFFFFFFF), _answer(GETPID)]
            os.write(writer, " ".join(answers).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        report = pipe.read().decode()
    os.waitpid(pid, 0)
    first, second = report.split()
    return first, second


def _answer(number: int, *args: int) -> str:
    ctypes.set_errno(0)
    if libc.syscall(number, *args) >= 0:
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
