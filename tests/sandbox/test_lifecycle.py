"""A fresh process every game, restart after faults, the CPU bank, command bots, log_tail."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from arena.sandbox import BotFault, BotSpec, FaultCode, Limits
from sandbox_helpers import FAST, REPO, act_message


def test_every_game_gets_a_fresh_process_and_a_match_keeps_one(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0, "hand": 0})
    first = bot.pid
    assert bot.act(act_message()) == "7H"  # an action object, turned into text by the host
    bot.end_game({"places": [[0]]})
    bot.start_game({"seat": 0, "hand": 1})  # the next hand of the same match
    assert bot.pid == first
    bot.close_game()
    assert bot.pid is None
    bot.start_game({"seat": 1})
    assert bot.pid not in (None, first)
    assert bot.act(act_message(legal=["draw"])) == "draw"


def test_restart_after_an_invalid_reply(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0, "mode": "raise"})
    first = bot.pid
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.INVALID
    bot.start_game({"seat": 0, "mode": "ok"})
    assert bot.pid != first
    assert bot.act(act_message()) == "7H"


def test_restart_after_a_timeout(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0, "mode": "loop"})
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.TIMEOUT
    assert bot.pid is None
    bot.start_game({"seat": 0})
    assert bot.act(act_message()) == "7H"


def test_bank_is_spent_then_timeout(make_bot) -> None:
    # Each move burns 0.15 s of CPU against 0.1 s allowed: the 0.12 s bank lasts two moves,
    # the third exceeds move_time + what is left of the bank. The wall watchdog (10 s) is far
    # off, so that on a busy machine too the CPU clock is what decides.
    limits = Limits(move_time=0.1, wall_factor=100.0, bank=0.12, memory_mb=256, init_time=30.0)
    bot = make_bot("moody.py", limits)
    bot.start_game({"seat": 0, "mode": "burn"})
    bot.act(act_message())
    bot.act(act_message())
    with pytest.raises(BotFault) as info:
        for _ in range(3):
            bot.act(act_message())
    assert info.value.code is FaultCode.TIMEOUT
    assert "CPU" in info.value.detail


def test_log_tail_shows_the_bots_own_prints(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0})
    bot.act(act_message())
    bot.end_game({"winner": 0})
    lines = bot.log_tail(3).splitlines()
    assert lines[0].startswith("game start pid=")
    assert lines[1] == "act pid=1"  # PID 1 of its own namespace
    assert lines[2] == "game end {'winner': 0}"
    assert bot.log_tail(1) == "game end {'winner': 0}"


def test_log_tail_survives_close(make_bot) -> None:
    bot = make_bot("moody.py")
    bot.start_game({"seat": 0})
    bot.close()
    assert "game start" in bot.log_tail()


@pytest.mark.parametrize("python", ["python3", sys.executable])
def test_command_bot_plays_the_first_legal_action(make_bot, python: str) -> None:
    spec = BotSpec.parse({"name": "cmd", "cmd": [python, "bots/examples/first_legal_cmd.py"]}, REPO)
    bot = make_bot("", spec=spec)
    bot.start_game({"seat": 0})
    assert bot.act(act_message(legal=["pass", "draw"])) == "pass"
    bot.end_game({})
    bot.close_game()
    bot.start_game({"seat": 2})  # a fresh program for the next game
    assert bot.act(act_message()) == "7H"


def test_a_command_bots_stderr_is_its_log_and_comes_with_its_fault(make_bot) -> None:
    spec = BotSpec("talker", command=("/bin/sh", "-c", "read line; echo 'started fine' >&2; echo ok; "
                                      "read line; echo 'no idea what to play' >&2; exit 3"))
    bot = make_bot("", spec=spec)
    bot.start_game({"seat": 0})
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.CRASH
    assert info.value.log_tail == "started fine\nno idea what to play"
    assert bot.log_tail(1) == "no idea what to play"


def test_command_bot_that_closes_stdout_is_crash(make_bot) -> None:
    spec = BotSpec("closer", command=("/bin/sh", "-c", "read line; exec 1>&-; sleep 30"))
    bot = make_bot("", spec=spec)
    with pytest.raises(BotFault) as info:
        bot.start_game({"seat": 0})
    assert info.value.code is FaultCode.INIT_FAIL
    assert "crash" in info.value.detail


def test_command_bot_flooding_without_newline_is_invalid(make_bot) -> None:
    spec = BotSpec("flood", command=("/bin/sh", "-c", "read line; echo ok; read line; "
                                     "while :; do printf xxxxxxxxxxxxxxxxxxxxxxxxxxxx; done"))
    bot = make_bot("", spec=spec)
    bot.start_game({"seat": 0})
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.INVALID
    assert "longer than" in info.value.detail


@pytest.mark.parametrize("reply, words", [
    (r"printf '\377\376\n'", "not UTF-8"),
    ("echo", "empty reply"),
    ("echo '!error \"bad state\"'", "bad state"),
])
def test_command_bot_unreadable_replies_are_invalid(make_bot, reply: str, words: str) -> None:
    spec = BotSpec("odd", command=("/bin/sh", "-c", f"read line; echo ok; read line; {reply}; sleep 30"))
    bot = make_bot("", spec=spec)
    bot.start_game({"seat": 0})
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.INVALID
    assert words in info.value.detail


WORKER = r'''
import dataclasses
import sys
from pathlib import Path
from arena.sandbox import SandboxedBot, BotSpec, Limits
from arena.sandbox.bench import SAMPLE_OBS
bot = SandboxedBot(BotSpec("loop", Path(sys.argv[1])), Limits(move_time=60, wall_factor=1))
bot.start_game({"seat": 0, "seats": 2, "seed": 1, "rules": {"name": "switch", "settings": {}}})
print(bot.pid, flush=True)
bot.act({"obs": SAMPLE_OBS})
'''


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_looping_bot_dies_with_a_sigkilled_worker(tmp_path) -> None:
    """A tournament worker killed with SIGKILL cannot clean up: its bot, busy in a loop that
    ignores SIGTERM and never reads its closed pipe, must die with it all the same."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    bot_file = Path(__file__).parent.parent / "hostile_bots" / "ignore_sigterm.py"
    worker = subprocess.Popen([sys.executable, "-c", WORKER, str(bot_file)],
                              stdout=subprocess.PIPE, text=True)
    pid = int(worker.stdout.readline())
    time.sleep(0.3)
    assert _alive(pid)
    worker.kill()
    worker.wait()
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc."""
    import os

    fields = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _states(pid: int) -> list[str]:
    """The scheduler state letter of every thread of a process, from /proc."""
    import os

    states = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{task}/stat").read()
        except FileNotFoundError:  # a thread that ended meanwhile
            continue
        states.append(stat.rpartition(")")[2].split()[0])
    return states


def test_a_bot_is_stopped_before_its_reply_is_taken(make_bot) -> None:
    """A system call the bot starts after writing its reply (MADV_POPULATE_WRITE looks only
    for fatal signals) goes on after its SIGSTOP, until it returns: the referee waits for every
    thread to be stopped before it moves on, so the call runs on the bot's own time, never on
    the next seat's, and its CPU is charged to the move: the clock stands where it was
    charged. (Before, the call was still running here, and its CPU uncharged.)"""
    limits = dataclasses.replace(FAST, memory_mb=1024, move_time=5.0)
    bot = make_bot("busy_after_reply.py", limits)
    bot.start_game({"seat": 0, "populate_mb": 768})
    for _ in range(3):
        bot.act(act_message(legal=["draw"]))
        assert set(_states(bot.pid)) == {"T"}
        game = bot._game
        assert game is not None and game.cpu() - game.charged < 0.001


def test_a_command_bot_is_stopped_even_when_it_seems_to_wait(make_bot) -> None:
    """A command bot may keep a copy of its request pipe and block reading a file at
    descriptor 0 instead: one thread blocked in read(0), as a bot waiting for its request looks.
    Or a second thread may put the pipe back at descriptor 0, reply and end, while the first
    sleeps in that read. It is stopped all the same (a Python bot cannot copy the pipe, and
    its descriptor 0 must still be the pipe)."""
    for file in ("command_reads_elsewhere.py", "command_swaps_fd0.py"):
        spec = BotSpec.parse({"name": "elsewhere", "cmd": ["python3", f"tests/hostile_bots/{file}"]},
                             REPO)
        bot = make_bot("", dataclasses.replace(FAST, move_time=5.0), spec=spec)
        bot.start_game({"seat": 0})
        for _ in range(3):
            assert bot.act(act_message(legal=["draw"])) == "draw"
            assert set(_states(bot.pid)) == {"T"}, file


def test_a_bot_runs_nothing_between_its_requests(make_bot) -> None:
    """Its background thread is frozen with it: no CPU is used while it waits (issue 9)."""
    import time

    limits = Limits(move_time=0.5, wall_factor=4.0, bank=0.0, memory_mb=256, hook_time=1.0)
    bot = make_bot("background_burner.py", limits)
    bot.start_game({"seat": 0})
    before = _cpu_seconds(bot.pid)
    time.sleep(0.5)
    assert _cpu_seconds(bot.pid) - before < 0.05  # frozen: not the 0.5 s it would have burned
    # Each request lets it run again, only until its reply, and it is frozen again after.
    for _ in range(20):
        assert bot.act(act_message(legal=["draw"])) == "draw"
    before = _cpu_seconds(bot.pid)
    time.sleep(0.5)
    assert _cpu_seconds(bot.pid) - before < 0.05


def test_hooks_are_charged_their_own_cpu_limit(make_bot, tmp_path) -> None:
    (tmp_path / "slow_hook.py").write_text(
        "class Bot:\n"
        "    def on_game_start(self, info):\n"
        "        while True:\n"
        "            pass\n"
        "    def act(self, obs):\n"
        "        return obs.legal[0]\n")
    limits = Limits(move_time=0.1, init_time=20.0, memory_mb=256, hook_time=0.3)
    bot = make_bot("", limits, spec=BotSpec.parse("slow_hook.py", tmp_path))
    with pytest.raises(BotFault) as info:
        bot.start_game({"seat": 0})
    assert info.value.code is FaultCode.INIT_FAIL
    assert "on_game_start" in info.value.detail and "CPU" in info.value.detail


@pytest.mark.parametrize("frozen", [True, False])
def test_a_rival_near_its_allowance_stays_clean_beside_a_cpu_burner(make_bot, monkeypatch,
                                                                    frozen: bool) -> None:
    """Referee and both bots on one core, as in a tournament worker: the burner's threads,
    frozen between its requests, take nothing from its rival. (Unfrozen, as the control run,
    they take at least half the core while the rival thinks, and the rival's wall-clock
    watchdog of ``move_time * 1 + WALL_SLACK`` would fire even on an idle machine.)

    What is compared is CPU time, which other load on the machine cannot change: the rival's
    move lasts at least its own CPU plus whatever the burner used meanwhile on their one core.
    The watchdog here is generous, so that other load cannot make the rival fault."""
    import os

    from arena.sandbox.bot import WALL_SLACK
    from arena.sandbox.template import GameProcess

    if not frozen:
        monkeypatch.setattr(GameProcess, "freeze", lambda self, until: None)
    cpu = {min(os.sched_getaffinity(0))}
    limits = Limits(move_time=1.0, wall_factor=30.0, bank=0.0, memory_mb=256, hook_time=1.0,
                    init_time=30.0)
    thinker = make_bot("steady_thinker.py", limits, cpus=cpu)
    # Unfrozen, the burner is charged all its threads burn while the rival thinks: about 1 s,
    # near a 1 s allowance, so under load it would fault itself and end the control run. Its
    # own charge is not what this test is about, so it gets room; the rival keeps its limits.
    burner = make_bot("background_burner.py", dataclasses.replace(limits, move_time=20.0), cpus=cpu)
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpu)
    try:
        thinker.start_game({"seat": 0, "think": 0.8})
        burner.start_game({"seat": 1})
        faults, moves = [], []
        for _ in range(2):
            burned, thought = _cpu_seconds(burner.pid), _cpu_seconds(thinker.pid)
            for bot in (thinker, burner):
                try:
                    bot.act(act_message(legal=["draw"]))
                except BotFault as fault:
                    faults.append((bot.spec.name, fault.code))
                if bot is thinker:  # what each used while the rival thought
                    moves.append((_cpu_seconds(thinker.pid) - thought, _cpu_seconds(burner.pid) - burned))
    finally:
        os.sched_setaffinity(0, before)
    assert faults == [], [(b.spec.name, b.log_tail()) for b in (thinker, burner)]
    for thought, burned in moves:
        assert thought >= 0.78  # the rival did think near its allowance of 1 s (clock ticks)
        if frozen:
            assert burned < 0.05, moves
            assert thought + burned < limits.move_time + WALL_SLACK  # a tight watchdog holds
        else:
            assert burned > 0.4, moves  # its threads ran on the rival's time
            assert thought + burned > limits.move_time + WALL_SLACK  # a tight watchdog fires
