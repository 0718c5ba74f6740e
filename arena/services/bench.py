"""Benchmarks: random-vs-random games in-process, random playouts from mid-game positions (the
search's workload, ``arena bench --playouts``), the same workload on OpenSpiel's engine, and
the rankings of a large stored tournament.

The random policy picks uniformly among the legal actions, seeded, so two runs play the same
games; it draws one float per decision (``actions[int(random() * len(actions))]``, the cheapest
uniform pick in Python), the same way on both engines, so neither side's time is the sampler's.
Forced actions (RULINGS G2) go through the same path, since every decision counts in decisions/s.

What is timed, per game, on each side of ``arena bench --peer openspiel``:

* **arena:** :meth:`Game.new <arena.engine.game.Game.new>` (shuffle, deal, starter, first
  player), then per decision :meth:`~arena.engine.game.Game.legal_actions`, the pick and
  :meth:`~arena.engine.game.Game.apply_legal`, until the game has an outcome.
* **OpenSpiel:** ``new_initial_state()``, then per node ``current_player()``,
  ``legal_actions()``, the pick and ``apply_action()`` until the state is terminal. Its chance
  nodes (the dealer, each dealt card, each drawn card) are sampled the same way: their outcomes
  are uniform, so a pick among ``legal_actions()`` is the chance distribution, and cheaper than
  ``chance_outcomes()``, which builds (action, probability) pairs.

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
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any, Callable

from arena.errors import ArenaError
from arena.engine import game as engine_game
from arena.engine.game import Game
from arena.engine.playout import informed_playout, random_playout
from arena.engine.outcome import OutcomeReason, winner_of
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

CHANCE = -1  # OpenSpiel's player id of a chance node (pyspiel.PlayerId.CHANCE)
OPENSPIEL_INSTALL = "python -m pip install open-spiel"  # the peers extra's one package, right for a clone, a wheel or an editable install


def engine_build() -> str:
    """``"mypyc"`` where this process runs the compiled engine (an installed package, see
    setup.py), else ``"python"`` (the sources: a clone, an editable install, no C compiler)."""
    where = engine_game.__file__ or ""
    return "mypyc" if where.endswith(tuple(EXTENSION_SUFFIXES)) else "python"


@dataclass(frozen=True)
class BenchResult:
    """Throughput of one benchmark run; ``build`` says what ran it (:func:`engine_build`, or the
    peer's ``"c++"``)."""

    rules: str
    games: int
    seats: int
    seconds: float
    decisions: int
    build: str = "python"

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
    pick = rng.random
    legal = game.legal_actions
    apply = game.apply_legal
    while game.outcome is None:
        actions = legal()
        apply(actions[int(pick() * len(actions))])
    return game


def bench_inprocess(rules: RuleSet, games: int, seats: int, seed: int = 0,
                    clock: Callable[[], float] = time.process_time) -> BenchResult:
    """Play ``games`` random games in this process and time them (the module docstring says what
    is timed); by default in the process's CPU time, which other work on a loaded machine does
    not add to (the sandboxed bench compares wall times, and passes ``time.perf_counter``)."""
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for index in range(games):
        decisions += play_random_game(rules, seats, seed + index, rng).decisions
    return BenchResult(rules.name, games, seats, clock() - start, decisions, engine_build())


@dataclass(frozen=True)
class PlayoutBenchResult:
    """Playouts, each from a :meth:`~arena.engine.game.Game.copy` of a mid-game position, timed
    on one core: random ones (:func:`arena.engine.playout.random_playout`, ``tries`` 1) or
    informed ones building ``tries`` plays a turn (:func:`arena.engine.playout.informed_playout`,
    what ``mcts`` plays, with its option ``playout_tries``)."""

    rules: str
    seats: int
    playouts: int
    positions: int
    seconds: float
    decisions: int  # the decisions the playouts made, all together
    build: str = "python"  # engine_build()
    tries: int = 1

    @property
    def playouts_per_s(self) -> float:
        """Playouts (copy and play to the end) per second."""
        return self.playouts / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        """The object ``arena bench --playouts --json`` prints."""
        return {"rules": self.rules, "seats": self.seats, "playouts": self.playouts,
                "positions": self.positions, "seconds": round(self.seconds, 4),
                "playouts_per_s": round(self.playouts_per_s, 1),
                "decisions_per_playout": round(self.decisions / self.playouts, 1) if self.playouts else 0.0,
                "build": self.build, "playout": "random" if self.tries == 1 else "informed",
                "tries": self.tries}


PLAYOUT_POSITIONS = 50  # mid-game positions the playouts start from, in turn


def mid_game_positions(rules: RuleSet, seats: int, seed: int, count: int = PLAYOUT_POSITIONS) -> list[Game]:
    """``count`` positions halfway through random games: each deal is played at random for half
    the median length of random games of these rules (a deal that ends sooner is dealt again)."""
    rng = random.Random(seed)
    lengths = sorted(play_random_game(rules, seats, seed + i, rng).decisions for i in range(21))
    halfway = max(1, lengths[len(lengths) // 2] // 2)
    positions: list[Game] = []
    deal = seed
    while len(positions) < count:
        game = Game.new(rules, seats, deal)
        deal += 1
        while game.outcome is None and game.decisions < halfway:
            actions = game.legal_actions()
            game.apply_legal(actions[int(rng.random() * len(actions))])
        if game.outcome is None:
            positions.append(game)
    return positions


def bench_playouts(rules: RuleSet, playouts: int, seats: int, seed: int = 0,
                   tries: int = 1) -> PlayoutBenchResult:
    """Time ``playouts`` playouts, each from a copy of one of the mid-game positions of
    :func:`mid_game_positions` in turn, in the process's CPU time (one core): random ones, or
    with ``tries`` above 1 informed ones that build that many plays a turn (the same as random
    ones at 1, draw for draw)."""
    positions = mid_game_positions(rules, seats, seed)
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    for index in range(playouts):
        position = positions[index % len(positions)]
        game = position.copy(rng)
        if tries == 1:
            random_playout(game, rng)
        else:
            informed_playout(game, rng, tries)
        decisions += game.decisions - position.decisions
    elapsed = time.process_time() - start
    return PlayoutBenchResult(rules.name, seats, playouts, len(positions), elapsed, decisions,
                              engine_build(), tries)


class PeerUnavailable(ArenaError):
    """The peer engine to compare with is not installed."""


def openspiel_parameters(rules: RuleSet, seats: int) -> dict[str, Any]:
    """The parameters of OpenSpiel's ``crazy_eights`` that play the same game as ``rules``: the
    ``openspiel`` preset or a rule set of its family (docs/rules.md, O1-O9); raise
    :class:`PeerMismatch` for any other rule set, whose game OpenSpiel does not play."""
    family = (rules.after_draw == "continue" and rules.pass_on_empty and rules.max_cards == 1
              and rules.blocked_after == "seats+1" and rules.first_player == "random"
              and rules.play_cap is not None)
    if not family:
        raise PeerMismatch(f"rules '{rules.name}' are not a game OpenSpiel plays: compare with "
                           "--rules openspiel (or a rule set based on it)")
    return {"players": seats, "max_draw_cards": rules.draws_per_turn, "max_turns": rules.play_cap,
            "use_special_cards": rules.starter_acts, "reshuffle": rules.recycles != 0}


class PeerMismatch(ArenaError):
    """The rule set is not a game the peer engine plays."""


def bench_openspiel(rules: RuleSet, games: int, seats: int, seed: int = 0) -> BenchResult:
    """OpenSpiel's C++ ``crazy_eights`` with the parameters of ``rules`` (see
    :func:`openspiel_parameters`) under the same uniform random policy driven from Python, its
    chance nodes (the dealer, the deal, each draw) sampled the same way, timed in CPU time as
    :func:`bench_inprocess` is (the module docstring says what is timed)."""
    params = openspiel_parameters(rules, seats)
    try:
        import pyspiel
    except ImportError:
        raise PeerUnavailable(f"open-spiel is not installed; install it with: {OPENSPIEL_INSTALL}") from None
    game = pyspiel.load_game("crazy_eights", params)
    pick = random.Random(seed).random
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        current, legal, apply = state.current_player, state.legal_actions, state.apply_action
        while True:
            player = current()
            if player < 0 and player != CHANCE:
                break  # terminal
            actions = legal()  # at a chance node: its outcomes, all equally likely
            apply(actions[int(pick() * len(actions))])
            if player >= 0:
                decisions += 1
    return BenchResult("openspiel:crazy_eights", games, seats, time.process_time() - start, decisions, "c++")


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
    inprocess = bench_inprocess(rules, games, seats, seed, time.perf_counter)  # wall, as below
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
    result = BenchResult(f"{rules.name} (sandboxed)", games, seats, elapsed, decisions, engine_build())
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
    winner = winner_of(tuple(places), OutcomeReason.EMPTIED)
    faults = () if faulty is None else (Fault(faulty, game.table[faulty], FaultCode.TIMEOUT, "slow"),)
    return GameRecord(game.game_id, game.deal_id, game.table, game.deal_seed, tuple(places),
                      winner, OutcomeReason.EMPTIED, 40, 0.01, faults)
