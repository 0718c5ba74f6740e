"""Export stored games and rankings as CSV or JSON Lines files.

``export(store, "csv", out_dir)`` writes ``<name>-games.csv`` and ``<name>-rankings.csv``
(``.jsonl`` for ``"jsonl"``). Games come in ``game_id`` order; rankings in rank order.
CSV cells holding lists (table, places, faults, moves) are JSON text, so nothing is lost;
places are G7 seat groups (see :mod:`arena.tournament.records`). Each ranking row also carries
the tournament's ``seed``, from which every ``deal_seed`` of the games derives: empty when the
store does not record it, or when it was drawn at random and not asked for (``seed_hidden``
true), as in the rankings: an export is shared while games remain, and that seed deals them.
Each file is written to a temporary name and renamed, so a failed export never leaves half a
file under the final name.

JSON shapes.

Every function renders to the :class:`rich.console.Console` it is given (tests pass
``Console(file=io.StringIO(), width=120)``), or returns plain JSON data; nothing here prints on
its own or exits.

The ``--json`` output of the CLI:

* :func:`rankings_json`: ``{"tournament", "games", "seed", "seed_hidden", "bots": [{"bot", "mu", "sigma",
  "score", "games", "wins", "win_rate", "win_rate_ci", "mean_place", "mean_place_ci", "faults",
  "disqualified", "moves_asked", "ms_per_move"}, ...], "seat_bias", "code_versions"}`` in rank
  order, ``score = mu - 3 sigma``; ``ms_per_move`` the mean wall-clock milliseconds the bot took
  to reply over the ``moves_asked`` moves timed (``null`` with none: games stored before the
  referee timed them);
  ``win_rate``/``mean_place`` and their 95% intervals ``[low, high]`` (the table's) are ``null``
  before a bot's first game; ``seed`` is the tournament's seed (``null`` when the store does not
  record it, or when it was drawn at random and not asked for: then ``seed_hidden`` is true);
  ``seat_bias`` is :func:`seat_bias_json` (``null`` before the first game);
  ``code_versions`` the versions of the arena code that played the games, in the order they ran
  (:meth:`Store.code_versions`: SHA-256 identities, ``"unrecorded"`` for games stored before
  versions were; empty when none is recorded).
* :func:`seat_bias_json`: ``{"games", "deals", "draws", "fair_share", "seats": [{"seat",
  "games", "wins", "win_rate", "win_rate_ci"}, ...]}``, seat 0 first: each seat's share of the
  games won with its 95% Wilson interval over the deals (:mod:`arena.tournament.seats`), and
  ``fair_share = 1 / seats``; ``arena calibrate --json`` holds one too.
* :func:`games_json`: ``[{"id", "seats", "winner", "places", "reason", "decisions", "faults"}]``
  where ``seats`` are the bot names in seat order, ``winner`` the winning bot or ``null``,
  ``places`` the G7 seat groups (``[[1], [0, 3], [2]]``), ``reason`` the outcome reason's text
  and ``faults`` a list of ``{"seat", "bot", "code", "detail"}`` (``code`` a fault code's name,
  ``TIMEOUT``).

Every game row and game object is built from :meth:`GameRecord.to_dict`, the record's one
serialisation (the same text the store holds).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal, TextIO, get_args

from arena.tournament.errors import ExportError
from arena.tournament.ratings import Rankings, Standing, rank_store
from arena.tournament.records import GameRecord
from arena.tournament.seats import SeatBias
from arena.tournament.store import Store

ExportFormat = Literal["csv", "jsonl"]
FORMATS: tuple[ExportFormat, ...] = get_args(ExportFormat)

GAME_FIELDS = (
    "game_id", "deal_id", "deal_seed", "table", "places", "winner", "winner_bot", "reason",
    "decisions", "duration_s", "faults", "moves", "hands", "finished_at", "think",
)
RANKING_FIELDS = (
    "rank", "bot", "mu", "sigma", "score", "games", "wins", "win_rate", "win_rate_lo",
    "win_rate_hi", "mean_place", "mean_place_lo", "mean_place_hi", "faults", "disqualified",
    "seed", "seed_hidden", "moves_asked", "ms_per_move",
)


def export(
    store: Store, fmt: str, out_dir: str | Path, rankings: Rankings | None = None,
    reveal_seed: bool = False,
) -> list[Path]:
    """Write the games and rankings of ``store`` to ``out_dir``; returns the two paths.

    ``rankings`` defaults to :func:`rank_store` of the store; a drawn seed is written only when
    ``reveal_seed`` (:meth:`Rankings.seed_shown`). Raises :class:`ExportError`.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{folder}: cannot create the export folder: {exc.strerror or exc}") from exc
    # named as the store is, the name the user gave: a copy of another tournament's results
    # file must not write over that tournament's own export
    games_path = folder / f"{store.path.stem}-games.{fmt}"
    ranks_path = folder / f"{store.path.stem}-rankings.{fmt}"
    with store.reading():  # a run may store games meanwhile: both files tell of the same ones
        rankings = rankings or rank_store(store)
        games = (game_row(record, at) for record, at in store.finished_games())
        _write(games_path, fmt, GAME_FIELDS, games)
    seed = (rankings.seed_shown(reveal_seed), rankings.seed_hidden(reveal_seed))
    ranks = (standing_row(s, *seed) for s in rankings.standings)
    _write(ranks_path, fmt, RANKING_FIELDS, ranks)
    return [games_path, ranks_path]


