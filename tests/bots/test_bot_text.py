"""Text from a bot is inert (issue 9, point 7): its escape sequences are shown, not obeyed, and
a lone surrogate in its words neither crashes `arena submit` nor a stored game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from arena.cli import app
from arena.play.referee import Referee
from arena.engine.rules import load_rules
from arena.sandbox import BotSpec, FaultCode, Limits, SandboxedBot

HOSTILE_WORDS = '''
class Bot:
    def act(self, obs):
        print("\\x1b[2J\\x1b[8mhidden")
        raise ValueError("\\x1b[2J\\x1b[1;32maccepted as champion\\x1b[0m \\ud800 \\x07")
'''


def test_submit_shows_a_bots_escape_sequences_instead_of_obeying_them(tmp_path: Path) -> None:
    bot = tmp_path / "shouty.py"
    bot.write_text(HOSTILE_WORDS)
    result = CliRunner().invoke(app, ["submit", str(bot), "--home", str(tmp_path), "--seed", "3"])
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b[2J\\x1b[1;32maccepted as champion" in result.output
    assert "\\ud800" in result.output
    assert "rejected" in result.output


def test_a_lone_surrogate_in_a_fault_is_stored_and_read_back(tmp_path: Path) -> None:
    bot_file = tmp_path / "shouty.py"
    bot_file.write_text(HOSTILE_WORDS)
    limits = Limits(move_time=0.5, memory_mb=256)
    bots = [SandboxedBot(BotSpec("shouty", bot_file), limits),
            SandboxedBot(BotSpec("shouty2", bot_file), limits)]
    try:
        result = Referee(load_rules("switch")).play(bots, 7)
    finally:
        for bot in bots:
            bot.close()
    fault = result.faults[0]
    assert fault.code is FaultCode.INVALID and "\\ud800" in fault.detail
    # valid text, whatever the bot sent: the store's SQLite accepts it and gives it back
    with sqlite3.connect(":memory:") as db:
        assert db.execute("select ?", (fault.detail,)).fetchone()[0] == fault.detail


def test_submit_refuses_hostile_sources_with_a_reason(tmp_path: Path) -> None:
    """Random bytes, NULs, invalid UTF-8 and deep nesting as a bot file: rejected, no traceback."""
    import random

    rng = random.Random(4)
    sources = [b"(" * 200_000, b"\x00\x01class Bot:", b"\xff\xfe" * 100, bytes(rng.randrange(256) for _ in range(3000)),
               b"x = " + b"[" * 100_000 + b"]" * 100_000]
    for index, source in enumerate(sources):
        bot = tmp_path / f"hostile{index}.py"
        bot.write_bytes(source)
        result = CliRunner().invoke(app, ["submit", str(bot), "--home", str(tmp_path), "--seed", "1"])
        assert result.exit_code == 1, (index, result.output)
        assert "Traceback" not in result.output and "rejected" in result.output, (index, result.output)
