"""Calibration: how often the rankings tell equal bots apart, and what each seat is worth.

:func:`calibrate` plays ``runs`` tournaments between ``copies`` copies of one bot, named
``greedy#1`` ... ``greedy#N``, at least one for each of the ``seats`` seats (a copy holding two
seats would win twice as often): a round-robin in which every deal is played in each rotation
of its table (the seatings of every tournament), ``games`` games a run (the last round cut
short), each run dealt from its own seed (:func:`run_seed` of ``seed``). Each run is a real tournament
(:func:`~arena.tournament.runner.run_plan`): sandboxed bots, the workers, a results store, into
a temporary folder unless ``folder`` keeps the stores (``calibrate-1.sqlite`` ...). As in a
duel nobody is disqualified; games with a fault are counted.

*False separation.* The copies are equal, so a ranking that tells them apart is wrong. After
every deal of a run (all its seatings) and at the end, the copies are ranked as the rankings rank
them (TrueSkill at ``tau = 0``, by ``mu - 3 sigma``, ties by name) on the run's games so far, and
:func:`~arena.tournament.separation.separation` judges that ranking at ``margin``: it *looks
separated* when every neighbouring pair is at least ``margin`` standard deviations of their
difference apart, the stopping signal of an adaptive tournament. :class:`FalseSeparation` gives:

* ``runs``: the runs in which the ranking looked separated at some check, of all runs: how
  often a tournament stopped by that signal would have stopped on noise;
* ``pairs``: of the neighbouring pairs of every run's final ranking, those at least ``margin``
  apart.

Both come with 95% Wilson intervals (:func:`~arena.tournament.stats.wilson_interval`), the
interval for the small counts of a few runs; the runs are independent, the pairs of one run are
not, so the pairs' interval is only a guide.

The figures are given twice. ``as_played`` rates every game, as the tournament did. A bot whose
only randomness is the referee's seed, as every built-in bot, plays the same game in every
seating of a deal (the seed goes with the seat), so under duplicate deals its copies win,
lose and place exactly alike: the duplicate deals cancel all their luck and the ratings stay
together. :attr:`Calibration.identical_deals` counts the deals that played the same game in
every seating. ``each_deal_once`` rates one seating of each deal (seating ``d mod k`` of deal
``d``, ``k`` seatings a deal: every copy sits in every seat in turn), the games a tournament that
dealt each deal once would have played: there the luck of the deal is not cancelled, so it shows
how often the margin mistakes luck for skill. Bots that differ lie between the two: duplicate
deals cancel much of their luck, not all of it.

*Seat advantage.* Every seat's win rate over every game of every run, with its interval
(:class:`~arena.tournament.seats.SeatBias`, counted from each run's stored summary): copies of
one bot leave nothing but the seat to decide who wins.

``progress`` receives a :class:`CalibrationProgress` while the games are played.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena.engine.rules import RuleSet
from arena.errors import ConfigError
from arena.sandbox import BotSpec
from arena.services.duel import bot_entry
from arena.tournament.config import TournamentConfig
from arena.tournament.export import seat_bias_json
from arena.tournament.records import GameRecord
from arena.tournament.runner import Progress, run_plan
from arena.tournament.schedule import MAX_TABLES, deal_seatings, fresh_seed, rounds_for, tables
from arena.tournament.seats import SeatBias, SeatTally
from arena.tournament.separation import DEFAULT_MARGIN, Separation, separation
from arena.tournament.setup import Plan, resolved_plan
from arena.tournament.skill import Ratings
from arena.tournament.stats import Interval, wilson_interval
from arena.tournament.store import Store

DEFAULT_COPIES = 4
DEFAULT_GAMES = 200     # a run's games, as a duel's
DEFAULT_RUNS = 20       # as many seeded runs as the rating facts were measured on
NAME = "calibrate"      # run k's tournament (and store) is calibrate-k


@dataclass(frozen=True)
class Share:
    """``count`` of ``total`` with its 95% Wilson interval (``None`` when ``total`` is 0)."""

    count: int
    total: int

    @property
    def rate(self) -> float | None:
        """``count / total``."""
        return self.count / self.total if self.total else None

    @property
    def interval(self) -> Interval | None:
        """The 95% Wilson score interval of the rate."""
        return wilson_interval(self.count / self.total, self.total) if self.total else None


@dataclass(frozen=True)
class FalseSeparation:
    """How often the copies looked separated at the margin, in one view of the games: in how
    many ``runs`` at some check, and how many neighbouring ``pairs`` at the end."""

    runs: Share
    pairs: Share


@dataclass(frozen=True)
class ViewOutcome:
    """One run seen one way: the games rated, the number of games rated when the ranking first
    looked separated (``None``: never), and the final ranking's gaps."""

    games: int
    separated_at: int | None
    final: Separation


