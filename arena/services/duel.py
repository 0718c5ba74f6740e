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
disqualifies no one: every game is played and each bot's faults are counted. Only a file that
cannot be a bot at all (it does not parse, or has no ``Bot`` class with ``act``) is refused
before the first game, as a tournament refuses it.

The deals derive from one ``seed`` and the bots' names
(:func:`~arena.tournament.schedule.table_deal_seed`), so whoever knows it knows every hand and
the stock order. Without ``seed`` the runner draws a fresh secret one
(:func:`~arena.tournament.setup.settle_seed`); :attr:`DuelResult.seed` gives it back, and
passing it again replays the same games. Unlike a tournament's, a duel's deals do not depend on
the bots' versions (:data:`~arena.tournament.schedule.DEALS_BY_NAME`): a duel keeps nothing to
grow, and the same seed deals a bot's next version the same cards, so that two versions can be
compared game for game.

A bot's *win rate* is the share of its games that one of its seats won; drawn games (blocked
ties, the decision cap) count for nobody. With ``k`` of ``n`` seats a bot that plays no better
than the others wins about ``k / n`` of the games: :attr:`DuelResult.par` gives that share.
Each bot's *score* against the field, with its 95% interval, Elo difference and likelihood of
superiority, is :mod:`arena.services.duelstats`'s, over the complete deals.

Two bots at two seats can be put to an SPRT (``sprt``): the duel then stops at the first deal
pair where the test decides, ``games`` being only the most it may play. The runner feeds the
games to the test in game order, so the stop point, like everything else, depends only on the
seed. ``progress`` receives a :class:`DuelProgress` about ten times a second while it plays.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from arena.engine.rules import RuleSet
from arena.errors import ConfigError
from arena.sandbox import BotSpec
from arena.services.duelstats import DuelScores, SprtOutcome
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.records import Fault, GameRecord
from arena.tournament.runner import Progress, run_plan
from arena.tournament.schedule import DEALS_BY_NAME, deal_seatings, rounds_for, tables
from arena.tournament.setup import Plan, resolved_plan
from arena.tournament.sprt import Estimate, Pentanomial, Sprt
from arena.tournament.store import Store

DUEL_NAME = "duel"      # the tournament's name, hence its store's: duel.sqlite
PROGRESS_EVERY = 0.1    # seconds between two DuelProgress snapshots


