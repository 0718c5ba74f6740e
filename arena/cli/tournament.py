"""Tournament commands: ``arena run``, ``arena rankings``, ``arena games``, ``arena verify``,
``arena export``.

Every command works on a workspace folder: the current folder, ``--home DIR`` or env
``ARENA_HOME``; results live in ``<home>/results/<name>.sqlite`` (and ``<name>.log``).
``arena replay NAME GAME_ID`` (in :mod:`arena.cli.engine`) uses :func:`arena.tournament.replay.load_stored_game`.
"""

from __future__ import annotations

import json
import os
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import typer
from rich.console import RenderableType
from rich.live import Live

from arena.cli.app import app, console, emit, fail, handles_errors, warn
from arena.cli.options import (home_option, progress_every_option, show_seed_option, trusted_option,
                               workspace_of)
from arena.cli.pacing import PlainLines
from arena.cli.render import (
    notice_markup, progress_line, progress_view, render_games, render_head_to_head,
    render_rankings, render_report, render_verification, resume_command,
)
from arena.errors import ConfigError
from arena.play.faults import inert
from arena.settings import did_you_mean
from arena.tournament.address import parse_cluster
from arena.tournament.export import ExportFormat, export as export_results, games_json, rankings_json
from arena.tournament.pool import sigint_ignored
from arena.tournament.ratings import rank_store
from arena.tournament.records import GameRecord
from arena.tournament.replay import open_results
from arena.tournament.runner import Progress, RunReport, run_tournament
from arena.tournament.verify import verify_results