@dataclass(frozen=True)
class RunOutcome:
    """One run of a calibration: its number (from 1), seed, games, faulty games, identical and
    complete deals, and both views of its games (see the module doc)."""

    run: int
    seed: int
    games: int
    faulty_games: int
    deals: int
    identical_deals: int
    as_played: ViewOutcome
    each_deal_once: ViewOutcome


@dataclass(frozen=True)
class Calibration:
    """The outcome of :func:`calibrate`: what was played, both views' false separation, the
    identical deals and the seat bias of every game (module doc)."""

    bot: str
    copies: tuple[str, ...]
    rules: str
    seats: int
    games: int
    margin: float
    seed: int
    runs: tuple[RunOutcome, ...]
    seat_bias: SeatBias

    @property
    def as_played(self) -> FalseSeparation:
        """False separation rating every game, as the tournament did."""
        return _false_separation([run.as_played for run in self.runs])

    @property
    def each_deal_once(self) -> FalseSeparation:
        """False separation rating one seating of each deal."""
        return _false_separation([run.each_deal_once for run in self.runs])

    @property
    def deals(self) -> int:
        """The complete deals of every run (every seating played)."""
        return sum(run.deals for run in self.runs)

    @property
    def identical_deals(self) -> int:
        """The complete deals whose seatings all played the same game."""
        return sum(run.identical_deals for run in self.runs)

    @property
    def faulty_games(self) -> int:
        """Games in which a copy faulted."""
        return sum(run.faulty_games for run in self.runs)

    def to_json(self) -> dict[str, Any]:
        """The object ``arena calibrate --json`` prints: ``{"bot", "copies", "rules", "seats",
        "games", "margin", "seed", "as_played", "each_deal_once", "deals", "identical_deals",
        "faulty_games", "seat_bias", "runs"}``. Each view is ``{"runs": SHARE, "pairs":
        SHARE}``, a share ``{"count", "total", "rate", "ci"}``; ``seat_bias`` is
        :func:`~arena.tournament.export.seat_bias_json`; ``runs`` lists every run's ``{"run",
        "seed", "games", "faulty_games", "deals", "identical_deals", "as_played",
        "each_deal_once"}``, a view of one run being ``{"games", "separated_at", "pairs_apart",
        "closest"}`` (``closest`` the smallest final gap in sigmas, ``null`` for one copy)."""
        return {
            "bot": self.bot, "copies": list(self.copies), "rules": self.rules,
            "seats": self.seats, "games": self.games, "margin": self.margin, "seed": self.seed,
            "as_played": _separation_json(self.as_played),
            "each_deal_once": _separation_json(self.each_deal_once),
            "deals": self.deals, "identical_deals": self.identical_deals,
            "faulty_games": self.faulty_games, "seat_bias": seat_bias_json(self.seat_bias),
            "runs": [_run_json(run) for run in self.runs],
        }


@dataclass(frozen=True)
class CalibrationProgress:
    """A snapshot of a calibration: run ``run`` of ``runs`` has played ``games`` of its
    ``budget``, ``elapsed`` seconds after the first run began."""

    run: int
    runs: int
    games: int
    budget: int
    elapsed: float


CalibrationProgressCallback = Callable[[CalibrationProgress], None]


