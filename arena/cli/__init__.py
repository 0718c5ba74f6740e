"""The ``arena`` command line: thin typer commands that parse, call the library, and render.

Each command module registers its commands on :data:`app`; library errors
(:class:`~arena.errors.ArenaError`) become one line on stderr and exit status 1, and a command
line that cannot be parsed exits with status 64 (:mod:`arena.cli.app` lists every status).
"""

from arena.cli.app import app
from arena.cli import engine  # noqa: F401  (registers rules, replay, bench)
from arena.cli import bots  # noqa: F401  (registers duel, new-bot, submit, bots)
from arena.cli import calibrate  # noqa: F401  (registers calibrate)
from arena.cli import tournament  # noqa: F401  (registers run, rankings, games, export)
from arena.cli import watch  # noqa: F401  (registers watch)
from arena.cli import play  # noqa: F401  (registers play)

__all__ = ["app"]
