"""``arena run / rankings / games / export / replay NAME GAME_ID`` through typer's CliRunner.

One small tournament is run once for the module (a temporary workspace given by ``ARENA_HOME``);
the error cases each use their own workspace.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rich.console import Console

from arena.cli import app
from arena.cli import tournament as tournament_commands
from arena.tournament import Store
from arena.tournament.errors import StoreWriteError
from arena.tournament.replay import open_results, stored_game
from arena.tournament.shipment import code_identity
from cli_helpers import error_line, into_full_disk, invoke, runner

FIRST_LEGAL = Path(__file__).resolve().parents[1] / "tournament" / "bots" / "first_legal.py"
CONFIG = f"name: cli\nseats: 3\nbots: [random, greedy, {FIRST_LEGAL}]\nrounds: 2\nseed: 4\n"
GAMES = 6  # one table x 2 deals x 3 rotations


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace holding the finished tournament ``cli``."""
    folder = tmp_path_factory.mktemp("workspace")
    (folder / "cli.yaml").write_text(CONFIG)
    result = invoke(folder, "run", str(folder / "cli.yaml"), "--workers", "2")
    assert result.exit_code == 0, result.output
    assert f"{GAMES} of {GAMES} games stored" in result.stdout
    assert re.search(r"^log: \S+cli\.log$", result.stdout, re.MULTILINE)  # a line of its own
    return folder


def test_bench_rankings_stores_synthetic_games_and_times_the_rankings() -> None:
    result = runner.invoke(app, ["bench", "--rankings", "--games", "300", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["games"], data["bots"], data["seats"]) == (300, 5, 4)
    assert data["rank_seconds"] > 0 and data["store_us_per_game"] > 0
    text = runner.invoke(app, ["bench", "--rankings", "--games", "40"], env={"COLUMNS": "200"})
    assert text.exit_code == 0 and "40 synthetic games (5 bots, 4 seats)" in text.stdout


def test_run_ends_with_the_rankings_table(home: Path) -> None:
    result = invoke(home, "rankings", "cli")
    assert result.exit_code == 0
    assert "cli: 6 games" in result.stdout and "first_legal" in result.stdout


MARKUP_BREAKER = """\
class Bot:
    def act(self, observation):
        if len(observation.hand) < 6:   # past the checks' first move: it faults in play
            raise RuntimeError("[/] [bold]no\x1b[2J move")
        return observation.legal_actions()[0]
"""


@pytest.mark.parametrize("terminal", [False, True])
def test_a_disqualification_is_shown_once_and_as_the_bot_wrote_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    """Announced live, the disqualification is not repeated by the run's report (it was, once
    wrapped and cut short); its reason, the bot's own text, is shown literally: "[/]" is not
    rich markup to close, and an escape sequence is shown as text, not sent to the terminal. A resume, which announces nothing live, still reports it once."""
    (tmp_path / "breaker.py").write_text(MARKUP_BREAKER)
    (tmp_path / "dq.yaml").write_text(f"name: dq\nseats: 2\nbots: [greedy, {tmp_path / 'breaker.py'}]\n"
                                      "rounds: 3\nseed: 1\n")
    screen = io.StringIO()
    if terminal:
        monkeypatch.setattr(tournament_commands, "console",
                            lambda: Console(file=screen, force_terminal=True, width=400))
    for _ in range(2):   # the run, then a resume with nothing left to play
        result = invoke(tmp_path, "run", str(tmp_path / "dq.yaml"), "--workers", "1", columns=1000)
        assert result.exit_code == 0, result.output
        raw = screen.getvalue() if terminal else result.stdout
        assert "\x1b[2J" not in raw   # the bot's escape sequence is shown, not obeyed
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw)
        told = [line for line in shown.splitlines() if "is disqualified" in line]
        assert len(told) == 1, shown
        assert 'RuntimeError: [/] [bold]no\\x1b[2J move' in told[0] and told[0].endswith(
            "its remaining games are played by its fallback, placed last")
        screen.seek(0)
        screen.truncate()


