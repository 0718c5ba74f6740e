"""Typed errors of the tournament layer.

All derive from :class:`arena.errors.ArenaError`, so the CLI can catch one base class and print
one line. Configuration problems use :class:`arena.errors.ConfigError` directly.
"""

from __future__ import annotations

from arena.errors import ArenaError


class RecordError(ArenaError, ValueError):
    """A game record that is inconsistent (places not covering the table, unknown winner, ...)."""


class StoreError(ArenaError):
    """The results store cannot be opened or read, or refuses an operation."""


class StoreWriteError(StoreError):
    """A write failed (disk full, read-only file or folder); nothing already stored was changed."""


class DuplicateGameError(StoreError):
    """A game id that is already stored was offered again; the stored game is kept."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is already stored; a game is never stored twice")
        self.game_id = game_id


class ConfigChangedError(StoreError):
    """The store holds results of a different configuration under the same tournament name."""


class ExportError(ArenaError):
    """Results cannot be exported (unknown format, folder not writable, ...)."""


class TournamentError(ArenaError):
    """The run cannot go on (a worker died or hit a bug); finished games are kept."""
