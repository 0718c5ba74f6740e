"""Where a tournament's games are played: the backend seam, and the local pool of worker processes.

The runner (:mod:`arena.tournament.runner`) decides which games to play and commits their
results in schedule order; a :class:`Backend` only plays them. It is handed batches of jobs
(:class:`~arena.tournament.worker.GameJob`, or before the first game a
:class:`~arena.tournament.worker.Probe`) and gives back, in any order, the workers'
:data:`Message` for each: ``("game", worker, record.to_dict())``, ``("probe", worker, (bot,
fault or None))``, or ``("error", worker, text)`` when a worker cannot go on. Two backends:

* :class:`LocalPool` (here): ``spawn`` worker processes on this machine, each with its own pipe;
* :class:`~arena.tournament.cluster.DaskPool`: batches of games as tasks of a Dask cluster.

The local pool's pace (the Speed paragraph of the runner's doc): with no more workers than
CPUs, worker ``i`` and its bots are pinned to CPU ``i`` (the parent, mostly idle, floats). The
parent does not wake for every game: it naps up to :data:`NAP_S` between looks at its pipes,
and gives each worker enough games to play through a nap (:class:`Pace`, from the games'
durations; at most :data:`QUEUE_MAX`). Each wake-up then handles several results with warm
caches, and the parent, which runs on the workers' CPUs, interrupts them less: measured on two
cores, waking for every game cost the parent about twice the CPU.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import math
import multiprocessing
import selectors
import signal
import time
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from arena.tournament.errors import TournamentError
from arena.tournament.worker import GameJob, Probe, WorkerSetup, worker_main

log = logging.getLogger("arena.tournament")

QUEUE_MAX = 16          # games a worker may hold at once (one playing, the others waiting)
LOOKAHEAD = 2 * QUEUE_MAX   # games per worker that may be handed out past the oldest unfinished one
NAP_S = 0.25            # the longest the parent sleeps between looks at its workers' pipes

Job = GameJob | Probe
Message = tuple[str, int | str, Any]   # (kind, the worker that sent it, payload): module doc


class Backend(Protocol):
    """What the runner needs of the machinery that plays its games (see the module doc).

    Used as a context manager: entering starts (or joins) the workers, leaving after a normal
    end lets them finish and close their bots, leaving on an error stops them.
    """

    workers: int   # how many games the backend plays at once
    batches: int   # how many times :meth:`send` was called

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc_info: object) -> None: ...

    def room(self, waiting: int) -> int:
        """How many jobs :meth:`send` takes now (0: none), ``waiting`` games being left to hand out."""

    def send(self, jobs: Sequence[Job]) -> None:
        """Have ``jobs`` played (their answers come out of :meth:`receive`)."""

    def receive(self, timeout: float) -> list[Message]:
        """Every answer there is, waiting up to ``timeout`` for the first; raises
        :class:`TournamentError` when the run cannot go on."""

    def leftovers(self) -> Iterator[Message]:
        """The answers that had arrived when :meth:`stop` was called."""

    def stop(self) -> None:
        """Stop at once: no more answers, every bot killed (idempotent)."""

    def lookahead(self) -> int:
        """How many games may be handed out past the oldest unfinished one."""

    def nap(self) -> float:
        """Seconds the runner may sleep after handling answers (more of them gather meanwhile)."""


class Pace:
    """How long games take, hence how many a worker should hold to play through the parent's
    naps, and how long those naps may be (see the module doc); a cluster sizes its batches by it."""

    def __init__(self) -> None:
        self.game_s: float | None = None    # a moving average of the games' durations

    def count(self, seconds: float) -> None:
        """One more game's duration (the referee's wall time for it)."""
        self.game_s = seconds if self.game_s is None else 0.9 * self.game_s + 0.1 * seconds

    def queue(self) -> int:
        """Games a worker may hold: one playing and enough waiting to last two naps."""
        if not self.game_s:
            return 2
        return max(2, min(QUEUE_MAX, math.ceil(2 * NAP_S / self.game_s) + 1))

    def nap(self) -> float:
        """Seconds to sleep after a wake-up: :data:`NAP_S`, or half of a worker's queue."""
        if not self.game_s:
            return 0.0
        return min(NAP_S, (self.queue() - 1) * self.game_s / 2)


class LocalPool:
    """The worker processes (spawn context), each with its own pipe, and the log queue.

    One pipe per worker, written synchronously on both sides: no shared lock and no feeder
    thread per message, which measurably slowed two pinned workers on two cores. The pipes are
    watched by one selector made once (``multiprocessing.connection.wait`` builds one a call).
    """

    def __init__(self, setups: list[WorkerSetup], name: str, pace: Pace) -> None:
        self.pace = pace
        self.workers = len(setups)
        self.batches = 0
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
        self.selector = selectors.DefaultSelector()
        for index, conn in enumerate(self.conns):
            self.selector.register(conn, selectors.EVENT_READ, index)
        self.load = [0] * len(setups)
        self._ready: list[Message] = []
        self._stopped = False

    def __enter__(self) -> LocalPool:
        self.listener.start()
        for process in self.processes:
            process.start()
        for child in self._children:
            child.close()  # the worker holds it now; closing ours lets EOF mean "worker gone"
        return self

    def __exit__(self, *exc_info: object) -> None:
        with sigint_ignored():
            if exc_info[0] is None:
                self._finish()
            self.stop()
            self.listener.stop()
            self.selector.close()
            for conn in self.conns:
                conn.close()
            self.log_queue.cancel_join_thread()
            self.log_queue.close()

    def room(self, waiting: int) -> int:
        """The games the workers lack to hold a full queue each (:meth:`Pace.queue`)."""
        queue = self.pace.queue()
        return sum(max(0, queue - load) for load in self.load)

    def send(self, jobs: Sequence[Job]) -> None:
        """Give each job to the least loaded worker."""
        self.batches += 1
        for job in jobs:
            worker = min(range(len(self.conns)), key=self.load.__getitem__)
            self.conns[worker].send(job)
            self.load[worker] += 1

    def receive(self, timeout: float) -> list[Message]:
        """Every worker message there is, waiting up to ``timeout`` for the first one (an
        empty list after that); raises if a worker died."""
        while True:
            ready = self.selector.select(0 if self._ready else timeout)
            if not ready:
                break
            for key, _ in ready:
                self._read(key.data)
        messages, self._ready = self._ready, []
        return messages

    def _read(self, index: int) -> None:
        conn = self.conns[index]
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

    def leftovers(self) -> Iterator[Message]:
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

    def lookahead(self) -> int:
        """:data:`LOOKAHEAD` games per worker."""
        return LOOKAHEAD * self.workers

    def nap(self) -> float:
        """The pace's nap (see the module doc)."""
        return self.pace.nap()

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
def sigint_ignored() -> Iterator[None]:
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
