"""Hostile bots in a tournament: their faults are recorded, they rank last, and three faulty
games in a row disqualify them, the same way whatever the number of workers; a killed parent
takes its workers and their bots with it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from process_helpers import bot_processes, command_line, descendants, orphaned_bot_processes, wait_until_gone
from arena.engine.outcome import OutcomeReason
from arena.play.faults import FaultCode
from arena.tournament import rank_store
from arena.tournament.discipline import Discipline
from arena.tournament.records import Fault, GameRecord
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament

HERE = Path(__file__).resolve().parent
HOSTILE = HERE.parent / "hostile_bots"
FIRST_LEGAL = HERE / "bots" / "first_legal.py"
IS_ROOT = os.geteuid() == 0


def write_config(folder: Path, hostile: str, rounds: int = 3, limits: str = "") -> Path:
    """Two-seat round-robin of random, first_legal and one hostile bot (2 rotations per deal)."""
    path = folder / "hostile.yaml"
    path.write_text(
        f"name: hostile\nseats: 2\nrounds: {rounds}\nseed: 5\n{limits}"
        f"bots: [random, {FIRST_LEGAL}, {HOSTILE / hostile}]\n"
    )
    return path


def test_a_raising_bot_is_disqualified_after_three_faults_and_ranks_last(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, "raise_in_act.py")
    report = run_tournament(config, tmp_path, workers=2)
    assert report.complete and not report.interrupted
    assert list(report.disqualified) == ["raise_in_act"]
    assert "3 faulty games in a row" in report.disqualified["raise_in_act"]
    with open_results(tmp_path, "hostile") as store:
        games = list(store.games())
        table = rank_store(store)
    hostile = [g for g in games if "raise_in_act" in g.table]
    assert len(hostile) == 3 and report.skipped == 12 - 3
    assert all([f.code for f in g.faults] == [FaultCode.INVALID] for g in hostile)
    assert all("boom-7f3a" in g.faults[0].detail + g.faults[0].log_tail for g in hostile)
    assert table.bots[-1] == "raise_in_act" and table.standings[-1].disqualified
    assert all(s.clean for s in table.standings[:-1])


def test_disqualification_is_the_same_for_one_and_two_workers(tmp_path: Path) -> None:
    config = write_config(tmp_path, "raise_in_act.py")
    runs = []
    for workers in (1, 2):
        run_tournament(config, tmp_path / str(workers), workers=workers)
        with open_results(tmp_path / str(workers), "hostile") as store:
            runs.append(([(g.game_id, g.places, g.moves, [f.code for f in g.faults])
                          for g in store.games()], store.disqualified()))
    assert runs[0] == runs[1]


def test_a_looping_bot_times_out_and_never_stops_the_tournament(tmp_path: Path) -> None:
    limits = "limits: {move_time: 0.1, bank: 0, wall_factor: 2, init_time: 5}\n"
    config = write_config(tmp_path, "loop_forever.py", rounds=2, limits=limits)
    report = run_tournament(config, tmp_path, workers=2)
    assert report.complete and list(report.disqualified) == ["loop_forever"]
    with open_results(tmp_path, "hostile") as store:
        codes = [f.code for g in store.games() for f in g.faults]
        assert codes == [FaultCode.TIMEOUT] * 3
        assert rank_store(store).bots[-1] == "loop_forever"
    assert orphaned_bot_processes() == []


def test_faults_in_a_row_count_each_bot_in_schedule_order() -> None:
    def game(gid: int, faulty: str | None) -> GameRecord:
        faults = (Fault(1, "b", FaultCode.CRASH, "x"),) if faulty else ()
        places = ((0,), (1,))
        return GameRecord(gid, gid, ("a", "b"), 1, places, 0, OutcomeReason.EMPTIED, 3, 0.0, faults)

    rule = Discipline()
    assert rule.apply(game(0, "b")) == {} and rule.apply(game(1, "b")) == {}
    assert rule.apply(game(2, None)) == {}  # a clean game resets the count
    assert rule.apply(game(3, "b")) == {} and rule.apply(game(4, "b")) == {}
    assert list(rule.apply(game(5, "b"))) == ["b"]
    assert rule.blocks(("a", "b")) and not rule.blocks(("a", "c"))


KILL_SCRIPT = """
import sys
from arena.tournament.runner import run_tournament
run_tournament(sys.argv[1], sys.argv[2], workers=2)
"""


def test_kill_9_of_the_parent_takes_workers_and_bots_with_it(tmp_path: Path) -> None:
    config = tmp_path / "long.yaml"
    config.write_text(f"name: long\nseats: 2\nrounds: 400\nseed: 3\nbots: [random, {FIRST_LEGAL}]\n")
    parent = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(config), str(tmp_path)])
    log = tmp_path / "results" / "long.log"
    workers = _wait_for_workers(log, 2)
    _wait_for_games(tmp_path / "results" / "long.sqlite", 5)
    tree = descendants(parent.pid)
    runtimes = {m for p in tree for m in re.findall(r"(/\S*?arena-sandbox-[^/\s]+)/rt/", command_line(p))}
    assert len(runtimes) == 2 and set(workers) <= tree  # a runtime per worker; bots seen
    assert all(os.path.isdir(r) for r in runtimes)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    assert wait_until_gone(tree) == []
    assert all(bot_processes(marker=r) == [] for r in runtimes)  # no game process either
    with open_results(tmp_path, "long") as store:
        stored = store.game_count()
    report = run_tournament(config, tmp_path, workers=2)
    assert report.complete and report.played == 800 - stored
    # The killed workers could not remove their runtime folders; the next run swept them.
    assert [r for r in runtimes if os.path.exists(r)] == []
    with open_results(tmp_path, "long") as store:
        assert [g.game_id for g in store.games()] == list(range(800))


def _wait_for_workers(log: Path, count: int) -> list[int]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pids = re.findall(r"worker \d+ started \(pid (\d+)", log.read_text() if log.exists() else "")
        if len(pids) >= count:
            return [int(p) for p in pids]
        time.sleep(0.05)
    raise AssertionError("the workers did not start")


def _wait_for_games(path: Path, count: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with open_results(path.parent.parent, "long") as store:
                if store.game_count() >= count:
                    return
        except Exception:
            pass
        time.sleep(0.05)
    raise AssertionError("no games were stored")
