"""``arena verify NAME [--drop]`` through typer's CliRunner: every stored game replayed with this
engine, the ones that diverge listed, taken out with ``--drop`` and played again by ``arena run``.

A game stored by an engine with a bug since fixed is simulated by editing stored games the way
such an engine leaves them: a move after the game's end (the second deal of a blocked tie, the
bug behind this command), a game whose moves stop before its end, and a result the moves do not
give.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from arena.tournament.lock import run_lock
from cli_helpers import invoke

CONFIG = ("name: checked\nrules: crazy-eights\nseats: 2\nbots: [random, greedy]\n"
          "rounds: 4\nseed: 9\n")
GAMES = 8  # 4 deals x 2 seatings


def store_path(home: Path) -> Path:
    return home / "results" / "checked.sqlite"


def edit(home: Path, sql: str, *params) -> None:
    with sqlite3.connect(store_path(home)) as conn:
        conn.execute(sql, params)


def stored(home: Path, game_id: int) -> tuple[list[str], list]:
    with sqlite3.connect(store_path(home)) as conn:
        moves, places = conn.execute("SELECT moves, places FROM games WHERE game_id = ?",
                                     (game_id,)).fetchone()
    return json.loads(moves), json.loads(places)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A finished tournament with three games edited as a buggy engine would have stored them."""
    (tmp_path / "checked.yaml").write_text(CONFIG)
    result = invoke(tmp_path, "run", str(tmp_path / "checked.yaml"), "--workers", "1")
    assert result.exit_code == 0, result.output
    moves, _ = stored(tmp_path, 1)
    edit(tmp_path, "UPDATE games SET moves = ? WHERE game_id = 1", json.dumps([*moves, "pass"]))
    moves, _ = stored(tmp_path, 3)
    edit(tmp_path, "UPDATE games SET moves = ? WHERE game_id = 3", json.dumps(moves[:-1]))
    _, places = stored(tmp_path, 6)
    assert len(places) == 2  # a won game: the other seat is made its winner
    seats = json.loads(sqlite3.connect(store_path(tmp_path)).execute(
        "SELECT seats FROM games WHERE game_id = 6").fetchone()[0])
    loser = places[1][0]
    edit(tmp_path, "UPDATE games SET places = ?, winner = ?, winner_bot = ? WHERE game_id = 6",
         json.dumps(places[::-1]), loser, seats[loser])
    return tmp_path


def test_a_clean_store_verifies(tmp_path: Path) -> None:
    (tmp_path / "checked.yaml").write_text(CONFIG)
    assert invoke(tmp_path, "run", str(tmp_path / "checked.yaml"), "--workers", "1").exit_code == 0
    result = invoke(tmp_path, "verify", "checked")
    assert result.exit_code == 0, result.output
    assert f"checked: all {GAMES} stored games replay to their stored result" in result.stdout


def test_verify_lists_each_game_that_does_not_replay_and_exits_1(home: Path) -> None:
    moves, _ = stored(home, 1)
    result = invoke(home, "verify", "checked")
    assert result.exit_code == 1
    assert f"3 of {GAMES} stored games do not replay" in result.stdout
    assert f"game 1: move {len(moves)} ('pass') is refused: the game is over" in result.stdout
    assert "game 3: the game has not ended after its" in result.stdout
    assert "game 6: replays to " in result.stdout and ", stored " in result.stdout
    assert [line.split(":")[0] for line in result.stdout.splitlines() if line.startswith("game ")] \
        == ["game 1", "game 3", "game 6"]
    assert invoke(home, "rankings", "checked").stdout.count(f"{GAMES} games") == 1  # nothing dropped


def test_drop_takes_them_out_and_the_next_run_plays_them_again(home: Path) -> None:
    dropped = invoke(home, "verify", "checked", "--drop")
    assert dropped.exit_code == 0, dropped.output
    assert "3 games taken out of the store" in dropped.stdout
    rankings = invoke(home, "rankings", "checked", "--json")
    assert sum(bot["games"] for bot in json.loads(rankings.stdout)["bots"]) == 2 * (GAMES - 3)
    assert invoke(home, "verify", "checked").exit_code == 0
    rerun = invoke(home, "run", str(home / "checked.yaml"), "--workers", "1")
    assert rerun.exit_code == 0, rerun.output
    assert f"{GAMES} of {GAMES} games stored" in rerun.stdout
    after = invoke(home, "verify", "checked")
    assert f"all {GAMES} stored games replay" in after.stdout
    rankings = invoke(home, "rankings", "checked", "--json")
    assert sum(bot["games"] for bot in json.loads(rankings.stdout)["bots"]) == 2 * GAMES


def test_a_row_that_cannot_be_read_is_listed_and_dropped_like_the_others(home: Path) -> None:
    """One damaged row used to stop verify, games and export alike, and --drop with them."""
    edit(home, "UPDATE games SET moves = 'not json' WHERE game_id = 4")
    assert "cannot read stored game 4" in invoke(home, "games", "checked").stderr
    listed = invoke(home, "verify", "checked")
    assert listed.exit_code == 1
    assert "game 4: its stored row cannot be read (Expecting value: line 1 column 1" in listed.stdout
    assert f"4 of {GAMES} stored games do not replay" in listed.stdout
    dropped = invoke(home, "verify", "checked", "--drop")
    assert dropped.exit_code == 0 and "4 games taken out of the store" in dropped.stdout
    assert invoke(home, "games", "checked").exit_code == 0
    rerun = invoke(home, "run", str(home / "checked.yaml"), "--workers", "1")
    assert rerun.exit_code == 0 and f"{GAMES} of {GAMES} games stored" in rerun.stdout


def test_after_a_drop_the_progress_counts_every_stored_game(home: Path) -> None:
    """The 5 games kept (of 8) are stored, whether or not they come after a dropped one in the
    schedule: the run's progress starts from them, and its ETA is for the 3 games it plays
    (it once said 1/8: only the games before the first gap)."""
    assert invoke(home, "verify", "checked", "--drop").exit_code == 0
    rerun = invoke(home, "run", str(home / "checked.yaml"), "--workers", "1", "--progress-every", "0")
    assert rerun.exit_code == 0, rerun.output
    counts = [int(line.split()[1].split("/")[0]) for line in rerun.stdout.splitlines()
              if line.startswith("checked: ") and f"/{GAMES} games" in line]
    assert counts and counts[0] >= GAMES - 3 and counts[-1] == GAMES, rerun.stdout


def test_drop_refuses_a_tournament_being_run_and_drops_nothing(home: Path) -> None:
    with run_lock("checked", home / "results"):
        result = invoke(home, "verify", "checked", "--drop")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "already being run" in lines[0]
    assert "Traceback" not in result.output
    assert invoke(home, "verify", "checked").exit_code == 1  # the three are still there


def test_an_unknown_tournament_is_one_line(tmp_path: Path) -> None:
    result = invoke(tmp_path, "verify", "nothing")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"error: no tournament 'nothing' under {tmp_path / 'results'} (no tournament stored there yet)"]
