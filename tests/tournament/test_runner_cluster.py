"""The Dask backend, for real: a LocalCluster of two worker processes plays a tournament, one
worker is killed with SIGKILL mid-run, and the store holds exactly the games the local pool
stores (faults, a disqualification with its fallback, and a resume included); a worker that
receives a changed bot refuses the run; a game that arrives twice is stored once.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from distributed import Client

from process_helpers import bot_processes, command_line, wait_until_gone
from test_runner import stored as stored_exactly
from test_runner_swiss import STRENGTHS
from test_runner_swiss import write as write_swiss
from arena.tournament import runner
from arena.tournament.cluster import local_cluster
from arena.tournament.errors import TournamentError
from arena.tournament.pool import LocalPool, Message
from arena.tournament.replay import open_results
from arena.tournament.runner import Progress, run_tournament
from arena.tournament.shipment import pack

HERE = Path(__file__).resolve().parent
FIRST_LEGAL = HERE / "bots" / "first_legal.py"
BREAKS = HERE / "bots" / "breaks_later.py"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Client]:
    """Two worker processes of one thread each, as ``--cluster local:2`` starts them."""
    with local_cluster(2) as local, Client(local, set_as_default=False) as client:
        yield client


RUNTIME = re.compile(r"/tmp/arena-sandbox-\d+-\w+/")


def stored(home: Path, name: str) -> tuple[list[dict], dict]:
    """The stored games (without durations) and rankings; a fault's traceback names the
    runtime folder of the process that played it, which is that process's own."""
    games, table = stored_exactly(home, name)
    for game in games:
        for fault in game["faults"]:
            for key in ("detail", "log_tail"):
                fault[key] = RUNTIME.sub("<runtime>/", fault.get(key) or "")
    return games, table


