"""Bot commands: ``arena duel``, ``arena new-bot``, ``arena submit``, ``arena bots``.

Each works on a workspace (``--home DIR``, else ``$ARENA_HOME``, else the current directory;
see :mod:`arena.sandbox.workspace`). The logic lives in :mod:`arena.services.duel` and :mod:`arena.services.submit`.
``duel`` and ``submit`` deal from a fresh secret seed unless ``--seed N`` is given, and print
the seed first, so that any run can be repeated exactly. Both take a program in any language
as ``cmd:COMMAND`` (``"cmd:python3 bots/examples/first_legal_cmd.py"``) where a bot is named,
and set a bot's options (:mod:`arena.sandbox.options`) with ``--option KEY=VALUE``: ``submit``'s
validation games play with them; in a duel each names its bot by position,
``--option 2:KEY=VALUE``, and a bot given options is named with them (``epsilon[epsilon=0.5]``),
so one file under two settings is two bots.
"""

from __future__ import annotations

import shlex
import dataclasses
from pathlib import Path
from typing import List, Optional, Tuple

import typer
from rich.console import RenderableType
from rich.live import Live
from rich.markup import escape

from arena.cli.app import app, console, handles_errors
from arena.cli.options import (announce_seed, home_option, progress_every_option, seed_option, trusted_option,
                               workspace_of)
from arena.services.duel import DuelProgress, check_duel, duel as run_duel
from arena.services.duelstats import check_sprt
from arena.cli.pacing import PlainLines
from arena.cli.render import (duel_progress_text, duel_progress_view, render_bots, render_duel,
                              render_validation)
from arena.engine.rules import DEFAULT_PRESET, load_rules
from arena.errors import ConfigError
from arena.sandbox import BotSpec, Limits
from arena.sandbox.options import options_label, parse_assignments, with_options
from arena.sandbox.spec import DEFAULT_CLASS, is_command, split_class
from arena.sandbox.workspace import Workspace
from arena.services.submit import accept, accept_command, check_clash, new_bot as write_new_bot, validate
from arena.tournament.sprt import Model, Sprt

DUEL_GAMES = 200          # a duel's games without --sprt
SPRT_BUDGET = 20_000      # the most games an SPRT plays unless --games says otherwise


