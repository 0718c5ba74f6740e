"""``python -m arena`` and the ``arena`` console script (:func:`main`): the command line,
loaded so that a Ctrl-C while its libraries load ends it as quietly as a Ctrl-C while it runs.

:mod:`arena.cli`'s import is the slow part (typer, rich and every command module, about
0.4 s): an interrupt there would otherwise print Python's traceback.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130  # the shell's status for a command ended by SIGINT (arena.cli.app's too)


def main() -> None:
    """Load the command line and run it with ``sys.argv``."""
    try:
        from arena.cli import app
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    app(prog_name="arena")


if __name__ == "__main__":
    main()
