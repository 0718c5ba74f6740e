"""The typer app every command registers on, the console, and turning errors into one line and
an exit status.

The exit statuses are a contract (the README lists them): 0 success; 1 bad input or a failure
of the library (one ``error:`` line); 2 an invalid or illegal move in ``arena replay``;
:data:`USAGE_STATUS` (64, ``EX_USAGE`` of sysexits.h) a command line typer cannot parse (an
unknown option or command, a missing argument, a bad value); 130 interrupted (Ctrl-C).
click, under typer, gives usage errors status 2 too: :class:`ArenaGroup` moves them to 64, so
that a script can tell a mistyped command from an illegal move.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
from collections.abc import Iterator
from typing import Any, Callable, NoReturn, TypeVar

import typer
from rich.console import Console
from typer.core import TyperGroup

import arena
from arena.errors import ArenaError

USAGE_STATUS = 64


def _usage_error() -> type[Exception]:
    """click's UsageError, the base of every command-line parsing error. typer exports only its
    subclass BadParameter (recent typer runs on a copy of click of its own), so it is reached
    from there."""
    base = typer.BadParameter.__base__
    assert base is not None and issubclass(base, Exception) and base.__name__ == "UsageError"
    return base


_USAGE_ERROR = _usage_error()


class ArenaGroup(TyperGroup):
    """The ``arena`` command group: typer's, with usage errors exiting with :data:`USAGE_STATUS`
    and each command's summary in the command list flowing as one text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # typer's command list shows a docstring's first paragraph with its line breaks kept
        # (its rich markup mode): a summary written over several lines came out ragged.
        for command in self.commands.values():
            if command.short_help is None and command.help:
                command.short_help = " ".join(command.help.split("\n\n")[0].split())

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        """Parse the group's own options (``arena --bogus`` is a usage error)."""
        with _usage_status():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        """Find and parse the subcommand (``arena run`` without its file is a usage error)."""
        with _usage_status():
            return super().invoke(ctx)


@contextlib.contextmanager
def _usage_status() -> Iterator[None]:
    try:
        yield
    except _USAGE_ERROR as error:
        error.exit_code = USAGE_STATUS  # type: ignore[attr-defined]  # typer prints it and exits
        raise


app = typer.Typer(
    name="arena",
    cls=ArenaGroup,
    help="Pit card-playing bots against each other at Switch and its cousins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def _show_version(value: bool) -> None:
    if value:
        print(f"arena {arena.__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                      help="Show the arena's version and exit.")) -> None:
    """Pit card-playing bots against each other at Switch and its cousins."""


def console() -> Console:
    """The console for normal output (a fresh one, so tests' captured stdout is honoured)."""
    return Console(highlight=False)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one error line on stderr and exit with ``code``."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """Print one warning line on stderr; the command goes on."""
    print(f"warning: {message}", file=sys.stderr)


def handles_errors(command: F) -> F:
    """Turn library errors into one line and exit status 1, never a traceback; so too a
    failure to write the output (a full disk under ``arena run ... > log``). A closed pipe
    (``arena ... | head``) is left to click, which exits with status 1 without a word."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ArenaError as error:
            fail(str(error))
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except OSError as error:
            if not is_output_failure(error):
                raise
            sys.stdout = open(os.devnull, "w")  # nothing more to flush into it at exit
            fail(f"cannot write the output: {error.strerror}")

    return wrapper  # type: ignore[return-value]


# What writing to a file that cannot take it raises: no space, over quota, too large, an I/O error.
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def is_output_failure(error: OSError) -> bool:
    """Whether ``error`` is the output failing (the library names the file of any other:
    a store it cannot write raises its own typed error)."""
    return error.filename is None and error.errno in OUTPUT_ERRNOS
