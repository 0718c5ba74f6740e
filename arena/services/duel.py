"""Head-to-head evaluation: a small tournament between a few bots, seats rotated over duplicate deals.

:func:`duel` plays ``games`` games of one rule set. The bots fill the seats in turn (``A B A B``
for two bots at four seats, ``A B C A`` for three: the first bots named take the extra seats;
with a seat each they sit in name order, as at any tournament table); every deal is played once
per distinct rotation of that line-up, so each bot meets the same cards from every seat and luck
of the deal cancels out. The last deal is cut short when ``games`` is not a multiple of the
rotations.

A duel is a tournament (:func:`duel_plan`: a round-robin with ``seatings: rotations``) that the
tournament runner (:func:`~arena.tournament.runner.run_plan`) plays into a store in a temporary
folder, removed afterwards; the result is read from the stored games. Everything else is the
tournament's too: the worker processes (the result does not depend on their number), the bots'
snapshots, the sandbox and its isolation check (``trusted``). Unlike a tournament, a duel
disqualifies no one: every game is played and each bot's faults are counted.

The deals derive from one ``seed`` (:func:`~arena.tournament.schedule.deal_seed`), so whoever
knows it knows every hand and the stock order. Without ``seed`` the runner draws a fresh secret
one (:func:`~arena.tournament.setup.settle_seed`); :attr:`DuelResult.seed` gives it back, and
passing it again replays the same games.

A bot's *win rate* is the share of its games that one of its seats won; drawn games (blocked
ties, the decision cap) count for nobody. With ``k`` of ``n`` seats a bot that plays no better
than the others wins about ``k / n`` of the games: :attr:`DuelResult.par` gives that share.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from arena.engine.rules import RuleSet
from arena.errors import ConfigError
from arena.sandbox import BotSpec
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.records import Fault, GameRecord
from arena.tournament.runner import run_plan
from arena.tournament.schedule import deal_seatings, tables
from arena.tournament.setup import Plan, resolved_plan
from arena.tournament.store import Store

DUEL_NAME = "duel"      # the tournament's name, hence its store's: duel.sqlite


@dataclass
class BotTally:
    """One bot's totals in a duel."""

    name: str
    seats: int          # seats it holds in every game
    games: int = 0
    wins: int = 0
    faults: Counter[str] = field(default_factory=Counter)   # fault code -> count

    @property
    def win_rate(self) -> float:
        """Games won / games played."""
        return self.wins / self.games if self.games else 0.0


@dataclass
class DuelResult:
    """The outcome of :func:`duel`: per-bot tallies in the order the bots were given, the seed
    the deals came from, and every fault in game order (detail and the bot's log tail)."""

    rules: str
    seats: int
    games: int
    draws: int
    tallies: list[BotTally]
    seed: int
    faults: tuple[Fault, ...] = ()

    def par(self, tally: BotTally) -> float:
        """The win rate of a bot no better than the others (its share of the seats)."""
        return tally.seats / self.seats

    def win_rates(self) -> dict[str, float]:
        """Win rate by bot name."""
        return {t.name: t.win_rate for t in self.tallies}


def duel(specs: Sequence[BotSpec], rules: RuleSet, games: int, seats: int | None = None, *,
         seed: int | None = None, workers: int | None = None,
         trusted: bool = False) -> DuelResult:
    """Play ``games`` sandboxed games between ``specs`` (2 or more, names unique); tally them.

    ``seed`` (default: a fresh secret one) is the seed of the deals; ``workers`` the number of
    worker processes (default: the CPU count). ``trusted`` runs the bots without isolation;
    otherwise a machine without it is refused (:class:`~arena.sandbox.IsolationUnavailable`).
    Ctrl-C stops the games and raises ``KeyboardInterrupt``: a duel keeps nothing to resume.
    """
    plan = duel_plan(specs, rules, games, seats, seed=seed, workers=workers)
    with tempfile.TemporaryDirectory(prefix="arena-duel-") as folder:
        report = run_plan(plan, folder, max_games=games, trusted=trusted, disqualify=False)
        if report.interrupted:
            raise KeyboardInterrupt
        assert report.seed is not None  # the runner settles it before the first game
        with Store.open(report.store_path, readonly=True) as store:
            return _tally(plan, store.games(), report.seed)


def duel_plan(specs: Sequence[BotSpec], rules: RuleSet, games: int, seats: int | None = None, *,
              seed: int | None = None, workers: int | None = None) -> Plan:
    """The tournament a duel plays: a round-robin of ``specs`` at ``seats`` (default: the rule
    set's) with every rotation of the seats, enough deals for ``games`` games (its first
    ``games`` games are the duel's), dealt from ``seed`` (``None``: drawn when it runs)."""
    seat_count = seats or rules.seats_default
    rules.check_seats(seat_count)
    _check_specs(specs, seat_count, games)
    config = TournamentConfig(name=DUEL_NAME, bots=tuple(_entry(spec) for spec in specs),
                              rules=rules.name, seats=seat_count, seatings="rotations",
                              seed=seed, workers=workers)
    rotations = len(deal_seatings(config))
    config = replace(config, rounds=-(-games // rotations))
    return resolved_plan(config, {spec.name: spec for spec in specs}, rules)


def _check_specs(specs: Sequence[BotSpec], seats: int, games: int) -> None:
    if len(specs) < 2:
        raise ConfigError("a duel needs at least two bots")
    if len(specs) > seats:
        raise ConfigError(f"{len(specs)} bots do not fit {seats} seats")
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ConfigError(f"bot names must differ: {names}")
    if games < 1:
        raise ConfigError(f"a duel needs at least one game, got {games}")


def _entry(spec: BotSpec) -> BotEntry:
    """``spec`` as a tournament file would name it (the store records it in the config text)."""
    if spec.command is not None:
        return BotEntry(spec.name, {"name": spec.name, "cmd": list(spec.command)})
    return BotEntry(spec.name, {"name": spec.name, "path": str(spec.path), "class": spec.class_name})


def _tally(plan: Plan, records: Iterable[GameRecord], seed: int) -> DuelResult:
    """Count the stored games (in game order) per bot."""
    line_up = tables(plan.config)[0]
    tallies = {entry.name: BotTally(entry.name, line_up.count(entry.name))
               for entry in plan.config.bots}
    games = draws = 0
    faults: list[Fault] = []
    for record in records:
        games += 1
        for name in set(record.table):
            tallies[name].games += 1
        if record.winner_bot is None:
            draws += 1
        else:
            tallies[record.winner_bot].wins += 1
        for fault in record.faults:
            tallies[fault.bot].faults[fault.code.name] += 1
            faults.append(fault)
    return DuelResult(plan.rules.name, plan.config.seats, games, draws, list(tallies.values()),
                      seed, tuple(faults))
