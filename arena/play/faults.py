"""Typed bot failures, after ``chess.engine``'s ``EngineTerminatedError`` family.

A referee maps each :class:`FaultCode` to a game outcome; the sandbox only reports.
"""

from __future__ import annotations

from enum import Enum

from arena.errors import ArenaError


class FaultCode(str, Enum):
    """Why a bot failed; the value is the stable lowercase name stored in game records."""

    TIMEOUT = "timeout"      # over its CPU budget, or the wall-clock watchdog fired
    CRASH = "crash"          # the process died or closed its output
    MEMORY = "memory"        # ran out of its memory limit
    INVALID = "invalid"      # an unreadable reply, a reported exception, a None/garbage action
    ILLEGAL = "illegal"      # a readable action the rules forbid (decided by the referee)
    INIT_FAIL = "init_fail"  # could not load, start, or answer ``start`` in time


def storable(text: str) -> str:
    """A bot's text made valid UTF-8 (a lone surrogate becomes ``\\udXXX``), so that storing
    or printing it can never fail."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class BotFault(ArenaError):
    """A bot failed; ``code`` says how, ``detail`` says what, ``log_tail`` shows its own output.

    ``returncode`` is set for a dead process: the exit status, or minus the signal number
    (the :mod:`subprocess` convention).
    """

    def __init__(
        self,
        code: FaultCode,
        detail: str,
        log_tail: str = "",
        *,
        bot: str = "",
        returncode: int | None = None,
    ) -> None:
        detail, log_tail = storable(detail), storable(log_tail)
        prefix = f"bot {bot!r}: " if bot else ""
        super().__init__(f"{prefix}{code.value}: {detail}")
        self.code = code
        self.detail = detail
        self.log_tail = log_tail
        self.bot = bot
        self.returncode = returncode
