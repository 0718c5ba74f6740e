"""Text from a bot is inert (issue 9, point 7): its escape sequences are shown, not obeyed, and
a lone surrogate in its words neither crashes `arena submit` nor a stored game."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from arena.cli import app
from arena.cli.render import render_play_news
from arena.play.faults import inert
from arena.services.play import BotFaulted
from arena.tournament.runner import disqualification_notice
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


ESCAPES = "\x1b[2J\x1b]0;pwned\x07\u202eevil"   # clear, a window title, a bidi override


def _is_inert(text: str) -> bool:
    return not any(c in text for c in ("\x1b", "\x07", "\u202e"))


def test_inert_shows_bidi_overrides_and_is_idempotent() -> None:
    """'Trojan Source': a right-to-left override would reorder the rest of the line."""
    shown = inert("x" + ESCAPES)
    assert shown == "x\\x1b[2J\\x1b]0;pwned\\x07\\u202eevil"
    assert inert(shown) == shown


def test_a_bot_refused_before_the_first_game_is_named_in_one_inert_error_line(tmp_path: Path) -> None:
    """The refusal's reason (a bot's exception text) goes through the CLI's one error line."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "loud.py").write_text(
        f"class Bot:\n    def act(self, obs):\n        raise RuntimeError({ESCAPES!r})\n")
    (tmp_path / "t.yaml").write_text("name: t\nseats: 2\nbots: [loud, random]\nrounds: 1\nseed: 1\n")
    result = CliRunner().invoke(app, ["run", str(tmp_path / "t.yaml"), "--home", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "loud" in result.output and "\\x1b]0;pwned\\x07\\u202eevil" in result.output
    assert _is_inert(result.output)


def test_a_faulted_seat_at_the_table_is_told_inert() -> None:
    con = Console(file=io.StringIO(), width=200, color_system=None)
    render_play_news(con, [BotFaulted(0, 1, "INVALID", f"RuntimeError: {ESCAPES}")], ["you", "loud"])
    shown = con.file.getvalue()
    assert "seat 1 (loud) faulted (INVALID: RuntimeError: \\x1b[2J" in shown and _is_inert(shown)


def test_a_bots_option_help_is_listed_inert(tmp_path: Path) -> None:
    bot = tmp_path / "loud.py"
    bot.write_text(
        "class Bot:\n"
        f"    OPTIONS = {{'depth': {{'type': 'int', 'default': 1, 'help': {ESCAPES!r}}}}}\n"
        "    def __init__(self, depth=1):\n        pass\n"
        "    def act(self, obs):\n        return obs.legal[0]\n")
    submitted = CliRunner().invoke(app, ["submit", str(bot), "--home", str(tmp_path), "--seed", "1"])
    assert submitted.exit_code == 0, submitted.output
    result = CliRunner().invoke(app, ["bots", "--home", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "depth" in result.output and "\\x1b]0;pwned" in result.output
    assert _is_inert(result.output)


def test_a_disqualification_notice_is_inert_for_the_terminal_and_the_log() -> None:
    notice = disqualification_notice("loud", f"3 faults in a row: INVALID: {ESCAPES}")
    assert notice.startswith("loud is disqualified: 3 faults in a row") and _is_inert(notice)
