"""``arena bench --cluster local:N``: the local pool against the Dask backend on one tournament,
the cost of one Dask task, and what those costs make of a cluster of many machines.

:func:`bench_cluster` plays the first ``games`` games of a tournament (the demo by default)
with the local pool of N worker processes, then on a ``LocalCluster`` of N one-thread worker
processes (:func:`~arena.tournament.cluster.local_cluster`, started before the run and timed
apart, as a cluster that is already running costs a run nothing), each into a temporary
workspace, :data:`ROUNDS` times in turn; the faster run of each backend counts (a shared
machine's load comes and goes). Each run is timed in wall time (games/s: what the goal
compares) and in CPU time of every process it uses, parent, workers and bots (CPU per game).
Then it submits :data:`EMPTY_TASKS` empty tasks to the cluster: their CPU in this process
(client and scheduler) is what one batch costs the centre, whatever its size.

:func:`project` is the paper simulation: ``machines`` machines of ``cores`` one-thread workers
each, every worker playing games at the measured worker CPU per game (the cluster run's CPU
less its parent's), and one parent writing every result at the local pool's parent CPU per game
(a result read, a share of a transaction, a TrueSkill update: the same work on either backend)
plus one task's cost per batch, a batch being :data:`~arena.tournament.cluster.BATCH_S` of
games at the measured pace. The cluster sustains the smaller of what the workers play and what
the writer takes; the writer saturates at the number of machines where the two meet.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.services.processes import descendants, stat_fields
from arena.tournament.address import parse_cluster
from arena.tournament.cluster import BATCH_MAX, BATCH_S, local_cluster, require_dask
from arena.tournament.replay import open_results
from arena.tournament.runner import RunReport, run_tournament

ROUNDS = 2          # runs of each backend, in turn
EMPTY_TASKS = 300   # empty tasks timed to know what one batch costs the parent and the scheduler
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class BackendRun:
    """One backend's run of the bench's games."""

    backend: str
    games: int
    seconds: float        # wall time of the run (the report's elapsed)
    cpu_s: float          # CPU of every process of the run: parent, workers, bots
    parent_cpu_s: float   # the parent's own (for the cluster: scheduler and client included)
    workers: int

    @property
    def games_per_s(self) -> float:
        """Games per second of wall time."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms_per_game(self) -> float:
        """CPU milliseconds of every process, per game."""
        return self.cpu_s / self.games * 1000 if self.games else 0.0

    @property
    def parent_ms_per_game(self) -> float:
        """The parent's CPU milliseconds per game."""
        return self.parent_cpu_s / self.games * 1000 if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """This run's figures in ``arena bench --cluster --json``."""
        return {"backend": self.backend, "games": self.games, "workers": self.workers,
                "seconds": round(self.seconds, 3), "games_per_s": round(self.games_per_s, 1),
                "cpu_ms_per_game": round(self.cpu_ms_per_game, 3),
                "parent_ms_per_game": round(self.parent_ms_per_game, 3)}


@dataclass(frozen=True)
class Projection:
    """The paper simulation of :func:`project` for one cluster size."""

    machines: int
    cores: int
    demand: float       # games/s the workers would play
    writer: float       # games/s the one parent can write
    batch_games: int    # games in a batch at the measured pace

    @property
    def sustained(self) -> float:
        """Games/s the cluster sustains: the smaller of the two."""
        return min(self.demand, self.writer)

    @property
    def saturating_machines(self) -> float:
        """Machines (of ``cores``) from which the writer, not the workers, sets the pace."""
        return self.writer / (self.demand / self.machines) if self.demand else 0.0

    def to_json(self) -> dict[str, Any]:
        """The projection in ``arena bench --cluster --json``."""
        return {"machines": self.machines, "cores": self.cores, "batch_games": self.batch_games,
                "demand_games_per_s": round(self.demand), "writer_games_per_s": round(self.writer),
                "sustained_games_per_s": round(self.sustained),
                "writer_saturates_at_machines": round(self.saturating_machines, 1)}


@dataclass(frozen=True)
class ClusterBenchResult:
    """Both runs, the cluster's start-up and the cost of one task (:func:`bench_cluster`)."""

    local: BackendRun
    dask: BackendRun
    batches: int
    cluster_start_s: float
    task_parent_ms: float    # the parent's CPU for one task: client and scheduler
    task_wall_ms: float      # wall time per task when many are queued (the scheduler's pace)
    game_ms: float           # the referee's wall time per game on a worker (batches sized by it)

    @property
    def ratio(self) -> float:
        """The cluster's games/s over the local pool's (the goal: at least 0.9)."""
        return self.dask.games_per_s / self.local.games_per_s if self.local.games_per_s else 0.0

    @property
    def cpu_ratio(self) -> float:
        """The local pool's CPU per game over the cluster's (1.0: the same cost)."""
        return self.local.cpu_ms_per_game / self.dask.cpu_ms_per_game if self.dask.cpu_ms_per_game else 0.0

    @property
    def worker_ms_per_game(self) -> float:
        """CPU per game of the cluster's workers and bots (everything but the parent)."""
        return self.dask.cpu_ms_per_game - self.dask.parent_ms_per_game

    @property
    def writer_ms_per_game(self) -> float:
        """The writer's CPU per game: the local pool's parent's (a result read, its share of
        a transaction, its rating), which the cluster's parent does too, plus a task a batch."""
        return self.local.parent_ms_per_game

    def to_json(self) -> dict[str, Any]:
        """The object ``arena bench --cluster --json`` prints."""
        return {"local": self.local.to_json(), "dask": self.dask.to_json(),
                "ratio": round(self.ratio, 3), "cpu_ratio": round(self.cpu_ratio, 3),
                "batches": self.batches, "cluster_start_s": round(self.cluster_start_s, 2),
                "task_parent_ms": round(self.task_parent_ms, 3),
                "task_wall_ms": round(self.task_wall_ms, 3), "game_ms": round(self.game_ms, 3),
                "worker_ms_per_game": round(self.worker_ms_per_game, 3),
                "writer_ms_per_game": round(self.writer_ms_per_game, 3),
                "projection": project(self, 100, self.dask.workers).to_json()}


