"""The typed errors of the arena library.

The library raises these and never prints or exits; the CLI catches :class:`ArenaError`
and turns it into one line and an exit status.
"""

from __future__ import annotations


class ArenaError(Exception):
    """Base of every error the library raises on purpose (bad input, broken bot, ...)."""


class InvalidCardError(ArenaError, ValueError):
    """A text that is not a card or a suit."""


class InvalidActionError(ArenaError, ValueError):
    """A text that cannot be read as an action at all (NOTATION.md: *invalid*)."""


class IllegalActionError(ArenaError, ValueError):
    """A readable action that the rules forbid in this position (NOTATION.md: *illegal*).

    ``reason`` names the rule that forbids it.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason


class RulesError(ArenaError, ValueError):
    """A rule set that cannot be loaded or cannot be played exactly; names the key."""


class PositionError(ArenaError, ValueError):
    """A position file that does not describe a playable game; names the key."""


class GameOverError(ArenaError):
    """An action was applied to a game that has already ended."""


class ConfigError(ArenaError, ValueError):
    """A tournament file that cannot be used; names the key."""