def calibrate(spec: BotSpec, rules: RuleSet, copies: int = DEFAULT_COPIES,
              games: int = DEFAULT_GAMES, seats: int | None = None, *, runs: int = DEFAULT_RUNS,
              margin: float = DEFAULT_MARGIN, seed: int | None = None,
              workers: int | None = None, trusted: bool = False,
              progress: CalibrationProgressCallback | None = None,
              folder: str | Path | None = None) -> Calibration:
    """Play ``runs`` tournaments of ``games`` games between ``copies`` copies of ``spec`` at
    ``seats`` (default: the rule set's) and judge their rankings at ``margin`` (module doc).

    ``seed`` (default: a fresh secret one) gives every run's seed; ``workers`` the worker
    processes (default: the CPU count); ``trusted`` runs the bots without isolation. The first
    run checks the bot before its first game (:class:`~arena.tournament.runner.BotRefusedError`);
    bad numbers raise :class:`ConfigError`. ``folder`` keeps the runs' stores there
    (``calibrate-1.sqlite`` ...; the runs of an earlier calibration of the same setup there are
    resumed). Ctrl-C stops the games and raises ``KeyboardInterrupt``.
    """
    check_calibration(rules, copies, games, seats, runs, margin)
    chosen = fresh_seed() if seed is None else seed
    plans = [calibration_plan(spec, rules, copies, games, seats, seed=run_seed(chosen, index),
                              workers=workers, name=f"{NAME}-{index}")
             for index in range(1, runs + 1)]  # every plan is checked before the first game
    started = time.monotonic()
    outcomes, tallies = [], []
    with _results_folder(folder) as where:
        for index, plan in enumerate(plans, start=1):
            relay = None if progress is None else _relay(progress, index, runs, games, started)
            report = run_plan(plan, where, max_games=games, trusted=trusted, disqualify=False,
                              check=index == 1, progress=relay)
            if report.interrupted:
                raise KeyboardInterrupt
            with Store.open(report.store_path, readonly=True) as store:
                outcomes.append(judge_run(index, plan, store.games(moves=False), margin))
                tallies.append(store.summary().seats)
    bias = SeatTally.pooled(tallies).bias()
    assert bias is not None  # every run plays at least one game
    first = plans[0].config
    return Calibration(spec.name, first.bot_names, rules.name, first.seats, games, margin,
                       chosen, tuple(outcomes), bias)


def calibration_plan(spec: BotSpec, rules: RuleSet, copies: int, games: int,
                     seats: int | None = None, *, seed: int, workers: int | None = None,
                     name: str = f"{NAME}-1") -> Plan:
    """The tournament of one run: ``copies`` copies of ``spec`` (``<name>#1`` ...) in a round-robin
    at ``seats`` (default: the rule set's), every rotation of each deal, enough rounds for
    ``games`` games (the run plays its first ``games``), dealt from ``seed``."""
    seat_count = _check_seating(rules, copies, seats)
    twins = [replace(spec, name=f"{spec.name}#{number}") for number in range(1, copies + 1)]
    config = TournamentConfig(name=name, bots=tuple(bot_entry(twin) for twin in twins),
                              rules=rules.name, seats=seat_count, seatings="rotations",
                              seed=seed, workers=workers)
    per_round = len(tables(config)) * len(deal_seatings(config))
    config = replace(config, rounds=rounds_for(games, per_round))
    return resolved_plan(config, {twin.name: twin for twin in twins}, rules)