def game_row(record: GameRecord, finished_at: str = "") -> dict[str, Any]:
    """A flat dict of one game: every record field plus ``winner_bot`` and ``finished_at``."""
    row = record.to_dict()
    row["winner_bot"] = record.winner_bot
    row["finished_at"] = finished_at
    return {name: row[name] for name in GAME_FIELDS}


def standing_row(standing: Standing, seed: int | None = None,
                 seed_hidden: bool = False) -> dict[str, Any]:
    """A flat dict of one ranking line, intervals split into ``_lo``/``_hi`` columns, and the
    tournament's ``seed`` as shown (``seed_hidden``: a drawn one left out)."""
    stats = standing.stats
    win_ci = stats.win_rate_ci or (None, None)
    place_ci = stats.mean_place_ci or (None, None)
    return {
        "rank": standing.rank, "bot": standing.bot, "mu": standing.mu, "sigma": standing.sigma,
        "score": standing.score, "games": stats.games, "wins": stats.wins,
        "win_rate": stats.win_rate, "win_rate_lo": win_ci[0], "win_rate_hi": win_ci[1],
        "mean_place": stats.mean_place, "mean_place_lo": place_ci[0],
        "mean_place_hi": place_ci[1], "faults": stats.faults,
        "disqualified": standing.disqualified, "seed": seed, "seed_hidden": seed_hidden,
        "moves_asked": stats.moves_asked, "ms_per_move": stats.ms_per_move,
    }


def _write(path: Path, fmt: str, fields: tuple[str, ...], rows: Iterable[dict[str, Any]]) -> None:
    temp = path.with_name(path.name + ".part")
    try:
        with temp.open("w", encoding="utf-8", newline="") as handle:
            if fmt == "csv":
                _write_csv(handle, fields, rows)
            else:
                handle.writelines(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
        os.replace(temp, path)
    except OSError as exc:
        _discard(temp)
        raise ExportError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    except BaseException:  # a stored game that cannot be read, Ctrl-C: no half file is left
        _discard(temp)
        raise


def _discard(temp: Path) -> None:
    """Remove a half-written file, where it can be (a read-only folder has none to remove)."""
    try:
        temp.unlink(missing_ok=True)
    except OSError:
        pass


def _write_csv(handle: TextIO, fields: tuple[str, ...], rows: Iterable[dict[str, Any]]) -> None:
    writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})


def _cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return "" if value is None else value


def rankings_json(rankings: Rankings, reveal_seed: bool = False) -> dict[str, Any]:
    """The rankings as JSON data (shape in the module docstring); a drawn seed only when
    ``reveal_seed`` (:meth:`Rankings.seed_shown`)."""
    return {
        "tournament": rankings.tournament,
        "games": rankings.games,
        "seed": rankings.seed_shown(reveal_seed),
        "seed_hidden": rankings.seed_hidden(reveal_seed),
        "bots": [_standing_json(s) for s in rankings.standings],
        "seat_bias": None if rankings.seat_bias is None else seat_bias_json(rankings.seat_bias),
        "code_versions": list(rankings.code_versions),
    }


def seat_bias_json(bias: SeatBias) -> dict[str, Any]:
    """The seat bias as JSON data (shape in the module docstring)."""
    return {
        "games": bias.games,
        "deals": bias.deals,
        "draws": bias.draws,
        "fair_share": bias.fair_share,
        "seats": [{"seat": rate.seat, "games": rate.games, "wins": rate.wins,
                   "win_rate": rate.win_rate,
                   "win_rate_ci": None if rate.win_rate_ci is None else list(rate.win_rate_ci)}
                  for rate in bias.seats],
    }


def games_json(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """Games as JSON data (shape in the module docstring)."""
    return [_game_json(record) for record in records]


def _game_json(record: GameRecord) -> dict[str, Any]:
    """One game of :func:`games_json`: a selection of the record's :meth:`GameRecord.to_dict`."""
    data = record.to_dict()
    return {
        "id": data["game_id"],
        "seats": data["table"],
        "winner": record.winner_bot,
        "places": data["places"],
        "reason": data["reason"],
        "decisions": data["decisions"],
        "faults": [{key: fault[key] for key in ("seat", "bot", "code", "detail")}
                   for fault in data["faults"]],
    }


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
        "win_rate_ci": None if stats.win_rate_ci is None else list(stats.win_rate_ci),
        "mean_place": stats.mean_place,
        "mean_place_ci": None if stats.mean_place_ci is None else list(stats.mean_place_ci),
        "faults": stats.faults,
        "disqualified": standing.disqualified,
        "moves_asked": stats.moves_asked,
        "ms_per_move": stats.ms_per_move,
    }