def test_a_changed_setup_is_refused_with_one_piece_of_advice(tmp_path: Path) -> None:
    """Stored games of another setup are never mixed in: the line names the change and says
    once how to go on (it said "restart it" twice, in two wordings)."""
    file = tmp_path / "small.yaml"
    file.write_text("name: small\nseats: 2\nbots: [random, greedy]\nrounds: 1\nseed: 1\n")
    assert invoke(tmp_path, "run", str(file), "--workers", "1").exit_code == 0
    file.write_text("name: small\nrules: crazy-eights\nseats: 2\nbots: [random, greedy]\n"
                    "rounds: 1\nseed: 1\n")
    line = error_line(invoke(tmp_path, "run", str(file), "--workers", "1"))
    assert "holds 2 games of a different setup (" in line and "rules" in line
    assert line.endswith(": run it with --restart to archive them and start over, or give the "
                         "tournament another name")
    assert line.count("restart") == 1


def test_rewording_a_rule_sets_summary_keeps_its_stored_games(tmp_path: Path) -> None:
    """A summary describes a game, it is not one: the stored games resume under a reworded one
    (they were refused as "rule settings changed"), and a changed setting is still refused."""
    rules = tmp_path / "mine.yaml"
    rules.write_text('base: switch\nname: mine\nsummary: first words\npowers:\n  "7": {}\n')
    file = tmp_path / "small.yaml"
    file.write_text(f"name: small\nrules: {rules}\nseats: 2\nbots: [random, greedy]\nrounds: 1\nseed: 1\n")
    assert invoke(tmp_path, "run", str(file), "--workers", "1").exit_code == 0
    rules.write_text('base: switch\nname: mine\nsummary: better words\npowers:\n  "7": {}\n')
    again = invoke(tmp_path, "run", str(file), "--workers", "1")
    assert again.exit_code == 0 and "small: 2 of 2 games stored; this run played 0" in again.stdout
    rules.write_text('base: switch\nname: mine\nsummary: better words\npowers: {}\n')
    assert "rule settings changed ('powers.7" in error_line(invoke(tmp_path, "run", str(file)))


def test_rankings_json(home: Path) -> None:
    result = invoke(home, "rankings", "cli", "--json", "--h2h")
    data = json.loads(result.stdout)
    assert data["tournament"] == "cli" and data["games"] == GAMES
    assert sorted(line["bot"] for line in data["bots"]) == ["first_legal", "greedy", "random"]
    assert all(line["games"] == GAMES and not line["disqualified"] for line in data["bots"])
    for line in data["bots"]:  # the intervals the table shows
        low, high = line["win_rate_ci"]
        assert low <= line["win_rate"] <= high
        low, high = line["mean_place_ci"]
        assert low <= line["mean_place"] <= high
    assert {(c["bot"], c["opponent"]) for c in data["head_to_head"]} >= {("greedy", "random")}