def run_seed(seed: int, run: int) -> int:
    """The 63-bit seed of run ``run`` (from 1) of a calibration seeded with ``seed``."""
    digest = hashlib.sha256(f"{seed}:calibrate:{run}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def judge_run(run: int, plan: Plan, records: Iterable[GameRecord], margin: float) -> RunOutcome:
    """One run's outcome from its stored games, given in schedule order (module doc)."""
    assert plan.config.seed is not None
    per_deal = len(deal_seatings(plan.config))
    played, once = _View(plan.config.bot_names, margin), _View(plan.config.bot_names, margin)
    games = faulty = deals = identical = 0
    for deal in _deals(records):
        for record in deal:
            played.rate(record)
            if record.game_id - record.deal_id * per_deal == record.deal_id % per_deal:
                once.rate(record)
                once.check()
        played.check()
        games += len(deal)
        faulty += sum(bool(record.faults) for record in deal)
        if len(deal) == per_deal:
            deals += 1
            identical += len({_ending(record) for record in deal}) == 1
    return RunOutcome(run, plan.config.seed, games, faulty, deals, identical, played.outcome(),
                      once.outcome())


class _View:
    """The ratings of one view of a run's games, and what its checks found."""

    def __init__(self, bots: Sequence[str], margin: float) -> None:
        self.bots, self.margin = tuple(bots), margin
        self.ratings = Ratings()
        self.separated_at: int | None = None

    def rate(self, record: GameRecord) -> None:
        self.ratings.add(record)

    def check(self) -> None:
        if self.separated_at is None and self.separation().complete:
            self.separated_at = self.ratings.applied

    def separation(self) -> Separation:
        """The ranking's gaps now, ranked as the rankings are: by ``mu - 3 sigma``, then name."""
        rated = [(bot, self.ratings.rating(bot)) for bot in self.bots]
        rated.sort(key=lambda pair: (-pair[1].score, pair[0]))
        return separation([(bot, r.mu, r.sigma) for bot, r in rated], self.margin)

    def outcome(self) -> ViewOutcome:
        return ViewOutcome(self.ratings.applied, self.separated_at, self.separation())


def _deals(records: Iterable[GameRecord]) -> Iterator[list[GameRecord]]:
    """The games grouped by deal (a deal's seatings come one after the other)."""
    deal: list[GameRecord] = []
    for record in records:
        if deal and record.deal_id != deal[0].deal_id:
            yield deal
            deal = []
        deal.append(record)
    if deal:
        yield deal


def _ending(record: GameRecord) -> tuple[Any, ...]:
    """What tells two seatings of a deal apart: how each seat finished (the bots' names, which
    the seating moves, left out)."""
    faults = tuple((fault.seat, fault.code) for fault in record.faults)
    return record.places, record.winner, record.reason, record.decisions, faults


def _false_separation(views: Sequence[ViewOutcome]) -> FalseSeparation:
    runs = Share(sum(view.separated_at is not None for view in views), len(views))
    pairs = Share(sum(view.final.pairs_apart for view in views),
                  sum(len(view.final.gaps) for view in views))
    return FalseSeparation(runs, pairs)


def check_calibration(rules: RuleSet, copies: int, games: int, seats: int | None = None,
                      runs: int = DEFAULT_RUNS, margin: float = DEFAULT_MARGIN) -> None:
    """Raise :class:`ConfigError` for a calibration that cannot be played (checked before a
    seed is drawn, and again by :func:`calibrate`)."""
    _check_numbers(copies, games, runs, margin)
    _check_seating(rules, copies, seats)


def _check_seating(rules: RuleSet, copies: int, seats: int | None) -> int:
    """The seats of a run (``seats``, default the rule set's), checked against the copies."""
    seat_count = rules.seats_default if seats is None else seats
    rules.check_seats(seat_count)
    if copies < seat_count:
        raise ConfigError(f"{copies} copies cannot each hold one of {seat_count} seats: give at "
                          f"least {seat_count} (a copy holding two seats is no longer an equal)")
    table_count = math.comb(copies, seat_count)
    if table_count > MAX_TABLES:  # said before tables() would, in a calibration's words
        raise ConfigError(f"{copies:,} copies at {seat_count} seats make {table_count:,} tables, "
                          f"more than the {MAX_TABLES:,} a run holds: give fewer copies")
    return seat_count


def _check_numbers(copies: int, games: int, runs: int, margin: float) -> None:
    if copies < 2:
        raise ConfigError(f"a calibration needs at least 2 copies of the bot, got {copies}")
    if games < 1:
        raise ConfigError(f"a calibration run needs at least one game, got {games}")
    if runs < 1:
        raise ConfigError(f"a calibration needs at least one run, got {runs}")
    if not (math.isfinite(margin) and margin > 0):
        raise ConfigError(f"the margin is a number of standard deviations above 0, got {margin}")


@contextmanager
def _results_folder(folder: str | Path | None) -> Iterator[Path]:
    """``folder``, or a temporary one removed afterwards."""
    if folder is not None:
        yield Path(folder)
        return
    with tempfile.TemporaryDirectory(prefix="arena-calibrate-") as temporary:
        yield Path(temporary)


def _relay(progress: CalibrationProgressCallback, run: int, runs: int, budget: int,
           started: float) -> Callable[[Progress], None]:
    """The runner's progress of one run, as a :class:`CalibrationProgress`."""
    def send(state: Progress) -> None:
        progress(CalibrationProgress(run, runs, state.played, budget, time.monotonic() - started))
    return send


def _share_json(share: Share) -> dict[str, Any]:
    interval = share.interval
    return {"count": share.count, "total": share.total, "rate": share.rate,
            "ci": None if interval is None else list(interval)}


def _separation_json(found: FalseSeparation) -> dict[str, Any]:
    return {"runs": _share_json(found.runs), "pairs": _share_json(found.pairs)}


def _view_json(view: ViewOutcome) -> dict[str, Any]:
    closest = view.final.closest
    return {"games": view.games, "separated_at": view.separated_at,
            "pairs_apart": view.final.pairs_apart,
            "closest": None if closest is None else closest.z}


def _run_json(run: RunOutcome) -> dict[str, Any]:
    return {"run": run.run, "seed": run.seed, "games": run.games,
            "faulty_games": run.faulty_games, "deals": run.deals,
            "identical_deals": run.identical_deals, "as_played": _view_json(run.as_played),
            "each_deal_once": _view_json(run.each_deal_once)}
