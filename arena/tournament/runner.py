"""Run a tournament: worker processes play, the parent alone writes the store.

``run_tournament("tournaments/demo.yaml", home)`` resolves the bots and rules
(:mod:`arena.tournament.setup`), settles the seed (a file without ``seed`` gets a secret one,
drawn at the first run and kept in the store: :func:`~arena.tournament.setup.settle_seed`),
records the configuration text and hash, the seed, the rule settings and each bot's SHA-256 in
``<home>/results/<name>.sqlite`` (refusing a changed setup under the same name unless
``restart``), checks every bot (below), then plays the games not stored yet. :func:`run_plan`
does the same for a plan whose bots are already resolved, into any folder (``arena duel`` is a
tournament run into a temporary one).

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

How it stays reproducible (the same stored results and rankings for any number of workers):

* games are handed out in schedule order, one at a time (at most :data:`PER_WORKER` given to
  a worker at once), to ``spawn`` workers (:mod:`arena.tournament.worker`), each with its own
  pipe; deal seeds come from the schedule, per-seat bot seeds from the referee; bots must not
  carry state from one game to the next (a worker reuses each bot's process);
* results may arrive in any order; the parent **commits them in schedule order**, each game in
  its own transaction as soon as every earlier game is committed;
  games finished ahead of an earlier one wait in memory, and the hand-out never runs more than
  :data:`LOOKAHEAD` games per worker ahead of the oldest unfinished game, so that wait is short;
* disqualification (:mod:`arena.tournament.discipline`) is decided on committed games, hence in
  schedule order: a disqualified bot's later games are played with its seat given to the
  fallback from the first move. Each game is committed only if it was played with the seats
  out that the games before it put out; one played (ahead, in flight) before a
  disqualification it must follow is played again, so the stored games are the same for any
  number of workers.

Stopping: Ctrl-C (``KeyboardInterrupt``, also when raised by the ``progress`` callback) stops the
workers at once (SIGTERM: each kills its bots), commits what had finished, and returns a report
with ``interrupted=True``; running again resumes. A ``kill -9`` of the parent loses only the
games in flight or waiting for an earlier one: workers get SIGTERM through
``PR_SET_PDEATHSIG`` and kill their bots. Every process logs into ``results/<name>.log``.
An ``on_game`` callback (:func:`run_plan`) that returns True stops the run early and cleanly:
it is fed each game as it is committed, in schedule order, so where it stops does not depend
on the number of workers (``arena duel --sprt``).

Speed: with no more workers than CPUs, worker ``i`` and its bots are pinned to CPU ``i`` (the
parent, mostly idle, floats); the parent's work per game is a pipe read, one SQLite transaction
and a few counters (the live table ranks by mean place; TrueSkill is computed once, from the
store, for the final rankings).
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import logging.handlers
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import multiprocessing_logging

from arena.errors import ArenaError
from arena.play.faults import Fault, FaultCode
from arena.play.referee import seat_seed
from arena.sandbox import BotSpec, check_isolation
from arena.sandbox.contract import contract_problem
from arena.tournament.config import TournamentConfig
from arena.tournament.discipline import NEVER, Discipline
from arena.tournament.errors import ConfigChangedError, StoreWriteError
from arena.tournament.lock import run_lock
from arena.tournament.records import GameRecord
from arena.tournament.schedule import Schedule
from arena.tournament.setup import Plan, make_plan, plan_from_file, settle_seed, snapshot_bots
from arena.tournament.setup import config_text as config_text_of
from arena.tournament.store import Store, results_path
from arena.tournament.worker import GameJob, Probe, WorkerSetup, worker_main

log = logging.getLogger("arena.tournament")

LOOKAHEAD = 16          # games per worker that may be handed out past the oldest unfinished one
PER_WORKER = 2          # games given to a worker at a time: one playing, one ready to start
TOP = 5                 # bots in Progress.leaders


class TournamentError(ArenaError):
    """The run cannot go on (a worker died or hit a bug); finished games are kept."""


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
    """One line of the live table: a bot's counts so far.

    The live table ranks by mean place, which costs nothing per game (a fault already cost its
    game: the bot was placed last); the final rankings are TrueSkill's (:func:`~arena.tournament.ratings.rank_store`), which
    would cost the parent ~0.4 ms per game while workers compete for the cores. In a
    round-robin both orders settle about as fast (RATINGS.md).
    """

    bot: str
    games: int
    wins: int
    place_sum: int
    faults: int
    disqualified: bool

    @property
    def mean_place(self) -> float | None:
        """Average finishing place (1 = first), ``None`` before the first game."""
        return self.place_sum / self.games if self.games else None

    @property
    def win_rate(self) -> float | None:
        """Share of games won, ``None`` before the first game."""
        return self.wins / self.games if self.games else None

    def sort_key(self) -> tuple[float, float, str]:
        """Lower mean place first, then more wins, then the name."""
        return (self.mean_place or float("inf"), -(self.win_rate or 0.0), self.bot)


@dataclass(frozen=True)
class Progress:
    """A snapshot for a live display, sent after every committed game and every ~0.25 s."""

    tournament: str
    total: int
    stored: int
    skipped: int     # always 0: a disqualified bot's games are played, by its fallback
    played: int
    faulty_games: int
    elapsed: float
    leaders: tuple[Leader, ...]
    notice: str | None = None

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
    none), this run or the first one.
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

    @property
    def complete(self) -> bool:
        """True when no game is left to play."""
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
) -> RunReport:
    """Play the pending games of a tournament file (or config) under ``home``; see the module doc.

    ``workers`` defaults to the file's ``workers`` (``auto``: the CPU count); ``max_games`` stops
    cleanly after that many games in this run; ``trusted`` runs the bots without isolation (only
    for bots you wrote yourself), otherwise a machine without it is refused
    (:class:`~arena.sandbox.IsolationUnavailable`) before anything is stored; ``check`` False
    skips the checks of the bots before the first game (for tests of faults in games).
    Raises ``ArenaError`` subclasses (``ConfigError``, ``ConfigChangedError``, ``StoreError``,
    :class:`~arena.tournament.lock.TournamentBusyError`, :class:`BotRefusedError`,
    :class:`TournamentError`) with one line each.
    """
    plan = _plan(config, home, config_text, base_dir)
    return run_plan(plan, Path(home) / "results", workers=workers, restart=restart,
                    progress=progress, max_games=max_games, trusted=trusted, check=check)


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
    on_game: GameCallback | None = None,
) -> RunReport:
    """Play the pending games of a resolved ``plan`` into its store in ``results_dir``.

    That folder receives ``<name>.sqlite``, ``<name>.log``, ``<name>.lock`` and the bots'
    snapshots (``bots/``); :func:`run_tournament` gives ``<home>/results``, a duel a temporary
    folder. With ``disqualify`` False no bot is ever disqualified: every game is played, faults
    or not (a duel counts them instead); ``check`` runs the checks of the bots before the first
    game (:func:`run_tournament` does by default). ``on_game`` is given each game once it is
    committed, in schedule order; when it returns True no more games are handed out, and the
    games already playing are finished and stored. The other keywords are
    :func:`run_tournament`'s.
    """
    if not trusted:
        check_isolation()
    results_dir = Path(results_dir)
    path = results_path(plan.config.name, results_dir)
    log_path = results_dir / f"{plan.config.name}.log"
    origins = {name: _origin(spec) for name, spec in plan.specs.items()}
    with run_lock(plan.config.name, results_dir):
        plan = snapshot_bots(plan, results_dir / "bots")
        if check:
            _check_contracts(plan, origins)
        with Store.open(path) as store, tournament_log(log_path):
            plan = settle_seed(plan, store.tournament(), restart)
            archive = _init_store(store, plan, restart)
            run = _Run(plan, store, _worker_count(plan.config, workers), progress, max_games,
                       trusted, disqualify, origins if check else None, on_game)
            report = run.execute()
    return _with(report, log_path=log_path, archive=archive, seed=plan.config.seed,
                 seed_drawn=plan.seed_drawn)


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


def _init_store(store: Store, plan: Plan, restart: bool) -> Path | None:
    try:
        return store.init_tournament(plan.config, plan.config_text, plan.rules.settings,
                                     plan.versions, restart=restart, seed_drawn=plan.seed_drawn)
    except ConfigChangedError as error:
        raise ConfigChangedError(f"{error} (run with --restart to archive them and start over)") from None


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
                 origins: dict[str, str] | None, on_game: GameCallback | None = None) -> None:
        self.plan, self.store, self.progress, self.on_game = plan, store, progress, on_game
        self.name = plan.config.name
        self.schedule = Schedule.from_config(plan.config)
        self.total = len(self.schedule)
        self.done = store.done_game_ids()
        self.budget = max_games if max_games is not None else self.total
        self.trusted = trusted
        self.origins = origins
        self.discipline = Discipline(plan.config.max_faults if disqualify else NEVER)
        self.tallies = {bot: LiveTally() for bot in plan.config.bot_names}
        self.faulty_games = 0
        self.stored, self.played = 0, 0
        self.next_commit, self.next_dispatch = 0, 0
        self.in_flight: set[int] = set()
        self.buffer: dict[int, GameRecord] = {}
        self.again: list[int] = []   # games to play again: played before a disqualification
        self.started = time.monotonic()
        self.last_tick = 0.0
        self._notice: str | None = None
        self._replay_stored()
        self.workers = max(1, min(workers, self._left(), self.budget))

    # -- state from the store --------------------------------------------------------------

    def _replay_stored(self) -> None:
        """Rebuild the tallies and disqualifications from the stored games (resume)."""
        for record in self.store.games():
            self._count(record, live=False)
        self._advance()

    def _left(self) -> int:
        """Games still to play."""
        return sum(1 for g in range(self.next_commit, self.total) if g not in self.done)

    # -- the run ---------------------------------------------------------------------------

    def execute(self) -> RunReport:
        interrupted = False
        if self._pending_exists():
            with _Pool(self._setups(), self.name) as pool:
                try:
                    if self.origins is not None:
                        self._probe(pool, self.origins)
                    self._loop(pool)
                except KeyboardInterrupt:
                    interrupted = True
                    self.progress = None  # no more display updates after Ctrl-C
                    log.warning("interrupted: stopping the workers")
                    pool.stop()
                    self._drain(pool)
        try:
            self._notify(force=True)
        except KeyboardInterrupt:
            interrupted = True
        return self._report(interrupted)

    def _pending_exists(self) -> bool:
        return self.next_commit < self.total and self.budget > 0

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

    def _probe(self, pool: _Pool, origins: dict[str, str]) -> None:
        """Before the first game: every bot still in loads and answers one legal move, each
        probe dealt from the tournament's seed (the workers probe their share at once)."""
        config = self.plan.config
        assert config.seed is not None
        bots = [bot for bot in config.bot_names if not self.discipline.is_out(bot)]
        log.info("tournament %s: checking %d bots", self.name, len(bots))
        for index, bot in enumerate(bots):
            pool.send(Probe(bot, config.seats, seat_seed(config.seed, index, "probe")))
        faults: dict[str, Fault | None] = {}
        while len(faults) < len(bots):
            message = pool.receive(timeout=0.25)
            if message is not None:
                if message[0] == "error":
                    self._handle(message)  # raises
                bot, fault = message[2]
                faults[bot] = fault
            self._notify()
        refused = {bot: f"{fault.code.name}: {fault.summary()}"
                   for bot in bots if (fault := faults[bot]) is not None}
        if refused:
            raise _refusal(refused, origins)

    def _loop(self, pool: _Pool) -> None:
        log.info("tournament %s: %d games, %d stored, %d workers", self.name, self.total,
                 len(self.done), self.workers)
        self._dispatch(pool)
        while self.in_flight:
            message = pool.receive(timeout=0.25)
            if message is not None:
                self._handle(message)
                self._dispatch(pool)
            self._notify()

    def _dispatch(self, pool: _Pool) -> None:
        """Hand out games to play again first, then new ones in schedule order, within the
        queue and lookahead limits."""
        while self.again and pool.has_room(PER_WORKER):
            self._send(pool, self.again.pop(0))
        limit_ahead = self.next_commit + LOOKAHEAD * self.workers
        while (self.budget > 0 and pool.has_room(PER_WORKER)
               and self.next_dispatch < min(self.total, limit_ahead)):
            gid = self.next_dispatch
            self.next_dispatch += 1
            if gid in self.done:
                continue
            self._send(pool, gid)
            self.budget -= 1

    def _send(self, pool: _Pool, gid: int) -> None:
        """Give one game to a worker, with the seats out as of now."""
        game = self.schedule[gid]
        pool.send(GameJob(game, self.discipline.absent(game.table)))
        self.in_flight.add(gid)

    def _handle(self, message: tuple[str, int, Any]) -> None:
        kind, worker, payload = message
        if kind == "error":
            raise TournamentError(f"worker {worker} failed; finished games are kept: "
                                  f"{payload.strip().splitlines()[-1]}")
        record = GameRecord.from_dict(payload)
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
        out that the games before it put out; send any other back to be played again."""
        while self.next_commit < self.total:
            gid = self.next_commit
            if gid in self.buffer:
                record = self.buffer.pop(gid)
                if not self._current(record):
                    self._again(gid)
                    return
                self._commit(record)
            elif gid not in self.done:
                return
            self.next_commit += 1

    def _commit(self, record: GameRecord) -> None:
        self.store.add_game(record)
        self.played += 1  # counted once stored: a result still waiting for an earlier game may be lost
        self.done.add(record.game_id)
        self._count(record)
        if self.on_game is not None and self.on_game(record):
            self.budget = 0  # hand out nothing more; the games in flight are finished
        self._notify(force=True)

    def _count(self, record: GameRecord, live: bool = True) -> None:
        """Feed one stored game (in schedule order) to the live tallies and the discipline."""
        self.stored += 1
        self.faulty_games += bool(record.faults)
        faulty = record.faulty_bots()
        for seat, place in enumerate(record.seat_places()):
            bot = record.table[seat]
            self.tallies[bot].count(seat == record.winner, place, bot in faulty)
        for bot, reason in self.discipline.apply(record).items():
            self.store.mark_disqualified(bot, reason)
            if live:
                self._notice = (f"{bot} is disqualified: {reason}; its remaining games are "
                                "played by its fallback, placed last")
                log.warning("%s", self._notice)
            for gid in [g for g, later in self.buffer.items() if bot in later.table]:
                del self.buffer[gid]  # played ahead with the bot in: out of date
                self._again(gid)

    def _drain(self, pool: _Pool) -> None:
        """After a stop: commit the results that had already arrived, in schedule order (also
        those that were waiting when the stop came in the middle of a commit)."""
        for message in pool.leftovers():
            if message[0] == "game":
                self._handle(message)
        self._advance()

    # -- reporting -------------------------------------------------------------------------

    def _notify(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.progress is None or (not force and now - self.last_tick < 0.1):
            return
        self.last_tick = now
        notice, self._notice = self._notice, None
        self.progress(Progress(
            self.name, self.total, self.stored, 0, self.played, self.faulty_games,
            now - self.started, self.leaders(), notice,
        ))

    def leaders(self, count: int = TOP) -> tuple[Leader, ...]:
        """The current top of the live table (see :class:`Leader`)."""
        lines = [Leader(bot, t.games, t.wins, t.place_sum, t.faults, self.discipline.is_out(bot))
                 for bot, t in self.tallies.items()]
        lines.sort(key=Leader.sort_key)
        return tuple(lines[:count])

    def _report(self, interrupted: bool) -> RunReport:
        return RunReport(
            tournament=self.name, store_path=self.store.path, log_path=Path(),
            total=self.total, stored=self.store.game_count(), skipped=0,
            played=self.played, elapsed=time.monotonic() - self.started, workers=self.workers,
            disqualified=dict(self.store.disqualified()), interrupted=interrupted,
        )


def _played_absent(record: GameRecord) -> set[int]:
    """The seats a game was played with given to the fallback from the first move."""
    return {fault.seat for fault in record.faults if fault.code is FaultCode.DISQUALIFIED}


class _Pool:
    """The worker processes (spawn context), each with its own pipe, and the log queue.

    One pipe per worker, written synchronously on both sides: no shared lock and no feeder
    thread per message, which measurably slowed two pinned workers on two cores.
    """

    def __init__(self, setups: list[WorkerSetup], name: str) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.log_queue = self.ctx.Queue()
        self.listener = logging.handlers.QueueListener(self.log_queue, _Forward())
        pipes = [self.ctx.Pipe(duplex=True) for _ in setups]
        self.conns = [parent for parent, _ in pipes]
        self.processes = [
            self.ctx.Process(target=worker_main, args=(s, child, self.log_queue),
                             name=f"{name}-worker-{s.index}", daemon=True)
            for s, (_, child) in zip(setups, pipes)
        ]
        self._children = [child for _, child in pipes]
        self.load = [0] * len(setups)
        self._ready: list[tuple[str, int, Any]] = []
        self._stopped = False

    def __enter__(self) -> _Pool:
        self.listener.start()
        for process in self.processes:
            process.start()
        for child in self._children:
            child.close()  # the worker holds it now; closing ours lets EOF mean "worker gone"
        return self

    def __exit__(self, *exc_info: object) -> None:
        with _sigint_ignored():
            if exc_info[0] is None:
                self._finish()
            self.stop()
            self.listener.stop()
            for conn in self.conns:
                conn.close()
            self.log_queue.cancel_join_thread()
            self.log_queue.close()

    def send(self, job: GameJob | Probe) -> None:
        """Give one job to the least loaded worker."""
        worker = min(range(len(self.conns)), key=self.load.__getitem__)
        self.conns[worker].send(job)
        self.load[worker] += 1

    def has_room(self, per_worker: int) -> bool:
        """True while some worker has fewer than ``per_worker`` jobs given and not answered."""
        return min(self.load) < per_worker

    def receive(self, timeout: float) -> tuple[str, int, Any] | None:
        """The next worker message, or ``None`` after ``timeout``; raises if a worker died."""
        if not self._ready:
            for conn in multiprocessing.connection.wait(self.conns, timeout):
                self._read(conn)
        return self._ready.pop(0) if self._ready else None

    def _read(self, conn: Any) -> None:
        index = self.conns.index(conn)
        try:
            message = conn.recv()
        except (EOFError, OSError):
            code = self.processes[index].exitcode
            raise TournamentError(
                f"worker {self.processes[index].name} died unexpectedly (exit code {code}); "
                "finished games are kept, run again to resume"
            ) from None
        if message[0] != "error":  # a game's record or a probe's answer: its job is done
            self.load[index] -= 1
        self._ready.append(message)

    def leftovers(self) -> Iterator[tuple[str, int, Any]]:
        """Messages already sent by the workers (after :meth:`stop`)."""
        yield from self._ready
        self._ready = []
        for conn in self.conns:
            try:
                while conn.poll():
                    yield conn.recv()
            except (EOFError, OSError):
                continue

    def stop(self) -> None:
        """SIGTERM every worker (each kills its bots), then SIGKILL any that lingers."""
        if self._stopped:
            return
        self._stopped = True
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        _join_all(self.processes, 5.0)
        for process in self.processes:
            if process.is_alive():
                log.error("worker %s did not stop: killing it", process.name)
                process.kill()
                process.join(2.0)

    def _finish(self) -> None:
        """Normal end: tell each worker to close its bots and exit."""
        for conn in self.conns:
            try:
                conn.send(None)
            except OSError:
                pass
        _join_all(self.processes, 15.0)


def _join_all(processes: list[Any], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))


class _Forward(logging.Handler):
    """Hands a worker's log record to the parent's loggers (hence the tournament log file)."""

    def handle(self, record: logging.LogRecord) -> bool:
        logging.getLogger(record.name).handle(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        self.handle(record)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """A second Ctrl-C must not interrupt the clean-up (only possible in the main thread)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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