def write_config(folder: Path, rounds: int) -> Path:
    """Two seats, four bots (one that breaks in play: out after 3 faults in a row, then played
    by its fallback): 6 tables x rounds x 2 rotations."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cluster.yaml"
    path.write_text(f"name: cluster\nseats: 2\nrounds: {rounds}\nseed: 7\n"
                    f"bots: [random, greedy, {FIRST_LEGAL}, {BREAKS}]\n")
    return path


def test_a_worker_killed_mid_run_changes_nothing_in_the_stored_games(
        tmp_path: Path, cluster: Client) -> None:
    config = write_config(tmp_path, rounds=12)
    local = run_tournament(config, tmp_path / "local", workers=2)
    assert local.complete and local.stored == 144 and list(local.disqualified) == ["breaks_later"]

    address = cluster.scheduler.address
    first = run_tournament(config, tmp_path / "dask", cluster=address, max_games=30)
    assert (first.stored, first.cluster, first.workers) == (30, address, 2)
    pids = cluster.run(os.getpid)
    victim = pids[sorted(pids)[0]]
    killed_at: list[Progress] = []

    def kill_a_worker(progress: Progress) -> None:
        if not killed_at and progress.stored > 30:
            os.kill(victim, signal.SIGKILL)
            killed_at.append(progress)

    resumed = run_tournament(config, tmp_path / "dask", cluster=address, progress=kill_a_worker)
    assert killed_at and killed_at[0].stored < 144 - 20, "the worker died before the end"
    assert resumed.complete and resumed.played == 144 - 30
    assert stored(tmp_path / "dask", "cluster") == stored(tmp_path / "local", "cluster")
    with open_results(tmp_path / "dask", "cluster") as store:
        assert store.game_count() == 144 and store.disqualified() == local.disqualified
    text = (tmp_path / "dask" / "results" / "cluster.log").read_text()
    assert "distributed.nanny WARNING: Restarting worker" in text  # Dask's own, in our log
    assert "cluster-worker-0 arena.tournament.worker INFO: cluster worker 0 plays run" in text
    # the killed worker's bots died with it
    assert wait_until_gone([p for p in bot_processes()
                            if f"arena-sandbox-{victim}-" in command_line(p)]) == []
    cluster.wait_for_workers(2, timeout=60)  # the nanny started another


def test_ctrl_c_on_a_cluster_keeps_the_finished_games_closes_the_bots_and_resumes(
        tmp_path: Path, cluster: Client) -> None:
    # Ctrl-C at the run's first progress report, a quarter of a second in: five games are
    # stored before it, and 187 are left, which no machine plays in that time (a sandboxed game
    # costs milliseconds). Waiting for five games of this run instead raced the run's end: on a
    # fast machine the first report came after the last game.
    config = write_config(tmp_path, rounds=16)
    assert run_tournament(config, tmp_path, cluster=cluster.scheduler.address, max_games=5).stored == 5

    def ctrl_c(progress: Progress) -> None:
        raise KeyboardInterrupt

    stopped = run_tournament(config, tmp_path, cluster=cluster.scheduler.address, progress=ctrl_c)
    assert stopped.interrupted and 5 <= stopped.stored < 192
    workers = cluster.run(os.getpid).values()
    assert wait_until_gone([p for p in bot_processes() for pid in workers
                            if f"arena-sandbox-{pid}-" in command_line(p)]) == []
    resumed = run_tournament(config, tmp_path, cluster=cluster.scheduler.address)
    assert resumed.complete and resumed.played == 192 - stopped.stored
    with open_results(tmp_path, "cluster") as store:
        assert [g.game_id for g in store.games(moves=False)] == list(range(192))


def test_a_worker_refuses_a_bot_that_arrives_changed(
        tmp_path: Path, cluster: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def tampered(*args: Any, **kwargs: Any) -> Any:
        shipment = pack(*args, **kwargs)
        key = next(k for k in shipment.files if k.endswith("/first_legal.py"))
        return replace(shipment, files={**shipment.files, key: b"class Bot: pass\n"})

    monkeypatch.setattr(runner, "pack", tampered)
    with pytest.raises(TournamentError, match=r"a cluster worker refused the run: bot 'first_legal':"
                                              r" its file first_legal.py arrived with SHA-256"):
        run_tournament(write_config(tmp_path, rounds=1), tmp_path, cluster=cluster.scheduler.address)
    with open_results(tmp_path, "cluster") as store:
        assert store.game_count() == 0


class Stutter(LocalPool):
    """A pool whose every game result arrives twice, as a batch played again would send it."""

    def receive(self, timeout: float) -> list[Message]:
        return [m for message in super().receive(timeout) for m in
                ([message, message] if message[0] == "game" else [message])]


def test_a_game_that_arrives_twice_is_stored_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write_config(tmp_path, rounds=1)
    monkeypatch.setattr(runner, "LocalPool", Stutter)
    report = run_tournament(config, tmp_path / "twice", workers=1)
    assert report.complete and report.played == report.stored == 12
    monkeypatch.undo()
    run_tournament(config, tmp_path / "once", workers=1)
    assert stored(tmp_path / "twice", "cluster") == stored(tmp_path / "once", "cluster")
    assert "game 0 arrived again from worker 0: ignored" in (
        tmp_path / "twice" / "results" / "cluster.log").read_text()


def test_a_cluster_that_cannot_be_reached_is_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.tournament.cluster.CONNECT_S", 0.5)
    with pytest.raises(TournamentError, match=r"^cluster tcp://127.0.0.1:9: .*no scheduler"):
        run_tournament(write_config(tmp_path, rounds=1), tmp_path, cluster="tcp://127.0.0.1:9")


def test_an_adaptive_tournament_makes_the_same_rounds_on_a_cluster(cluster: Client, tmp_path: Path) -> None:
    # Each swiss round is made from the stored games of the rounds before: played on Dask
    # workers, the rounds, the stop and every stored game are those of the local pool.
    local = run_tournament(write_swiss(tmp_path / "local", STRENGTHS, "{margin: 1.5, games: 120}"),
                           tmp_path / "local", workers=2)
    remote = run_tournament(write_swiss(tmp_path / "dask", STRENGTHS, "{margin: 1.5, games: 120}"),
                            tmp_path / "dask", cluster=cluster.scheduler.address)
    assert remote.course is not None and remote.course == local.course
    assert remote.batches > 0
    assert stored(tmp_path / "dask", "ladder") == stored(tmp_path / "local", "ladder")