@dataclass
class BotTally:
    """One bot's totals in a duel."""

    name: str
    seats: int          # seats it holds in every game
    games: int = 0
    wins: int = 0
    faults: Counter[str] = field(default_factory=Counter)   # fault code -> count
    score: Estimate | None = None   # against the field, over the complete deals
    moves_asked: int = 0            # the moves its seats were asked for (every copy's)
    # the seconds the referee waited for their replies: wall clock, which no two runs of the
    # same duel share, so left out of comparing results (the moves asked are compared)
    think_s: float = field(default=0.0, compare=False)

    @property
    def win_rate(self) -> float:
        """Games won / games played."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ms_per_move(self) -> float | None:
        """Mean milliseconds the bot took to reply to a move, ``None`` with no move asked."""
        return 1000.0 * self.think_s / self.moves_asked if self.moves_asked else None


@dataclass
class DuelResult:
    """The outcome of :func:`duel`: per-bot tallies in the order the bots were given, the seed
    the deals came from, and every fault in game order (detail and the bot's log tail).

    ``games`` were played and counted of at most ``budget``; ``deals`` is the complete deals the
    scores are taken over. ``pairs`` are the pentanomial counts (two bots at two seats), ``sprt``
    where the test stood when the duel ended (``None`` without one).
    """

    rules: str
    seats: int
    games: int
    draws: int
    tallies: list[BotTally]
    seed: int
    faults: tuple[Fault, ...] = ()
    budget: int = 0
    deals: int = 0
    pairs: Pentanomial | None = None
    sprt: SprtOutcome | None = None

    def par(self, tally: BotTally) -> float:
        """The win rate of a bot no better than the others (its share of the seats)."""
        return tally.seats / self.seats

    def win_rates(self) -> dict[str, float]:
        """Win rate by bot name."""
        return {t.name: t.win_rate for t in self.tallies}


@dataclass(frozen=True)
class DuelProgress:
    """A snapshot of a running duel: ``games`` counted of at most ``budget`` after ``elapsed``
    seconds, the first bot's score against the field so far, and the SPRT's state."""

    games: int
    budget: int
    elapsed: float
    first: str
    score: Estimate | None
    sprt: SprtOutcome | None

    @property
    def games_per_s(self) -> float:
        """Games per second so far."""
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        """Seconds until the budget is spent at this rate (an SPRT may stop sooner)."""
        rate = self.games_per_s
        return (self.budget - self.games) / rate if rate > 0 else None


DuelProgressCallback = Callable[[DuelProgress], None]


def duel(specs: Sequence[BotSpec], rules: RuleSet, games: int, seats: int | None = None, *,
         seed: int | None = None, workers: int | None = None, trusted: bool = False,
         sprt: Sprt | None = None, progress: DuelProgressCallback | None = None) -> DuelResult:
    """Play ``games`` sandboxed games between ``specs`` (2 or more, names unique); tally them.

    ``seed`` (default: a fresh secret one) is the seed of the deals; ``workers`` the number of
    worker processes (default: the CPU count). ``trusted`` runs the bots without isolation;
    otherwise a machine without it is refused (:class:`~arena.sandbox.IsolationUnavailable`).
    ``sprt`` (two bots at two seats, else :class:`ConfigError`) stops the duel once it decides;
    ``progress`` is called with snapshots while it plays.
    Ctrl-C stops the games and raises ``KeyboardInterrupt``: a duel keeps nothing to resume.
    """
    plan = duel_plan(specs, rules, games, seats, seed=seed, workers=workers)
    scores = DuelScores(plan.config.bot_names, plan.config.seats, len(deal_seatings(plan.config)),
                        sprt)
    relay = None if progress is None else _Relay(progress, scores, games)
    with tempfile.TemporaryDirectory(prefix="arena-duel-") as folder:
        report = run_plan(plan, folder, max_games=games, trusted=trusted, disqualify=False,
                          contract=True,
                          progress=None if relay is None else relay.send, on_game=scores.add)
        if report.interrupted:
            raise KeyboardInterrupt
        if relay is not None:
            relay.finish()
        assert report.seed is not None  # the runner settles it before the first game
        with Store.open(report.store_path, readonly=True) as store:
            # The games the scores counted: any played after the SPRT decided are left out.
            counted = itertools.islice(store.games(), scores.games)
            return _tally(plan, counted, report.seed, scores, games)


class _Relay:
    """Turns the runner's progress into :class:`DuelProgress`, at most every PROGRESS_EVERY s,
    and the duel's last count once it has ended (:meth:`finish`)."""

    def __init__(self, progress: DuelProgressCallback, scores: DuelScores, budget: int) -> None:
        self.progress, self.scores, self.budget = progress, scores, budget
        self.last = -PROGRESS_EVERY
        self.elapsed = 0.0
        self.sent: int | None = None   # the count of games of the last snapshot sent

    def send(self, state: Progress) -> None:
        """The runner's progress callback."""
        self.elapsed = state.elapsed
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        self._snapshot()

    def finish(self) -> None:
        """The last count, unless it was sent already (the runner's last word can come within
        PROGRESS_EVERY of the one before)."""
        if self.sent != self.scores.games:
            self._snapshot()

    def _snapshot(self) -> None:
        first = self.scores.bots[0]
        self.sent = self.scores.games
        self.progress(DuelProgress(self.scores.games, self.budget, self.elapsed, first,
                                   self.scores.estimate(first), self.scores.outcome))


def duel_plan(specs: Sequence[BotSpec], rules: RuleSet, games: int, seats: int | None = None, *,
              seed: int | None = None, workers: int | None = None) -> Plan:
    """The tournament a duel plays: a round-robin of ``specs`` at ``seats`` (default: the rule
    set's) with every rotation of the seats, enough deals for ``games`` games (its first
    ``games`` games are the duel's), dealt from ``seed`` (``None``: drawn when it runs)."""
    seat_count = check_duel(specs, rules, games, seats)
    config = TournamentConfig(name=DUEL_NAME, bots=tuple(bot_entry(spec) for spec in specs),
                              rules=rules.name, seats=seat_count, seatings="rotations",
                              seed=seed, workers=workers)
    rotations = len(deal_seatings(config))
    config = replace(config, rounds=rounds_for(games, rotations))
    # dealt by name: the same --seed deals a bot's next version the same cards (module docstring)
    return replace(resolved_plan(config, {spec.name: spec for spec in specs}, rules),
                   deals=DEALS_BY_NAME)


def check_duel(specs: Sequence[BotSpec], rules: RuleSet, games: int, seats: int | None = None) -> int:
    """The seats a duel of ``specs`` plays at (``seats``, default the rule set's); a duel that
    cannot be played raises :class:`ConfigError` (it is checked before a seed is drawn)."""
    seat_count = rules.seats_default if seats is None else seats
    rules.check_seats(seat_count)
    _check_specs(specs, seat_count, games)
    return seat_count


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


def bot_entry(spec: BotSpec) -> BotEntry:
    """``spec`` as a tournament file would name it (the store records it in the config text)."""
    entry: dict[str, Any] = {"name": spec.name}
    if spec.command is not None:
        entry["cmd"] = list(spec.command)
    else:
        entry.update({"path": str(spec.path), "class": spec.class_name})
    if spec.options:  # a bot without options is named as it always was
        entry["options"] = dict(spec.options)
    return BotEntry(spec.name, entry)


def _tally(plan: Plan, records: Iterable[GameRecord], seed: int, scores: DuelScores,
           budget: int) -> DuelResult:
    """Count the stored games (in game order) per bot; the scores come from ``scores``."""
    line_up = tables(plan.config)[0]
    tallies = {entry.name: BotTally(entry.name, line_up.count(entry.name),
                                    score=scores.estimate(entry.name))
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
        for name, (moves, seconds) in zip(record.table, record.think):
            tallies[name].moves_asked += moves
            tallies[name].think_s += seconds
    return DuelResult(plan.rules.name, plan.config.seats, games, draws, list(tallies.values()),
                      seed, tuple(faults), budget, scores.deals, scores.pairs, scores.outcome)
