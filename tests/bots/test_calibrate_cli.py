"""`arena calibrate` through the CLI, its refusals, and the seat bias that `arena run` and
`arena rankings` show for a tournament of their own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.cli import app
from cli_helpers import error_line, runner

HERE = Path(__file__).resolve().parent
SEAT_ZERO = HERE / "seat_zero.yaml"     # one card each, every card wild: seat 0 always wins
EPSILON = HERE.parents[1] / "bots" / "examples" / "epsilon.py"


def arena(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "100"})


def test_a_calibration_prints_its_seed_both_views_and_the_seat_bias(tmp_path):
    result = arena("calibrate", "greedy", "--games", "8", "--runs", "2", "--seed", "5",
                   "--workers", "1", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "seed: 5 (repeat with --seed 5)"
    assert lines[1] == "greedy: 4 copies, 2 runs of 8 games, switch at 4 seats"
    assert lines[2].startswith("copies greedy#1 ... greedy#4, seed 5")
    assert "false separation at margin 1.5: every neighbouring gap >= 1.5 sigmas" in lines
    assert re.search(r"^as played\s+8\s+0/2  0\.0 \[0\.0-65\.8\]\s+0/6  0\.0 \[0\.0-39\.0\]$",
                     result.stdout, re.MULTILINE), result.stdout
    assert re.search(r"^each deal once\s+2\s+\d/2 ", result.stdout, re.MULTILINE), result.stdout
    assert "4 of 4 deals played the same game in every seating:" in lines
    assert "  the copies' luck cancels exactly, so as played equals stay together" in lines
    assert "seat advantage over 16 games (4 deals):" in lines
    assert re.search(r"^win % by seat \[95%\]: 0: \d+\.\d \[", result.stdout, re.MULTILINE)


def test_calibrate_json_is_the_whole_result_and_nothing_else(tmp_path):
    result = arena("calibrate", "random", "--copies", "2", "--seats", "2", "--games", "4",
                   "--runs", "1", "--margin", "0.5", "--seed", "9", "--workers", "1", "--json",
                   "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["bot"], data["copies"], data["seats"], data["games"]) == (
        "random", ["random#1", "random#2"], 2, 4)
    assert (data["margin"], data["seed"], data["deals"]) == (0.5, 9, 2)
    assert set(data["as_played"]) == set(data["each_deal_once"]) == {"runs", "pairs"}
    assert data["as_played"]["runs"]["total"] == 1 and data["as_played"]["pairs"]["total"] == 1
    assert [run["games"] for run in data["runs"]] == [4]
    seats = data["seat_bias"]["seats"]
    assert [seat["seat"] for seat in seats] == [0, 1]
    assert sum(seat["wins"] for seat in seats) + data["seat_bias"]["draws"] == 4


def test_calibrate_takes_the_options_of_the_bot(tmp_path):
    result = arena("calibrate", str(EPSILON), "--option", "epsilon=0.5",
                   "--copies", "2", "--seats", "2", "--games", "2", "--runs", "1", "--seed", "1",
                   "--workers", "1", "--json", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["copies"] == ["epsilon[epsilon=0.5]#1", "epsilon[epsilon=0.5]#2"]


@pytest.mark.parametrize("args, words", [
    (["nosuchbot"], "unknown bot 'nosuchbot'"),
    (["greedy", "--copies", "3"], "3 copies cannot each hold one of 4 seats"),
    (["greedy", "--margin", "-1"], "above 0, got -1.0"),
    (["greedy", "--seats", "9"], "seats must be 2..6, got 9"),
    (["greedy", "--rules", "swtich"], "unknown rules 'swtich'"),
    (["greedy", "--option", "speed=3"], "speed"),
])
def test_bad_input_is_one_line(tmp_path, args, words):
    """Refused before a seed is drawn: no seed is offered to repeat what never started."""
    result = arena("calibrate", *args, "--home", str(tmp_path))
    assert words in error_line(result)
    assert "seed:" not in result.output


@pytest.mark.parametrize("args, option", [
    (["--copies", "1"], "--copies"), (["--runs", "0"], "--runs"), (["--games", "0"], "--games"),
])
def test_numbers_below_their_fixed_minimum_are_usage_errors(tmp_path, args, option):
    """A calibration needs 2 copies, 1 run and 1 game at least whatever the rules: the parser
    refuses fewer (status 64, EX_USAGE), naming the option."""
    result = arena("calibrate", "greedy", *args, "--home", str(tmp_path))
    assert result.exit_code == 64, result.output
    assert option in result.output and "seed:" not in result.output


def test_the_rankings_of_a_rigged_tournament_show_seat_zero_winning_every_game(tmp_path):
    (tmp_path / "rigged.yaml").write_text(
        f"name: rigged\nrules: {SEAT_ZERO}\nseats: 2\nbots: [random, greedy]\nrounds: 3\n"
        "seed: 1\n")
    run = arena("run", str(tmp_path / "rigged.yaml"), "--workers", "1", "--home", str(tmp_path))
    assert run.exit_code == 0, run.output
    assert re.search(r"^win % by seat \[95%\]: 0: 100\.0 \[43\.9-100\.0\]  1: 0\.0 \[0\.0-56\.1\]"
                     r"  fair share 50\.0$", run.stdout, re.MULTILINE), run.stdout
    data = json.loads(arena("rankings", "rigged", "--json", "--home", str(tmp_path)).stdout)
    bias = data["seat_bias"]
    assert (bias["games"], bias["deals"], bias["draws"]) == (6, 3, 0)
    assert [(s["seat"], s["wins"], s["win_rate"]) for s in bias["seats"]] == [(0, 6, 1.0), (1, 0, 0.0)]
    low, high = bias["seats"][0]["win_rate_ci"]
    assert 0.43 < low < 0.44 and high == 1.0   # 3 deals: Wilson's 3 / (3 + 1.96²)


def test_a_broken_bot_is_refused_before_the_first_game(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("class Bot:\n    def act(self obs):\n        return None\n")
    line = error_line(arena("calibrate", str(broken), "--runs", "2", "--seed", "1",
                            "--home", str(tmp_path)))
    assert "refused before the first game, nothing was played" in line and "syntax error" in line
