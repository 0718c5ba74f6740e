"""Rich rendering of rankings, the head-to-head crosstable and game lists, plus JSON shapes.

Every function renders to the :class:`rich.console.Console` it is given (tests pass
``Console(file=io.StringIO(), width=120)``), or returns plain JSON data; nothing here prints on
its own or exits.

JSON shapes (the ``--json`` output of the CLI):

* :func:`rankings_json`: ``{"tournament", "games", "seed", "bots": [{"bot", "mu", "sigma",
  "score", "games", "wins", "win_rate", "mean_place", "faults", "disqualified"}, ...]}`` in rank
  order, ``score = mu - 3 sigma``; ``win_rate``/``mean_place`` are ``null`` before a bot's first
  game; ``seed`` is the tournament's seed (``null`` when the store does not record it).
* :func:`games_json`: ``[{"id", "seats", "winner", "places", "reason", "decisions", "faults"}]``
  where ``seats`` are the bot names in seat order, ``winner`` the winning bot or ``null``,
  ``places`` the G7 seat groups (``[[1], [0, 3], [2]]``) and ``faults`` a list of
  ``{"seat", "bot", "code", "detail"}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.tournament.ratings import Rankings, Standing
from arena.tournament.records import GameRecord
from arena.tournament.stats import Interval

DQ_MARK = " (DQ)"
FAULT_MARK = " !"


def render_rankings(console: Console, rankings: Rankings) -> None:
    """The rankings table; disqualified bots are marked ``(DQ)``, faulty ones ``!``."""
    seed = "" if rankings.tournament_seed is None else f", seed {rankings.tournament_seed}"
    table = Table(title=f"{rankings.tournament}: {rankings.games} games{seed}", title_justify="left")
    for header in ("#", "bot", "mu", "sigma", "mu-3σ", "games", "wins"):
        # Names never wrap; in a narrow terminal the intervals fold onto a second line instead.
        table.add_column(header, justify="left" if header == "bot" else "right", no_wrap=header == "bot")
    table.add_column("win rate [95%]", justify="right", overflow="fold")
    table.add_column("mean place [95%]", justify="right", overflow="fold")
    table.add_column("faults", justify="right")
    for standing in rankings.standings:
        table.add_row(*_ranking_cells(standing), style=_row_style(standing))
    console.print(table)


def render_head_to_head(console: Console, rankings: Rankings) -> None:
    """Crosstable: row bot finished ahead of column bot in ``ahead/shared`` games."""
    bots = rankings.bots
    table = Table(
        title="head to head", title_justify="left",
        caption="row bot ahead of column bot / games shared", caption_justify="left",
    )
    table.add_column("bot")
    for bot in bots:
        table.add_column(bot, justify="right")
    for a in bots:
        cells = [_h2h_cell(rankings, a, b) for b in bots]
        table.add_row(a, *cells)
    console.print(table)


def render_games(console: Console, records: Iterable[GameRecord]) -> None:
    """A list of games: id, deal, seats, winner, finishing order, reason, decisions, faults."""
    table = Table(title="games", title_justify="left")
    for header in ("id", "deal", "seats", "winner", "finishing order", "reason", "decisions", "faults"):
        justify = "right" if header in ("id", "deal", "decisions") else "left"
        table.add_column(header, justify=justify)
    for record in records:
        table.add_row(
            str(record.game_id), str(record.deal_id), " ".join(record.table),
            record.winner_bot or "-", finishing_order(record), record.reason,
            str(record.decisions), _faults_text(record),
        )
    console.print(table)


def finishing_order(record: GameRecord) -> str:
    """Bots best first: ``>`` between places, ``=`` inside a shared place (``b > a = d > c``)."""
    return " > ".join(" = ".join(record.table[s] for s in group) for group in record.places)


def rankings_json(rankings: Rankings) -> dict[str, Any]:
    """The rankings as JSON data (shape in the module docstring)."""
    return {
        "tournament": rankings.tournament,
        "games": rankings.games,
        "seed": rankings.tournament_seed,
        "bots": [_standing_json(s) for s in rankings.standings],
    }


def games_json(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """Games as JSON data (shape in the module docstring)."""
    return [
        {
            "id": r.game_id,
            "seats": list(r.table),
            "winner": r.winner_bot,
            "places": [list(group) for group in r.places],
            "reason": r.reason,
            "decisions": r.decisions,
            "faults": [
                {"seat": f.seat, "bot": f.bot, "code": f.code, "detail": f.detail} for f in r.faults
            ],
        }
        for r in records
    ]


def _standing_json(standing: Standing) -> dict[str, Any]:
    stats = standing.stats
    return {
        "bot": standing.bot,
        "mu": standing.mu,
        "sigma": standing.sigma,
        "score": standing.score,
        "games": stats.games,
        "wins": stats.wins,
        "win_rate": stats.win_rate,
        "mean_place": stats.mean_place,
        "faults": stats.faults,
        "disqualified": standing.disqualified,
    }


def _ranking_cells(standing: Standing) -> list[str | Text]:
    stats = standing.stats
    name = standing.bot + (DQ_MARK if standing.disqualified else "")
    name += FAULT_MARK if stats.faults and not standing.disqualified else ""
    return [
        str(standing.rank), Text(name), f"{standing.mu:.2f}", f"{standing.sigma:.2f}",
        f"{standing.score:.2f}", str(stats.games), str(stats.wins),
        _with_interval(stats.win_rate, stats.win_rate_ci, percent=True),
        _with_interval(stats.mean_place, stats.mean_place_ci, percent=False),
        str(stats.faults),
    ]


def _row_style(standing: Standing) -> str:
    if standing.disqualified:
        return "dim strike"
    return "" if standing.clean else "yellow"


def _with_interval(value: float | None, interval: Interval | None, percent: bool) -> str:
    if value is None or interval is None:
        return "-"
    if percent:
        return f"{value:.1%} [{interval[0]:.1%}-{interval[1]:.1%}]"
    return f"{value:.2f} [{interval[0]:.2f}-{interval[1]:.2f}]"


def _h2h_cell(rankings: Rankings, a: str, b: str) -> str:
    if a == b:
        return "·"
    cell = rankings.head_to_head.get((a, b))
    return f"{cell.ahead}/{cell.games}" if cell else "-"


def _faults_text(record: GameRecord) -> str:
    return ", ".join(f"{f.bot}: {f.code}" for f in record.faults) or "-"
