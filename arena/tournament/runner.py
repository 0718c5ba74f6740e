"""Run a tournament: workers play (local processes or a Dask cluster), the parent alone writes the store.

``run_tournament("tournaments/demo.yaml", home)`` resolves the bots and rules
(:mod:`arena.tournament.setup`), settles the seed (a file without ``seed`` gets a secret one,
drawn at the first run and kept in the store: :func:`~arena.tournament.setup.settle_seed`),
records the configuration text and hash, the seed, the rule settings and each bot's SHA-256 in
``<home>/results/<name>.sqlite`` (growing a tournament whose file gained bots or rounds or whose
bot changed, and refusing any other change under the same name unless ``restart``:
:mod:`arena.tournament.growth`), checks every bot (below), then plays the games not stored yet.
:func:`run_plan` does the same for a plan whose bots are already resolved, into any folder
(``arena duel`` is a tournament run into a temporary one).

One run at a time: the run holds the tournament's lock (:mod:`arena.tournament.lock`) from
before it opens the store until it returns; a second run of the same tournament is refused at
once with :class:`~arena.tournament.lock.TournamentBusyError`.

The checks before the first game (``check``: on by default in :func:`run_tournament`, off in
:func:`run_plan`, whose duels count faults instead): every Python bot's file must hold
its contract (it parses, with a ``Bot`` class that has ``act``:
:func:`~arena.sandbox.contract.contract_problem`, read in the parent in milliseconds), then
every bot is probed by the workers: it loads in its sandbox and answers one legal move
(:meth:`~arena.play.referee.Referee.probe`, in a game process of its own). A bot that fails is
refused with its own error on one line (:class:`BotRefusedError`) before any game is played.
A duel asks for the contract alone (``contract``): a file that cannot even be a bot is no
match to count, while a bot that breaks in play plays and loses every game.

How it stays reproducible (the same stored results and rankings for any number of workers):

* games are handed out in schedule order to a backend (:mod:`arena.tournament.pool`): the
  local pool's ``spawn`` workers (:mod:`arena.tournament.worker`), each holding a short queue
  (see Speed), or batches on a Dask cluster (:mod:`arena.tournament.cluster`: ``cluster``, or
  ``backend: dask`` in the file); deal seeds come from the schedule, per-seat bot seeds from
  the referee; bots must not carry state from one game to the next (a worker reuses each
  bot's process);
* results may arrive in any order; the parent **commits them in schedule order**, as soon as
  every earlier game is committed; games finished ahead of an earlier one wait in memory, and
  the hand-out never runs more than the backend's lookahead ahead of the oldest unfinished
  game, so that wait is short; a result for a game that is not expected (already stored or in
  hand: a cluster's batch played again) is ignored, so no game is stored twice. Committed
  games are written in batches, one transaction every :data:`FLUSH_S` seconds (or
  :data:`FLUSH_GAMES` games), which also brings the store's TrueSkill ratings and statistics
  up to date
  (:meth:`~arena.tournament.store.Store.add_games`); a stop, a failure or the end writes what is
  left first;
* disqualification (:mod:`arena.tournament.discipline`) is decided on committed games, hence in
  schedule order: a disqualified bot's later games are played with its seat given to the
  fallback from the first move. Each game is committed only if it was played with the seats
  out that the games before it put out; one played (ahead, in flight) before a
  disqualification it must follow is played again, so the stored games are the same for any
  number of workers, on either backend.

Adaptive tournaments (``until``, ``format: swiss``: :mod:`arena.tournament.adaptive`) exist a
round at a time: the hand-out stops at the end of the rounds made, and once every game of them
is committed the run writes them and makes the next round from the store's ratings, or ends the
tournament (separated, budget spent, or every round played: :attr:`RunReport.course`). So every
round is made from the same games whatever the number of workers, and a resumed run first
rebuilds its rounds from the stored games.

Stopping: Ctrl-C (``KeyboardInterrupt``, also when raised by the ``progress`` callback) stops the
workers at once (SIGTERM: each kills its bots), commits what had finished, and returns a report
with ``interrupted=True``; running again resumes. A ``kill -9`` of the parent loses only the
games in flight, waiting for an earlier one or not yet written (at most :data:`FLUSH_S`
seconds of them): workers get SIGTERM through ``PR_SET_PDEATHSIG`` and kill their bots (a
cluster's workers close the run's bots once no batch has come for a minute). Every
process logs into ``results/<name>.log``. An ``on_game`` callback (:func:`run_plan`) that
returns True stops the run early and cleanly: it is fed each game as it is committed, in
schedule order, so where it stops does not depend on the number of workers
(``arena duel --sprt``).

Speed: the parent's work per game is a read of its result, a share of one SQLite transaction,
one TrueSkill update (:mod:`arena.tournament.skill`) and a few counters; progress goes to the
display at most every :data:`TICK_S` seconds. How the workers are paced (pinned CPUs, queues,
naps, batches) is the backend's (:mod:`arena.tournament.pool`,
:mod:`arena.tournament.cluster`). :attr:`RunReport.parent_cpu_s` says what the parent cost
(``arena run`` prints it per game).
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import multiprocessing_logging

from arena.errors import ArenaError, ConfigError
from arena.play.faults import Fault, FaultCode, inert
from arena.play.referee import seat_seed
from arena.sandbox import BotSpec, check_isolation
from arena.sandbox.contract import contract_problem
from arena.tournament.adaptive import Course, CourseState, course_of
from arena.tournament.address import ClusterAddress, parse_cluster
from arena.tournament.cluster import DaskPool, require_dask
from arena.tournament.config import TournamentConfig
from arena.tournament.discipline import NEVER, Discipline
from arena.tournament.errors import ConfigChangedError, StoreWriteError, TournamentError
from arena.tournament.lock import run_lock
from arena.tournament.pool import Backend, Job, LocalPool, Message, Pace, sigint_ignored
from arena.tournament.records import GameRecord
from arena.tournament.schedule import Schedule
from arena.tournament.separation import separation
from arena.tournament.setup import Plan, make_plan, plan_from_file, settle_seed, snapshot_bots
from arena.tournament.setup import config_text as config_text_of
from arena.tournament.shipment import code_identity, pack
from arena.tournament.store import UNRECORDED_CODE, Opening, Store, remove_store, results_path
from arena.tournament.summary import Summary
from arena.tournament.worker import GameJob, Probe, WorkerSetup

log = logging.getLogger("arena.tournament")

TOP = 5                 # bots in Progress.leaders
FLUSH_S = 0.5           # committed games are written at least this often...
FLUSH_GAMES = 500       # ...or once this many wait
TICK_S = 0.25           # the progress callback is called at most this often


class BotRefusedError(ArenaError):
    """A bot failed its check before the first game (see the module doc); nothing was played."""


@dataclass
class LiveTally:
    """One bot's running counts for the live table, fed each committed game."""

    games: int = 0
    wins: int = 0
    place_sum: int = 0   # the sum of its 1-based places: divided by games, its mean place
    faults: int = 0      # games in which it faulted

    def count(self, won: bool, place: int, faulted: bool) -> None:
        """Add one game of the bot."""
        self.games += 1
        self.wins += won
        self.place_sum += place
        self.faults += faulted


