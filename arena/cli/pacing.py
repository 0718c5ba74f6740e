"""Progress where the output is not a terminal (a file, a pipe, a CI log): no live view, but
a plain line now and then, so that the log of a long run or duel says how it goes."""

from __future__ import annotations

import time
from collections.abc import Callable

from arena.cli.app import OutputError, console

DEFAULT_EVERY_S = 60.0


class PlainLines:
    """The progress of a command whose output is not a terminal: a line at most every
    ``every`` seconds and only when the count of games moved since the last one, a notice at
    once, and nothing more once the output has failed to take a line (progress is a view: the
    games go on and are stored, and the command's last words report the failure)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last_time = time.monotonic()
        self.last_count: int | None = None
        self.broken = False

    def notice(self, text: str) -> None:
        """A line printed as it comes (a disqualification)."""
        self._print(text)

    def progress(self, count: int, line: Callable[[], str]) -> None:
        """``line()`` printed if a line is due for ``count`` games."""
        now = time.monotonic()
        if count == self.last_count or now - self.last_time < self.every:
            return
        self.last_time, self.last_count = now, count
        self._print(line())

    def _print(self, text: str) -> None:
        """One line on stdout as it is: no markup, highlighting, emoji or wrapping."""
        if self.broken:
            return
        try:
            console().print(text, soft_wrap=True, markup=False, highlight=False, emoji=False)
        except (OSError, OutputError):  # a closed pipe, a full disk
            self.broken = True
