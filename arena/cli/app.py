"""The typer app every command registers on, the console, and turning library errors into one
line and an exit code."""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable, NoReturn, TypeVar

import typer
from rich.console import Console

from arena.errors import ArenaError

app = typer.Typer(
    name="arena",
    help="Pit card-playing bots against each other at Switch and its cousins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])

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