@dataclass(frozen=True)
class Leader:
    """One line of the live table: a bot's counts and TrueSkill rating so far.

    The rating is the store's (:meth:`~arena.tournament.store.Store.add_games` keeps it as
    batches are written), so the live table ranks as the final rankings do (by
    ``mu - 3 sigma``; a fault already cost its game: the bot was placed last). It is the prior
    until the bot's first written game, and in a grown tournament it covers the games up to the
    first one still to play.
    """

    bot: str
    games: int
    wins: int
    place_sum: int
    faults: int
    disqualified: bool
    mu: float = 25.0
    sigma: float = 25.0 / 3.0

    @property
    def score(self) -> float:
        """The conservative rating ``mu - 3 sigma`` the rankings sort by."""
        return self.mu - 3.0 * self.sigma

    @property
    def mean_place(self) -> float | None:
        """Average finishing place (1 = first), ``None`` before the first game."""
        return self.place_sum / self.games if self.games else None

    @property
    def win_rate(self) -> float | None:
        """Share of games won, ``None`` before the first game."""
        return self.wins / self.games if self.games else None

    def sort_key(self) -> tuple[float, str]:
        """The higher ``mu - 3 sigma`` first, then the name (as the rankings)."""
        return (-self.score, self.bot)


@dataclass(frozen=True)
class Progress:
    """A snapshot for a live display, sent at most every :data:`TICK_S` seconds (and at the end).

    In an adaptive tournament ``total`` is its budget (the most games it may play) and
    ``course`` says how far its ranking is from separated, measured on the live ratings.
    """

    tournament: str
    total: int
    stored: int
    skipped: int     # always 0: a disqualified bot's games are played, by its fallback
    played: int
    faulty_games: int
    elapsed: float
    leaders: tuple[Leader, ...]
    notice: str | None = None
    course: CourseState | None = None   # an adaptive tournament's rounds, its live separation

    @property
    def done(self) -> int:
        """Games resolved: stored."""
        return self.stored + self.skipped

    @property
    def games_per_s(self) -> float:
        """Games played per second in this run."""
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        """Seconds left at the current rate, ``None`` before the first game."""
        rate = self.games_per_s
        return (self.total - self.done) / rate if rate > 0 else None


