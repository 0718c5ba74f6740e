"""The typer app every command registers on, the console, and turning errors into one line and
an exit status.

The exit statuses are a contract (the README lists them): 0 success; 1 bad input or a failure
of the library (one ``error:`` line); 2 an invalid or illegal move in ``arena replay``;
:data:`USAGE_STATUS` (64, ``EX_USAGE`` of sysexits.h) a command line typer cannot parse (an
unknown option or command, a missing argument, a value of the wrong type, out of its fixed
range or not one of its choices); 130 interrupted (Ctrl-C).
click, under typer, gives usage errors status 2 too: :class:`ArenaGroup` moves them to 64, so
that a script can tell a mistyped command from an illegal move.
"""

from __future__ import annotations

import contextlib
import functools
import io
import sys
from collections.abc import Iterator
from typing import Any, Callable, NoReturn, TypeVar

import typer
from rich.console import Console
from typer.core import TyperGroup

import arena
from arena.errors import ArenaError
from arena.play.faults import inert

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
        for command in (self, *self.commands.values()):
            _flags_take_no_value(command)

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        """Parse the group's own options (``arena --bogus`` is a usage error)."""
        with _usage_status():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        """Find and parse the subcommand (``arena run`` without its file is a usage error)."""
        with _usage_status():
            return super().invoke(ctx)


def _flags_take_no_value(command: Any) -> None:
    """Show an on/off switch (``--trusted``, ``--help``) without a value column: typer's help
    lists it as ``--trusted <bool>``, and ``--trusted false`` then reads 'false' as a bot."""
    for param in command.params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    original = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option


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
        try:
            emit(f"arena {arena.__version__}")
        except OutputError as error:
            _output_failed(error)
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                      help="Show the arena's version and exit.")) -> None:
    """Pit card-playing bots against each other at Switch and its cousins."""


class OutputError(ArenaError):
    """The command's output could not be written (a full disk under ``arena run ... > log``)."""


class _Stdout:
    """The standard output as the commands write to it: whatever ``sys.stdout`` is at the time
    (tests capture it; rich's live display stands in for it, hence ``rich_proxied_file``). A
    write the output cannot take is an :class:`OutputError`, and a character its encoding
    cannot show is replaced rather than failing the command. A closed pipe (``arena ... |
    head``) is left to click, which exits with status 1 without a word."""

    @staticmethod
    def _target() -> Any:
        return getattr(sys.stdout, "rich_proxied_file", sys.stdout)

    def write(self, text: str) -> int:
        """Write ``text`` (its characters the encoding cannot show as ``?``)."""
        target = self._target()
        with _as_output_error():
            try:
                return int(target.write(text))
            except UnicodeEncodeError:
                encoding = getattr(target, "encoding", None) or "ascii"
                return int(target.write(text.encode(encoding, "replace").decode(encoding)))

    def flush(self) -> None:
        """Flush the output (an :class:`OutputError` when it cannot take what is buffered)."""
        with _as_output_error():
            self._target().flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


@contextlib.contextmanager
def _as_output_error() -> Iterator[None]:
    """An OSError of the output as an :class:`OutputError`, except a closed pipe (click's)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write the output: {error.strerror}") from None


def console() -> Console:
    """The console for normal output (a fresh one, so tests' captured stdout is honoured)."""
    return Console(file=_Stdout(), highlight=False)  # type: ignore[arg-type]


def emit(text: str) -> None:
    """One line of plain output (JSON, a version), failing as the console does."""
    out = _Stdout()
    out.write(text + "\n")
    out.flush()


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one error line on stderr and exit with ``code`` (the status alone when stderr
    cannot take the line either)."""
    try:
        print(f"error: {inert(message)}", file=sys.stderr)
    except OSError:
        pass
    raise typer.Exit(code)


def warn(message: str) -> None:
    """Print one warning line on stderr; the command goes on."""
    print(f"warning: {inert(message)}", file=sys.stderr)


def handles_errors(command: F) -> F:
    """Turn library errors into one line and exit status 1, never a traceback; so too a
    failure to write the output (:class:`OutputError`)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except OutputError as error:
            _output_failed(error)
        except ArenaError as error:
            fail(str(error))
        except KeyboardInterrupt:
            fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def _output_failed(error: OutputError) -> NoReturn:
    """Say so on stderr and exit 1, with the output set aside: what it could not take is not
    flushed into it again at exit."""
    sys.stdout = _Discard()
    fail(str(error))


class _Discard(io.StringIO):
    """An output that takes everything and keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)
