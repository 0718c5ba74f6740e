"""Benchmarks: random-vs-random games in-process, the same workload on OpenSpiel's engine, and
the rankings of a large stored tournament.

The random policy is the one a random bot uses: a uniform choice among
:meth:`~arena.engine.game.Game.legal_actions`, seeded, so two runs play the same games. Forced actions
(RULINGS G2) go through the same path, since every decision counts in decisions/s.

:func:`bench_rankings` stores synthetic games through the results store's commit path (which
keeps the TrueSkill ratings and the statistics' sums as it goes) and times
:func:`~arena.tournament.ratings.rank_store` on them: ``arena bench --rankings --games 1000000``.
"""

from __future__ import annotations

import math
import random
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.engine.game import Game
from arena.engine.outcome import OutcomeReason
from arena.engine.rules import RuleSet
from arena.play.faults import Fault, FaultCode
from arena.play.referee import BotClient, Referee
from arena.sandbox import BotSpec, Limits, SandboxedBot
from arena.sandbox.bench import pinned, raw_round_trip_us
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.ratings import rank_store
from arena.tournament.records import GameRecord
from arena.tournament.schedule import Schedule, ScheduledGame
from arena.tournament.store import Store

OPENSPIEL_INSTALL = "pip install open-spiel   (or: python -m pip install -e '.[peers]')"


