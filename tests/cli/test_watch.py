"""``arena watch NAME GAME_ID`` and ``arena watch --position FILE`` through typer's CliRunner
with scripted keys, and its frame pinned at 80 columns."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from arena.cli import app
from arena.cli.render import effect_text, render_watch, seat_names
from arena.engine.position import load_position
from arena.tournament.replay import load_stored_game, replay_moves
from arena.tournament.watch import frames

CONFIG = "name: w\nseats: 3\nbots: [random, greedy, heuristic]\nrounds: 1\nseed: 11\n"
HEADER = re.compile(r"^game (\d+) of w: move (\d+) of (\d+)$", re.MULTILINE)
# Seat 0 lays a 2 (a pickup in switch) on the 9 of hearts; seat 1 answers with its own 2,
# seat 2 has none and takes the four.
PICKUP = """rules: switch
seed: 3
hands:
  - [2H, 5C, 9S]
  - [2D, KC, 4S]
  - [6D, 7C, 8S]
top: 9H
stock: [3C, 4C, 5D, 6C, 8C, 9C]
moves: [2H, 2D, draw]
"""

runner = CliRunner()


def invoke(home: Path, *args: str, keys: str = ""):
    env = {"ARENA_HOME": str(home), "ARENA_SLOT_BASE": str(random.randrange(5000, 30000, 50)),
           "COLUMNS": "80"}
    return runner.invoke(app, list(args), input=keys, env=env)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace holding the finished three-seat tournament ``w``."""
    folder = tmp_path_factory.mktemp("watch")
    (folder / "w.yaml").write_text(CONFIG)
    result = invoke(folder, "run", str(folder / "w.yaml"), "--workers", "1")
    assert result.exit_code == 0, result.output
    return folder


def moves_shown(output: str) -> list[int]:
    """The move number of every frame shown, in order."""
    return [int(match.group(2)) for match in HEADER.finditer(output)]


def test_the_keys_step_forward_back_to_the_end_and_to_a_move(home: Path) -> None:
    last = len(load_stored_game(home, "w", 2).record.moves)
    result = invoke(home, "watch", "w", "2", keys="n\n\nb\ne\nn\ns\nb\n3\nq\n")
    assert result.exit_code == 0, result.output
    # next, enter (next), back, end, next at the end (stays), start, back at the start (stays), 3
    assert moves_shown(result.stdout) == [0, 1, 2, 1, last, last, 0, 0, 3]
    assert "the last move: nothing after it" in result.stdout
    assert "the deal: nothing before it" in result.stdout
    assert all(int(m.group(3)) == last for m in HEADER.finditer(result.stdout))


def test_every_hand_is_shown_with_its_bot_and_every_effect_is_the_replays(home: Path) -> None:
    stored = load_stored_game(home, "w", 1)
    (hand,) = stored.hands
    steps = list(replay_moves(load_stored_game(home, "w", 1).hands[0].game, hand.moves))
    result = invoke(home, "watch", "w", "1", keys="n\n" * len(steps) + "q\n")
    assert result.exit_code == 0, result.output
    frames_text = re.split(r"(?=^game 1 of w: move)", result.stdout, flags=re.MULTILINE)[1:]
    assert len(frames_text) == len(steps) + 1
    names = seat_names(stored.record.table)
    for step, text in zip(steps, frames_text[1:]):
        flat = " ".join(text.split())
        for effect in step.effects:
            assert effect_text(effect, names) in flat
        for seat, bot in enumerate(stored.record.table):
            assert f"seat {seat} ({bot})" in text
    assert "wins" in frames_text[-1] or "drawn" in frames_text[-1]


def test_a_bad_key_says_so_and_stays_on_the_move(home: Path) -> None:
    result = invoke(home, "watch", "w", "0", keys="n\nx\n999\nq\n")
    assert result.exit_code == 0
    assert moves_shown(result.stdout) == [0, 1, 1, 1]
    assert "unknown key 'x'" in result.stdout
    assert "no move 999: the game has moves 0.." in result.stdout


def test_a_digit_int_cannot_read_is_an_unknown_key_not_a_traceback(home: Path) -> None:
    result = invoke(home, "watch", "w", "0", keys="²\n" + "9" * 5000 + "\nq\n")
    assert result.exit_code == 0, result.output
    assert moves_shown(result.stdout) == [0, 0, 0]
    assert "unknown key '²'" in result.stdout and "unknown key '999" in result.stdout
    assert "9" * 100 not in result.stdout.replace("\n", "")


def test_the_end_of_input_quits(home: Path) -> None:
    result = invoke(home, "watch", "w", "0", keys="")
    assert result.exit_code == 0 and moves_shown(result.stdout) == [0]


@pytest.mark.parametrize("args, words, status", [
    (["w", "99"], ["game 99 is not stored"], 1),
    (["nope", "1"], ["no tournament 'nope'"], 1),
    (["w"], ["give a tournament NAME and GAME_ID"], 64),   # a command line short of an argument
])
def test_what_cannot_be_watched_is_one_line(home: Path, args: list[str], words: list[str],
                                            status: int) -> None:
    result = invoke(home, "watch", *args, keys="q\n")
    assert result.exit_code == status
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0]