def test_games_json(home: Path) -> None:
    data = json.loads(invoke(home, "games", "cli", "--json").stdout)
    assert [game["id"] for game in data] == list(range(GAMES))
    assert set(data[0]) == {"id", "seats", "winner", "places", "reason", "decisions", "faults"}
    assert invoke(home, "games", "cli").exit_code == 0


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_export_writes_games_and_rankings(home: Path, tmp_path: Path, fmt: str) -> None:
    result = invoke(home, "export", "cli", "--format", fmt, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    games, ranks = tmp_path / f"cli-games.{fmt}", tmp_path / f"cli-rankings.{fmt}"
    assert str(games) in result.stdout.replace("\n", "")
    if fmt == "csv":
        assert len(list(csv.DictReader(games.open()))) == GAMES
        assert len(list(csv.DictReader(ranks.open()))) == 3
    else:
        assert len(games.read_text().splitlines()) == GAMES
        assert [json.loads(line)["rank"] for line in ranks.read_text().splitlines()] == [1, 2, 3]


def test_an_unknown_export_format_is_a_usage_error(home: Path, tmp_path: Path) -> None:
    """The formats are a fixed set: the parser names the option and the choices (status 64)."""
    result = invoke(home, "export", "cli", "--format", "xml", "--out", str(tmp_path))
    assert result.exit_code == 64, result.output
    assert "--format" in result.output and "'csv', 'jsonl'" in result.output
    assert list(tmp_path.iterdir()) == []


def test_replay_of_a_stored_game_matches_the_store(home: Path) -> None:
    result = invoke(home, "replay", "cli", "4", "--json")
    assert result.exit_code == 0, result.output
    final = json.loads(result.stdout)
    with open_results(home, "cli") as store:
        replay = stored_game(store, 4)
    (hand,) = replay.hands
    for move in hand.moves:
        hand.game.apply(move)
    assert final == hand.game.to_json()
    assert final["reason"] == replay.record.reason
    text = invoke(home, "replay", "cli", "4")
    assert text.exit_code == 0 and f"after {replay.record.decisions} decisions" in text.stdout
    for seat, bot in enumerate(replay.record.table):  # the seats carry their bots' names
        assert f"seat {seat} ({bot}): " in text.stdout
    assert text.stdout.splitlines()[0] == f"game 4 of cli, deal {replay.record.deal_id}"
    assert text.stdout.rstrip().endswith("stored result: the same")


def test_replay_of_an_unknown_game_is_one_line(home: Path) -> None:
    result = invoke(home, "replay", "cli", "99")
    assert result.exit_code == 1 and "game 99 is not stored" in error_line(result)


def test_replay_of_a_tournament_without_a_game_id_asks_for_one(home: Path) -> None:
    """`arena replay cli` said "cli: cannot read position file (No such file or directory)":
    the name is a tournament's, and what is missing is the game's id (a usage error, as in
    `arena watch`)."""
    result = invoke(home, "replay", "cli")
    assert result.exit_code == 64 and "Traceback" not in result.output
    assert result.stderr.strip() == "error: cli is a tournament: give a GAME_ID too (arena games cli lists them)"


def test_unknown_tournament_is_one_line(home: Path) -> None:
    for command in (["rankings", "nope"], ["games", "nope"], ["export", "nope"], ["replay", "nope", "1"]):
        result = invoke(home, *command)
        assert result.exit_code == 1
        assert "no tournament 'nope'" in error_line(result) and "cli" in result.stderr


def test_a_mistyped_tournament_is_answered_with_the_closest_name(home: Path, tmp_path: Path) -> None:
    """A folder that only looks like a results file is not listed as a tournament."""
    (tmp_path / "results" / "folder.sqlite").mkdir(parents=True)
    shutil.copy(home / "results" / "cli.sqlite", tmp_path / "results")
    result = invoke(tmp_path, "rankings", "CLI")
    assert result.exit_code == 1
    assert "no tournament 'CLI' (did you mean 'cli'?) under" in error_line(result)
    assert "stored: cli)" in error_line(result)


def test_malformed_config_is_one_line_and_stores_nothing(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("name: bad\nbots: [random, greedy\nseats: 2\n")
    result = invoke(tmp_path, "run", str(tmp_path / "bad.yaml"))
    assert result.exit_code == 1 and "malformed YAML" in error_line(result)
    assert not (tmp_path / "results").exists()


def test_unknown_bot_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("name: t\nseats: 2\nbots: [random, bots/nothere.py]\n")
    result = invoke(tmp_path, "run", str(tmp_path / "t.yaml"))
    assert result.exit_code == 1 and "nothere.py" in error_line(result)


def test_a_changed_config_needs_restart(tmp_path: Path) -> None:
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG)
    assert invoke(tmp_path, "run", str(config)).exit_code == 0
    config.write_text(CONFIG.replace("seats: 3", "seats: 2"))
    refused = invoke(tmp_path, "run", str(config))
    line = error_line(refused)
    assert refused.exit_code == 1 and "key 'seats' changed (3 -> 2)" in line and "--restart" in line
    restarted = invoke(tmp_path, "run", str(config), "--restart", "--workers", "1")
    assert restarted.exit_code == 0 and "archived to" in restarted.stdout


def test_more_rounds_grow_the_tournament_and_say_what_is_played(tmp_path: Path) -> None:
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG.replace("rounds: 2", "rounds: 1"))
    assert invoke(tmp_path, "run", str(config)).exit_code == 0
    config.write_text(CONFIG)
    grown = invoke(tmp_path, "run", str(config), "--workers", "1")
    assert grown.exit_code == 0, grown.output
    out = grown.stdout.replace("\n", " ")
    assert ("tournament 'cli' grows: rounds 1 -> 2: 3 new games (3 stored games kept, 3 to play)"
            in out)
    assert f"{GAMES} of {GAMES} games stored; this run played 3" in out


