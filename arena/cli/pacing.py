"""Progress where the output is not a terminal (a file, a pipe, a CI log): no live view, but
a plain line now and then, so that the log of a long run or duel says how it goes."""

from __future__ import annotations

import time

from arena.cli.app import console

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


def print_plain(text: str) -> bool:
    """One line on stdout as it is (no markup, no highlighting, no wrapping at the width);
    False when the output cannot take it (a full disk, a closed pipe). Progress is a view:
    the games go on and are stored, and the command's last words report the failure."""
    try:
        console().print(text, soft_wrap=True, markup=False, highlight=False)
    except OSError:
        return False
    return True
