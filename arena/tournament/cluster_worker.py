"""A Dask worker's side of a tournament: play a batch of games, as a local worker process does.

The parent (:mod:`arena.tournament.cluster`) submits :func:`play_batch` tasks, each a batch of
jobs (:class:`~arena.tournament.worker.GameJob`, :class:`~arena.tournament.worker.Probe`) with
the run's :class:`~arena.tournament.shipment.Shipment`; a task returns a :class:`Batch`: the
same messages a local worker sends on its pipe, and the log records its games wrote.

Each worker process keeps, per run, a desk (:class:`_Desk`): the checked copies of the run's bot
files (:func:`~arena.tournament.shipment.unpack`, once) and one thread that owns the run's
:class:`~arena.tournament.worker.Player`, so its bots' templates live from batch to batch, as
in a local worker. That thread matters for isolation: a bot's template gets SIGKILL when the
thread that started it ends (``PR_SET_PDEATHSIG`` follows the forking thread), so the bots
must not belong to a thread of Dask's pool; the player's thread lives until the run retires
it, and dies with the worker process (its bots then die with it). The worker process (every
thread of it, Dask's included) and the bots are pinned to one CPU, leased per worker process
(:func:`_cpu`), as a local worker pins itself: Dask's own wake-ups then land on the worker's
CPU, not on a neighbour's game (measured: games took 10% longer with only the playing thread
pinned), and a bot sees one CPU here as anywhere else. Bots run confined unless the run is
trusted; a worker that cannot confine them refuses the run
(:func:`~arena.sandbox.check_isolation`).

A desk ends when the parent retires the run (:func:`retire`, at the end of every run, or at
a stop: a batch already under way when its cancel arrives then plays nothing), or after
:data:`IDLE_S` without a batch (a parent that died cannot retire it): its bots are killed and
its files deleted.
"""

from __future__ import annotations

import fcntl
import logging
import os
import queue
import shutil
import signal
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.sandbox import check_isolation
from arena.tournament.pool import Job, Message
from arena.tournament.shipment import Shipment, unpack
from arena.tournament.worker import GameJob, Player, WorkerSetup

log = logging.getLogger("arena.tournament.worker")

IDLE_S = 60.0       # a desk without a batch this long closes its bots (its parent is gone)
RETIRE_S = 10.0     # how long a retirement waits for the player's thread to close the bots
CPU_LEASES = "arena-cpu-leases"   # a folder of the temp dir: one lock file per CPU


@dataclass(frozen=True)
class Batch:
    """What one :func:`play_batch` task returns: the worker's messages (as a local worker's)
    and the ``arena`` log records written meanwhile (as :func:`logging.makeLogRecord` takes them)."""

    worker: str
    messages: list[Message]
    logs: list[dict[str, Any]] = field(default_factory=list)


def carry(shipment: Shipment) -> Shipment:
    """The task that keeps a run's shipment on the cluster (the batches take it as their input:
    each worker fetches it once, and the scheduler can make it again if every copy is lost)."""
    return shipment


def play_batch(shipment: Shipment, jobs: list[Job]) -> Batch:
    """Play ``jobs`` (in order) with the bots of ``shipment``'s run on this worker."""
    from distributed import get_worker

    worker = str(get_worker().name)
    desk = _desk(shipment, worker)
    if desk is None:  # the run has ended: a batch that started before its cancel arrived
        return Batch(worker, [])
    messages = desk.play(jobs)
    logs = _LOGS.drain(_thread_name(shipment.run))
    for record in logs:
        record["processName"] = f"cluster-worker-{worker}"
    return Batch(worker, messages, logs)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run as each worker of a ``local:N`` cluster starts (in its main
    thread): the worker ignores Ctrl-C, which the terminal sends to every process of the run,
    as a local worker process does (the parent stops the run and then the cluster)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def retire(run: str) -> None:
    """End the run's desk on this worker (see the module doc); nothing if it has none."""
    with _LOCK:
        _RETIRED.add(run)
        desk = _DESKS.pop(run, None)
    if desk is not None:
        desk.retire()
        desk.thread.join(RETIRE_S)