def drawn_seed(home: Path) -> int:
    """The seed a run drew, as only ``arena rankings --show-seed`` gives it."""
    shown = json.loads(invoke(home, "rankings", "cli", "--json", "--show-seed").stdout)
    assert shown["seed_hidden"] is False
    return int(shown["seed"])


def test_a_file_without_seed_gets_a_drawn_seed_that_the_resume_keeps_and_no_view_shows_unasked(
        tmp_path: Path) -> None:
    """The drawn seed deals every game still to play, and runs' output and rankings get shared
    while games remain: neither shows it unless asked (--show-seed)."""
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG.replace("seed: 4\n", ""))
    first = invoke(tmp_path, "run", str(config), "--max-games", "2")
    assert first.exit_code == 0, first.output
    seed = drawn_seed(tmp_path)
    assert "seed: drawn at random and kept secret in" in first.stdout
    assert f"arena rankings cli --home {tmp_path} --show-seed shows it" in " ".join(first.stdout.split())
    resumed = invoke(tmp_path, "run", str(config))
    assert resumed.exit_code == 0, resumed.output  # not refused as a changed config
    assert "played 4" in resumed.stdout and drawn_seed(tmp_path) == seed
    plain = json.loads(invoke(tmp_path, "rankings", "cli", "--json").stdout)
    assert (plain["seed"], plain["seed_hidden"]) == (None, True)
    table = invoke(tmp_path, "rankings", "cli").stdout
    assert f"{GAMES} games, seed drawn at random (--show-seed)" in table
    for output in (first.stdout, resumed.stdout, table):
        assert str(seed) not in output
    assert f"{GAMES} games, seed {seed}" in invoke(tmp_path, "rankings", "cli", "--show-seed").stdout
    other = tmp_path / "other"
    other.mkdir()
    fresh = invoke(other, "run", str(config), "--max-games", "1", "--home", str(other))
    assert fresh.exit_code == 0 and drawn_seed(other) != seed


def test_an_export_leaves_a_drawn_seed_out_unless_asked(tmp_path: Path) -> None:
    """An export is shared as rankings are, while games remain to be played: the seed a run
    drew would deal every one of them. Before, each ranking row of the export carried it."""
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG.replace("seed: 4\n", ""))
    assert invoke(tmp_path, "run", str(config), "--max-games", "2").exit_code == 0
    seed = drawn_seed(tmp_path)
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"plain-{fmt}"
        assert invoke(tmp_path, "export", "cli", "--format", fmt, "--out", str(out)).exit_code == 0
        assert str(seed) not in (out / f"cli-rankings.{fmt}").read_text()
        shown = tmp_path / f"shown-{fmt}"
        assert invoke(tmp_path, "export", "cli", "--format", fmt, "--out", str(shown),
                      "--show-seed").exit_code == 0
        assert str(seed) in (shown / f"cli-rankings.{fmt}").read_text()
    rows = [json.loads(line) for line in (tmp_path / "plain-jsonl" / "cli-rankings.jsonl").open()]
    assert rows and all(row["seed"] is None and row["seed_hidden"] for row in rows)