@dataclass(frozen=True)
class RunReport:
    """What a run did; ``complete`` once every game is stored (``skipped`` is always 0: a
    disqualified bot's games are played, by its fallback).

    ``seed`` is the tournament's seed; ``seed_drawn`` says it was drawn at random (the file has
    none), this run or the first one. ``growth`` says how a changed tournament grew (what was
    kept and what was left to play), ``None`` when it did not; ``code_note`` says that the stored
    games were played by another version of the arena code (:meth:`Store.code_versions`);
    ``parent_cpu_s`` is the CPU time
    the parent process spent (its threads included) while the games were played; ``cluster``
    the address of the Dask cluster that played them (``workers``: its worker threads, and
    ``batches`` the batches it was sent), ``None`` for the local pool.

    An adaptive tournament (:mod:`arena.tournament.adaptive`) has a ``course``: its rounds, the
    separation of the ranking of its stored games and why it ended (``course.end``, None while
    it goes on). Its ``total`` is the games it ended with, or its budget while it goes on.
    """

    tournament: str
    store_path: Path
    log_path: Path
    total: int
    stored: int
    skipped: int
    played: int
    elapsed: float
    workers: int
    disqualified: dict[str, str] = field(default_factory=dict)
    interrupted: bool = False
    archive: Path | None = None
    seed: int | None = None
    seed_drawn: bool = False
    growth: str | None = None
    code_note: str | None = None
    parent_cpu_s: float = 0.0
    course: CourseState | None = None
    cluster: str | None = None
    batches: int = 0

    @property
    def parent_ms_per_game(self) -> float | None:
        """Parent CPU milliseconds per game played in this run, ``None`` before any."""
        return self.parent_cpu_s / self.played * 1000 if self.played else None

    @property
    def complete(self) -> bool:
        """True when no game is left to play (an adaptive tournament: it has ended)."""
        if self.course is not None and self.course.end is None:
            return False
        return self.stored + self.skipped == self.total

    @property
    def games_per_s(self) -> float:
        """Games played per second in this run (worker start-up included)."""
        return self.played / self.elapsed if self.elapsed > 0 else 0.0


ProgressCallback = Callable[[Progress], None]
GameCallback = Callable[[GameRecord], bool]   # True: stop the run


def run_tournament(
    config: str | Path | TournamentConfig,
    home: str | Path = ".",
    *,
    workers: int | None = None,
    restart: bool = False,
    progress: ProgressCallback | None = None,
    max_games: int | None = None,
    trusted: bool = False,
    config_text: str | None = None,
    base_dir: str | Path | None = None,
    check: bool = True,
    cluster: str | None = None,
) -> RunReport:
    """Play the pending games of a tournament file (or config) under ``home``; see the module doc.

    ``workers`` defaults to the file's ``workers`` (``auto``: the CPU count); ``max_games`` stops
    cleanly after that many games in this run; ``trusted`` runs the bots without isolation (only
    for bots you wrote yourself), otherwise a machine without it is refused
    (:class:`~arena.sandbox.IsolationUnavailable`) before anything is stored; ``check`` False
    skips the checks of the bots before the first game (for tests of faults in games).
    ``cluster`` plays the games on a Dask cluster (an address of
    :mod:`arena.tournament.address`) whatever the file's ``backend``; by default the file's
    ``backend`` decides (:mod:`arena.tournament.cluster`).
    Raises ``ArenaError`` subclasses (``ConfigError``, ``ConfigChangedError``, ``StoreError``,
    :class:`~arena.tournament.lock.TournamentBusyError`, :class:`BotRefusedError`,
    :class:`TournamentError`) with one line each.
    """
    plan = _plan(config, home, config_text, base_dir)
    return run_plan(plan, Path(home) / "results", workers=workers, restart=restart,
                    progress=progress, max_games=max_games, trusted=trusted, check=check,
                    cluster=cluster)


def disqualification_notice(bot: str, reason: str) -> str:
    """The line that announces a disqualification, live and in the run's report alike (a
    front end shows it once); the reason, which the bot wrote, made inert for the terminal and
    the log."""
    return f"{bot} is disqualified: {inert(reason)}; its remaining games are played by its fallback, placed last"