@app.command()
@handles_errors
def duel(
    bots: List[str] = typer.Argument(..., metavar="BOT", help="Two or more bots: built-in or registered names, files, or cmd:COMMAND."),
    rules_name: str = typer.Option(DEFAULT_PRESET, "--rules", help="A preset name or a rule-set file."),
    games: Optional[int] = typer.Option(None, "--games", min=1, show_default=False,
                                        help=f"Games to play (deals x seat rotations; default {DUEL_GAMES}); "
                                             f"with --sprt the most to play (default {SPRT_BUDGET:,})."),
    seats: Optional[int] = typer.Option(None, "--seats", min=2, help="Seats per game (default: the preset's; 2 with --sprt)."),
    sprt: Optional[Tuple[float, float]] = typer.Option(
        None, "--sprt", metavar="ELO0 ELO1", show_default=False,
        help="Stop once the SPRT of ELO1 against ELO0 decides (two bots at two seats)."),
    alpha: Optional[float] = typer.Option(None, "--alpha", show_default=False,
                                          help="The SPRT's chance of accepting ELO1 wrongly (default 0.05)."),
    beta: Optional[float] = typer.Option(None, "--beta", show_default=False,
                                         help="The SPRT's chance of accepting ELO0 wrongly (default 0.05)."),
    model: Model = typer.Option("normalized", "--sprt-model",
                                help="The Elo of ELO0 and ELO1: normalized (nElo) or logistic."),
    seed: Optional[int] = seed_option(),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Worker processes (default: CPUs)."),
    option: List[str] = typer.Option([], "--option", metavar="N:KEY=VALUE",
                                     help="Set option KEY of the N-th bot named (1, 2, ...); repeatable."),
    trusted: bool = trusted_option(),
    progress_every: float = progress_every_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Play seeded games between bots, seats rotated over the same deals: win rates, scores with
    95% intervals, Elo and LOS, and an optional SPRT."""
    workspace = workspace_of(home)
    specs = named_specs(workspace, bots, option)
    rule_set = load_rules(rules_name)
    test = _sprt(sprt, alpha, beta, model)
    if test is not None:
        seats = 2 if seats is None else seats   # the pentanomial model pairs two seats' games
        check_sprt(len(specs), seats)
    budget = games or (SPRT_BUDGET if test is not None else DUEL_GAMES)
    check_duel(specs, rule_set, budget, seats)  # refused before a seed is offered for a repeat
    chosen_seed = announce_seed(seed)
    out = console()
    display = _DuelDisplay(None if out.is_terminal else PlainLines(progress_every))
    if out.is_terminal:
        with Live(get_renderable=display.view, console=out, refresh_per_second=8, transient=True):
            result = run_duel(specs, rule_set, budget, seats, seed=chosen_seed, workers=workers,
                              trusted=trusted, sprt=test, progress=display.update)
    else:
        result = run_duel(specs, rule_set, budget, seats, seed=chosen_seed, workers=workers,
                          trusted=trusted, sprt=test, progress=display.update)
    render_duel(out, result)


def named_specs(workspace: Workspace, bots: list[str], assignments: list[str]) -> list[BotSpec]:
    """The ``bots`` named (a duel's, ``arena play``'s opponents), each with the options
    ``--option N:KEY=VALUE`` gives it; a bot given options is named with them."""
    chosen: list[list[str]] = [[] for _ in bots]
    for text in assignments:
        position, sep, rest = text.partition(":")
        if not sep or not position.strip().isdigit() or not 1 <= int(position) <= len(bots):
            raise ConfigError(f"--option {text!r}: expected N:KEY=VALUE, N the position of a bot "
                              f"named (1..{len(bots)})")
        chosen[int(position) - 1].append(rest)
    specs = []
    for bot, texts in zip(bots, chosen):
        spec = workspace.resolve_bot(bot)
        given = parse_assignments(spec, texts)
        if given:
            spec = with_options(spec, given)
            spec = dataclasses.replace(spec, name=spec.name + options_label(given))
        specs.append(spec)
    return specs


def _sprt(bounds: tuple[float, float] | None, alpha: float | None, beta: float | None,
          model: Model) -> Sprt | None:
    """The test ``--sprt`` asks for; ``--alpha`` and ``--beta`` mean nothing without it."""
    if bounds is None:
        if alpha is not None or beta is not None:
            raise ConfigError("--alpha and --beta set an SPRT's error rates: give --sprt ELO0 ELO1 too")
        return None
    return Sprt(bounds[0], bounds[1], 0.05 if alpha is None else alpha,
                0.05 if beta is None else beta, model)


class _DuelDisplay:
    """Keeps the duel's latest progress for the live line; without a terminal (``lines`` set),
    prints that line now and then instead (:mod:`arena.cli.pacing`)."""

    def __init__(self, lines: PlainLines | None = None) -> None:
        self.latest: DuelProgress | None = None
        self.lines = lines

    def update(self, progress: DuelProgress) -> None:
        """The duel's progress callback."""
        self.latest = progress
        if self.lines is not None:
            self.lines.progress(progress.games, lambda: f"duel: {duel_progress_text(progress)}")

    def view(self) -> RenderableType:
        """The live line's current content."""
        return duel_progress_view(self.latest)


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
    bot: str = typer.Argument(..., metavar="PATH", help="The bot's Python file (file.py:Class for a class other than Bot), or cmd:COMMAND for a program in any language."),
    name: Optional[str] = typer.Option(None, "--name", help="Register under this name (default: the file's stem)."),
    replace: bool = typer.Option(False, "--replace", help="Replace a bot already registered under the name."),
    class_name: str = typer.Option(DEFAULT_CLASS, "--class", help="The bot's class."),
    rules_name: str = typer.Option(DEFAULT_PRESET, "--rules", help="The preset the validation games use."),
    init_time: float = typer.Option(10.0, "--init-time", min=0.1, help="Seconds allowed to load."),
    option: List[str] = typer.Option([], "--option", metavar="KEY=VALUE",
                                     help="Validate with the bot's option KEY set; repeatable."),
    seed: Optional[int] = seed_option(),
    trusted: bool = trusted_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Validate a bot in the sandbox, then copy it into bots/ and register it (exit 1 if rejected)."""
    workspace = workspace_of(home)
    command = BotSpec.parse(bot, Path.cwd()) if is_command(bot) else None
    file_part, named = split_class(bot)
    if command is None and named is not None:
        bot, class_name = file_part, named   # file.py:Class, as a tournament or a duel names it
    path = Path(bot)
    declaring = command or BotSpec(name=path.stem, path=path.resolve(), class_name=class_name)
    options = parse_assignments(declaring, option)
    if command is not None:
        command = with_options(command, options)
    bot_name = name or (command.name if command is not None else path.stem)
    check_clash(workspace, bot_name, None if command else path, replace, class_name)  # fail fast
    rules, limits = load_rules(rules_name), Limits(init_time=init_time)
    report = validate(command or path, class_name, rules, limits, workspace,
                      seed=announce_seed(seed), trusted=trusted, options=options)
    render_validation(console(), report)
    if not report.passed:
        raise typer.Exit(1)
    if command is not None:
        entry = accept_command(workspace, report, bot_name, replace)
        where = f"{workspace.bots_dir / entry.file}/ running {shlex.join(entry.command or ())}"
    else:
        entry = accept(workspace, path, bot_name, replace, class_name, report.content)
        where = str(workspace.bots_dir / entry.file)
    console().print(f"accepted [bold]{entry.name}[/] as {escape(where)} (sha256 {entry.sha256[:12]})",
                    highlight=False, soft_wrap=True)


@app.command("bots")
@handles_errors
def list_bots(home: Optional[Path] = home_option()) -> None:
    """List the built-in, registered and local bots (a registered one edited since: changed)."""
    render_bots(console(), workspace_of(home))