def test_a_file_with_a_seed_prints_no_drawn_seed(home: Path) -> None:
    result = invoke(home, "run", str(home / "cli.yaml"))
    assert result.exit_code == 0 and "drawn at random" not in result.stdout
    assert "games, seed 4" in result.stdout  # a seed the file wrote is no secret
    shown = json.loads(invoke(home, "rankings", "cli", "--json").stdout)
    assert (shown["seed"], shown["seed_hidden"]) == (4, False)


def test_a_stopped_run_prints_the_command_that_resumes(tmp_path: Path) -> None:
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG)
    first = invoke(tmp_path, "run", str(config), "--max-games", "2", "--home", str(tmp_path))
    assert first.exit_code == 0
    assert f"resume with: arena run {config} --home {tmp_path}" in first.stdout.replace("\n", "")
    second = invoke(tmp_path, "run", str(config), "--home", str(tmp_path))
    assert second.exit_code == 0 and "played 4" in second.stdout


def test_ctrl_c_keeps_games_and_exits_130_with_the_resume_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.cli import tournament as commands

    def interrupt(self, progress) -> None:
        if progress.stored >= 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(commands._Display, "update", interrupt)
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG.replace("rounds: 2", "rounds: 40"))  # progress comes 4 times a second
    result = invoke(tmp_path, "run", str(config), "--workers", "1")
    assert result.exit_code == 130
    assert f"resume with: arena run {config} --workers 1" in result.stdout.replace("\n", "")
    with open_results(tmp_path, "cli") as store:
        assert 2 <= store.game_count() < 40 * 3


def test_sigterm_stops_a_run_as_ctrl_c_does_and_the_run_resumes(tmp_path: Path) -> None:
    """``kill``, ``docker stop`` or a batch system's time limit: the parent commits what finished,
    prints the resume command and exits 130, leaving no worker behind (the default action killed
    it mid-run and left its workers' semaphores to the resource tracker)."""
    config = tmp_path / "long.yaml"
    config.write_text(f"name: long\nseats: 2\nrounds: 400\nseed: 3\nbots: [random, {FIRST_LEGAL}]\n")
    env = {k: v for k, v in os.environ.items() if k != "ARENA_HOME"}
    env["COLUMNS"] = "200"
    run = subprocess.Popen([sys.executable, "-m", "arena", "run", str(config), "--workers", "1",
                            "--home", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env, start_new_session=True)
    try:
        stored = _wait_for_games(tmp_path, "long", 3)
        run.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, (out, err)
    assert f"interrupted; resume with: arena run {config} --workers 1" in out.replace("\n", "")
    assert "Traceback" not in err and "leaked" not in err, err
    assert _group_gone(run.pid, within=10.0), "a worker or bot of the run outlived it"
    with open_results(tmp_path, "long") as store:
        ids = [g.game_id for g in store.games()]
    assert len(ids) >= stored and ids == list(range(len(ids)))
    resumed = invoke(tmp_path, "run", str(config), "--max-games", "2", "--workers", "1")
    assert resumed.exit_code == 0, resumed.output
    with open_results(tmp_path, "long") as store:
        assert [g.game_id for g in store.games()] == list(range(len(ids) + 2))


def _group_gone(group: int, within: float) -> bool:
    """Whether the process group ``group`` is empty, waiting up to ``within`` seconds for its
    last processes to finish exiting."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _wait_for_games(home: Path, name: str, count: int) -> int:
    """Wait until the store of ``name`` holds ``count`` games; how many it holds then."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with open_results(home, name) as store:
                if (stored := store.game_count()) >= count:
                    return stored
        except Exception:  # not created yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"the run stored fewer than {count} games")


def test_a_failing_disk_is_one_line_and_keeps_the_stored_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.tournament import runner

    real_add = Store.add_games

    def add_then_fail(self, records, finished_at=None) -> None:
        if self.game_count() >= 2:
            raise StoreWriteError(f"{self.path}: cannot store game {records[0].game_id}: the disk is full")
        real_add(self, records, finished_at)

    monkeypatch.setattr(Store, "add_games", add_then_fail)
    monkeypatch.setattr(runner, "FLUSH_GAMES", 2)  # games are written two at a time...
    monkeypatch.setattr(runner, "FLUSH_S", 1e9)    # ...however slowly they come
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG)
    result = invoke(tmp_path, "run", str(config))
    assert result.exit_code == 1 and "the disk is full" in error_line(result)
    monkeypatch.undo()
    with open_results(tmp_path, "cli") as store:
        assert [g.game_id for g in store.games()] == [0, 1]