@app.command()
@handles_errors
def run(
    file: Path = typer.Argument(..., help="A tournament YAML file, or a name: tournaments/NAME.yaml "
                                "of the workspace, else a shipped tournament (demo)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Worker processes (default: the file's, auto = CPU count)."),
    restart: bool = typer.Option(False, "--restart", help="Archive the stored results of a changed tournament and start over."),
    max_games: Optional[int] = typer.Option(None, "--max-games", min=1, help="Stop after this many games (run again to resume)."),
    trusted: bool = trusted_option(),
    cluster: Optional[str] = typer.Option(
        None, "--cluster", metavar="ADDRESS",
        help="Play on a Dask cluster: tcp://HOST:PORT of its scheduler, or local:N to start N "
             "worker processes here (docs/cluster.md; needs dask\\[distributed], the cluster extra)."),
    progress_every: float = progress_every_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Play a tournament (resuming a stopped one), with a live table, then show the rankings."""
    out = console()
    display = _Display(None if out.is_terminal else PlainLines(progress_every))
    path = workspace_of(home).tournament_file(file)
    _check_cluster(cluster, workers)
    _warn_about_workers(workers)
    with _sigterm_stops_the_run():
        if out.is_terminal:
            # One redraw a second: drawing the table costs the parent several ms each time, which
            # at 4 a second was more than all its other work for the games played meanwhile.
            with Live(get_renderable=display.view, console=out, refresh_per_second=1,
                      transient=True) as live:
                display.live = live
                report = _run(path, workspace_of(home).root, workers, restart, max_games, trusted,
                              cluster, display)
        else:
            report = _run(path, workspace_of(home).root, workers, restart, max_games, trusted,
                          cluster, display)
    # after a Ctrl-C, another press must not cut the summary and its resume command short
    with sigint_ignored() if report.interrupted else nullcontext():
        _finish(report, workspace_of(home).root, _resume_argv(file, workers, home, trusted, cluster),
                display.shown)


@contextmanager
def _sigterm_stops_the_run() -> Iterator[None]:
    """SIGTERM (``kill``, ``docker stop``, systemd, a batch system's time limit) stops the run as
    Ctrl-C does: the finished games committed and the resume command printed, rather than the
    parent dying mid-run by the default action. A second SIGTERM while it stops is ignored."""
    def interrupt(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _check_cluster(cluster: str | None, workers: int | None) -> None:
    """``--cluster``: an address, and not with ``--workers`` (a cluster's workers are its own)."""
    if cluster is None:
        return
    if workers is not None:
        fail("--workers counts local worker processes; a cluster's workers are its own "
             "(--cluster local:N starts N)")
    try:
        parse_cluster(cluster)
    except ConfigError as error:
        fail(f"--cluster: {error}")


def _warn_about_workers(workers: int | None) -> None:
    """One line when ``--workers`` asks for more workers than there are CPUs: they still run,
    sharing the CPUs, so the run is no faster."""
    cpus = os.cpu_count() or 1
    if workers is not None and workers > cpus:
        warn(f"--workers {workers} is more than the {cpus} CPUs of this machine: the workers "
             "will share them, so the run is no faster")


def _run(file: Path, home: Path, workers: int | None, restart: bool, max_games: int | None,
         trusted: bool, cluster: str | None, display: _Display) -> RunReport:
    return run_tournament(file, home, workers=workers, restart=restart,
                          progress=display.update, max_games=max_games, trusted=trusted,
                          cluster=cluster)


def _finish(report: RunReport, home: Path, argv: list[str], shown: list[str]) -> None:
    out = console()
    if report.archive is not None:
        out.print(f"the old results were archived to {report.archive}")
    for note in (report.growth, report.code_note):
        if note is not None and note not in shown:
            out.print(note)
    render_report(out, report, home, shown)
    with open_results(home, report.tournament) as store:
        render_rankings(out, rank_store(store))
    if report.interrupted:
        out.print(f"interrupted; resume with: {resume_command(argv)}")
        raise typer.Exit(130)
    if not report.complete:
        out.print(f"stopped before the end; resume with: {resume_command(argv)}")


def _resume_argv(file: Path, workers: int | None, home: Path | None, trusted: bool,
                 cluster: str | None) -> list[str]:
    argv = [str(file)]
    if workers is not None:
        argv += ["--workers", str(workers)]
    if cluster is not None:
        argv += ["--cluster", cluster]
    if trusted:
        argv.append("--trusted")
    if home is not None:
        argv += ["--home", str(home)]
    return argv


class _Display:
    """Keeps the latest progress for the live view and prints notices (disqualifications)
    above it; without a terminal (``lines`` set), prints the notices and a progress line now
    and then instead (:mod:`arena.cli.pacing`)."""

    def __init__(self, lines: PlainLines | None = None) -> None:
        self.live: Live | None = None
        self.latest: Progress | None = None
        self.shown: list[str] = []   # the notices printed above the live view
        self.lines = lines

    def update(self, progress: Progress) -> None:
        """The runner's progress callback."""
        self.latest = progress
        if progress.notice and self.live is not None:
            self.live.console.print(notice_markup(progress.notice))
            self.shown.append(progress.notice)
        elif progress.notice and self.lines is not None:
            self.lines.notice(inert(progress.notice))
            self.shown.append(progress.notice)
        if self.lines is not None:
            self.lines.progress(progress.done, lambda: progress_line(progress))

    def view(self) -> RenderableType:
        """The live display's current content, fitted to the terminal's width."""
        width = self.live.console.width if self.live is not None else 80
        return progress_view(self.latest, width)


@app.command()
@handles_errors
def rankings(
    name: str = typer.Argument(..., help="A tournament name (its results/<name>.sqlite)."),
    h2h: bool = typer.Option(False, "--h2h", help="Also show the head-to-head crosstable."),
    as_json: bool = typer.Option(False, "--json", help="Print the rankings as JSON."),
    show_seed: bool = show_seed_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Show a tournament's rankings (computed from the stored games, in schedule order)."""
    with open_results(workspace_of(home).root, name) as store:
        table = rank_store(store)
    if as_json:
        data = rankings_json(table, show_seed)
        if h2h:
            data["head_to_head"] = [
                {"bot": a, "opponent": b, "games": c.games, "ahead": c.ahead, "behind": c.behind}
                for (a, b), c in sorted(table.head_to_head.items())
            ]
        emit(json.dumps(data))
        return
    render_rankings(console(), table, show_seed)
    if h2h:
        render_head_to_head(console(), table)


@app.command()
@handles_errors
def games(
    name: str = typer.Argument(..., help="A tournament name."),
    bot: Optional[str] = typer.Option(None, "--bot", help="Only the games this bot played."),
    faults: bool = typer.Option(False, "--faults", help="Only the games with a fault."),
    offset: int = typer.Option(0, "--offset", min=0, help="Skip this many of the selected games."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Show at most this many games."),
    last: Optional[int] = typer.Option(None, "--last", min=1,
                                       help="Show the last N selected games (not with --offset or --limit)."),
    as_json: bool = typer.Option(False, "--json", help="Print the games as JSON."),
    home: Optional[Path] = home_option(),
) -> None:
    """List a tournament's stored games in schedule order, all or the ones selected."""
    if last is not None and (offset or limit is not None):
        fail("--last cannot be combined with --offset or --limit (it picks its own page)")
    with open_results(workspace_of(home).root, name) as store:
        bots = store.bot_versions()
        if bot is not None and bot not in bots:
            fail(f"--bot: tournament {name!r} has no bot {bot!r}{did_you_mean(bot, bots)} "
                 f"(its bots: {', '.join(sorted(bots))})")
        page = GamePage.select(store.games(), bot, faults, offset, limit, last)
    if as_json:
        emit(json.dumps(games_json(page.records)))
    else:
        render_games(console(), page.records, page.matched, page.first)


@app.command()
@handles_errors
def verify(
    name: str = typer.Argument(..., help="A tournament name."),
    drop: bool = typer.Option(False, "--drop",
                              help="Take the games that diverge out of the store, for arena run to play again."),
    home: Optional[Path] = home_option(),
) -> None:
    """Replay every stored game with this arena's engine; list those that no longer replay to
    their stored result (exit status 1 while any is stored)."""
    checked = verify_results(workspace_of(home).root / "results", name, drop)
    render_verification(console(), name, checked, drop)
    if checked.diverging and not drop:
        raise typer.Exit(1)


@dataclass(frozen=True)
class GamePage:
    """The games ``arena games`` shows: ``records``, the ``first`` of ``matched`` selected."""

    records: list[GameRecord]
    matched: int
    first: int

    @classmethod
    def select(cls, records: Iterable[GameRecord], bot: str | None, faults: bool, offset: int,
               limit: int | None, last: int | None) -> GamePage:
        """The page of ``records`` (in order) that the options select; reads them once, keeping
        only the page (a store's games can be many)."""
        chosen = (r for r in records if (bot is None or bot in r.table) and (not faults or r.faults))
        if last is not None:
            tail: deque[GameRecord] = deque(maxlen=last)
            matched = 0
            for record in chosen:
                tail.append(record)
                matched += 1
            return cls(list(tail), matched, matched - len(tail))
        kept: list[GameRecord] = []
        matched = 0
        for record in chosen:
            if matched >= offset and (limit is None or len(kept) < limit):
                kept.append(record)
            matched += 1
        return cls(kept, matched, min(offset, matched))


@app.command()
@handles_errors
def export(
    name: str = typer.Argument(..., help="A tournament name."),
    fmt: ExportFormat = typer.Option("csv", "--format", help="CSV or JSON Lines files."),
    out: Optional[Path] = typer.Option(None, "--out", help="Folder for the files (default: <home>/results)."),
    show_seed: bool = show_seed_option(),
    home: Optional[Path] = home_option(),
) -> None:
    """Write a tournament's games and rankings as CSV or JSON Lines files."""
    with open_results(workspace_of(home).root, name) as store:
        paths = export_results(store, fmt, out if out is not None else workspace_of(home).results_dir,
                               reveal_seed=show_seed)
    for path in paths:
        console().print(str(path))
