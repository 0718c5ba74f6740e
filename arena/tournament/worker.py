"""A tournament worker process: plays the games it is handed and sends back raw records.

Workers are started with the ``spawn`` method (:mod:`arena.tournament.runner`), so they hold
none of the parent's state: only a :class:`WorkerSetup` (rule settings, bot specs, limits,
whether bots are trusted) arrives through pickling. A worker never touches the results store.

* Each worker keeps one :class:`~arena.sandbox.SandboxedBot` per seat a bot takes at a table
  (:class:`~arena.sandbox.seating.Seating`): a template process started on first use, which
  forks a fresh confined process for every game (so no bot carries anything from one game to
  the next, whatever the worker count).
* With a CPU given, the worker pins itself and its bots to that core (measured: referee and
  bots on one core save the cross-core wake-ups).
* It dies with the parent: ``PR_SET_PDEATHSIG`` delivers SIGTERM when the parent dies (even by
  ``kill -9``), and SIGTERM closes every bot (kills its process group and sweeps its uid or
  cgroup) and exits from the handler. SIGINT is ignored: Ctrl-C is the parent's business.
* Log records go to the parent through a queue (one log file per tournament).

The parent sends one job at a time on the worker's pipe (``None``: finish): a :class:`GameJob`
(a scheduled game, with the seats its fallback plays from the first move: a disqualified bot's)
or, before the first game, a :class:`Probe` of one bot. The worker answers
``("game", worker, record.to_dict())`` per finished game (the record's one serialisation:
:meth:`GameRecord.from_dict` rebuilds it), ``("probe", worker, (bot, fault or None))`` per
probe, or ``("error", worker, text)`` when it cannot go on (a bug; bot failures are game
outcomes). A probe runs in a game process of its own, like every game, so the games that follow
see nothing of it; the templates it starts are those the games use next.
"""

from __future__ import annotations

import ctypes
import logging
import logging.handlers
import os
import signal
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena.play.faults import Fault
from arena.play.referee import GameResult, Referee
from arena.engine.rules import build_rules
from arena.sandbox import BotSpec, Limits
from arena.sandbox.runtime import release_runtime
from arena.sandbox.seating import Seating
from arena.tournament.records import GameRecord
from arena.tournament.schedule import ScheduledGame

log = logging.getLogger("arena.tournament.worker")

PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class WorkerSetup:
    """Everything a worker needs, picklable: it starts from nothing else."""

    index: int
    parent_pid: int
    rules_settings: dict[str, Any]
    specs: dict[str, BotSpec]
    bot_order: tuple[str, ...]
    limits: Limits
    trusted: bool
    cpu: int | None
    log_level: int = logging.INFO


@dataclass(frozen=True)
class GameJob:
    """One game to play: ``absent`` maps the seats played by their fallback from the first
    move (a disqualified bot's) to the fault recorded for each."""

    game: ScheduledGame
    absent: Mapping[int, Fault] = field(default_factory=dict)


@dataclass(frozen=True)
class Probe:
    """The check of one bot before the first game: it loads and answers one legal move at a
    table of ``seats`` dealt from ``deal_seed`` (:meth:`~arena.play.referee.Referee.probe`)."""

    bot: str
    seats: int
    deal_seed: int


def worker_main(setup: WorkerSetup, conn: Any, log_queue: Any) -> None:
    """The worker process: play the games arriving on ``conn`` until ``None`` or SIGTERM."""
    _die_with_parent(setup.parent_pid)
    _setup_logging(log_queue, setup.log_level)
    if setup.cpu is not None:
        os.sched_setaffinity(0, {setup.cpu})
    player = Player(setup)
    signal.signal(signal.SIGTERM, lambda signum, frame: _terminate(player))
    log.info("worker %d started (pid %d, cpu %s%s)", setup.index, os.getpid(),
             "any" if setup.cpu is None else setup.cpu, ", trusted bots" if setup.trusted else "")
    try:
        _serve(player, conn)
    except (EOFError, OSError):  # the parent closed its end: nothing left to do
        pass
    except Exception:  # a bug, not a bot failure: tell the parent, which stops the run
        conn.send(("error", setup.index, traceback.format_exc(limit=8)))
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # closing already: let it finish
        player.close()
        release_runtime()


def _terminate(player: Player) -> None:
    """SIGTERM (a stop, or the parent's death): kill every bot, then exit at once.

    Exiting from the handler (not raising) matters: an exception raised by a signal handler
    can land in code that ignores exceptions (a finaliser, logging's lock release) and be lost,
    leaving the worker blocked on the task queue.
    """
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        player.close()
        release_runtime()
    finally:
        os._exit(0)


def _serve(player: Player, conn: Any) -> None:
    while True:
        job = conn.recv()
        if job is None:
            return
        if isinstance(job, Probe):
            conn.send(("probe", player.setup.index, (job.bot, player.probe(job))))
        else:
            conn.send(("game", player.setup.index, player.play(job).to_dict()))


class Player:
    """Plays scheduled games with this worker's bots (a :class:`Seating` of them); a cluster
    worker plays with one too (:mod:`arena.tournament.cluster_worker`)."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.setup = setup
        self.referee = Referee(build_rules(setup.rules_settings, "the tournament's rules snapshot"))
        self.seating = Seating(setup.specs, setup.limits, cpu=setup.cpu, trusted=setup.trusted)

    def play(self, job: GameJob) -> GameRecord:
        """Play one scheduled game and return its raw record."""
        game = job.game
        result = self.referee.play(self.seating.seat(game.table), game.deal_seed, job.absent)
        return to_record(game, result)

    def probe(self, probe: Probe) -> Fault | None:
        """Check one bot (its first copy, as a game seats it): its fault, or ``None``."""
        return self.referee.probe(self.seating.seat([probe.bot])[0], probe.seats, probe.deal_seed)

    def close(self) -> None:
        """Kill every bot process this worker started."""
        self.seating.close()


def to_record(game: ScheduledGame, result: GameResult) -> GameRecord:
    """The raw record of a played game: the schedule's identity and table, the referee's result.

    The referee knows seats, not names: each fault gets the name of the bot at its seat.
    """
    faults = tuple(replace(fault, bot=game.table[fault.seat]) for fault in result.faults)
    return GameRecord(
        game_id=game.game_id, deal_id=game.deal_id, table=game.table, deal_seed=game.deal_seed,
        places=result.places, winner=result.winner, reason=result.reason,
        decisions=result.decisions, duration_s=result.duration_s, faults=faults,
        moves=result.moves, hands=result.hands, think=result.think,
    )


def _die_with_parent(parent_pid: int) -> None:
    """SIGTERM when the parent dies (any way); exit now if it is already gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # no bot yet: dying at once is clean
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        raise SystemExit(0)


def _setup_logging(log_queue: Any, level: int) -> None:
    root = logging.getLogger()
    root.handlers[:] = [logging.handlers.QueueHandler(log_queue)]
    root.setLevel(level)
