"""Helpers for the tournament tests: configs and synthetic games with known skills."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from arena.engine.outcome import OutcomeReason
from arena.play.faults import FaultCode
from arena.tournament.adaptive import Course
from arena.tournament.config import TournamentConfig, parse_config
from arena.tournament.records import Fault, GameRecord
from arena.tournament.schedule import Schedule
from arena.tournament.skill import Ratings
from arena.tournament.store import Store, StoreWriteError

Play = Callable[..., list[GameRecord]]


def make_config(text: str, name: str = "demo") -> TournamentConfig:
    """Parse a config text as if read from demo.yaml."""
    return parse_config(text, source=f"{name}.yaml", default_name=name)


def play_synthetic(
    config: TournamentConfig,
    skills: Mapping[str, float],
    seed: int = 1,
    noise: float = 2.0,
    faulty: Mapping[str, float] | None = None,
) -> list[GameRecord]:
    """Play the schedule with Gaussian performances (rounded, so ties happen); faulty bots
    fault with the given probability and are then placed last alone."""
    records = []
    for game in Schedule.from_config(config):
        rng = random.Random(f"{seed}:{game.game_id}")
        perf = {s: round(skills[b] + rng.gauss(0, noise)) for s, b in enumerate(game.table)}
        faults = tuple(
            Fault(s, b, FaultCode.TIMEOUT, "too slow")
            for s, b in enumerate(game.table)
            if faulty and rng.random() < faulty.get(b, 0.0)
        )
        records.append(_record(game, perf, faults))
    return records


def play_course(course: Course, skills: Mapping[str, float], seed: int = 1,
                noise: float = 2.0) -> list[GameRecord]:
    """Play an adaptive tournament to its end as the runner does, a round at a time, each game
    with Gaussian performances (as :func:`play_synthetic`); the next round is made from the
    ratings of every game before it."""
    ratings = Ratings()
    records: list[GameRecord] = []
    while course.next_round(ratings.rating):
        for game_id in range(len(records), len(course)):
            game = course[game_id]
            rng = random.Random(f"{seed}:{game.game_id}")
            perf = {s: round(skills[b] + rng.gauss(0, noise)) for s, b in enumerate(game.table)}
            records.append(_record(game, perf, ()))
            ratings.add(records[-1])
    return records


def _record(game, perf: dict[int, float], faults: tuple[Fault, ...]) -> GameRecord:
    faulted = {f.seat for f in faults}
    levels = sorted({perf[s] for s in perf if s not in faulted}, reverse=True)
    places = [tuple(s for s in sorted(perf) if s not in faulted and perf[s] == lv) for lv in levels]
    if faulted:
        places.append(tuple(sorted(faulted)))
    winner = places[0][0] if len(places[0]) == 1 and places[0][0] not in faulted else None
    return GameRecord(
        game_id=game.game_id, deal_id=game.deal_id, table=game.table, deal_seed=game.deal_seed,
        places=tuple(places), winner=winner, reason=OutcomeReason.EMPTIED,
        decisions=10, duration_s=0.01, faults=faults,
    )


def untimed(record: GameRecord) -> dict:
    """A record's dict without its wall-clock times (the game's duration, the seconds each
    seat thought), which no two runs share; the moves each seat was asked for stay."""
    data = record.to_dict()
    data["duration_s"] = None
    data["think"] = [[moves, None] for moves, _ in data["think"]]
    return data


def untimed_rankings(data: dict) -> dict:
    """Rankings JSON without the bots' reply times (wall clock); the moves timed stay."""
    return {**data, "bots": [{**bot, "ms_per_move": None} for bot in data["bots"]]}


def downgraded_store(path: Path, config: TournamentConfig, versions: Mapping[str, str],
                     records: list[GameRecord], version: int, undo: list[str]) -> None:
    """A results file as the store wrote it at schema ``version``: ``records`` stored by
    today's store, then the SQL statements ``undo`` take out what later schemas added."""
    with Store.open(path) as store:
        store.init_tournament(config, "", {}, versions)
        store.add_games(records)
    raw = sqlite3.connect(path)
    with raw:
        for statement in undo:
            raw.execute(statement)
        raw.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
    raw.close()


def stored_schema(path: Path) -> str:
    """The schema version a results file says it has, read with sqlite3 (not the store)."""
    raw = sqlite3.connect(path)
    try:
        (version,) = raw.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    finally:
        raw.close()
    return str(version)


def upgrades_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every store upgrade fail as on a read-only file, for the rest of the test."""

    def cannot(store: Store) -> None:
        raise StoreWriteError(f"{store.path}: read-only")

    monkeypatch.setattr(Store, "_upgrade", cannot)
