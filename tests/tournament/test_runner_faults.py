"""Faults in a tournament. A bot broken from the start is refused before the first game with its
own error; one that breaks in play costs itself the games it faulted, is disqualified by the
file's ``max_faults`` rule, and its remaining games are still played by its fallback, so every
other bot keeps its whole schedule, the same way whatever the number of workers; a killed
parent takes its workers and their bots with it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clients import RandomClient
from process_helpers import bot_processes, command_line, descendants, orphaned_bot_processes, wait_until_gone
from arena.engine.outcome import OutcomeReason
from arena.engine.rules import load_rules
from arena.play.referee import Referee
from arena.play.faults import FaultCode
from arena.tournament import Schedule, load_config, rank_store
from arena.tournament.discipline import Discipline, FaultLimit
from arena.tournament.records import Fault, GameRecord
from arena.tournament.replay import open_results
from arena.tournament.runner import BotRefusedError, Progress, run_tournament

HERE = Path(__file__).resolve().parent
HOSTILE = HERE.parent / "hostile_bots"
FIRST_LEGAL = HERE / "bots" / "first_legal.py"
BREAKS = HERE / "bots" / "breaks_later.py"
BREAKS_WORDS = "RuntimeError: breaks-later-51c2 at its second decision (breaks_later.py, line"


def write_config(folder: Path, bot: Path, rounds: int = 3, extra: str = "") -> Path:
    """Two-seat round-robin of random, first_legal and ``bot``: 3 tables x rounds x 2 rotations."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hostile.yaml"
    path.write_text(f"name: hostile\nseats: 2\nrounds: {rounds}\nseed: 5\n{extra}"
                    f"bots: [random, {FIRST_LEGAL}, {bot}]\n")
    return path


def games_of(folder: Path, bot: str, name: str = "hostile") -> list[GameRecord]:
    with open_results(folder, name) as store:
        return [g for g in store.games() if bot in g.table]


def codes(games: list[GameRecord], bot: str) -> list[str]:
    """Per game of ``bot``: its fault's code, or ``-`` for a clean game."""
    return [next((f.code.name for f in g.faults if f.bot == bot), "-") for g in games]


def test_a_bot_that_breaks_in_play_is_out_after_three_faults_and_its_games_are_still_played(
        tmp_path: Path) -> None:
    report = run_tournament(write_config(tmp_path, BREAKS), tmp_path, workers=2)
    assert report.complete and report.stored == report.total == 18
    assert list(report.disqualified) == ["breaks_later"]
    reason = report.disqualified["breaks_later"]
    assert reason.startswith("3 faulty games in a row (games ") and BREAKS_WORDS in reason
    games = games_of(tmp_path, "breaks_later")
    assert codes(games, "breaks_later") == ["INVALID"] * 3 + ["DISQUALIFIED"] * 9
    for game in games[3:]:  # its fallback played the seat from the first move, placed last
        seat = game.table.index("breaks_later")
        (fault,) = game.faults
        assert (fault.seat, fault.log_tail) == (seat, "")
        assert f"disqualified after game {games[2].game_id}" in fault.detail
        assert game.places[-1] == (seat,) and game.winner != seat
        assert game.reason in (OutcomeReason.EMPTIED, OutcomeReason.BLOCKED) and game.moves
    for game in games:  # a faulty seat counts as beaten: the game is the other seat's, even
        seat = game.table.index("breaks_later")   # where its fallback went out first
        assert game.winner == 1 - seat, game
    with open_results(tmp_path, "hostile") as store:
        played = Counter(bot for game in store.games() for bot in game.table)
        table = rank_store(store)
    assert played == {"random": 12, "first_legal": 12, "breaks_later": 12}
    line = table.standings[table.bots.index("breaks_later")]
    assert line.disqualified and line.stats.faults == 12 and line.fault_rate == 1.0


