"""The Dask backend: a tournament's games played in batches on a Dask distributed cluster.

:class:`DaskPool` is a :class:`~arena.tournament.pool.Backend`: the runner hands it games in
schedule order and commits what comes back in schedule order, as with the local pool; only
where the games are played changes. The parent process still writes the store alone.

* The run's :class:`~arena.tournament.shipment.Shipment` (bots' files, rules, limits) is one
  task of the cluster (:func:`~arena.tournament.cluster_worker.carry`), the input of every
  batch: each worker fetches it once and checks it (a worker that runs other arena code, or
  received a file that does not hash to its name, refuses the run with one line).
* A batch is one task (:func:`~arena.tournament.cluster_worker.play_batch`) of
  :meth:`DaskPool.batch_size` games: about :data:`BATCH_S` of play by the games' measured pace,
  at most :data:`BATCH_MAX`, fewer near the end so that every worker has a share of the last
  games. Dask costs about a millisecond per task, so a one-second batch spends 0.1% on it,
  while a lost worker loses at most a few seconds of games and the live table moves every
  second. The pool keeps two batches per worker thread in flight (one playing, one waiting on
  the worker), so a worker never waits for the parent between batches.
* A worker that dies (or is killed) loses its batches; the scheduler plays them again on
  another worker, and the batch's result arrives once. The runner also ignores any result for a
  game it does not expect (already stored, or already in hand), so a batch played twice can
  never store a game twice. Dask gives up on a batch whose workers died more often than
  ``distributed.scheduler.allowed-failures`` (3): the run stops with one line, as it does when
  the cluster has had no worker for :data:`WAIT_S` or its scheduler is gone.
* ``local:N`` starts a ``LocalCluster`` of N worker processes of one thread each on this machine
  (the scheduler in this process; the workers ignore Ctrl-C, which stops the run here, and
  print nothing: a failed batch is the run's one error line), and stops it at the end of the run.

At the end of a run (or a stop) every worker closes the run's bots
(:func:`~arena.tournament.cluster_worker.retire`). Dask's own warnings (a worker lost, a
restart) go to the tournament log, not to the terminal.
"""

from __future__ import annotations

import importlib
import logging
import math
import queue
import time
from collections.abc import Iterator, Sequence
from typing import Any

from arena.errors import ArenaError
from arena.tournament.address import ClusterAddress
from arena.tournament.cluster_worker import Batch, carry, play_batch, retire
from arena.tournament.errors import TournamentError
from arena.tournament.pool import Job, Message, Pace, sigint_ignored
from arena.tournament.shipment import Shipment

log = logging.getLogger("arena.tournament.cluster")

BATCH_S = 1.0           # a batch's play time, by the games' measured pace
BATCH_MAX = 1000        # games in a batch at most (fishtest's largest)
FIRST_BATCH = 2         # games in a batch before the first game's duration is known
PER_THREAD = 2          # batches in flight per worker thread: one playing, one waiting
CONNECT_S = 10.0        # to reach the scheduler
WAIT_S = 60.0           # for the first worker to join it
THREADS_S = 5.0         # how often the pool looks for workers that joined or left
INSTALL = "python -m pip install 'dask[distributed]>=2024.1'"  # the cluster extra: right for a clone, a wheel or an editable install


class ClusterUnavailable(ArenaError):
    """The Dask backend was asked for but ``dask[distributed]`` is not installed."""


