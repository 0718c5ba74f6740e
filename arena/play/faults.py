"""Typed bot failures, after ``chess.engine``'s ``EngineTerminatedError`` family.

A referee maps each :class:`FaultCode` to a game outcome; the sandbox only reports. One failure
has one type from the bot to the store: a bot client raises :class:`BotFault`, which becomes the
game's :class:`Fault` with one call (:meth:`BotFault.at`); the referee records the failures it
finds itself (an unreadable or illegal action) as a ``Fault`` directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import PurePosixPath

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
    DISQUALIFIED = "disqualified"  # out of the tournament: its seat played by the fallback


DETAIL_KEPT = 8_000    # characters of a fault's detail a game keeps: its start, what went wrong
LOG_TAIL_KEPT = 8_000  # characters of the bot's output a game keeps: its end (the traceback)
CUT = " [...] "


def storable(text: str) -> str:
    """A bot's text made valid UTF-8 (a lone surrogate becomes ``\\udXXX``), so that storing
    or printing it can never fail."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# Characters a terminal obeys rather than shows: C0 and C1 controls (but tab and newline), DEL,
# and the bidirectional controls and line separators, which reorder or break the text around
# them ("Trojan Source"): each is shown as its escape instead.
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029]
_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
            if c not in (0x09, 0x0A)} | {c: f"\\u{c:04x}" for c in _BIDI}


def inert(text: str) -> str:
    """Text from a bot, safe for a terminal and a log file: control characters are shown
    (``\\x1b``, ``\\u202e``), never obeyed, so a bot cannot clear the screen, forge a line,
    reorder or hide text; lone surrogates are shown escaped too. Inert text stays as it is."""
    return storable(text).translate(_CONTROL)


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

    def __post_init__(self) -> None:
        # Every fault is stored with its game: a bot that faults in most of its games without
        # being disqualified must not grow the store by its 64 KiB log each time.
        if len(self.detail) > DETAIL_KEPT:
            object.__setattr__(self, "detail", self.detail[: DETAIL_KEPT - len(CUT)] + CUT)
        if len(self.log_tail) > LOG_TAIL_KEPT:
            object.__setattr__(self, "log_tail", CUT + self.log_tail[len(CUT) - LOG_TAIL_KEPT:])

    def summary(self, limit: int = 240) -> str:
        """The detail on one line, cut to ``limit`` characters: for a traceback its last line
        with the file, line and code of its last frame, e.g. ``SyntaxError: invalid syntax
        (my_bot.py, line 2: def act(self obs):)``; otherwise its lines joined."""
        lines = [line.strip() for line in self.detail.splitlines() if line.strip()]
        frames = [i for i, line in enumerate(lines) if _FRAME.match(line)]
        if not frames or frames[-1] == len(lines) - 1:
            text = " ".join(lines) or self.code.value
        else:
            last = frames[-1]
            match = _FRAME.match(lines[last])
            assert match is not None
            where = f"{PurePosixPath(match[1]).name}, line {match[2]}"
            source = [line for line in lines[last + 1:-1] if not _CARETS.match(line)]
            text = f"{lines[-1]} ({where}{': ' + source[0] if source else ''})"
        return text if len(text) <= limit else text[:limit - 3] + "..."


_FRAME = re.compile(r'^File "([^"]+)", line (\d+)')   # a traceback's frame line, stripped
_CARETS = re.compile(r"^[\^~ ]+$")                    # the marker under a SyntaxError's code