def test_two_broken_bots_among_five_leave_every_other_bot_its_whole_schedule(
        tmp_path: Path) -> None:
    """The issue's case (two broken bots, five bots, four seats), with 1 and 2 workers: every
    game is played and stored, and the stored games are the same."""
    config = tmp_path / "five.yaml"
    config.write_text(f"name: five\nseats: 4\nrounds: 1\nseed: 8\nbots: [random, greedy, "
                      f"{FIRST_LEGAL}, {{name: b1, path: {BREAKS}}}, {{name: b2, path: {BREAKS}}}]\n")
    total = len(Schedule.from_config(load_config(config)))
    runs = []
    for workers in (1, 2):
        seen: list[Progress] = []
        report = run_tournament(config, tmp_path / str(workers), workers=workers, progress=seen.append)
        assert report.complete and report.stored == total == 20
        assert sorted(report.disqualified) == ["b1", "b2"]
        # each disqualification is told once, even two decided by the same game
        told = sorted(p.notice.split(" is disqualified")[0] for p in seen if p.notice)
        assert told == ["b1", "b2"]
        with open_results(tmp_path / str(workers), "five") as store:
            games = [(g.game_id, g.table, g.places, g.winner, g.moves,
                      [(f.seat, f.code, f.summary()) for f in g.faults]) for g in store.games()]
            runs.append((games, store.disqualified()))
    assert runs[0] == runs[1]
    played = Counter(bot for _, table, *_ in runs[0][0] for bot in table)
    assert set(played.values()) == {16}  # 4 of the 5 tables, 4 rotations each, for everyone


def test_max_faults_in_the_file_sets_the_rule(tmp_path: Path) -> None:
    never = write_config(tmp_path / "never", BREAKS, rounds=1, extra="max_faults: {in_a_row: null}\n")
    report = run_tournament(never, tmp_path / "never", workers=1)
    assert report.complete and report.disqualified == {}
    assert codes(games_of(tmp_path / "never", "breaks_later"), "breaks_later") == ["INVALID"] * 4

    total = write_config(tmp_path / "total", BREAKS, rounds=1,
                         extra="max_faults: {in_a_row: null, total: 2}\n")
    report = run_tournament(total, tmp_path / "total", workers=1)
    assert report.disqualified["breaks_later"].startswith("2 faulty games in all; game ")
    assert codes(games_of(tmp_path / "total", "breaks_later"), "breaks_later") == \
        ["INVALID", "INVALID", "DISQUALIFIED", "DISQUALIFIED"]


def test_a_bot_broken_from_the_start_is_refused_before_the_first_game(tmp_path: Path) -> None:
    config = write_config(tmp_path, HOSTILE / "raise_in_act.py")
    with pytest.raises(BotRefusedError) as refused:
        run_tournament(config, tmp_path, workers=2)
    message = str(refused.value)
    assert "\n" not in message and message.startswith("bot refused before the first game")
    assert f"'raise_in_act' ({HOSTILE / 'raise_in_act.py'}): INVALID: ValueError: boom-7f3a in act " \
           "(raise_in_act.py, line 6: raise ValueError(" in message
    assert not (tmp_path / "results" / "hostile.sqlite").exists()   # no empty tournament left
    log = (tmp_path / "results" / "hostile.log").read_text().splitlines()
    assert log[-1].endswith(f" ERROR: tournament hostile: {message}")   # the log says why it stopped
    assert orphaned_bot_processes() == []
    (tmp_path / "results" / "hostile.sqlite").write_bytes(b"")     # a store begun before stays
    with pytest.raises(BotRefusedError):
        run_tournament(config, tmp_path, workers=2)
    with open_results(tmp_path, "hostile") as store:
        assert store.game_count() == 0 and store.disqualified() == {}


def test_a_looping_bot_is_refused_by_its_probe_and_times_out_in_games(tmp_path: Path) -> None:
    # init_time is wall time: generous, so that on a busy machine too a slow start never faults
    # (INIT_FAIL) and only the loop does (TIMEOUT, whichever clock catches it).
    limits = "limits: {move_time: 0.1, bank: 0, wall_factor: 2, init_time: 60}\n"
    config = write_config(tmp_path, HOSTILE / "loop_forever.py", rounds=2, extra=limits)
    with pytest.raises(BotRefusedError, match=r"'loop_forever' \(.*\): TIMEOUT: "):
        run_tournament(config, tmp_path, workers=2)
    report = run_tournament(config, tmp_path, workers=2, check=False)  # its games, unchecked
    assert report.complete and list(report.disqualified) == ["loop_forever"]
    assert codes(games_of(tmp_path, "loop_forever"), "loop_forever") == \
        ["TIMEOUT"] * 3 + ["DISQUALIFIED"] * 5
    with open_results(tmp_path, "hostile") as store:
        assert rank_store(store).bots[-1] == "loop_forever"  # placed last in every game
    assert orphaned_bot_processes() == []


def _game(gid: int, faulty: bool, detail: str = "x") -> GameRecord:
    faults = (Fault(1, "b", FaultCode.CRASH, detail),) if faulty else ()
    return GameRecord(gid, gid, ("a", "b"), 1, ((0,), (1,)), 0, OutcomeReason.EMPTIED, 3, 0.0, faults)