SEAT_ZERO = Path(__file__).resolve().parent / "bots" / "seat_zero_faults.py"
FAULTY = f"name: faulty\nseats: 2\nbots: [random, greedy, {SEAT_ZERO}]\nrounds: 2\nseed: 4\n"
FAULTY_GAMES = 12  # three tables of two x 2 deals x 2 rotations


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace holding ``faulty``: a bot that faults in seat 0, in half of its games."""
    folder = tmp_path_factory.mktemp("faulty")
    (folder / "faulty.yaml").write_text(FAULTY)
    result = invoke(folder, "run", str(folder / "faulty.yaml"), "--workers", "2")
    assert result.exit_code == 0, result.output
    return folder


def game_ids(home: Path, *options: str) -> list[int]:
    """The ids ``arena games faulty --json OPTIONS`` lists."""
    result = invoke(home, "games", "faulty", "--json", *options)
    assert result.exit_code == 0, result.output
    return [game["id"] for game in json.loads(result.stdout)]


def test_games_filter_by_bot_and_by_fault(faulty: Path) -> None:
    every = json.loads(invoke(faulty, "games", "faulty", "--json").stdout)
    assert [g["id"] for g in every] == list(range(FAULTY_GAMES))
    with_random = [g["id"] for g in every if "random" in g["seats"]]
    faulted = [g["id"] for g in every if g["faults"]]
    assert game_ids(faulty, "--bot", "random") == with_random and len(with_random) == 8
    assert game_ids(faulty, "--faults") == faulted and len(faulted) == 4  # seat 0 in half its games
    assert game_ids(faulty, "--faults", "--bot", "random") == [i for i in faulted if i in with_random]
    assert all(g["faults"][0]["seat"] == 0 for g in every if g["faults"])


def test_games_pages(faulty: Path) -> None:
    assert game_ids(faulty, "--limit", "3") == [0, 1, 2]
    assert game_ids(faulty, "--offset", "10") == [10, 11]
    assert game_ids(faulty, "--offset", "4", "--limit", "2") == [4, 5]
    assert game_ids(faulty, "--last", "2") == [10, 11]
    assert game_ids(faulty, "--bot", "greedy", "--last", "1") == [max(
        g["id"] for g in json.loads(invoke(faulty, "games", "faulty", "--json").stdout) if "greedy" in g["seats"])]
    page = invoke(faulty, "games", "faulty", "--offset", "4", "--limit", "2")
    assert page.exit_code == 0 and "rows 5-6 of the 12 games selected" in page.stdout
    assert [row.split()[0] for row in page.stdout.splitlines() if row.split()[0].isdigit()] == ["4", "5"]


@pytest.mark.parametrize("options,fragments", [
    (["--bot", "nosuch"], ["--bot", "'nosuch'", "greedy, random, seat_zero_faults"]),
    (["--bot", "gredy"], ["no bot 'gredy' (did you mean 'greedy'?)"]),
    (["--last", "2", "--offset", "1"], ["--last", "--offset"]),
    (["--last", "2", "--limit", "1"], ["--last", "--limit"]),
])
def test_bad_game_selections_are_one_line(faulty: Path, options: list[str], fragments: list[str]) -> None:
    result = invoke(faulty, "games", "faulty", *options)
    assert result.exit_code == 1
    line = error_line(result)
    assert all(fragment in line for fragment in fragments), line


def test_the_replay_of_a_faulted_game_shows_the_stored_result(faulty: Path) -> None:
    """The cards may let the faulty bot finish first; the stored result places it last, the
    game going to the seat it beat: the replay shows both, the fault, and why they differ."""
    games = json.loads(invoke(faulty, "games", "faulty", "--faults", "--json").stdout)
    for game in games:   # the one where the faulty bot's seat emptied its hand
        result = invoke(faulty, "replay", "faulty", str(game["id"]))
        assert result.exit_code == 0, result.output
        text = result.stdout
        if "seat 0 (seat_zero_faults) wins (emptied)" in text:
            break
    else:
        pytest.fail("no faulty game where the faulty seat went out first")
    order = " > ".join(game["seats"][s] for group in game["places"] for s in group)
    assert game["winner"] == game["seats"][1] != "seat_zero_faults"
    assert f"stored result: winner {game['winner']} (emptied)\n  places: {order}\n" in text
    assert order.endswith("> seat_zero_faults")
    assert "fault: seat 0 (seat_zero_faults) INVALID" in text and "seat 0 does not suit me" in text
    assert "the replay's result differs from the stored one" in text


def test_rankings_at_80_columns_show_the_fault_rate(faulty: Path) -> None:
    data = json.loads(invoke(faulty, "rankings", "faulty", "--json").stdout)
    bot = next(b for b in data["bots"] if b["bot"] == "seat_zero_faults")
    assert (bot["faults"], bot["games"]) == (4, 8)
    result = runner.invoke(app, ["rankings", "faulty", "--h2h"],
                           env={"ARENA_HOME": str(faulty), "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    (row,) = [line for line in lines if " !" in line]
    assert re.match(r"\d  seat_", row) and row.endswith("4 (50.0%)")
    assert any(line.startswith("! faulted  (DQ) disqualified") for line in lines)


def test_a_resume_under_other_arena_code_says_so_and_the_rankings_count_both(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games stored by one version of the arena and resumed by another are kept, but the run
    says so in one line and the rankings name how many versions played."""
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG)
    first = invoke(tmp_path, "run", str(config), "--max-games", "2")
    assert first.exit_code == 0, first.output
    assert "arena code" not in first.stdout
    real = code_identity()
    monkeypatch.setattr("arena.tournament.runner.code_identity", lambda: "f00d" * 16)
    resumed = invoke(tmp_path, "run", str(config))
    assert resumed.exit_code == 0, resumed.output
    out = resumed.stdout.replace("\n", " ")
    assert (f"the 2 stored games were played by another version ({real[:12]}) of the arena code, "
            "the games of this run by this one (f00df00df00d)") in out
    assert "--restart" in out and "arena verify cli lists the stored games" in out
    listed = json.loads(invoke(tmp_path, "rankings", "cli", "--json").stdout)["code_versions"]
    assert listed == [real, "f00d" * 16]
    title = invoke(tmp_path, "rankings", "cli").stdout.splitlines()[0]
    assert title == f"cli: {GAMES} games, seed 4, played by 2 versions of the arena code"


