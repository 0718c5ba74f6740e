"""The options several commands share, defined once: ``--home``, ``--seed``, ``--trusted``,
``--progress-every``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from arena.cli.app import console
from arena.cli.pacing import DEFAULT_EVERY_S
from arena.sandbox.workspace import Workspace
from arena.tournament.config import MAX_SEED
from arena.tournament.schedule import fresh_seed

HOME_HELP = "The workspace folder (default: $ARENA_HOME, else the current directory)."

TRUSTED_HELP = ("Run the bots without isolation (no namespaces, no seccomp): only for bots you "
                "wrote yourself, on a machine that cannot isolate them.")


def trusted_option() -> Any:
    """``--trusted``: the one explicit way to run bots without the sandbox's isolation."""
    return typer.Option(False, "--trusted", help=TRUSTED_HELP)


def progress_every_option() -> Any:
    """``--progress-every SECONDS``: where the output is not a terminal, the interval of the
    progress lines (:mod:`arena.cli.pacing`)."""
    return typer.Option(DEFAULT_EVERY_S, "--progress-every", min=0, metavar="SECONDS",
                        help="Without a terminal (output to a file, a pipe, a CI log), print a "
                             "progress line every SECONDS (0: at every update).")


def home_option() -> Any:
    """``--home DIR``: the workspace (bots/, tournaments/, results/); else $ARENA_HOME, else here."""
    return typer.Option(None, "--home", envvar="ARENA_HOME", help=HOME_HELP, show_envvar=False)


def show_seed_option() -> Any:
    """``--show-seed``: show a tournament's seed even when it was drawn at random, which
    rankings and exports leave out while games remain to be played (it deals them all)."""
    return typer.Option(False, "--show-seed",
                        help="Show a seed drawn at random (secret while games remain).")


def workspace_of(home: Path | None) -> Workspace:
    """The workspace a command's ``--home`` names (see :func:`home_option`)."""
    return Workspace.locate(home)


def seed_option() -> Any:
    """``--seed N``: the deals' seed; by default a fresh secret one (see :func:`announce_seed`)."""
    # the range checked by a callback, not min/max: help would print 0<=x<=9223372036854775807,
    # which an 80-column table breaks in the middle of the number
    return typer.Option(None, "--seed", metavar="0..2**63-1", callback=_seed_in_range,
                        show_default="a fresh random seed",
                        help="Seed of the deals, to repeat a run exactly.")


def _seed_in_range(value: int | None) -> int | None:
    """``--seed``'s value when it is 0..MAX_SEED, else typer's usage error (status 64)."""
    if value is not None and not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"{value} is not in 0..{MAX_SEED}")
    return value


def announce_seed(seed: int | None) -> int:
    """``seed``, or a fresh secret one; prints the one line that repeats the deals.

    A fixed default seed would let any bot author recompute every deal from the arena's code,
    so a command that deals cards draws its seed unless ``--seed`` is given.
    """
    chosen = fresh_seed() if seed is None else seed
    console().print(f"seed: {chosen} (repeat with --seed {chosen})")
    return chosen
