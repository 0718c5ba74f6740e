"""Bot commands: ``arena duel``, ``arena new-bot``, ``arena submit``, ``arena bots``.

Each works on a workspace (``--home DIR``, else ``$ARENA_HOME``, else the current directory;
see :mod:`arena.sandbox.workspace`). The logic lives in :mod:`arena.services.duel` and :mod:`arena.services.submit`.
``duel`` and ``submit`` deal from a fresh secret seed unless ``--seed N`` is given, and print
the seed first, so that any run can be repeated exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from arena.cli.app import app, console, handles_errors
from arena.cli.options import announce_seed, home_option, seed_option, trusted_option, workspace_of
from arena.services.duel import duel as run_duel
from arena.cli.render import render_bots, render_duel, render_validation
from arena.engine.rules import DEFAULT_PRESET, load_rules
from arena.sandbox import Limits
from arena.services.submit import accept, check_clash, new_bot as write_new_bot, validate
from arena.sandbox.workspace import Workspace

@app.command()
@handles_errors
def duel(
    bots: List[str] = typer.Argument(..., help="Two or more bots: built-in or registered names, or files."),
    rules_name: str = typer.Option(DEFAULT_PRESET, "--rules", help="A preset name or a rule-set file."),
    games: int = typer.Option(200, "--games", min=1, help="Games to play (deals x seat rotations)."),
    seats: Optional[int] = typer.Option(None, "--seats", help="Seats per game (default: the preset's)."),
    seed: Optional[int] = seed_option(),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Worker processes (default: CPUs)."),
    trusted: bool = trusted_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Play seeded games between bots, seats rotated over the same deals, and show win rates."""
    workspace = workspace_of(home)
    specs = [workspace.resolve_bot(b) for b in bots]
    rule_set = load_rules(rules_name)
    result = run_duel(specs, rule_set, games, seats, seed=announce_seed(seed), workers=workers,
                      trusted=trusted)
    render_duel(console(), result)


@app.command("new-bot")
@handles_errors
def new_bot(
    name: str = typer.Argument(..., help="The bot's name: bots/NAME.py is written."),
    home: Optional[Path] = home_option(),
) -> None:
    """Write a new bot from the commented template (never overwrites)."""
    path = write_new_bot(workspace_of(home), name)
    console().print(f"wrote {path}\nnext: edit it, then `arena submit {path}`")


@app.command()
@handles_errors
def submit(
    path: Path = typer.Argument(..., help="The bot's Python file."),
    name: Optional[str] = typer.Option(None, "--name", help="Register under this name (default: the file's stem)."),
    replace: bool = typer.Option(False, "--replace", help="Replace a bot already registered under the name."),
    class_name: str = typer.Option("Bot", "--class", help="The bot's class."),
    rules_name: str = typer.Option(DEFAULT_PRESET, "--rules", help="The preset the validation games use."),
    init_time: float = typer.Option(10.0, "--init-time", min=0.1, help="Seconds allowed to load."),
    seed: Optional[int] = seed_option(),
    trusted: bool = trusted_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Validate a bot in the sandbox, then copy it into bots/ and register it (exit 1 if rejected)."""
    workspace = workspace_of(home)
    bot_name = name or path.stem
    check_clash(workspace, bot_name, path, replace)  # fail fast, before any game
    rules, limits = load_rules(rules_name), Limits(init_time=init_time)
    report = validate(path, class_name, rules, limits, workspace, seed=announce_seed(seed),
                      trusted=trusted)
    render_validation(console(), report)
    if not report.passed:
        raise typer.Exit(1)
    entry = accept(workspace, path, bot_name, replace, class_name, report.content)
    console().print(f"accepted [bold]{entry.name}[/] as {workspace.bots_dir / entry.file} "
                    f"(sha256 {entry.sha256[:12]})")


@app.command("bots")
@handles_errors
def list_bots(home: Optional[Path] = home_option()) -> None:
    """List the built-in and registered bots."""
    render_bots(console(), workspace_of(home))
