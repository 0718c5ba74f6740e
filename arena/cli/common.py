"""What every command shares: the typer app, the consoles, turning errors into exit codes, and
the ``--seed`` of the commands that deal cards."""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable, NoReturn, TypeVar

import typer
from rich.console import Console

from arena.errors import ArenaError
from arena.tournament.config import MAX_SEED
from arena.tournament.schedule import fresh_seed

app = typer.Typer(
    name="arena",
    help="Pit card-playing bots against each other at Switch and its cousins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])

TRUSTED_HELP = ("Run the bots without isolation (no namespaces, no seccomp): only for bots you "
                "wrote yourself, on a machine that cannot isolate them.")


def trusted_option() -> Any:
    """``--trusted``: the one explicit way to run bots without the sandbox's isolation."""
    return typer.Option(False, "--trusted", help=TRUSTED_HELP)


def console() -> Console:
    """The console for normal output (a fresh one, so tests' captured stdout is honoured)."""
    return Console(highlight=False)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one error line on stderr and exit with ``code``."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def handles_errors(command: F) -> F:
    """Turn library errors into one line and exit status 1, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ArenaError as error:
            fail(str(error))
        except KeyboardInterrupt:
            fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def seed_option() -> Any:
    """``--seed N``: the deals' seed; by default a fresh secret one (see :func:`announce_seed`)."""
    return typer.Option(None, "--seed", min=0, max=MAX_SEED, show_default="a fresh random seed",
                        help="Seed of the deals, to repeat a run exactly.")


def announce_seed(seed: int | None) -> int:
    """``seed``, or a fresh secret one; prints the one line that repeats the deals.

    A fixed default seed would let any bot author recompute every deal from the arena's code,
    so a command that deals cards draws its seed unless ``--seed`` is given.
    """
    chosen = fresh_seed() if seed is None else seed
    console().print(f"seed: {chosen} (repeat with --seed {chosen})")
    return chosen