def require_dask() -> Any:
    """The ``distributed`` module (typed Any: its client API is not annotated); raises
    :class:`ClusterUnavailable`, one line saying how to install it, without it."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterUnavailable("the Dask backend needs dask[distributed], which is not "
                                 f"installed; install it with: {INSTALL}") from None


# Dask's own periodic work, made rarer for the clusters a run starts (measured idle on two
# cores: the parent's scheduler and nannies 6% of a core, each worker 4%; with these, 1% and
# 0.5%). The workers' sampling profiler matters most: every 10 ms it takes the GIL from the
# referee's thread to walk its stack.
# The nannies would also set numpy's thread counts and glibc's malloc trim threshold in this
# process's environment, hence the workers': unset, a worker has a local worker's environment.
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",            # event-loop health checks (20ms)
    "distributed.admin.system-monitor.interval": "2s",     # CPU and memory samples (500ms)
    "distributed.worker.memory.monitor-interval": "1s",    # the nanny's memory watch (100ms)
    **{f"distributed.nanny.pre-spawn-environ.{name}": None for name in (
        "MALLOC_TRIM_THRESHOLD_", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
}


def local_cluster(workers: int) -> Any:
    """A ``LocalCluster`` of ``workers`` one-thread worker processes, as ``local:N`` starts it:
    on 127.0.0.1 only, no dashboard, the workers quiet (:data:`QUIET`, nothing on their
    stderr) and deaf to Ctrl-C (:func:`~arena.tournament.cluster_worker.dask_setup`)."""
    distributed = require_dask()
    dask = importlib.import_module("dask")
    with dask.config.set(QUIET):  # the nannies keep it for every worker they start
        return distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=logging.CRITICAL,
            # no dashboard; the scheduler's HTTP endpoints on a free port of 127.0.0.1 (8787,
            # Dask's own, may be another cluster's)
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            preload=["arena.tournament.cluster_worker"])


class DaskPool:
    """Batches of a run's games on a Dask cluster (see the module doc)."""

    def __init__(self, address: ClusterAddress, shipment: Shipment, pace: Pace) -> None:
        self.address, self.shipment, self.pace = address, shipment, pace
        self.workers = 0
        # Dask's client API is not annotated: its objects are Any here
        self.client: Any = None
        self.cluster: Any = None
        self.carried: Any = None
        self.pending: dict[str, Any] = {}   # batch key -> its future
        self.done: queue.SimpleQueue[Any] = queue.SimpleQueue()   # futures as they finish
        self.batches = 0
        self.counted = 0.0   # when the worker threads were last counted
        self.alone_since: float | None = None   # since when the cluster has had no worker
        self.quiet = _DaskLogs()
        self._stopped = False

    # -- the cluster -----------------------------------------------------------------------

    def __enter__(self) -> DaskPool:
        distributed = require_dask()
        self.quiet.route()
        try:
            self._connect(distributed)
        except BaseException:
            self._close()
            raise
        return self

    def _connect(self, distributed: Any) -> None:
        scheduler = self.address.scheduler
        if self.address.local_workers is not None:
            self.cluster = local_cluster(self.address.local_workers)
            scheduler = self.cluster.scheduler_address
        try:
            self.client = distributed.Client(scheduler, timeout=CONNECT_S, set_as_default=False)
            self.client.wait_for_workers(1, timeout=WAIT_S)
        except OSError as exc:  # TimeoutError included
            raise TournamentError(f"cluster {self.address}: {_first_line(exc) or 'no answer'} "
                                  f"(no scheduler, or no worker joined it in {WAIT_S:.0f} s)") from None
        self._count_threads(force=True)
        self.carried = self.client.submit(carry, self.shipment, key=f"arena-run-{self.shipment.run}",
                                          pure=False)
        log.info("cluster %s: %d worker threads", self.address, self.workers)

    def __exit__(self, *exc_info: object) -> None:
        with sigint_ignored():
            self._close()

    def _close(self) -> None:
        """Cancel what is left, have every worker close the run's bots, let go of the cluster."""
        try:
            if self.client is not None:
                self.stop()
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        except Exception as exc:  # the run's games are safe; a cluster that went away says why
            log.warning("cluster %s: closing: %s", self.address, _first_line(exc))
        finally:
            self.client = self.cluster = None
            self.quiet.restore()

    def _count_threads(self, force: bool = False) -> None:
        """Count the cluster's worker threads (now and then: workers join and leave)."""
        now = time.monotonic()
        if self.client is None or not force and now - self.counted < THREADS_S:
            return
        self.counted = now
        self.workers = int(sum(self.client.nthreads().values()))

    # -- the backend -----------------------------------------------------------------------

    def batch_size(self, waiting: int) -> int:
        """Games in the next batch: :data:`BATCH_S` of play, at most :data:`BATCH_MAX`, and no
        more than a share of the ``waiting`` games for each batch that can be in flight."""
        by_pace = math.ceil(BATCH_S / self.pace.game_s) if self.pace.game_s else FIRST_BATCH
        share = math.ceil(waiting / max(1, self._slots()))
        return max(1, min(BATCH_MAX, by_pace, share))

    def room(self, waiting: int) -> int:
        """One batch's games while fewer than :data:`PER_THREAD` batches per worker thread
        are in flight, else 0."""
        self._count_threads()
        if self._stopped or len(self.pending) >= self._slots():
            return 0
        return self.batch_size(waiting)

    def send(self, jobs: Sequence[Job]) -> None:
        """Submit ``jobs`` as one batch."""
        assert self.client is not None
        self.batches += 1
        future = self.client.submit(play_batch, self.carried, list(jobs), pure=False,
                                    key=f"arena-batch-{self.shipment.run[:12]}-{self.batches}")
        future.add_done_callback(self.done.put)
        self.pending[future.key] = future

    def receive(self, timeout: float) -> list[Message]:
        """The messages of every batch that has finished, waiting up to ``timeout`` for one."""
        messages: list[Message] = []
        try:
            future = self.done.get(timeout=timeout)
            while True:
                messages += self._take(future)
                future = self.done.get_nowait()
        except queue.Empty:
            if not messages:
                self._watch_workers()
            return messages

    def _watch_workers(self) -> None:
        """Stop the run when the cluster has had no worker for :data:`WAIT_S` (the games would
        wait for ever), or when the scheduler cannot be reached."""
        try:
            self._count_threads()
        except OSError as exc:
            raise TournamentError(f"cluster {self.address}: the scheduler is gone "
                                  f"({_first_line(exc)}); finished games are kept, run again "
                                  "to resume") from None
        if self.workers:
            self.alone_since = None
        elif self.alone_since is None:
            self.alone_since = time.monotonic()
        elif time.monotonic() - self.alone_since > WAIT_S:
            raise TournamentError(f"cluster {self.address}: no worker for {WAIT_S:.0f} s; "
                                  "finished games are kept, run again to resume")

    def _take(self, future: Any) -> list[Message]:
        """A finished batch's messages (its log records go to the tournament log)."""
        if self.pending.pop(future.key, None) is None:
            return []
        if future.status == "cancelled":
            if self._stopped:
                return []
            raise TournamentError(f"cluster {self.address}: a batch was dropped (the scheduler "
                                  "restarted or lost track of it); finished games are kept, run "
                                  "again to resume")
        if future.status == "error":
            raise _failure(future.exception())
        batch: Batch = future.result()
        future.release()
        for data in batch.logs:
            record = logging.makeLogRecord(data)
            logging.getLogger(record.name).handle(record)
        return batch.messages

    def leftovers(self) -> Iterator[Message]:
        """The batches that had finished when the run stopped."""
        while True:
            try:
                future = self.done.get_nowait()
            except queue.Empty:
                return
            if future.status == "finished":
                finished: Batch = future.result()
                yield from finished.messages

    def stop(self) -> None:
        """Cancel the batches not finished, and have every worker close the run's bots (a
        batch that is playing stops after its current game)."""
        if self._stopped or self.client is None:
            return
        self._stopped = True
        try:
            unfinished = [f for f in self.pending.values() if f.status == "pending"]
            if unfinished:
                self.client.cancel(unfinished)
            self.client.run(retire, self.shipment.run, on_error="ignore")
            if self.carried is not None:
                self.carried.release()
        except Exception as exc:  # a cluster gone: its workers' bots end with their desks' idle time
            log.warning("cluster %s: stopping: %s", self.address, _first_line(exc))

    def lookahead(self) -> int:
        """Two waves of batches past the oldest unfinished game."""
        return 2 * self._slots() * self.batch_size(BATCH_MAX * self._slots())

    def nap(self) -> float:
        """No nap: each answer is a whole batch."""
        return 0.0

    def _slots(self) -> int:
        return PER_THREAD * max(1, self.workers)