PROGRESS = re.compile(r"cli: (\d+)/6 games  [\d.]+/s  ETA \S+  faulty 0"
                      r"(  leader (\S+) \(mu-3σ [\d.-]+, win rate [\d.]+%\))?")


def test_without_a_terminal_the_run_prints_progress_lines_as_it_goes(tmp_path: Path) -> None:
    """A run whose output goes to a file or a CI log says how far it is while it plays, as
    cutechess-cli and fastchess do, not only at the end (``--progress-every 0``: at every
    update, so that this short run has some)."""
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG)
    result = invoke(tmp_path, "run", str(config), "--progress-every", "0")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    end = next(i for i, line in enumerate(lines) if "of 6 games stored; this run played 6" in line)
    matches = [PROGRESS.fullmatch(line) for line in lines[:end]]
    assert matches and all(matches), lines[:end]
    done = [int(m[1]) for m in matches if m is not None]
    assert done == sorted(set(done)) and done[-1] == GAMES       # one line per new count
    assert all(m[2] for m in matches if m is not None and int(m[1]) > 0)  # a leader once played


def test_without_a_terminal_a_line_waits_for_its_interval_and_for_new_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import pacing, tournament as commands
    from arena.tournament.runner import Leader, Progress

    now = [1000.0]
    monkeypatch.setattr(pacing.time, "monotonic", lambda: now[0])
    display = commands._Display(pacing.PlainLines(60.0))
    leaders = (Leader("greedy", 4, 3, 5, 0, False, 27.0, 1.0), Leader("random", 4, 1, 7, 0, False))

    def at(seconds: float, done: int, notice: str | None = None) -> list[str]:
        now[0] = 1000.0 + seconds
        display.update(Progress("cli", 6, done, 0, done, 0, seconds, leaders, notice=notice))
        return capsys.readouterr().out.splitlines()

    assert at(30, 2) == []                                   # too soon
    (line,) = at(61, 3)
    assert line == "cli: 3/6 games  0.0/s  ETA 1:01  faulty 0  leader greedy (mu-3σ 24.0, win rate 75.0%)"
    assert at(100, 4) == []                                  # 39 s after the last line
    assert at(200, 3) == []                                  # nothing stored since
    # a notice (a disqualification) is printed as it comes, before the line that is due
    assert at(210, 4, notice="bot 'random' disqualified") == [
        "bot 'random' disqualified",
        "cli: 4/6 games  0.0/s  ETA 1:45  faulty 0  leader greedy (mu-3σ 24.0, win rate 75.0%)"]
    assert display.shown == ["bot 'random' disqualified"]   # not printed again at the end


