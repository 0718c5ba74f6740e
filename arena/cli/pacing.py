"""Progress where the output is not a terminal (a file, a pipe, a CI log): no live view, but
a plain line now and then, so that the log of a long run or duel says how it goes."""

from __future__ import annotations

import time
from collections.abc import Callable

from arena.cli.app import OutputError, console

DEFAULT_EVERY_S = 60.0


class Pacer:
    """Says when a progress line is due: at most one every ``every`` seconds, and only when
    the count of games moved since the last one."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last_time = time.monotonic()
        self.last_count: int | None = None

    def due(self, count: int) -> bool:
        """Whether to print a line for ``count`` games now (and if so, count it printed)."""
        now = time.monotonic()
        if count == self.last_count or now - self.last_time < self.every:
            return False
        self.last_time, self.last_count = now, count
        return True


class PlainLines:
    """The progress of a command whose output is not a terminal: a line when its :class:`Pacer`
    says so, a notice at once, and nothing more once the output has failed to take a line."""

    def __init__(self, every: float) -> None:
        self.pacer = Pacer(every)
        self.broken = False

    def notice(self, text: str) -> None:
        """A line printed as it comes (a disqualification)."""
        self._print(text)

    def progress(self, count: int, line: Callable[[], str]) -> None:
        """``line()`` printed if a line is due for ``count`` games."""
        if self.pacer.due(count):
            self._print(line())

    def _print(self, text: str) -> None:
        if not self.broken and not print_plain(text):
            self.broken = True


def print_plain(text: str) -> bool:
    """One line on stdout as it is (no markup, no highlighting, no wrapping at the width);
    False when the output cannot take it (a full disk, a closed pipe). Progress is a view:
    the games go on and are stored, and the command's last words report the failure."""
    try:
        console().print(text, soft_wrap=True, markup=False, highlight=False, emoji=False)
    except (OSError, OutputError):
        return False
    return True
