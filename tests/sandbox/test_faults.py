"""Each hostile bot is caught with the right fault code, and the sandbox stays usable."""

from __future__ import annotations

import os
import time

import pytest

from arena.sandbox import BotFault, FaultCode, Limits
from sandbox_helpers import act_message


def fault_of(bot, message=None, start=None) -> BotFault:  # type: ignore[no-untyped-def]
    """Start a game and act once; the fault raised."""
    bot.start_game(start or {"seat": 0})
    with pytest.raises(BotFault) as info:
        bot.act(message or act_message())
    return info.value


def test_endless_loop_is_timeout(make_bot) -> None:
    # A wall watchdog of 30 s, so that the CPU clock is what catches the loop even on a machine
    # so busy that the bot gets a tenth of a core.
    limits = Limits(move_time=0.3, wall_factor=100.0, bank=0.2, memory_mb=256, init_time=30.0)
    bot = make_bot("loop_forever.py", limits)
    bot.start_game({"seat": 0})
    started = time.monotonic()
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.TIMEOUT
    assert "CPU" in info.value.detail
    # move_time 0.3 + bank 0.2: caught near 0.5 s of CPU, far below the watchdog's 30 s.
    assert time.monotonic() - started < 10.0


def test_long_sleep_is_caught_by_the_wall_watchdog(make_bot) -> None:
    bot = make_bot("sleep_long.py")
    bot.start_game({"seat": 0})
    started = time.monotonic()  # the watchdog's 0.85 s count from the request: no CPU needed
    with pytest.raises(BotFault) as info:
        bot.act(act_message())
    assert info.value.code is FaultCode.TIMEOUT
    assert "wall" in info.value.detail
    assert time.monotonic() - started < 5.0  # not the 120 s the bot sleeps


def test_sigterm_ignoring_loop_is_killed(make_bot) -> None:
    bot = make_bot("ignore_sigterm.py")
    fault = fault_of(bot)
    assert fault.code is FaultCode.TIMEOUT
    assert bot.pid is None  # killed; the fixture checks that no process of the bot is left


def test_memory_bomb_is_memory(make_bot) -> None:
    fault = fault_of(make_bot("memory_bomb.py"))
    assert fault.code is FaultCode.MEMORY


def test_exit_code_is_reported_as_crash(make_bot) -> None:
    fault = fault_of(make_bot("exit_three.py"))
    assert fault.code is FaultCode.CRASH
    assert fault.returncode == 3
    assert "exit status 3" in fault.detail


def test_exception_in_act_is_invalid_with_traceback(make_bot) -> None:
    bot = make_bot("raise_in_act.py")
    fault = fault_of(bot)
    assert fault.code is FaultCode.INVALID
    assert "ValueError: boom-7f3a in act" in fault.detail
    assert "raise_in_act.py" in fault.detail
    assert "boom-7f3a" in bot.log_tail()


@pytest.mark.parametrize(("file", "detail"), [
    ("return_none.py", "act() returned None instead of an action"),
    ("return_garbage.py", "act() returned dict {'not': 'an action'}, not an action (its text, "
                          "or a Play, Draw or Pass)"),
])
def test_none_and_garbage_returns_are_invalid_in_one_line(make_bot, file: str, detail: str) -> None:
    """What the bot returned, in one line: no traceback of the host's own code, whose frames
    would point the author away from the bot."""
    fault = fault_of(make_bot(file))
    assert fault.code is FaultCode.INVALID
    assert fault.detail == detail


def test_illegal_but_readable_text_comes_back_unchanged(make_bot) -> None:
    bot = make_bot("return_illegal.py")
    bot.start_game({"seat": 0})
    assert bot.act(act_message()) == "KS KS KS=Q"


def test_print_flood_does_not_fault_and_the_log_is_capped(make_bot) -> None:
    limits = Limits(move_time=5.0, wall_factor=2.0, bank=0.0, memory_mb=256, log_bytes=16 * 1024)
    bot = make_bot("print_flood.py", limits)
    bot.start_game({"seat": 0})
    assert bot.act(act_message(legal=["JH", "draw"])) == "JH"
    assert bot._last is not None
    assert os.fstat(bot._last.log_fd).st_size <= 2 * limits.log_bytes + 4096
    tail = bot.log_tail(2)
    assert tail.splitlines() == ["stderr line", "last words"]


