"""In-process seats for the referee (its ``BotClient`` protocol), for tests that play games
without sandboxed processes: :class:`QuietClient` keeps and logs nothing, and its subclasses say
how they act."""

from __future__ import annotations

import random
from typing import Any


class QuietClient:
    """A seat with nothing to set up, keep, close or log; :meth:`act` is the subclass's."""

    def start_game(self, info: dict[str, Any]) -> None:
        """Nothing to set up."""

    def act(self, message: dict[str, Any]) -> str:
        """The action text for the observation of ``message``."""
        raise NotImplementedError

    def end_game(self, result: dict[str, Any]) -> None:
        """Nothing to keep."""

    def close_game(self) -> None:
        """Nothing to close."""

    def log_tail(self, lines: int = 20) -> str:
        """No log."""
        return ""


class RandomClient(QuietClient):
    """Picks uniformly among the legal actions it is sent, from a generator of its own."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, message: dict[str, Any]) -> str:
        """One of the observation's legal actions."""
        return self.rng.choice(message["obs"]["legal"])