def run_plan(
    plan: Plan,
    results_dir: str | Path,
    *,
    workers: int | None = None,
    restart: bool = False,
    progress: ProgressCallback | None = None,
    max_games: int | None = None,
    trusted: bool = False,
    disqualify: bool = True,
    check: bool = False,
    contract: bool = False,
    on_game: GameCallback | None = None,
    cluster: str | None = None,
) -> RunReport:
    """Play the pending games of a resolved ``plan`` into its store in ``results_dir``.

    That folder receives ``<name>.sqlite``, ``<name>.log``, ``<name>.lock`` and the bots'
    snapshots (``bots/``); :func:`run_tournament` gives ``<home>/results``, a duel a temporary
    folder. With ``disqualify`` False no bot is ever disqualified: every game is played, faults
    or not (a duel counts them instead); ``check`` runs the checks of the bots before the first
    game (:func:`run_tournament` does by default), ``contract`` the first of them alone.
    ``on_game`` is given each game once it is committed, in schedule order; when it returns
    True no more games are handed out, and the games already playing are finished and stored.
    The other keywords are :func:`run_tournament`'s; on a cluster, each worker checks it can
    isolate the bots (the parent does not play).
    """
    address = _cluster_of(plan.config, cluster, workers)
    if address is not None:
        require_dask()
    elif not trusted:
        check_isolation()
    results_dir = Path(results_dir)
    path = results_path(plan.config.name, results_dir)
    log_path = results_dir / f"{plan.config.name}.log"
    origins = {name: _origin(spec) for name, spec in plan.specs.items()}
    with run_lock(plan.config.name, results_dir):
        plan = snapshot_bots(plan, results_dir / "bots")
        if check or contract:
            _check_contracts(plan, origins)
        fresh = not path.exists()
        try:
            with Store.open(path) as store, tournament_log(log_path):
                plan = settle_seed(plan, store.tournament(), restart)
                opening = _init_store(store, plan, restart)
                code_note = _code_note(store) if opening.code_changed else None
                if opening.growth:
                    log.info("%s", opening.growth)
                if code_note:
                    log.warning("%s", code_note)
                notices = tuple(note for note in (opening.growth, code_note) if note)
                run = _Run(plan, store, _worker_count(plan.config, workers), progress, max_games,
                           trusted, disqualify, origins if check else None, on_game,
                           notices=notices, cluster=address)
                report = run.execute()
        except BotRefusedError:
            if fresh:  # nothing was played: no empty tournament is left to be listed
                remove_store(path)
            raise
    return _with(report, log_path=log_path, archive=opening.archive, seed=plan.config.seed,
                 seed_drawn=plan.seed_drawn, growth=opening.growth, code_note=code_note,
                 cluster=None if address is None else str(address))


def _plan(config: str | Path | TournamentConfig, home: str | Path, text: str | None,
          base_dir: str | Path | None) -> Plan:
    if isinstance(config, TournamentConfig):
        text = config_text_of(config) if text is None else text
        return make_plan(config, text, home, base_dir or home)
    return plan_from_file(config, home)


def _origin(spec: BotSpec) -> str:
    """Where a bot comes from, as a refusal names it: its file, or its command."""
    return str(spec.path) if spec.path is not None else " ".join(spec.command or ())


def _check_contracts(plan: Plan, origins: dict[str, str]) -> None:
    """Refuse the Python bots whose file breaks the contract (read, not run)."""
    refused = {name: problem for name, spec in plan.specs.items() if spec.path is not None
               and (problem := contract_problem(spec.path, spec.class_name)) is not None}
    if refused:
        raise _refusal(refused, origins)


def _refusal(refused: dict[str, str], origins: dict[str, str]) -> BotRefusedError:
    """One line naming every refused bot, its file and its own error."""
    parts = [f"{name!r} ({origins[name]}): {problem}" for name, problem in refused.items()]
    whom = "bot" if len(parts) == 1 else f"{len(parts)} bots are"
    return BotRefusedError(f"{whom} refused before the first game, nothing was played: "
                           + "; ".join(parts))


def _code_note(store: Store) -> str:
    """The line that says a resumed tournament's stored games were played by other arena code."""
    versions = store.code_versions()
    before = "a version that did not record itself" if versions[-2] == UNRECORDED_CODE else \
        f"another version ({versions[-2][:12]})"
    return (f"the {store.game_count()} stored games were played by {before} of the arena code, "
            f"the games of this run by this one ({versions[-1][:12]}): the rankings count both "
            f"(arena verify {store.path.stem} lists the stored games this one does not replay "
            "alike; --restart archives the games and starts over)")


def _init_store(store: Store, plan: Plan, restart: bool) -> Opening:
    try:
        return store.init_tournament(plan.config, plan.config_text, plan.rules.settings,
                                     plan.versions, restart=restart, seed_drawn=plan.seed_drawn,
                                     code=code_identity(), deals=plan.deals)
    except ConfigChangedError as error:
        raise ConfigChangedError(f"{error}: run it with --restart to archive them and start "
                                 "over, or give the tournament another name") from None