def test_closing_stdout_and_living_on_is_killed_and_said_to_be(make_bot) -> None:
    """close_stdout.py closes every descriptor but stderr and sleeps: it was still running
    when the referee gave up waiting, and the kill is what ended it."""
    fault = fault_of(make_bot("close_stdout.py"))
    assert fault.code is FaultCode.CRASH
    assert fault.detail.endswith("(still running: killed)")


def test_an_exit_reported_late_is_named_by_its_status_not_as_still_running(make_bot, monkeypatch) -> None:
    """On a busy machine a bot that exited can take longer to be seen gone than the referee
    waits (seen at nice 19 beside a tournament: 'closed its output (still running: killed)'
    for a bot that had called sys.exit(3)). Here the wait is made to give up at once: the
    referee kills, and the status says the bot had exited with 3 by itself."""
    from arena.sandbox.template import GameProcess
    bot = make_bot("exit_three.py")
    monkeypatch.setattr(GameProcess, "wait_exit", lambda self, timeout: None)
    fault = fault_of(bot)
    assert fault.code is FaultCode.CRASH and fault.returncode == 3
    assert fault.detail.endswith("exit status 3") and "still running" not in fault.detail


def test_sleep_at_import_is_init_fail(make_bot) -> None:
    limits = Limits(move_time=0.3, init_time=2.0, memory_mb=256)
    bot = make_bot("sleep_at_import.py", limits)
    started = time.monotonic()
    with pytest.raises(BotFault) as info:
        bot.start_game({"seat": 0})
    assert info.value.code is FaultCode.INIT_FAIL
    assert "wall" in info.value.detail  # its start's watchdog, not a slow template
    # Each step of a start waits init_time at most: caught long before the bot's 60 s sleep
    # ends, even on a busy machine.
    assert time.monotonic() - started < 15.0
    assert bot.pid is None


@pytest.mark.parametrize("start_written", ["at once", "after the bot's exit"])
def test_missing_class_is_init_fail_naming_it(make_bot, tmp_path, monkeypatch, start_written) -> None:
    """The game process loads the bot as soon as it is forked, reports the missing class and
    exits. Seen as an ordinary user on a busy machine: all that happened before the referee
    wrote ``start``, whose write then found the pipe closed, and the fault said only "the bot
    closed its input: exit status 1". The report is still in the reply pipe and must be what
    the fault names; the second case waits for the exit before writing, so the race is lost."""
    from arena.sandbox import BotSpec, SandboxedBot

    if start_written == "after the bot's exit":
        open_game = SandboxedBot._open_game

        def open_and_wait_for_its_exit(self: SandboxedBot) -> None:
            open_game(self)
            assert self._game is not None and self._game.wait_exit(30.0) == 1

        monkeypatch.setattr(SandboxedBot, "_open_game", open_and_wait_for_its_exit)
    (tmp_path / "noclass.py").write_text("x = 1\n")
    bot = make_bot("", spec=BotSpec.parse("noclass.py:Missing", tmp_path))
    with pytest.raises(BotFault) as info:
        bot.start_game({"seat": 0})
    assert info.value.code is FaultCode.INIT_FAIL
    assert "defines no class 'Missing'" in info.value.detail
    assert bot.pid is None


def test_act_before_start_is_crash_not_a_hang(make_bot) -> None:
    with pytest.raises(BotFault) as info:
        make_bot("moody.py").act(act_message())
    assert info.value.code is FaultCode.CRASH


def test_a_bot_cannot_forge_the_hosts_reports(make_bot, tmp_path) -> None:
    """An action text that looks like a host report ('!memory ...') is refused as INVALID:
    a Python bot cannot pick its own fault code."""
    from arena.sandbox import BotSpec

    (tmp_path / "forger.py").write_text(
        "class Bot:\n    def act(self, obs):\n        return '!memory \"forged\"'\n")
    fault = fault_of(make_bot("", spec=BotSpec.parse("forger.py", tmp_path)))
    assert fault.code is FaultCode.INVALID
    assert fault.detail == """act() returned '!memory "forged"', not a one-line action text"""
