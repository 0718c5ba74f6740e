"""Head-to-head evaluation: seeded games between a few bots, seats rotated over duplicate deals.

:func:`duel` plays ``games`` games of one rule set. The bots fill the seats in turn (``A B A B``
for two bots at four seats, ``A B C A`` for three); every deal is played once per distinct
rotation of that line-up, so each bot meets the same cards from every seat and luck of the deal
cancels out. Every bot runs sandboxed (:class:`~arena.sandbox.SandboxedBot` under a
:class:`~arena.play.referee.Referee`). Games are split between worker processes by deal; the result
does not depend on the number of workers.

The deals derive from one ``seed`` (:func:`~arena.tournament.schedule.deal_seed`), so whoever
knows it knows every hand and the stock order. Without ``seed`` a fresh secret one is drawn
(:func:`~arena.tournament.schedule.fresh_seed`); :attr:`DuelResult.seed` gives it back, and
passing it again replays the same deals.

A bot's *win rate* is the share of its games that one of its seats won; drawn games (blocked
ties, the decision cap) count for nobody. With ``k`` of ``n`` seats a bot that plays no better
than the others wins about ``k / n`` of the games: :attr:`DuelResult.par` gives that share.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from arena.play.referee import GameResult, Referee
from arena.engine.rules import RuleSet
from arena.sandbox import BotSpec, Limits, SandboxedBot, check_isolation
from arena.sandbox.runtime import release_runtime
from arena.sandbox.snapshot import snapshot
from arena.tournament.schedule import deal_seed, fresh_seed



@dataclass
class BotTally:
    """One bot's totals in a duel."""

    name: str
    seats: int          # seats it holds in every game
    games: int = 0
    wins: int = 0
    faults: Counter = field(default_factory=Counter)

    @property
    def win_rate(self) -> float:
        """Games won / games played."""
        return self.wins / self.games if self.games else 0.0


@dataclass
class DuelResult:
    """The outcome of :func:`duel`: per-bot tallies in the order the bots were given, and the
    seed the deals came from."""

    rules: str
    seats: int
    games: int
    draws: int
    tallies: list[BotTally]
    seed: int

    def par(self, tally: BotTally) -> float:
        """The win rate of a bot no better than the others (its share of the seats)."""
        return tally.seats / self.seats

    def win_rates(self) -> dict[str, float]:
        """Win rate by bot name."""
        return {t.name: t.win_rate for t in self.tallies}


def lineups(names: Sequence[str], seats: int) -> list[tuple[int, ...]]:
    """The distinct rotations of the line-up: seat ``i`` holds bot ``(i + shift) % len(names)``."""
    base = [i % len(names) for i in range(seats)]
    found: list[tuple[int, ...]] = []
    for shift in range(seats):
        rotated = tuple(base[(i + shift) % seats] for i in range(seats))
        if rotated not in found:
            found.append(rotated)
    return found


def schedule(bot_count: int, seats: int, games: int, seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """``games`` (deal seed, line-up) pairs: each deal in every rotation, the last deal cut short."""
    rotations = lineups(list(range(bot_count)), seats)
    plan = []
    deal = 0
    while len(plan) < games:
        for lineup in rotations[: games - len(plan)]:
            plan.append((deal_seed(seed, deal), lineup))
        deal += 1
    return plan


def duel(specs: Sequence[BotSpec], rules: RuleSet, games: int, seats: int | None = None, *,
         seed: int | None = None, limits: Limits | None = None, workers: int | None = None,
         trusted: bool = False,
         progress: Callable[[int], None] | None = None) -> DuelResult:
    """Play ``games`` sandboxed games between ``specs`` (2 or more, names unique); tally them.

    ``seed`` (default: a fresh secret one) is the seed of the deals; ``progress`` is called in
    the parent with the number of games finished so far. ``trusted``
    runs the bots without isolation; otherwise a machine without it is refused
    (:class:`~arena.sandbox.IsolationUnavailable`).
    """
    if not trusted:
        check_isolation()
    seat_count = seats or rules.seats_default
    rules.check_seats(seat_count)
    _check_specs(specs, seat_count)
    seed = fresh_seed() if seed is None else seed
    plan = schedule(len(specs), seat_count, games, seed)
    worker_count = max(1, min(workers or os.cpu_count() or 1, len(plan) // 20 or 1))
    chunks = [plan[i::worker_count] for i in range(worker_count)]
    with tempfile.TemporaryDirectory(prefix="arena-duel-") as folder:
        # Every worker plays the same bytes, whatever happens to the files meanwhile.
        frozen = [snapshot(spec, Path(folder))[0] for spec in specs]
        cpus = sorted(os.sched_getaffinity(0))
        jobs = [(frozen, rules, chunk, limits or Limits(), trusted, cpus[w % len(cpus)])
                for w, chunk in enumerate(chunks)]
        if worker_count == 1:
            outcomes = [_play_chunk(jobs[0], progress)]
        else:
            with multiprocessing.get_context("fork").Pool(worker_count) as pool:
                outcomes = pool.map(_play_chunk, jobs)
            if progress:
                progress(len(plan))
    return _tally(specs, rules, seat_count, plan, outcomes, seed)


def _check_specs(specs: Sequence[BotSpec], seats: int) -> None:
    from arena.errors import ConfigError

    if len(specs) < 2:
        raise ConfigError("a duel needs at least two bots")
    if len(specs) > seats:
        raise ConfigError(f"{len(specs)} bots do not fit {seats} seats")
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ConfigError(f"bot names must differ: {names}")


def _play_chunk(job, progress: Callable[[int], None] | None = None) -> list[tuple[int | None, list[tuple[int, str]]]]:
    """Play one worker's games: (winning seat, [(seat, fault code)]) per game, in order."""
    specs, rules, chunk, limits, trusted, cpu = job
    referee = Referee(rules)
    pool: dict[tuple[int, int], SandboxedBot] = {}   # (bot index, copy number) -> process
    results = []
    try:
        for done, (seed, lineup) in enumerate(chunk, 1):
            clients = []
            copies: Counter = Counter()
            for bot in lineup:
                key = (bot, copies[bot])
                copies[bot] += 1
                if key not in pool:
                    pool[key] = SandboxedBot(specs[bot], limits, trusted=trusted, cpus={cpu})
                clients.append(pool[key])
            result: GameResult = referee.play(clients, seed)
            results.append((result.winner, [(f.seat, f.code.name) for f in result.faults]))
            if progress:
                progress(done)
    finally:
        for bot in pool.values():
            bot.close()
        release_runtime()  # a pool worker exits without running atexit
    return results


def _tally(specs: Sequence[BotSpec], rules: RuleSet, seats: int, plan, outcomes, seed: int) -> DuelResult:
    tallies = [BotTally(s.name, sum(1 for i in range(seats) if i % len(specs) == b))
               for b, s in enumerate(specs)]
    draws = 0
    worker_count = len(outcomes)
    for index, (_, lineup) in enumerate(plan):
        winner, faults = outcomes[index % worker_count][index // worker_count]
        for bot in set(lineup):
            tallies[bot].games += 1
        if winner is None:
            draws += 1
        else:
            tallies[lineup[winner]].wins += 1
        for seat, code in faults:
            tallies[lineup[seat]].faults[code] += 1
    return DuelResult(rules.name, seats, len(plan), draws, tallies, seed)