def _failure(exc: BaseException | None) -> TournamentError:
    """The one line that stops a run whose batch failed on a worker."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return TournamentError("a batch of games was lost with every worker that played it (the "
                               "workers died or were killed); finished games are kept, run again "
                               "to resume")
    if isinstance(exc, ArenaError):
        return TournamentError(f"a cluster worker refused the run: {exc}")
    return TournamentError(f"a cluster worker failed; finished games are kept: {name}: "
                           f"{_first_line(exc)}")


def _first_line(exc: BaseException | None) -> str:
    text = str(exc or "").strip()
    return text.splitlines()[0] if text else ""


class _DaskLogs:
    """While a run uses the cluster, Dask's own log records (those of this process: the
    scheduler and nannies of a ``local:N`` cluster, the client) go to the tournament log, from
    warnings up, instead of the terminal."""

    def __init__(self) -> None:
        self.saved: tuple[list[logging.Handler], bool, int] | None = None

    def route(self) -> None:
        """Send Dask's records to the tournament log."""
        logger = logging.getLogger("distributed")
        self.saved = (logger.handlers[:], logger.propagate, logger.level)
        logger.handlers[:] = [_ToTournamentLog()]
        logger.propagate = False
        logger.setLevel(logging.WARNING)

    def restore(self) -> None:
        """Give Dask's logger back its own handlers."""
        if self.saved is not None:
            logger = logging.getLogger("distributed")
            logger.handlers[:], logger.propagate, level = self.saved
            logger.setLevel(level)
            self.saved = None


class _ToTournamentLog(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        logging.getLogger("arena.tournament.cluster").handle(record)