@dataclass(frozen=True)
class BenchResult:
    """Throughput of one benchmark run."""

    rules: str
    games: int
    seats: int
    seconds: float
    decisions: int

    @property
    def games_per_s(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        """Decisions (every applied action) per second."""
        return self.decisions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        """The object ``arena bench --json`` prints."""
        data = asdict(self)
        data.pop("decisions")
        data["games_per_s"] = round(self.games_per_s, 1)
        data["decisions_per_s"] = round(self.decisions_per_s, 1)
        data["seconds"] = round(self.seconds, 4)
        return data


def play_random_game(rules: RuleSet, seats: int, seed: int, rng: random.Random) -> Game:
    """Play one game to its end with every seat choosing uniformly among legal actions."""
    game = Game.new(rules, seats, seed)
    choice = rng.choice
    while game.outcome is None:
        game.apply_legal(choice(game.legal_actions()))
    return game


def bench_inprocess(rules: RuleSet, games: int, seats: int, seed: int = 0) -> BenchResult:
    """Play ``games`` random games in this process and time them."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        decisions += play_random_game(rules, seats, seed + index, rng).decisions
    return BenchResult(rules.name, games, seats, time.perf_counter() - start, decisions)


class PeerUnavailable(ArenaError):
    """The peer engine to compare with is not installed."""


def bench_openspiel(games: int, seats: int, seed: int = 0) -> BenchResult:
    """OpenSpiel's C++ ``crazy_eights`` (max_draw_cards=3, no reshuffle) under a uniform random
    policy driven from Python, chance nodes (the deal) sampled the same way."""
    try:
        import pyspiel
    except ImportError:
        raise PeerUnavailable(f"open-spiel is not installed; install it with: {OPENSPIEL_INSTALL}") from None
    game = pyspiel.load_game("crazy_eights", {"players": seats, "max_draw_cards": 3, "reshuffle": False})
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return BenchResult("openspiel:crazy_eights", games, seats, time.perf_counter() - start, decisions)


@dataclass(frozen=True)
class SandboxBenchResult:
    """Random-vs-random games with every seat in its own sandboxed process."""

    sandboxed: BenchResult
    asked: int                 # decisions that went to a bot (forced ones do not, RULINGS G2)
    bot_seconds: float         # wall time spent waiting on bots' answers
    raw_round_trip_us: float   # one bare JSON-line request/response over the same channel
    raw_rotating_us: float     # the same, going round one echo process per seat as a game does
    inprocess: BenchResult
    game_start_ms: float       # median time to start one bot's fresh process for a game

    @property
    def round_trip_us(self) -> float:
        """Mean cost of one decision round trip to a sandboxed bot, in microseconds."""
        return self.bot_seconds / self.asked * 1e6 if self.asked else 0.0

    def to_json(self) -> dict[str, Any]:
        """The object ``arena bench --sandbox --json`` prints."""
        return {
            **self.sandboxed.to_json(),
            "rules": self.inprocess.rules,
            "round_trip_us": round(self.round_trip_us, 1),
            "raw_round_trip_us": round(self.raw_round_trip_us, 1),
            "raw_rotating_us": round(self.raw_rotating_us, 1),
            "round_trip_ratio": round(self.round_trip_us / self.raw_round_trip_us, 2)
            if self.raw_round_trip_us else 0.0,
            "game_start_ms": round(self.game_start_ms, 2),
            "inprocess_games_per_s": round(self.inprocess.games_per_s, 1),
        }


class _TimedBot:
    """Wraps a bot client and adds up the wall time of its ``act`` round trips."""

    def __init__(self, bot: SandboxedBot) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.asked = 0
        self.starts: list[float] = []   # seconds to start each game's fresh process
        self._fresh = True

    def start_game(self, info: dict[str, Any]) -> None:
        started = time.perf_counter()
        self.bot.start_game(info)
        if self._fresh:
            self.starts.append(time.perf_counter() - started)
            self._fresh = False

    def act(self, message: dict[str, Any]) -> str:
        started = time.perf_counter()
        try:
            return self.bot.act(message)
        finally:
            self.seconds += time.perf_counter() - started
            self.asked += 1

    def end_game(self, result: dict[str, Any]) -> None:
        self.bot.end_game(result)

    def close_game(self) -> None:
        self.bot.close_game()
        self._fresh = True

    def log_tail(self, lines: int = 20) -> str:
        return self.bot.log_tail(lines)


def bench_sandboxed(rules: RuleSet, games: int, seats: int, bot_path: Path, seed: int = 0) -> SandboxBenchResult:
    """Play ``games`` games between sandboxed copies of the bot at ``bot_path`` (the random bot),
    the referee and every bot pinned to one CPU, as a tournament worker does."""
    raw = raw_round_trip_us(2000)
    rotating = raw_round_trip_us(2000, children=seats)
    inprocess = bench_inprocess(rules, games, seats, seed)
    with pinned(True) as cpus:
        bots = [_TimedBot(SandboxedBot(BotSpec("random", bot_path), Limits(), cpus=cpus))
                for s in range(seats)]
        players: list[BotClient] = list(bots)
        try:
            referee = Referee(rules)
            referee.play(players, seed - 1)  # warm-up: process start is not per-game cost
            for bot in bots:
                bot.seconds, bot.asked, bot.starts = 0.0, 0, []
            decisions = 0
            started = time.perf_counter()
            for index in range(games):
                decisions += referee.play(players, seed + index).decisions
            elapsed = time.perf_counter() - started
        finally:
            for bot in bots:
                bot.bot.close()
    result = BenchResult(f"{rules.name} (sandboxed)", games, seats, elapsed, decisions)
    starts = sorted(s for b in bots for s in b.starts)
    start_ms = starts[len(starts) // 2] * 1000 if starts else 0.0
    return SandboxBenchResult(result, sum(b.asked for b in bots), sum(b.seconds for b in bots), raw,
                              rotating, inprocess, start_ms)


@dataclass(frozen=True)
class RankingsBenchResult:
    """``arena rankings`` on a tournament of ``games`` synthetic games (``bots`` at ``seats``).

    ``store_seconds`` is the time to store them through the results store's commit path
    (:meth:`~arena.tournament.store.Store.add_games`, which keeps the ratings as it goes);
    ``rank_seconds`` the time :func:`~arena.tournament.ratings.rank_store` then takes, from
    opening the store to the finished rankings with their intervals.
    """

    games: int
    bots: int
    seats: int
    store_seconds: float
    rank_seconds: float

    @property
    def store_us_per_game(self) -> float:
        """Microseconds to store one game (and rate it)."""
        return self.store_seconds / self.games * 1e6 if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """The object ``arena bench --rankings --json`` prints."""
        return {"games": self.games, "bots": self.bots, "seats": self.seats,
                "store_seconds": round(self.store_seconds, 2),
                "store_us_per_game": round(self.store_us_per_game, 1),
                "rank_seconds": round(self.rank_seconds, 4)}


RANKINGS_BOTS = ("ace", "bob", "cat", "dan", "eve")   # 5 bots at 4 seats: 20 games a round
_BATCH = 1000


def bench_rankings(games: int, seed: int = 0, seats: int = 4) -> RankingsBenchResult:
    """Store ``games`` synthetic games of a 5-bot round-robin (skills apart, Gaussian noise,
    rare faults) in a temporary results store, then time ranking it as ``arena rankings`` does.

    The games hold no moves (the rankings never read them; the file stays small).
    """
    if games < 1:
        raise ArenaError(f"--games: expected at least 1, got {games}")
    per_round = math.comb(len(RANKINGS_BOTS), seats) * seats
    config = TournamentConfig(name="rankings-bench",
                              bots=tuple(BotEntry(b, b) for b in RANKINGS_BOTS), seats=seats,
                              rounds=-(-games // per_round), seed=seed)
    schedule = Schedule.from_config(config)
    rng = random.Random(seed)
    skills = {bot: 2.0 - i for i, bot in enumerate(RANKINGS_BOTS)}
    with tempfile.TemporaryDirectory(prefix="arena-rankings-bench-") as folder:
        path = Path(folder) / "bench.sqlite"
        started = time.perf_counter()
        with Store.open(path) as store:
            store.init_tournament(config, "", {}, {bot: "synthetic" for bot in RANKINGS_BOTS})
            for start in range(0, games, _BATCH):
                store.add_games([_synthetic(schedule[g], skills, rng)
                                 for g in range(start, min(games, start + _BATCH))])
        stored = time.perf_counter() - started
        started = time.perf_counter()
        with Store.open(path, readonly=True) as store:
            rankings = rank_store(store)
        ranked = time.perf_counter() - started
    assert rankings.games == games
    return RankingsBenchResult(games, len(RANKINGS_BOTS), seats, stored, ranked)


def _synthetic(game: ScheduledGame, skills: dict[str, float], rng: random.Random) -> GameRecord:
    """One played-looking game: rounded noisy performances (ties happen), a fault in 1 of 500."""
    perf = [round(skills[bot] + rng.gauss(0.0, 2.0)) for bot in game.table]
    faulty = rng.randrange(len(perf)) if rng.random() < 0.002 else None
    order = sorted({p for s, p in enumerate(perf) if s != faulty}, reverse=True)
    places = [tuple(s for s, p in enumerate(perf) if p == level and s != faulty) for level in order]
    if faulty is not None:
        places.append((faulty,))
    winner = places[0][0] if len(places[0]) == 1 else None
    faults = () if faulty is None else (Fault(faulty, game.table[faulty], FaultCode.TIMEOUT, "slow"),)
    return GameRecord(game.game_id, game.deal_id, game.table, game.deal_seed, tuple(places),
                      winner, OutcomeReason.EMPTIED, 40, 0.01, faults)