class _Desk:
    """One run on this worker process: its bot files and the thread that plays its games."""

    def __init__(self, shipment: Shipment, worker: str) -> None:
        self.run, self.worker = shipment.run, worker
        self.folder = Path(tempfile.mkdtemp(prefix="arena-cluster-"))
        try:
            specs = unpack(shipment, self.folder)
            if not shipment.trusted:
                check_isolation()
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        self.setup = WorkerSetup(
            index=0, parent_pid=os.getpid(), rules_settings=shipment.rules_settings, specs=specs,
            bot_order=shipment.bot_order, limits=shipment.limits, trusted=shipment.trusted,
            cpu=_cpu())
        self.inbox: queue.SimpleQueue[tuple[list[Job], queue.SimpleQueue[Any]] | None] = queue.SimpleQueue()
        self.retired = threading.Event()
        self.closed = False   # under _LOCK: the thread has stopped taking batches
        self.thread = threading.Thread(target=self._serve, name=_thread_name(self.run), daemon=True)
        self.thread.start()

    def play(self, jobs: list[Job]) -> list[Message]:
        """Hand ``jobs`` to the player's thread and wait for their messages."""
        reply: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.inbox.put((jobs, reply))
        kind, value = reply.get()
        if kind == "error":
            raise value
        messages: list[Message] = value
        return messages

    def retire(self) -> None:
        """Stop after the game in play; the thread closes the bots and ends."""
        self.retired.set()
        self.inbox.put(None)

    def _serve(self) -> None:
        if self.setup.cpu is not None:
            _pin_process(self.setup.cpu)
        log.info("cluster worker %s plays run %s (pid %d, cpu %s%s)", self.worker, self.run[:12],
                 os.getpid(), self.setup.cpu, ", trusted bots" if self.setup.trusted else "")
        player: Player | None = None
        try:
            while True:
                try:
                    item = self.inbox.get(timeout=IDLE_S)
                except queue.Empty:
                    if self._close_if_idle():
                        return
                    continue
                if item is None:
                    return
                jobs, reply = item
                try:
                    if player is None:
                        player = Player(self.setup)
                    reply.put(("ok", self._play(player, jobs)))
                except BaseException as exc:  # a bug, not a bot failure: the task fails with it
                    reply.put(("error", exc))
        finally:
            with _LOCK:
                self.closed = True
                if _DESKS.get(self.run) is self:
                    del _DESKS[self.run]
            if player is not None:
                player.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    def _play(self, player: Player, jobs: list[Job]) -> list[Message]:
        messages: list[Message] = []
        for job in jobs:
            if self.retired.is_set():
                break  # the parent has what it needs
            if isinstance(job, GameJob):
                messages.append(("game", self.worker, player.play(job).to_dict()))
            else:
                messages.append(("probe", self.worker, (job.bot, player.probe(job))))
        return messages

    def _close_if_idle(self) -> bool:
        """After :data:`IDLE_S` without a batch: stop taking batches (a batch arriving at this
        moment makes a new desk, see :func:`_desk`)."""
        with _LOCK:
            if not self.inbox.empty():
                return False
            self.closed = True
            log.info("cluster worker %s: run %s sent nothing for %.0f s, closing its bots",
                     self.worker, self.run[:12], IDLE_S)
            return True


_LOCK = threading.Lock()
_DESKS: dict[str, _Desk] = {}
_RETIRED: set[str] = set()   # runs that ended: a late batch of theirs starts no bots


def _desk(shipment: Shipment, worker: str) -> _Desk | None:
    """The desk of ``shipment``'s run, made at its first batch on this worker process;
    ``None`` once the run is retired."""
    _LOGS.attach()
    with _LOCK:
        if shipment.run in _RETIRED:
            return None
        desk = _DESKS.get(shipment.run)
        if desk is None or desk.closed:
            desk = _DESKS[shipment.run] = _Desk(shipment, worker)
        return desk


def _thread_name(run: str) -> str:
    return f"arena-run-{run[:12]}"


class _Logs(logging.Handler):
    """Keeps the ``arena`` log records of each desk's thread until its batch takes them."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: dict[str, list[dict[str, Any]]] = {}
        self.attached = False
        self.guard = threading.Lock()
        self.format_exception = logging.Formatter().formatException

    def attach(self) -> None:
        """Collect from the ``arena`` logger (once per process)."""
        with self.guard:
            if not self.attached:
                logger = logging.getLogger("arena")
                logger.addHandler(self)
                if logger.getEffectiveLevel() > logging.INFO:
                    logger.setLevel(logging.INFO)
                self.attached = True

    def emit(self, record: logging.LogRecord) -> None:
        data = {"name": record.name, "levelno": record.levelno, "levelname": record.levelname,
                "msg": record.getMessage(), "created": record.created, "msecs": record.msecs,
                "process": record.process,
                "exc_text": self.format_exception(record.exc_info) if record.exc_info else None}
        with self.guard:
            self.records.setdefault(record.threadName or "", []).append(data)

    def drain(self, thread: str) -> list[dict[str, Any]]:
        """The records ``thread`` wrote since the last drain."""
        with self.guard:
            return self.records.pop(thread, [])


_LOGS = _Logs()
_CPU_LOCK = threading.Lock()
_CPU: list[int] = []   # this process's leased CPU, once leased
_LEASE_FDS: list[int] = []


def _pin_process(cpu: int) -> None:
    """Pin every thread of this process to ``cpu`` (threads started later inherit it from the
    thread that starts them)."""
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(tid), {cpu})
        except OSError:  # a thread that ended meanwhile
            continue


def _cpu() -> int | None:
    """The CPU this worker process plays on: the first of its CPUs no other worker process of
    the machine holds (a lock file each, dropped by the kernel when the process dies), else one
    shared in turn by pid; ``None`` when none can be seen."""
    with _CPU_LOCK:
        if _CPU:
            return _CPU[0]
        cpus = sorted(os.sched_getaffinity(0))
        if not cpus:
            return None
        chosen = cpus[os.getpid() % len(cpus)]
        folder = Path(tempfile.gettempdir()) / CPU_LEASES
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            for cpu in cpus:
                fd = os.open(folder / str(cpu), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                _LEASE_FDS.append(fd)
                chosen = cpu
                break
        except OSError as exc:
            log.warning("cannot lease a CPU (%s): sharing CPU %d", exc.strerror or exc, chosen)
        _CPU.append(chosen)
        return chosen
