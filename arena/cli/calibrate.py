"""``arena calibrate BOT``: how often the rankings tell copies of one bot apart, and what each seat
of a preset is worth.

The logic lives in :mod:`arena.services.calibrate`; this command resolves the bot (a built-in or
registered name, a file or ``cmd:COMMAND``, with ``--option KEY=VALUE``), prints the seed first
(as ``arena duel`` does, so that any calibration can be repeated), shows a live line on a
terminal, and renders the result, or prints it as JSON with ``--json``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import RenderableType
from rich.live import Live

from arena.cli.app import app, console, emit, handles_errors
from arena.cli.options import announce_seed, home_option, seed_option, trusted_option, workspace_of
from arena.cli.render import calibration_progress_view, render_calibration
from arena.engine.rules import DEFAULT_PRESET, RuleSet, load_rules
from arena.sandbox import BotSpec
from arena.sandbox.options import options_label, parse_assignments, with_options
from arena.services.calibrate import (
    DEFAULT_COPIES, DEFAULT_GAMES, DEFAULT_RUNS, Calibration, CalibrationProgress,
    calibrate as run_calibration, check_calibration,
)
from arena.tournament.schedule import fresh_seed
from arena.tournament.separation import DEFAULT_MARGIN


@app.command()
@handles_errors
def calibrate(
    bot: str = typer.Argument(..., help="The bot to copy: a built-in or registered name, a file, or cmd:COMMAND."),
    copies: int = typer.Option(DEFAULT_COPIES, "--copies", min=2, help="Copies of the bot in each run."),
    games: int = typer.Option(DEFAULT_GAMES, "--games", min=1, help="Games in each run (deals x seat rotations)."),
    rules_name: str = typer.Option(DEFAULT_PRESET, "--rules", help="A preset name or a rule-set file."),
    seats: Optional[int] = typer.Option(None, "--seats", min=2, help="Seats per game (default: the preset's)."),
    runs: int = typer.Option(DEFAULT_RUNS, "--runs", min=1, help="Seeded runs (each a tournament of its own)."),
    margin: float = typer.Option(DEFAULT_MARGIN, "--margin",
                                 help="Neighbours this many sigmas of their difference apart count as separated."),
    seed: Optional[int] = seed_option(),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Worker processes (default: CPUs)."),
    option: List[str] = typer.Option([], "--option", metavar="KEY=VALUE",
                                     help="Set the bot's option KEY in every copy; repeatable."),
    as_json: bool = typer.Option(False, "--json", help="Print the calibration as JSON."),
    trusted: bool = trusted_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Play seeded tournaments between copies of one bot: how often the rankings separate
    equals at the margin (false separation), and each seat's win rate with 95% intervals."""
    spec = workspace_of(home).resolve_bot(bot)
    given = parse_assignments(spec, option)
    if given:
        spec = dataclasses.replace(with_options(spec, given), name=spec.name + options_label(given))
    rule_set = load_rules(rules_name)
    check_calibration(rule_set, copies, games, seats, runs, margin)  # before a seed is offered
    if as_json:  # the seed is in the JSON: nothing else may reach stdout
        chosen = fresh_seed() if seed is None else seed
    else:
        chosen = announce_seed(seed)
    out = console()
    display = _Display()
    if out.is_terminal and not as_json:
        with Live(get_renderable=display.view, console=out, refresh_per_second=4, transient=True):
            result = _calibrate(spec, rule_set, copies, games, seats, runs, margin, chosen,
                                workers, trusted, display)
    else:
        result = _calibrate(spec, rule_set, copies, games, seats, runs, margin, chosen, workers,
                            trusted, None)
    if as_json:
        emit(json.dumps(result.to_json()))
    else:
        render_calibration(out, result)


def _calibrate(spec: BotSpec, rules: RuleSet, copies: int, games: int, seats: int | None,
               runs: int, margin: float, seed: int, workers: int | None, trusted: bool,
               display: _Display | None) -> Calibration:
    return run_calibration(spec, rules, copies, games, seats, runs=runs, margin=margin, seed=seed,
                           workers=workers, trusted=trusted,
                           progress=None if display is None else display.update)


class _Display:
    """Keeps the calibration's latest progress for the live line."""

    def __init__(self) -> None:
        self.latest: CalibrationProgress | None = None

    def update(self, progress: CalibrationProgress) -> None:
        """The calibration's progress callback."""
        self.latest = progress

    def view(self) -> RenderableType:
        """The live line's current content."""
        return calibration_progress_view(self.latest)