def _cluster_of(config: TournamentConfig, cluster: str | None,
                workers: int | None) -> ClusterAddress | None:
    """The cluster the games are played on (``cluster``, else the file's ``backend: dask``), or
    ``None`` for the local pool."""
    if cluster is None and config.backend != "dask":
        return None
    if workers is not None:
        raise ArenaError("workers: a count of local worker processes, not used on a cluster "
                         "(its workers are its own; local:N starts N)")
    text = cluster if cluster is not None else config.cluster
    assert text is not None  # the file's backend: dask comes with its cluster (config)
    try:
        return parse_cluster(text)
    except ConfigError as error:
        raise ConfigError(f"cluster: {error}") from None


def _worker_count(config: TournamentConfig, workers: int | None) -> int:
    count = workers if workers is not None else config.worker_count
    if count < 1:
        raise ArenaError(f"workers: expected at least 1, got {count}")
    return count


def _with(report: RunReport, **changes: Any) -> RunReport:
    return replace(report, **changes)


class _Run:
    """One run of a tournament: dispatch in schedule order, commit in schedule order.

    ``origins`` (bot -> its file or command) asks for the probes before the first game.
    """

    def __init__(self, plan: Plan, store: Store, workers: int, progress: ProgressCallback | None,
                 max_games: int | None, trusted: bool, disqualify: bool,
                 origins: dict[str, str] | None, on_game: GameCallback | None = None,
                 notices: tuple[str, ...] = (), cluster: ClusterAddress | None = None) -> None:
        self.plan, self.store, self.progress, self.on_game = plan, store, progress, on_game
        self.name = plan.config.name
        dealt = store.deal_versions(plan.versions)
        self.course = course_of(plan.config, dealt)  # None: the whole schedule exists at once
        self.schedule: Schedule | Course = (Schedule.from_config(plan.config, store.layout, dealt)
                                            if self.course is None else self.course)
        self.total = len(self.schedule)         # the games that exist (so far, when adaptive)
        self.done = store.done_game_ids()
        most = self.total if self.course is None else self.course.budget
        self.budget = max_games if max_games is not None else most  # games this run may hand out
        self.trusted = trusted
        self.cluster = cluster
        self.origins = origins
        self.discipline = Discipline(plan.config.max_faults if disqualify else NEVER)
        self.tallies = {bot: LiveTally() for bot in plan.config.bot_names}
        self.faulty_games = 0
        self.stored, self.played = 0, 0
        self.next_commit, self.next_dispatch = 0, 0
        self.in_flight: set[int] = set()
        self.buffer: dict[int, GameRecord] = {}
        self.again: list[int] = []   # games to play again: played before a disqualification
        self.kept: dict[int, GameRecord] = {}  # stored after a game still to play (grown, dropped)
        self.batch: list[GameRecord] = []  # committed, in schedule order, not yet written
        self.pace = Pace()
        self.batches = 0
        self.started = time.monotonic()
        self.cpu_started = time.process_time()
        self.last_tick = self.flushed = self.started
        self._notices = list(notices)    # not shown yet: each its own progress, oldest first
        self._replay_stored()
        # an adaptive tournament's rounds to come need workers too, not only this round's rest
        left = self._left(workers) if self.course is None else self.course.budget - len(self.done)
        self.workers = max(1, min(workers, left, self.budget))

    # -- state from the store --------------------------------------------------------------

    def _replay_stored(self) -> None:
        """Rebuild the tallies and disqualifications from the stored games (resume).

        The stored games are the first ones of the schedule, except in a grown tournament:
        there, those after its first game still to play are kept aside and counted only when
        the commits reach them (:meth:`_advance`), each checked against the disqualifications of
        the games before it, as a game just played is. An adaptive tournament's rounds are
        rebuilt from its stored games (:meth:`~arena.tournament.adaptive.Course.replay`).
        """
        records: Iterable[GameRecord] = self.store.games(moves=False)
        if self.course is not None:  # its rounds are made again from the stored games first
            records = self.course.replay(records)
            self.total = len(self.course)
        first_missing = next((g for g in range(self.total) if g not in self.done), self.total)
        for record in records:
            if record.game_id < first_missing:
                self._count(record, live=False)
            else:
                self.kept[record.game_id] = record
        self._advance()

    def _left(self, enough: int) -> int:
        """Games still to play, counted up to ``enough``."""
        left = 0
        for g in range(self.next_commit, self.total):
            if g not in self.done:
                left += 1
                if left >= enough:
                    break
        return left

    # -- the run ---------------------------------------------------------------------------

    def execute(self) -> RunReport:
        with contextlib.ExitStack() as stopping:
            return self._execute(stopping)

    def _execute(self, stopping: contextlib.ExitStack) -> RunReport:
        """The run; after a Ctrl-C, ``stopping`` holds further ones off until the report: a
        second press while the workers stop (people press again) must not cut the clean stop
        and its summary, with the command that resumes, short."""
        interrupted = False
        if self._pending_exists():
            try:
                with self._backend() as pool:
                    self.workers = pool.workers
                    try:
                        if self.origins is not None:
                            self._probe(pool, self.origins)
                        self._loop(pool)
                    except KeyboardInterrupt:
                        stopping.enter_context(sigint_ignored())
                        interrupted = True
                        self.progress = None  # no more display updates after Ctrl-C
                        log.warning("interrupted: stopping the workers")
                        pool.stop()
                        self._drain(pool)
                    finally:
                        self.batches = pool.batches
            finally:
                with sigint_ignored():
                    self._flush()  # every committed game is written, whatever stopped the run
        if self.next_commit == self.total:
            self.store.catch_up()  # a grown tournament's kept games after the last one played
        try:
            self._notify(force=True)
        except KeyboardInterrupt:
            interrupted = True
        report = self._report(interrupted)
        if report.played:
            log.info("parent CPU: %.3f s for %d games (%.3f ms a game)", report.parent_cpu_s,
                     report.played, report.parent_ms_per_game)
        return report

    def _pending_exists(self) -> bool:
        return self.next_commit < self.total and self.budget > 0

    def _backend(self) -> Backend:
        """Where the games are played: the local pool, or the cluster (:mod:`~arena.tournament.pool`)."""
        if self.cluster is None:
            return LocalPool(self._setups(), self.name, self.pace)
        shipment = pack(self.plan.specs, self.plan.rules.settings, self.plan.config.bot_names,
                        self.plan.config.limits, self.trusted)
        return DaskPool(self.cluster, shipment, self.pace)

    def _setups(self) -> list[WorkerSetup]:
        # Every worker, and so every bot, is pinned to one CPU (round robin when there are more
        # workers than CPUs): one core saves the cross-core wake-ups, and a bot sees one CPU
        # in every mode (submit pins its bots the same way), so it cannot tell them apart.
        cpus = sorted(os.sched_getaffinity(0))
        order = self.plan.config.bot_names
        return [
            WorkerSetup(
                index=i, parent_pid=os.getpid(), rules_settings=self.plan.rules.settings,
                specs=self.plan.specs, bot_order=order, limits=self.plan.config.limits,
                trusted=self.trusted, cpu=cpus[i % len(cpus)],
            )
            for i in range(self.workers)
        ]

    def _probe(self, pool: Backend, origins: dict[str, str]) -> None:
        """Before the first game: every bot still in loads and answers one legal move, each
        probe dealt from the tournament's seed (the workers probe their share at once)."""
        config = self.plan.config
        assert config.seed is not None
        bots = [bot for bot in config.bot_names if not self.discipline.is_out(bot)]
        log.info("tournament %s: checking %d bots", self.name, len(bots))
        for index, bot in enumerate(bots):
            pool.send([Probe(bot, config.seats, seat_seed(config.seed, index, "probe"))])
        faults: dict[str, Fault | None] = {}
        while len(faults) < len(bots):
            for message in pool.receive(timeout=TICK_S):
                if message[0] == "error":
                    self._handle(message)  # raises
                bot, fault = message[2]
                faults[bot] = fault
            self._notify()
        refused = {bot: f"{fault.code.name}: {fault.summary()}"
                   for bot in bots if (fault := faults[bot]) is not None}
        if refused:
            error = _refusal(refused, origins)
            log.error("tournament %s: %s", self.name, inert(str(error)))  # the log says why it stopped
            raise error

    def _loop(self, pool: Backend) -> None:
        if self.course is None:
            log.info("tournament %s: %d games, %d stored, %d workers", self.name, self.total,
                     len(self.done), self.workers)
        else:
            log.info("tournament %s (%s, until %g sigma or %d games): round %d, %d games stored, "
                     "%d workers", self.name, self.plan.config.format, self.course.until.margin,
                     self.course.budget, len(self.course.rounds), len(self.done), self.workers)
        self._dispatch(pool)
        while self.in_flight:
            messages = pool.receive(timeout=TICK_S)
            for message in messages:
                self._handle(message)
            self._dispatch(pool)
            self._notify()
            if messages and self.next_dispatch < self.total:
                # results gather meanwhile: one wake-up, several games (not at the end of an
                # adaptive round, where the workers wait for the next one to be made)
                time.sleep(pool.nap())

    def _dispatch(self, pool: Backend) -> None:
        """Hand out games to play again first, then new ones in schedule order, as many as
        the backend has room for, within the lookahead limit (an adaptive tournament's next
        round once every game of the rounds before is committed)."""
        if self.next_commit == self.total:
            self._open_round()
        while (room := pool.room(self._waiting())) > 0:
            jobs: list[Job] = []
            while self.again and len(jobs) < room:
                jobs.append(self._job(self.again.pop(0)))
            limit_ahead = self.next_commit + pool.lookahead()
            while (self.budget > 0 and len(jobs) < room
                   and self.next_dispatch < min(self.total, limit_ahead)):
                gid = self.next_dispatch
                self.next_dispatch += 1
                if gid in self.done or gid in self.in_flight:
                    continue  # stored, or being played again already
                jobs.append(self._job(gid))
                self.budget -= 1
            if not jobs:
                return
            pool.send(jobs)

    def _open_round(self) -> None:
        """At a round boundary of an adaptive tournament (every game made so far committed):
        write them, then make the next round from the ratings of all of them, or end it.

        The ratings are the store's, which now hold every game in order: the ones a resumed
        run rebuilds its rounds from (:meth:`~arena.tournament.adaptive.Course.replay`). The
        round is made even when this run may play no more (``max_games``), so a run that stops
        at a boundary where the tournament ends says it ended.
        """
        if self.course is None or self.course.end is not None:
            return
        self._flush()
        summary = self.store.kept_summary()
        if summary is None or summary.next_id != self.total:
            summary = self.store.summary()
        made = self.course.next_round(summary.rating)
        self.total = len(self.course)
        state = self.course.state
        closest = state.separation.closest
        gap = "" if closest is None else (f", closest {closest.upper}-{closest.lower} "
                                          f"{closest.z:.2f} sigma (margin {state.margin:g})")
        measured = (f"{state.separation.pairs_apart}/{len(state.separation.gaps)} neighbouring "
                    f"pairs apart{gap}")
        if made:
            log.info("round %d made (games %d..%d): %s", state.rounds,
                     self.total - self.course.round_size, self.total - 1, measured)
        elif state.end is not None:
            log.info("tournament ended (%s) after %d rounds, %d games: %s", state.end.value,
                     state.rounds, state.games, measured)

    def _waiting(self) -> int:
        """Games still to hand out (those to play again included), as far as known cheaply."""
        return len(self.again) + min(self.budget, self.total - self.next_dispatch)

    def _job(self, gid: int) -> GameJob:
        """One game to hand out, with the seats out as of now."""
        game = self.schedule[gid]
        self.in_flight.add(gid)
        return GameJob(game, self.discipline.absent(game.table))

    def _handle(self, message: Message) -> None:
        kind, worker, payload = message
        if kind == "error":
            raise TournamentError(f"worker {worker} failed; finished games are kept: "
                                  f"{payload.strip().splitlines()[-1]}")
        record = GameRecord.from_dict(payload)
        if record.game_id not in self.in_flight:
            # a second result of a game (a batch played again after its worker was lost): the
            # first one is stored or waiting to be, and a game is stored once
            log.warning("game %d arrived again from worker %s: ignored", record.game_id, worker)
            return
        self.pace.count(record.duration_s)
        if not self._current(record):
            self._again(record.game_id)  # a disqualification came first: it is out of date
            return
        self.in_flight.discard(record.game_id)
        self.buffer[record.game_id] = record
        self._advance()

    def _current(self, record: GameRecord) -> bool:
        """Whether ``record`` was played with the seats out that are out now (a bot once out
        stays out: a game played with fewer is out of date for good)."""
        return _played_absent(record) == set(self.discipline.absent(record.table))

    def _again(self, gid: int) -> None:
        """Have game ``gid`` played again (first, before new games)."""
        bisect.insort(self.again, gid)
        self.in_flight.add(gid)

    def _advance(self) -> None:
        """Commit every game that is next in schedule order and was played with the seats
        out that the games before it put out; send any other back to be played again (a kept
        game of a grown tournament is taken out of the store first)."""
        while self.next_commit < self.total:
            gid = self.next_commit
            if gid in self.kept:
                record = self.kept.pop(gid)
                if not self._current(record):
                    self.store.drop_game(gid)
                    self.done.discard(gid)
                    self._again(gid)
                    return
                self._count(record)
            elif gid in self.buffer:
                record = self.buffer.pop(gid)
                if not self._current(record):
                    self._again(gid)
                    return
                self._commit(record)
            elif gid not in self.done:
                return
            self.next_commit += 1

    def _commit(self, record: GameRecord) -> None:
        self.batch.append(record)
        self.played += 1  # counted once committed: a result still waiting for an earlier game may be lost
        self.done.add(record.game_id)
        self._count(record)
        if self.on_game is not None and self.on_game(record):
            self.budget = 0  # hand out nothing more; the games in flight are finished
        if len(self.batch) >= FLUSH_GAMES or time.monotonic() - self.flushed >= FLUSH_S:
            self._flush()

    def _flush(self) -> None:
        """Write the committed games (one transaction), with the store's ratings."""
        self.flushed = time.monotonic()
        if self.batch:
            batch, self.batch = self.batch, []
            self.store.add_games(batch)

    def _count(self, record: GameRecord, live: bool = True) -> None:
        """Feed one stored game (in schedule order) to the live tallies and the discipline."""
        self.stored += 1
        self.faulty_games += bool(record.faults)
        faulty = record.faulty_bots()
        for seat, place in enumerate(record.seat_places()):
            bot = record.table[seat]
            self.tallies[bot].count(seat == record.winner, place, bot in faulty)
        for bot, reason in self.discipline.apply(record).items():
            self._flush()  # the games that disqualified it are stored before the verdict
            self.store.mark_disqualified(bot, reason)
            if live:
                notice = disqualification_notice(bot, reason)
                self._notices.append(notice)
                log.warning("%s", notice)
            for gid in [g for g, later in self.buffer.items() if bot in later.table]:
                del self.buffer[gid]  # played ahead with the bot in: out of date
                self._again(gid)

    def _drain(self, pool: Backend) -> None:
        """After a stop: commit the results that had already arrived, in schedule order (also
        those that were waiting when the stop came in the middle of a commit)."""
        for message in pool.leftovers():
            if message[0] == "game":
                self._handle(message)
        self._advance()

    # -- reporting -------------------------------------------------------------------------

    def _notify(self, force: bool = False) -> None:
        now = time.monotonic()
        if now - self.flushed >= FLUSH_S:
            self._flush()  # a quiet spell (slow games): what is committed gets written anyway
        if self.progress is None or (not force and now - self.last_tick < TICK_S):
            return
        self.last_tick = now
        notices: list[str | None] = [*self._notices] or [None]   # one progress per notice
        self._notices.clear()
        lines = self._lines()
        # the games stored after one still to play (a grown tournament, or games dropped by
        # arena verify) are stored too, though the live tallies count them only in order
        stored = self.stored + len(self.kept)
        for notice in notices:
            self.progress(Progress(
                self.name, self._goal(), stored, 0, self.played, self.faulty_games,
                now - self.started, tuple(lines[:TOP]), notice, self._course_state(lines),
            ))

    def _course_state(self, lines: list[Leader]) -> CourseState | None:
        """An adaptive tournament's state with the separation of the live ratings (those of
        every stored game: at a round boundary, the ones its rounds are judged on)."""
        if self.course is None:
            return None
        live = separation([(x.bot, x.mu, x.sigma) for x in lines], self.course.until.margin)
        return self.course.state.with_separation(live)

    def _lines(self) -> list[Leader]:
        """Every bot's line of the live table (see :class:`Leader`), in the rankings' order: the
        first :data:`TOP` are the live top, all of them the ranking the live separation measures."""
        summary = self.store.kept_summary() or Summary()  # none while stale: the prior
        lines = []
        for bot, t in self.tallies.items():
            rating = summary.rating(bot)
            lines.append(Leader(bot, t.games, t.wins, t.place_sum, t.faults,
                                self.discipline.is_out(bot), rating.mu, rating.sigma))
        lines.sort(key=Leader.sort_key)
        return lines

    def _goal(self) -> int:
        """The games of the tournament: all of them; an adaptive one's once it has ended,
        its budget while it goes on."""
        if self.course is None or self.course.end is not None:
            return self.total
        return self.course.budget

    def _report(self, interrupted: bool) -> RunReport:
        return RunReport(
            tournament=self.name, store_path=self.store.path, log_path=Path(),
            total=self._goal(), stored=self.store.game_count(), skipped=0,
            played=self.played, elapsed=time.monotonic() - self.started, workers=self.workers,
            disqualified=dict(self.store.disqualified()), interrupted=interrupted,
            parent_cpu_s=time.process_time() - self.cpu_started, batches=self.batches,
            course=self._course_state(self._lines()),
        )


def _played_absent(record: GameRecord) -> set[int]:
    """The seats a game was played with given to the fallback from the first move."""
    return {fault.seat for fault in record.faults if fault.code is FaultCode.DISQUALIFIED}


LOG_FORMAT = "%(asctime)s %(processName)s %(name)s %(levelname)s: %(message)s"


@contextlib.contextmanager
def tournament_log(path: Path) -> Iterator[None]:
    """Send every ``arena`` log record (parent and workers) to ``path`` while the run lasts.

    The file handler is wrapped by ``multiprocessing_logging``'s handler, whose single thread
    does all the writing; worker records reach it through the run's log queue.
    """
    logger = logging.getLogger("arena")
    try:
        file_handler = logging.FileHandler(path, encoding="utf-8")
    except OSError as exc:
        raise StoreWriteError(f"{path}: cannot open the tournament log: {exc.strerror or exc}") from exc
    file_handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler: logging.Handler = multiprocessing_logging.MultiProcessingHandler(
        f"arena-log-{path.stem}", sub_handler=file_handler)
    old_level = logger.level
    logger.addHandler(handler)
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        handler.close()
