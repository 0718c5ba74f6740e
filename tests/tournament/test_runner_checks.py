"""The checks before the first game: every bot loads, holds its contract and answers a legal
move, or the run stops at once with the bot's own error on one line; the check runs in game
processes of its own, so the games that follow are the same with it or without."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from tournament_helpers import untimed
from arena.cli import app
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament

BOTS = Path(__file__).resolve().parent / "bots"
BROKEN = "class Bot:\n    def act(self obs):\n        return obs.legal_actions()[0]\n"


def arena(home: Path, *args: str):
    env = {"ARENA_SLOT_BASE": str(random.randrange(5000, 30000, 50)), "COLUMNS": "200"}
    return CliRunner().invoke(app, [*args, "--home", str(home)], env=env)


def test_a_bot_with_a_syntax_error_is_refused_naming_the_bot_the_file_and_the_line(
        tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "broken.py").write_text(BROKEN)
    (tmp_path / "cup.yaml").write_text("name: cup\nseats: 2\nseed: 1\n"
                                       "bots: [random, greedy, bots/broken.py]\n")
    result = arena(tmp_path, "run", str(tmp_path / "cup.yaml"))
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line == (f"error: bot refused before the first game, nothing was played: 'broken' "
                    f"({tmp_path / 'bots' / 'broken.py'}): syntax error at line 2: invalid "
                    "syntax: def act(self obs):")
    assert "Traceback" not in result.output
    assert not (tmp_path / "results" / "cup.sqlite").exists()  # refused before the store


def test_the_check_leaves_the_games_as_they_are(tmp_path: Path) -> None:
    config = tmp_path / "same.yaml"
    config.write_text(f"name: same\nseats: 2\nrounds: 2\nseed: 4\n"
                      f"bots: [random, {BOTS / 'first_legal.py'}, {BOTS / 'remembers.py'}]\n")
    games = []
    for check in (True, False):
        report = run_tournament(config, tmp_path / str(check), workers=2, check=check)
        assert report.complete and report.disqualified == {}
        with open_results(tmp_path / str(check), "same") as store:
            records = list(store.games())
        assert [f for g in records for f in g.faults] == []  # nothing of an earlier game seen
        games.append([untimed(g) for g in records])
    assert games[0] == games[1]


def test_a_bot_file_too_large_to_be_a_program_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    # An attacker's "bot" of 5 MiB of comments would make the parent parse it for its contract
    # and its options: it is refused by size, on one line, before the store exists.
    (tmp_path / "bots").mkdir()
    huge = tmp_path / "bots" / "huge.py"
    huge.write_text("# padding\n" * (520 * 1024) + "class Bot:\n    def act(self, obs):\n"
                    "        return obs.legal[0]\n")
    assert huge.stat().st_size > 5 * 1024 * 1024
    (tmp_path / "cup.yaml").write_text("name: cup\nseats: 2\nseed: 1\nbots: [random, bots/huge.py]\n")
    result = arena(tmp_path, "run", str(tmp_path / "cup.yaml"))
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert "'huge'" in line and "larger than 4 MiB" in line
    assert "Traceback" not in result.output
    assert not (tmp_path / "results" / "cup.sqlite").exists()


def test_a_binary_bot_file_is_refused_as_no_python_source(tmp_path: Path) -> None:
    """Before, its refusal read 'syntax error at line None': the parser names no line for NUL."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "blob.py").write_bytes(b"\x7fELF\x02\x01\x01\x00" * 40)
    (tmp_path / "cup.yaml").write_text("name: cup\nseats: 2\nseed: 1\nbots: [random, bots/blob.py]\n")
    result = arena(tmp_path, "run", str(tmp_path / "cup.yaml"))
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert "'blob' (" in line and line.endswith(
        "blob.py): not Python source: source code string cannot contain null bytes"), line