def test_faults_in_a_row_count_each_bot_in_schedule_order() -> None:
    rule = Discipline()
    assert rule.apply(_game(0, True)) == {} and rule.apply(_game(1, True)) == {}
    assert rule.apply(_game(2, False)) == {}  # a clean game resets the count
    traceback = ('Traceback (most recent call last):\n  File "/bot/b.py", line 4, in act\n'
                 '    1 / 0\nZeroDivisionError: division by zero')
    assert rule.apply(_game(3, True, traceback)) == {}
    assert rule.apply(_game(4, True)) == {}
    reason = rule.apply(_game(5, True))["b"]
    assert reason == ("3 faulty games in a row (games 3, 4, 5: CRASH, CRASH, CRASH); game 3, CRASH: "
                      "ZeroDivisionError: division by zero (b.py, line 4: 1 / 0)")
    assert rule.is_out("b") and not rule.is_out("a")
    (absent,) = rule.absent(("b", "a")).values()
    assert (absent.seat, absent.code) == (0, FaultCode.DISQUALIFIED) and "after game 5" in absent.detail
    assert rule.absent(("a", "c")) == {}


# What the sandbox reports for a bot file that cannot be imported (an INIT_FAIL at its start).
SYNTAX_ERROR = ('invalid: Traceback (most recent call last):\n'
                '  File "/tmp/arena-sandbox-1-x/rt/arena_host.py", line 494, in _run_bot\n'
                '  File "/bot/broken.py", line 2\n    def act(self obs):\n                 ^^^\n'
                'SyntaxError: invalid syntax')


def test_the_reason_quotes_the_first_fault_in_its_own_words() -> None:
    rule = Discipline()
    for gid in range(3):
        fault = Fault(0, "broken", FaultCode.INIT_FAIL, SYNTAX_ERROR if gid == 0 else "later")
        newly = rule.apply(GameRecord(gid, gid, ("broken", "a"), 1, ((1,), (0,)), 1,
                                      OutcomeReason.EMPTIED, 3, 0.0, (fault,)))
    assert newly["broken"].endswith("; game 0, INIT_FAIL: SyntaxError: invalid syntax "
                                    "(broken.py, line 2: def act(self obs):)")


def test_a_total_limit_counts_every_faulty_game_and_none_never_disqualifies() -> None:
    total = Discipline(FaultLimit(in_a_row=None, total=3))
    never = Discipline(FaultLimit(in_a_row=None, total=None))
    for gid in range(40):
        faulty = gid % 2 == 0
        assert never.apply(_game(gid, faulty)) == {}
        if gid < 4:
            assert total.apply(_game(gid, faulty)) == {}
    assert list(total.apply(_game(4, True))) == ["b"]


KILL_SCRIPT = """
import sys
from arena.tournament.runner import run_tournament
run_tournament(sys.argv[1], sys.argv[2], workers=2)
"""


def test_kill_9_of_the_parent_takes_workers_and_bots_with_it(tmp_path: Path) -> None:
    config = tmp_path / "long.yaml"
    # 120 games: the kill comes a few games in, far from the end; playing more would only make
    # the resume after it longer.
    config.write_text(f"name: long\nseats: 2\nrounds: 60\nseed: 3\nbots: [random, {FIRST_LEGAL}]\n")
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
    assert stored < 120  # killed mid-run
    report = run_tournament(config, tmp_path, workers=2)
    assert report.complete and report.played == 120 - stored
    # The killed workers could not remove their runtime folders; the next run swept them.
    assert [r for r in runtimes if os.path.exists(r)] == []
    with open_results(tmp_path, "long") as store:
        assert [g.game_id for g in store.games()] == list(range(120))


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


class BrokenChannel(RandomClient):
    """A seat whose channel fails under the referee (an error of the referee's own, not a reply)."""

    def act(self, message: dict[str, Any]) -> str:
        raise OSError(24, "Too many open files")


def test_a_failure_of_the_referees_own_channel_is_not_charged_to_the_seat() -> None:
    """Only a reply is the seat's to answer for: the channel's own error goes up as it is, to
    stop the worker (its game is played again on resume), not as a fault of the bot."""
    seats = [RandomClient(1), BrokenChannel(2)]
    with pytest.raises(OSError, match="Too many open files"):
        Referee(load_rules("switch")).play(seats, 7)
