"""Typed bot failures, after ``chess.engine``'s ``EngineTerminatedError`` family.

A referee maps each :class:`FaultCode` to a game outcome; the sandbox only reports. One failure
has one type from the bot to the store: a bot client raises :class:`BotFault`, which becomes the
game's :class:`Fault` with one call (:meth:`BotFault.at`); the referee records the failures it
finds itself (an unreadable or illegal action) as a ``Fault`` directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from arena.errors import ArenaError


class FaultCode(Enum):
    """Why a bot failed. Game records store the member's name (``TIMEOUT``); the value is the
    lowercase word error messages print. Not a ``str``: a code written anywhere as text must
    say which of the two it means."""

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

    def at(self, seat: int) -> Fault:
        """This failure as the :class:`Fault` of the bot playing ``seat``."""
        return Fault(seat, self.bot, self.code, self.detail, self.log_tail)


@dataclass(frozen=True)
class Fault:
    """A bot's failure in one game: its seat, the bot's name, how (``code``), what (``detail``),
    and the bot's last log lines.

    The referee knows seats, not names: its faults name the bot as the bot client did (or
    ``""``), and the game's record names every faulty seat's bot from the table.
    """

    seat: int
    bot: str
    code: FaultCode
    detail: str
    log_tail: str = ""