def test_a_position_file_is_watched_with_its_penalties(tmp_path: Path) -> None:
    path = tmp_path / "pickup.yaml"
    path.write_text(PICKUP)
    result = invoke(tmp_path, "watch", "--position", str(path), keys="n\nn\nn\nq\n")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "seat 0 plays 2H: pickup +2" in text and "2 to pick up" in text
    assert "seat 1 plays 2D: pickup +2" in text and "4 to pick up" in text
    assert "seat 2 draws 4: takes the" in text and "no penalty" in text
    both = invoke(tmp_path, "watch", "w", "1", "--position", str(path))
    assert both.exit_code != 0 and "not both" in both.stderr


def frame_text(width: int, position: str, at: int, names=None) -> str:
    loaded = load_position_text(position)
    shown = frames([(loaded.game, loaded.moves)])
    con = Console(file=io.StringIO(), width=width, color_system=None)
    render_watch(con, shown[at], shown[-1].move, "game 7 of cup", names)
    return con.file.getvalue()


def load_position_text(text: str):
    path = Path(__import__("tempfile").mkdtemp()) / "p.yaml"
    path.write_text(text)
    return load_position(path)


def test_a_frame_fits_80_columns_and_24_lines_and_marks_the_move() -> None:
    names = ["random", "heuristic-with-a-very-long-name-v2", "greedy"]
    text = frame_text(80, PICKUP, 2, names)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, text
    assert len(lines) <= 23  # and the keys' line under it
    assert lines[0] == "game 7 of cup: move 2 of 3"
    assert lines[1] == "  seat 1 (heuristi…name-v2) plays 2D: pickup +2 (two, 4 to pick up)"
    assert lines[2] == "  top 2D  suit D  two 4 to pick up  direction +1  stock 6"
    assert lines[3].startswith("  seat 0 (random)") and lines[3].endswith(" 2: 5C 9S")
    assert lines[5].startswith("▶ seat 2 (greedy)")  # the seat to move
    assert lines[6] == "heuristi…name-v2 = heuristic-with-a-very-long-name-v2"  # the cut name in full


def test_a_finished_game_shows_its_result_and_no_seat_to_move() -> None:
    won = PICKUP.replace("[2H, 5C, 9S]", "[2H]").replace("moves: [2H, 2D, draw]", "moves: [2H]")
    text = frame_text(80, won, 1)
    assert "seat 0 wins (emptied) after 1 decisions" in text
    assert "▶" not in text


def test_the_frames_of_a_match_run_on_from_hand_to_hand() -> None:
    one, two = load_position_text(PICKUP), load_position_text(PICKUP)
    shown = frames([(one.game, one.moves), (two.game, two.moves)])
    assert [(f.hand, f.move) for f in shown] == [(0, 0), (0, 1), (0, 2), (0, 3),
                                                 (1, 3), (1, 4), (1, 5), (1, 6)]
    con = Console(file=io.StringIO(), width=80, color_system=None)
    render_watch(con, shown[5], shown[-1].move, "game 1 of m")
    assert con.file.getvalue().startswith("game 1 of m, hand 2 of 2: move 4 of 6")


def test_the_last_frame_of_a_stored_match_shows_the_matchs_result(tmp_path: Path) -> None:
    """switch-classic is a match of hands (F8): the last frame said '... wins (emptied)' for
    its last hand as if that were the game's result; it now says the hand's, and under it the
    stored result of the match (its winner, its places, 'wins')."""
    (tmp_path / "m.yaml").write_text("name: m\nrules: switch-classic\nseats: 2\n"
                                     "bots: [random, greedy]\nrounds: 1\nseed: 3\n")
    assert invoke(tmp_path, "run", str(tmp_path / "m.yaml"), "--workers", "1").exit_code == 0
    stored = load_stored_game(tmp_path, "m", 0)
    assert len(stored.hands) > 1   # a match, as the preset deals
    result = invoke(tmp_path, "watch", "m", "0", keys="e\nq\n")
    assert result.exit_code == 0, result.output
    last = result.stdout.split(f"hand {len(stored.hands)} of {len(stored.hands)}: move ")[-1]
    assert " wins the hand (emptied) after " in last
    winner = stored.record.winner_bot
    assert re.search(rf"^stored result: winner {winner} \(wins\)\n  places: {winner} > ", last,
                     re.MULTILINE), last
    assert "stored result" not in result.stdout.split("n/enter next")[0]   # the deal's frame: none


def test_a_position_with_a_move_that_cannot_be_played_names_the_file_and_the_move(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(PICKUP.replace("moves: [2H, 2D, draw]", "moves: [2H, KS]"))
    result = invoke(tmp_path, "watch", "--position", str(tmp_path / "bad.yaml"))
    assert result.exit_code == 1
    assert result.output == (f"error: {tmp_path / 'bad.yaml'}: move 2 ('KS') cannot be played: "
                             "illegal action 'KS': KS is not in the hand of seat 1\n")
