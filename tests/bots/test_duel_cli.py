"""`arena duel` through the CLI: the scores, `--sprt` and its refusals, the live line of a
terminal and the lines printed without one."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

import arena.cli.bots as bot_commands
from arena.cli import app
from cli_helpers import into_full_disk

runner = CliRunner()


def arena(*args: str):
    return runner.invoke(app, list(args))


def test_a_duel_reports_the_score_elo_and_los_of_two_bots(tmp_path):
    result = arena("duel", "greedy", "random", "--games", "40", "--seats", "2", "--seed", "1",
                   "--workers", "1", "--progress-every", "3600", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert re.search(r"^greedy vs random over 20 deal pairs: score 0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\]$",
                     result.output, re.MULTILINE), result.output
    assert re.search(r"^  Elo [+-]\d+\.\d \[[+-]\S+, [+-]\S+\]   nElo .*   LOS \d+\.\d%$",
                     result.output, re.MULTILINE), result.output
    assert "pairs by points  0: " in result.output and "SPRT" not in result.output
    assert "ETA" not in result.output   # not a terminal: no live line, and no hour has passed


def test_without_a_terminal_a_duel_prints_its_progress_line_now_and_then(tmp_path):
    """A duel whose output goes to a file (an SPRT can run for hours) prints the live line's
    text now and then (``--progress-every 0``: at every update), then its result."""
    result = arena("duel", "greedy", "random", "--games", "40", "--seats", "2", "--seed", "1",
                   "--workers", "1", "--progress-every", "0", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    end = next(i for i, line in enumerate(lines) if "switch: 40 games, 2 seats" in line)  # the result
    progress = [re.fullmatch(r"duel: (\d+)/40 \d+/s ETA \S+(  greedy [01]\.\d{3} Elo [+-](\d+|inf))?", line)
                for line in lines if line.startswith("duel: ")]
    assert progress and all(progress), lines
    counts = [int(m[1]) for m in progress if m is not None]
    assert counts == sorted(set(counts)) and counts[-1] == 40
    assert all(line.startswith(("seed: ", "duel: ")) for line in lines[:end]), lines[:end]


def test_an_sprt_duel_stops_when_h1_is_accepted_and_plays_two_seats_unless_told(tmp_path):
    result = arena("duel", "greedy", "random", "--sprt", "0", "50", "--games", "2000",
                   "--seed", "1", "--workers", "1", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    stop = re.search(r"SPRT nElo 0 vs 50, alpha 0\.05, beta 0\.05: H1 accepted \(50\) after (\d+) games",
                     result.output)
    assert stop, result.output
    games = int(stop.group(1))
    assert games < 2000 and games % 2 == 0   # early, after whole pairs of seatings
    assert f"switch: {games} games, 2 seats" in result.output   # the tally stops where the test did
    assert re.search(r"^  LLR 3\.\d\d, bounds \[-2\.94, 2\.94\]$", result.output, re.MULTILINE)


def test_the_sprt_takes_its_error_rates_and_the_logistic_model(tmp_path):
    result = arena("duel", "greedy", "random", "--seats", "2", "--sprt", "0", "100", "--alpha", "0.1",
                   "--beta", "0.2", "--sprt-model", "logistic", "--games", "2000", "--seed", "1",
                   "--workers", "1", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "SPRT Elo 0 vs 100, alpha 0.1, beta 0.2: " in result.output
    assert "bounds [-1.50, 2.08]" in result.output   # log(0.2 / 0.9), log(0.8 / 0.1)


@pytest.mark.parametrize("args, words", [
    (["greedy", "random", "heuristic", "--sprt", "0", "5"], "an SPRT needs two bots at two seats"),
    (["greedy", "random", "--seats", "4", "--sprt", "0", "5"], "not 2 bots at 4 seats"),
    (["greedy", "random", "--seats", "2", "--sprt", "5", "0"], "sprt: elo0 must be below elo1"),
    (["greedy", "random", "--seats", "2", "--alpha", "0.1"], "--alpha and --beta set an SPRT's error rates"),
    (["greedy", "random", "--seats", "2", "--sprt", "0", "5", "--beta", "1.5"], "beta must be between 0 and 1"),
    (["greedy"], "a duel needs at least two bots"),
    (["greedy", "random", "--seats", "9"], "seats must be 2..6, got 9"),
])
def test_an_sprt_it_cannot_run_is_one_line_before_any_game(tmp_path, args, words):
    """No seed is offered for a repeat of a duel that never started (no --seed given here)."""
    result = arena("duel", *args, "--home", str(tmp_path))
    assert result.exit_code == 1, result.output
    assert words in result.output
    assert "seed:" not in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_model_the_sprt_does_not_know_is_a_usage_error(tmp_path):
    """--sprt-model is one of a fixed set: the command line's parser refuses it (status 64,
    EX_USAGE), naming the option and the choices, before any seed or game."""
    result = arena("duel", "greedy", "random", "--seats", "2", "--sprt", "0", "5",
                   "--sprt-model", "bayes", "--home", str(tmp_path))
    assert result.exit_code == 64, result.output
    assert "--sprt-model" in result.output and "'normalized', 'logistic'" in result.output
    assert "seed:" not in result.output


def test_on_a_terminal_a_progress_line_runs_above_the_result(tmp_path, monkeypatch):
    screen = io.StringIO()
    monkeypatch.setattr(bot_commands, "console",
                        lambda: Console(file=screen, force_terminal=True, width=80))
    result = arena("duel", "greedy", "random", "--games", "60", "--seats", "2", "--seed", "2",
                   "--workers", "1", "--sprt", "0", "50", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())
    assert re.search(r" \d+/60 \d+/s ETA \S+  LLR -?\d\.\d\d/-?\d\.\d\d", shown), shown
    assert "SPRT nElo 0 vs 50" in shown   # the result follows the (erased) live line


def test_a_duel_whose_output_cannot_be_written_says_so_in_one_line(tmp_path):
    """Output to a full disk (/dev/full): the duel plays, then its result fails to print:
    one line on stderr and status 1, not a traceback."""
    run = into_full_disk(tmp_path, "duel", "greedy", "random", "--games", "4", "--workers", "1",
                         "--progress-every", "0")
    assert (run.returncode, run.stderr) == (1, "error: cannot write the output: No space left on device\n")