def test_output_to_a_full_disk_is_one_line_and_the_run_still_stores_every_game(tmp_path: Path) -> None:
    """``arena run ... > log`` where the log's disk is full (/dev/full): the progress lines
    are a view, so the games go on and are stored; the run's last words fail to print, and
    that is one line on stderr, status 1, no traceback."""
    config = tmp_path / "cli.yaml"
    config.write_text(CONFIG)
    run = into_full_disk(tmp_path, "run", str(config), "--workers", "1", "--progress-every", "0")
    assert (run.returncode, run.stderr) == (1, "error: cannot write the output: No space left on device\n")
    with open_results(tmp_path, "cli") as store:
        assert store.game_count() == GAMES
    for command in (["rankings", "cli", "--json"], ["rankings", "cli"]):  # plain JSON, a rich table
        shown = into_full_disk(tmp_path, *command)
        assert (shown.returncode, shown.stderr) == (1, "error: cannot write the output: No space left "
                                                       "on device\n"), command


def test_the_output_says_what_it_cannot_take_and_shows_what_its_encoding_cannot(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.cli.app import OutputError, console, emit

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(OutputError, match="^cannot write the output: No space left on device$"):
        emit("{}")
    # a closed pipe stays a BrokenPipeError, which click turns into a silent status 1
    monkeypatch.setattr(Full, "write", lambda self, text: (_ for _ in ()).throw(BrokenPipeError()))
    with pytest.raises(BrokenPipeError):
        emit("{}")
    # a terminal or file in Latin-1: the sigma of the tables is shown as '?' instead of failing
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    monkeypatch.setattr(sys, "stdout", latin)
    console().print("mu-3σ  café", markup=False)
    latin.flush()
    assert latin.buffer.getvalue().decode("latin-1") == "mu-3?  café\n"  # type: ignore[attr-defined]
