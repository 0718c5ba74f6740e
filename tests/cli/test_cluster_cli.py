"""``arena run --cluster`` through typer's CliRunner: a run on a ``local:N`` cluster, the file's
``backend: dask``, and the one-line errors (no Dask installed, a bad address, ``--workers``
with a cluster, a scheduler that does not answer)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app

FIRST_LEGAL = Path(__file__).resolve().parents[1] / "tournament" / "bots" / "first_legal.py"
CONFIG = f"name: cli\nseats: 3\nbots: [random, greedy, {FIRST_LEGAL}]\nrounds: 2\nseed: 4\n"

runner = CliRunner()


def invoke(home: Path, *args: str):
    """Run ``arena ARGS`` with ``home`` as the workspace and private sandbox slots."""
    env = {"ARENA_HOME": str(home), "ARENA_SLOT_BASE": str(random.randrange(5000, 30000, 50)),
           "COLUMNS": "200"}
    return runner.invoke(app, list(args), env=env)


def one_error_line(result) -> str:
    """The single ``error: ...`` line of a failed command (and no traceback)."""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


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
    line = one_error_line(invoke(tmp_path, "run", str(config)))
    assert line.startswith("error: cluster tcp://127.0.0.1:9: ") and "no scheduler" in line


def test_without_dask_the_cluster_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    line = one_error_line(invoke(tmp_path, "run", str(write(tmp_path)), "--cluster", "local:2"))
    assert line == ("error: the Dask backend needs dask[distributed], which is not installed; "
                    "install it with: pip install 'arena[cluster]'   "
                    "(or: python -m pip install -e '.[cluster]')")
    assert not (tmp_path / "results" / "cli.sqlite").exists()


@pytest.mark.parametrize(("options", "message"), [
    (["--cluster", "sched:8786"], "error: --cluster: expected tcp://HOST:PORT, tls://HOST:PORT or "
                                  "local:N (N worker processes on this machine), got 'sched:8786'"),
    (["--cluster", "local:2", "--workers", "2"],
     "error: --workers counts local worker processes; a cluster's workers are its own "
     "(--cluster local:N starts N)"),
])
def test_bad_cluster_options_are_one_line(tmp_path: Path, options: list[str], message: str) -> None:
    assert one_error_line(invoke(tmp_path, "run", str(write(tmp_path)), *options)) == message
