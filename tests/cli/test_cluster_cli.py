"""``arena run --cluster`` through typer's CliRunner: a run on a ``local:N`` cluster, the file's
``backend: dask``, and the one-line errors (no Dask installed, a bad address, ``--workers``
with a cluster, a scheduler that does not answer); ``arena bench --cluster`` and its paper
cluster of many machines."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from rich.console import Console

from arena.cli.render import render_cluster_bench
from arena.services.cluster_bench import BackendRun, ClusterBenchResult, project
from cli_helpers import error_line, invoke

FIRST_LEGAL = Path(__file__).resolve().parents[1] / "tournament" / "bots" / "first_legal.py"
CONFIG = f"name: cli\nseats: 3\nbots: [random, greedy, {FIRST_LEGAL}]\nrounds: 2\nseed: 4\n"


def write(folder: Path, extra: str = "") -> Path:
    path = folder / "cli.yaml"
    path.write_text(CONFIG + extra)
    return path


def test_run_on_a_local_cluster_says_where_and_how_to_resume(tmp_path: Path) -> None:
    config = write(tmp_path)
    result = invoke(tmp_path, "run", str(config), "--cluster", "local:1", "--max-games", "3")
    assert result.exit_code == 0, result.output
    assert "3 of 6 games stored" in result.stdout
    assert "with 1 worker on local:1" in result.stdout
    assert f"resume with: arena run {config} --cluster local:1" in result.stdout.replace("\n", "")
    assert "distributed" not in result.stderr  # Dask's own lines went to the tournament log


def test_the_files_backend_dask_is_used_without_cluster_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.tournament.cluster.CONNECT_S", 0.5)
    config = write(tmp_path, "backend: dask\ncluster: tcp://127.0.0.1:9\n")
    line = error_line(invoke(tmp_path, "run", str(config)))
    assert line.startswith("error: cluster tcp://127.0.0.1:9: ") and "no scheduler" in line


def test_without_dask_the_cluster_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command installs dask itself: ``arena[cluster]`` would fetch another project of that
    name from the package index, and ``-e`` would swap the compiled engine for pure Python."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    line = error_line(invoke(tmp_path, "run", str(write(tmp_path)), "--cluster", "local:2"))
    assert line == ("error: the Dask backend needs dask[distributed], which is not installed; "
                    "install it with: python -m pip install 'dask[distributed]>=2024.1'")
    assert not (tmp_path / "results" / "cli.sqlite").exists()


@pytest.mark.parametrize(("options", "message"), [
    (["--cluster", "sched:8786"], "error: --cluster: expected tcp://HOST:PORT, tls://HOST:PORT or "
                                  "local:N (N worker processes on this machine), got 'sched:8786'"),
    (["--cluster", "local:2", "--workers", "2"],
     "error: --workers counts local worker processes; a cluster's workers are its own "
     "(--cluster local:N starts N)"),
])
def test_bad_cluster_options_are_one_line(tmp_path: Path, options: list[str], message: str) -> None:
    assert error_line(invoke(tmp_path, "run", str(write(tmp_path)), *options)) == message


def test_bench_cluster_plays_the_demo_on_both_backends(tmp_path: Path) -> None:
    result = invoke(tmp_path, "bench", "--cluster", "local:1", "--games", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["local"]["games"], data["dask"]["games"]) == (4, 4)
    assert (data["local"]["backend"], data["dask"]["backend"]) == ("local pool", "local:1")
    assert data["batches"] >= 2 and data["task_parent_ms"] > 0 and data["game_ms"] > 0
    assert data["projection"]["machines"] == 100 and data["projection"]["cores"] == 1


def test_bench_cluster_starts_its_own_cluster(tmp_path: Path) -> None:
    line = error_line(invoke(tmp_path, "bench", "--cluster", "tcp://10.0.0.1:8786"))
    assert line == "error: --cluster: the bench starts its own cluster: local:N"


def run(backend: str, games: int, seconds: float, cpu_s: float, parent_s: float) -> BackendRun:
    return BackendRun(backend, games, seconds, cpu_s, parent_s, workers=2)


def test_the_paper_cluster_is_bound_by_its_workers_or_by_the_one_writer() -> None:
    # 1,000 games: workers at 10 ms CPU a game, the writer at 0.4 ms, a task 2 ms, games of 5 ms
    measured = ClusterBenchResult(
        local=run("local pool", 1000, 5.0, 10.4, 0.4), dask=run("local:2", 1000, 5.0, 11.0, 1.0),
        batches=10, cluster_start_s=2.5, task_parent_ms=2.0, task_wall_ms=1.0, game_ms=5.0)
    assert measured.worker_ms_per_game == pytest.approx(10.0)
    few = project(measured, 5, 2)   # 5 machines x 2 workers: 1,000 games/s
    assert few.batch_games == 200  # a second of 5 ms games
    assert few.demand == pytest.approx(1000) and few.sustained == pytest.approx(1000)
    many = project(measured, 100, 2)   # 20,000 games/s wanted; 0.4 ms + 2 ms / 200 a game
    assert many.writer == pytest.approx(1 / 0.00041) and many.sustained == many.writer
    assert many.saturating_machines == pytest.approx(many.writer / 200)


def test_the_bench_says_both_rates_the_goal_and_the_paper_cluster() -> None:
    measured = ClusterBenchResult(
        local=run("local pool", 1000, 5.0, 10.4, 0.4), dask=run("local:2", 1000, 5.5, 11.0, 1.0),
        batches=10, cluster_start_s=2.5, task_parent_ms=2.0, task_wall_ms=1.0, game_ms=5.0)
    out = Console(file=io.StringIO(), width=200)
    render_cluster_bench(out, measured)
    text = out.file.getvalue()
    assert "local pool: 1,000 games in 5.0s, 200.0 games/s with 2 workers" in text
    assert "local:2: 1,000 games in 5.5s, 181.8 games/s" in text
    assert "cluster / local: 91% of the games/s (goal >= 90%)" in text
    assert "100 machines of 2 workers: the workers would play 20,000 games/s" in text
    assert "the writer saturating from 12.2 machines" in text
