"""The tournament data layer: configuration, schedule, results store, ratings and reports.

Pure library code (no engine needed); the game-playing side builds on it:

* :mod:`~arena.tournament.config` -- :func:`load_config` -> :class:`TournamentConfig`.
* :mod:`~arena.tournament.schedule` -- :class:`Schedule`: every game to play, by ``game_id``.
* :mod:`~arena.tournament.adaptive` -- an adaptive tournament's games, a round at a time, until
  its ranking is separated (:mod:`~arena.tournament.separation`) or its budget is spent; swiss
  rounds' tables from the ratings (:mod:`~arena.tournament.swiss`).
* :mod:`~arena.tournament.records` -- :class:`GameRecord` / :class:`Fault`, the raw results.
* :mod:`~arena.tournament.store` -- :class:`Store`: one SQLite file per tournament.
* :mod:`~arena.tournament.growth` -- what a changed tournament keeps of its stored games.
* :mod:`~arena.tournament.skill` -- TrueSkill as the ``trueskill`` package computes it, fast.
* :mod:`~arena.tournament.ratings` -- :class:`Ratings`: TrueSkill in schedule order; the standings.
* :mod:`~arena.tournament.stats` -- per-bot statistics with bootstrap intervals, head-to-head.
* :mod:`~arena.tournament.summary` -- the ratings and sums the store keeps as games are stored.
* :mod:`~arena.tournament.export` -- CSV / JSON Lines files.

Typical flow: ``config = load_config(path)``; ``store = Store.open(results_path(config.name))``;
give a file without ``seed`` its secret one (``replace(config, seed=...)``: the drawn seed the
store keeps, else :func:`~arena.tournament.schedule.fresh_seed`, as
:func:`arena.tournament.setup.settle_seed` does for the runner);
``store.init_tournament(...)``; play
``Schedule.from_config(config, store.layout, store.deal_versions(versions))``
``.pending(store.done_game_ids())`` and store them
(``store.add_games(records)``, in schedule order); then ``standings = rank_store(store)`` and
render it.
"""

from arena.sandbox.spec import Limits
from arena.tournament.config import BotEntry, TournamentConfig, load_config, parse_config
from arena.tournament.errors import (
    ConfigChangedError, DuplicateGameError, ExportError, RecordError, StoreError, StoreWriteError,
)
from arena.tournament.ratings import (
    RatingSettings, Ratings, Rankings, Standing, rank_games, rank_store, standings,
)
from arena.tournament.records import Fault, GameRecord
from arena.tournament.schedule import Schedule, ScheduledGame, deal_seed
from arena.tournament.stats import BotStats, HeadToHead, Tally
from arena.tournament.store import Store, TournamentInfo, results_path

__all__ = [
    "BotEntry", "BotStats", "ConfigChangedError", "DuplicateGameError", "ExportError", "Fault",
    "GameRecord", "HeadToHead", "Limits", "RatingSettings", "Ratings", "Rankings", "RecordError",
    "Schedule", "ScheduledGame", "Standing", "Store", "StoreError", "StoreWriteError", "Tally",
    "TournamentConfig", "TournamentInfo", "deal_seed", "load_config",
    "parse_config", "rank_games", "rank_store", "results_path", "standings",
]
