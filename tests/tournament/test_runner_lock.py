"""One run per tournament at a time: a second ``arena run`` of a tournament that is being run
gets one line naming the process that runs it, and stores nothing; the lock goes with the run
however it ends."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament.lock import TournamentBusyError, run_lock
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament

FIRST_LEGAL = Path(__file__).resolve().parent / "bots" / "first_legal.py"

# Ctrl-C as in a terminal, whatever the test process does with SIGINT: an ignored signal stays
# ignored across exec, and once, in the full suite, the first run ignored the test's SIGINT (its
# source not found; alone, and in this file's tests under -n 2, the default handler is inherited).
RUN_SCRIPT = """
import signal
import sys
from arena.tournament.runner import run_tournament
if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    run_tournament(sys.argv[1], sys.argv[2], workers=1)
"""


def test_a_second_run_of_a_running_tournament_is_refused_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "long.yaml"
    # 20,000 games: far more than the first run can finish while this test looks at it, however
    # slow the machine (800 once were: beside the rest of the suite the checks below took 40 s)
    config.write_text(f"name: long\nseats: 2\nrounds: 10000\nseed: 3\nbots: [random, {FIRST_LEGAL}]\n")
    script = tmp_path / "first_run.py"
    script.write_text(RUN_SCRIPT)
    first = subprocess.Popen([sys.executable, str(script), str(config), str(tmp_path)])
    try:
        stored = _wait_for_games(tmp_path, 3)
        env = {"ARENA_SLOT_BASE": str(random.randrange(5000, 30000, 50)), "COLUMNS": "200"}
        second = CliRunner().invoke(app, ["run", str(config), "--home", str(tmp_path)], env=env)
        assert second.exit_code == 1, second.output
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in second.output, second.stderr
        assert lines[0].startswith(f"error: tournament 'long' is already being run by process "
                                   f"{first.pid} "), lines[0]
        with pytest.raises(TournamentBusyError, match=f"by process {first.pid} "):
            run_tournament(config, tmp_path, workers=1)
        assert first.poll() is None  # the first run never noticed
        with open_results(tmp_path, "long") as store:
            assert store.game_count() >= stored
    finally:
        first.send_signal(signal.SIGINT)  # a clean stop: it commits what it finished
        try:
            first.wait(60)
        finally:
            first.kill()  # a no-op once it has ended: never a run left playing after the test
    resumed = run_tournament(config, tmp_path, workers=1, max_games=2)  # the lock went with it
    assert resumed.played == 2
    with open_results(tmp_path, "long") as store:
        ids = [g.game_id for g in store.games()]
    assert ids == list(range(len(ids)))  # one run's games, in schedule order, none twice


def test_the_lock_is_released_however_the_block_ends(tmp_path: Path) -> None:
    with run_lock("t", tmp_path) as path:
        assert path == tmp_path / "t.lock" and path.read_text() == f"{os.getpid()}\n"
        with pytest.raises(TournamentBusyError, match=f"^tournament 't' is already being run by "
                                                      f"process {os.getpid()} "):
            with run_lock("t", tmp_path):
                pass
        with run_lock("other", tmp_path):  # another tournament of the same folder is free
            pass
    with pytest.raises(RuntimeError):
        with run_lock("t", tmp_path):
            raise RuntimeError("a run that fails")
    with run_lock("t", tmp_path):
        pass


def _wait_for_games(home: Path, count: int) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with open_results(home, "long") as store:
                if (stored := store.game_count()) >= count:
                    return stored
        except Exception:
            pass
        time.sleep(0.05)
    raise AssertionError("the first run stored no games")


PROBE_SCRIPT = """
import sys, time
from arena.tournament.lock import is_running
deadline = time.monotonic() + float(sys.argv[3])
while time.monotonic() < deadline:
    is_running(sys.argv[1], sys.argv[2])
"""


def test_readers_probing_the_lock_never_make_a_run_look_busy(tmp_path: Path) -> None:
    """A reader of an old store asks whether a run holds the lock before upgrading it (a dashboard
    polling `arena rankings`): its probe must not make `arena run` or `verify --drop` fail with
    'already being run'. Before, about one start in a hundred did, beside a reader in a loop."""
    (tmp_path / "t.lock").touch()
    prober = subprocess.Popen([sys.executable, "-c", PROBE_SCRIPT, "t", str(tmp_path), "30"])
    try:
        time.sleep(0.3)   # the prober is looping
        busy = 0
        for _ in range(1500):
            try:
                with run_lock("t", tmp_path):
                    pass
            except TournamentBusyError:
                busy += 1
        assert prober.poll() is None, "the prober stopped before the starts ended"
    finally:
        prober.kill()
        prober.wait()
    assert busy == 0
