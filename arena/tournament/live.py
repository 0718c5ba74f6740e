"""Rich rendering of a running tournament (the ``arena run`` live display) and its outcome.

Like :mod:`arena.tournament.render`, nothing here prints on its own: functions return a
renderable or draw on the console they are given.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from arena.tournament.runner import Progress, RunReport


def progress_view(progress: Progress | None, width: int = 40) -> RenderableType:
    """Games done of total with a bar, games/s, ETA, faults, and the live top 5."""
    if progress is None:
        return Text("starting the workers...")
    bar = ProgressBar(total=max(progress.total, 1), completed=progress.done, width=width)
    line = Text(
        f" {progress.done}/{progress.total} games  {progress.games_per_s:.1f} games/s  "
        f"ETA {format_duration(progress.eta_s)}  faulty games {progress.faulty_games}"
        + (f"  skipped {progress.skipped}" if progress.skipped else "")
    )
    header = Table.grid()
    header.add_row(bar, line)
    return Group(header, leaders_table(progress))


def leaders_table(progress: Progress) -> Table:
    """The live top of the table: clean bots first, by mean place (final table: TrueSkill)."""
    table = Table(title=f"{progress.tournament}: top {len(progress.leaders)} so far (by mean place)",
                  title_justify="left")
    for header in ("#", "bot", "mean place", "win rate", "games", "faults"):
        table.add_column(header, justify="left" if header == "bot" else "right")
    for rank, lead in enumerate(progress.leaders, 1):
        name = lead.bot + (" (DQ)" if lead.disqualified else "")
        style = "dim strike" if lead.disqualified else ("yellow" if lead.faults else "")
        place = "-" if lead.mean_place is None else f"{lead.mean_place:.2f}"
        rate = "-" if lead.win_rate is None else f"{lead.win_rate:.1%}"
        table.add_row(str(rank), name, place, rate, str(lead.games), str(lead.faults), style=style)
    return table


def render_report(console: Console, report: RunReport) -> None:
    """One summary line of a finished (or stopped) run, each disqualification, and the seed
    when it was drawn at random (the file has none)."""
    if report.seed_drawn:
        console.print(f"seed: {report.seed} (drawn at random, stored in {report.store_path}; "
                      "keep it secret until every game is played)")
    for bot, reason in sorted(report.disqualified.items()):
        console.print(f"[bold red]{bot} is disqualified[/]: {reason}")
    console.print(
        f"{report.tournament}: {report.stored} of {report.total} games stored"
        + (f", {report.skipped} skipped (disqualified bots)" if report.skipped else "")
        + f"; this run played {report.played} in {report.elapsed:.1f}s "
        f"({report.games_per_s:.1f} games/s, {report.workers} worker"
        + ("s" if report.workers != 1 else "") + f"); log: {report.log_path}"
    )


def resume_command(argv: Sequence[str]) -> str:
    """The shell command that resumes a run (the arguments it was started with)."""
    return " ".join(shlex.quote(arg) for arg in ("arena", "run", *argv))


def format_duration(seconds: float | None) -> str:
    """``1:02:03``, ``2:03`` or ``-`` when unknown."""
    if seconds is None:
        return "-"
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