def bench_cluster(tournament: Path, cluster: str, games: int) -> ClusterBenchResult:
    """Time ``games`` games of ``tournament`` on the local pool and on ``cluster`` (``local:N``:
    N workers each), :data:`ROUNDS` times in turn, the faster run of each counting (a shared
    machine's load comes and goes); see the module doc."""
    distributed = require_dask()
    address = parse_cluster(cluster)
    if address.local_workers is None:
        raise ArenaError("--cluster: the bench starts its own cluster: local:N")
    workers = address.local_workers
    locals_: list[BackendRun] = []
    task_parent_ms = task_wall_ms = 0.0
    dasks: list[tuple[BackendRun, RunReport, float]] = []
    with tempfile.TemporaryDirectory(prefix="arena-cluster-bench-") as folder:
        for turn in range(ROUNDS):
            locals_.append(_timed("local pool", workers, lambda: run_tournament(
                tournament, Path(folder) / f"local-{turn}", workers=workers, max_games=games))[0])
            started = time.perf_counter()
            with local_cluster(workers) as lc, distributed.Client(lc, set_as_default=False) as client:
                start_s = time.perf_counter() - started
                dask, report = _timed(cluster, workers, lambda: run_tournament(
                    tournament, Path(folder) / f"dask-{turn}", cluster=lc.scheduler_address,
                    max_games=games))
                dasks.append((dask, report, start_s))
                if turn == ROUNDS - 1:
                    task_parent_ms, task_wall_ms = _task_cost(client)
        dask, report, start_s = max(dasks, key=lambda d: d[0].games_per_s)
        with open_results(report.store_path.parent.parent, report.tournament) as store:
            durations = [record.duration_s for record in store.games(moves=False)]
    return ClusterBenchResult(max(locals_, key=lambda r: r.games_per_s), dask, report.batches,
                              start_s, task_parent_ms, task_wall_ms,
                              sum(durations) / len(durations) * 1000 if durations else 0.0)


def project(result: ClusterBenchResult, machines: int, cores: int) -> Projection:
    """The paper simulation (module doc) for ``machines`` of ``cores`` worker processes each."""
    worker_s = result.worker_ms_per_game / 1000
    batch = max(1, min(BATCH_MAX, round(BATCH_S / (result.game_ms / 1000)))) if result.game_ms else 1
    per_game = result.writer_ms_per_game / 1000 + result.task_parent_ms / 1000 / batch
    demand = machines * cores / worker_s if worker_s > 0 else 0.0
    writer = 1 / per_game if per_game > 0 else 0.0
    return Projection(machines, cores, demand, writer, batch)


def _timed(backend: str, workers: int, run: Any) -> tuple[BackendRun, RunReport]:
    """Run ``run`` and time it: the report's wall time, the CPU of every process it used."""
    before = _cpu_everywhere()
    report: RunReport = run()
    cpu = _cpu_everywhere() - before
    return BackendRun(backend, report.played, report.elapsed, cpu, report.parent_cpu_s, workers), report


def _task_cost(client: Any) -> tuple[float, float]:
    """Parent CPU and wall milliseconds per task, from :data:`EMPTY_TASKS` empty tasks."""
    client.gather(client.map(_nothing, range(20), pure=False))  # warm: the function is known
    cpu, wall = time.process_time(), time.perf_counter()
    client.gather(client.map(_nothing, range(EMPTY_TASKS), pure=False))
    return ((time.process_time() - cpu) / EMPTY_TASKS * 1000,
            (time.perf_counter() - wall) / EMPTY_TASKS * 1000)


def _nothing(index: int) -> int:
    return index


def _cpu_everywhere() -> float:
    """CPU seconds of this process, of its children that ended, and of its live descendants
    (a cluster's workers, and what their bots' processes cost them)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime
    return total + sum(_stat_cpu(pid) for pid in descendants(os.getpid()))


def _stat_cpu(pid: int) -> float:
    """A live process's CPU seconds and its ended children's (utime, stime, cutime, cstime)."""
    fields = stat_fields(pid)
    return sum(int(v) for v in fields[11:15]) / _TICKS if fields else 0.0
