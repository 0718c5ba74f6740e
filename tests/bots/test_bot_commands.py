"""`arena submit`, `arena bots`, `arena new-bot` and `arena duel` through the CLI, in a tmp workspace."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.sandbox.workspace import Workspace
from timing_helpers import untimed

runner = CliRunner()

GOOD = '''
class Bot:
    def act(self, obs):
        return obs.legal_actions()[0]
'''
RAISES = '''
class Bot:
    def act(self, obs):
        raise ValueError("boom in act")
'''
ILLEGAL = '''
class Bot:
    def act(self, obs):
        return "draw"
'''
SLOW_IMPORT = '''
import time
time.sleep(5)

class Bot:
    def act(self, obs):
        return obs.legal_actions()[0]
'''
NO_ACT = '''
class Bot:
    def play(self, obs):
        return "draw"
'''
TELLS_ITS_HAND = '''
class Bot:
    def act(self, obs):
        raise ValueError("my hand: " + " ".join(sorted(str(card) for card in obs.hand)))
'''
SEED_LINE = re.compile(r"^seed: (\d+) \(repeat with --seed (\d+)\)$", re.MULTILINE)


def write(tmp_path, name: str, text: str):
    path = tmp_path / "src" / f"{name}.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def arena(*args: str):
    return runner.invoke(app, list(args))


def printed_seed(output: str) -> int:
    """The seed of the one ``seed: N (repeat with --seed N)`` line (both numbers the same)."""
    (line,) = SEED_LINE.findall(output)
    assert line[0] == line[1], output
    return int(line[0])


def told_hand(output: str) -> str:
    """The hand TELLS_ITS_HAND named when its first move was asked (from the rejection)."""
    (hand,) = set(re.findall(r"my hand: ([0-9TJQKA][CDHS](?: [0-9TJQKA][CDHS])*)", output))
    return hand


def test_submit_accepts_a_good_bot_and_registers_it(tmp_path):
    path = write(tmp_path, "first", GOOD)
    result = arena("submit", str(path), "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "accepted first" in result.output
    assert (tmp_path / "bots" / "first.py").read_text() == GOOD
    registry = json.loads((tmp_path / "bots" / "registry.json").read_text())
    assert [e["name"] for e in registry["bots"]] == ["first"]
    assert len(registry["bots"][0]["sha256"]) == 64
    assert Workspace(tmp_path).resolve_bot("first").path == (tmp_path / "bots" / "first.py").resolve()


@pytest.mark.parametrize("text, check, words", [
    (RAISES, "self-play", ["INVALID", "boom in act"]),
    (ILLEGAL, "self-play", ["ILLEGAL", "'draw'", "drawing is allowed only when no play is legal"]),
    (SLOW_IMPORT, "load", ["INIT_FAIL"]),
    (NO_ACT, "contract", ["no act(self, obs) method"]),
    ("class Bot(:\n", "contract", ["syntax error"]),
])
def test_submit_rejects_a_broken_bot_naming_the_check(tmp_path, text, check, words):
    path = write(tmp_path, "broken", text)
    result = arena("submit", str(path), "--home", str(tmp_path), "--init-time", "1", "--seed", "7")
    assert result.exit_code == 1, result.output
    assert f"rejected: check '{check}' failed" in result.output
    for word in words:
        assert word in result.output
    assert not (tmp_path / "bots" / "broken.py").exists()


def test_a_taken_name_needs_replace(tmp_path):
    path = write(tmp_path, "first", GOOD)
    assert arena("submit", str(path), "--home", str(tmp_path)).exit_code == 0
    again = arena("submit", str(path), "--home", str(tmp_path))
    assert again.exit_code == 1 and "--replace" in again.output
    assert arena("submit", str(path), "--home", str(tmp_path), "--replace").exit_code == 0


def test_a_builtin_name_is_refused(tmp_path):
    path = write(tmp_path, "greedy", GOOD)
    result = arena("submit", str(path), "--home", str(tmp_path))
    assert result.exit_code == 1 and "built-in" in result.output


def test_bots_lists_builtin_and_registered(tmp_path):
    assert arena("submit", str(write(tmp_path, "first", GOOD)), "--home", str(tmp_path)).exit_code == 0
    result = arena("bots", "--home", str(tmp_path))
    assert result.exit_code == 0
    for name in ("random", "greedy", "heuristic", "first", "registered", "built-in"):
        assert name in result.output


def test_a_bot_edited_after_submit_is_refused_by_name_until_submitted_again(tmp_path):
    """The registry keeps the hash of the bytes `arena submit` validated; a name stands for
    them. new-bot writes bots/NAME.py, submit registers that very file, and an edit after it
    must not run under the name as if it had passed the checks: the duel is refused (one line
    naming the file, both hashes and the command to submit again), `arena bots` says 'changed',
    the file still plays by its path, and a new submit makes the name good again."""
    assert arena("new-bot", "mine", "--home", str(tmp_path)).exit_code == 0
    path = tmp_path / "bots" / "mine.py"
    assert arena("submit", str(path), "--home", str(tmp_path), "--seed", "1").exit_code == 0
    path.write_text(path.read_text() + "\nraise SystemExit('edited')\n")
    refused = arena("duel", "mine", "random", "--games", "2", "--home", str(tmp_path), "--seed", "1")
    assert refused.exit_code == 1
    assert re.search(r"bot 'mine': \S+mine\.py changed after it was submitted \(sha256 [0-9a-f]{12}, "
                     r"now [0-9a-f]{12}\): submit it again \(arena submit \S+mine\.py --replace\)",
                     " ".join(refused.output.split())), refused.output
    listed = arena("bots", "--home", str(tmp_path))
    assert re.search(r"mine\s+.*changed", listed.output), listed.output
    by_path = arena("duel", str(path), "random", "--games", "2", "--home", str(tmp_path), "--seed", "1")
    assert by_path.exit_code == 0 and "edited" in by_path.output
    path.write_text(path.read_text().replace("\nraise SystemExit('edited')\n", ""))
    assert arena("duel", "mine", "random", "--games", "2", "--home", str(tmp_path), "--seed", "1").exit_code == 0


def test_bots_lists_the_local_files_that_play_by_name_unsubmitted(tmp_path):
    """A file in bots/ plays by its bare name (`arena duel scratch greedy`), so `arena bots`
    lists it, as local: never validated."""
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "scratch.py").write_text(GOOD)
    listed = arena("bots", "--home", str(tmp_path))
    assert re.search(r"scratch\s+local\s+bots/scratch\.py", listed.output), listed.output


def test_a_workspace_that_cannot_be_written_gets_one_line_and_no_games(tmp_path):
    """A read-only folder, a full disk: here bots/ is a file, which the root CI user cannot
    write through either. new-bot says so in one line; submit says so before any validation
    game (not after them, with a traceback)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "bots").write_text("not a folder")
    made = arena("new-bot", "mine", "--home", str(home))
    assert made.exit_code == 1 and "Traceback" not in made.output
    assert made.output.strip() == f"error: cannot write {home / 'bots'}: {home / 'bots'} is not a folder"
    submitted = arena("submit", str(write(tmp_path, "first", GOOD)), "--home", str(home), "--seed", "1")
    assert submitted.exit_code == 1 and "Traceback" not in submitted.output
    assert submitted.output.strip() == f"error: cannot write {home / 'bots'}: {home / 'bots'} is not a folder"
    assert (home / "bots").read_text() == "not a folder"


def test_bots_lists_the_built_in_files_once_in_a_clone_whose_bots_folder_holds_them(tmp_path):
    """In a clone, the workspace's bots/ is where the built-in files live: they are built-in,
    not local copies of themselves as well."""
    from arena.sandbox.workspace import builtin_dir

    (tmp_path / "bots").symlink_to(builtin_dir())   # as a clone's workspace is the clone itself
    listed = arena("bots", "--home", str(tmp_path)).output
    for name in ("random", "greedy", "heuristic", "mcts"):
        assert len(re.findall(rf"^{name}\s+(built-in|local)", listed, re.MULTILINE)) == 1, listed


def test_home_comes_from_the_environment(tmp_path):
    result = runner.invoke(app, ["new-bot", "envbot"], env={"ARENA_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    assert (tmp_path / "bots" / "envbot.py").exists()


def test_new_bot_writes_a_bot_that_passes_submit_and_refuses_to_overwrite(tmp_path):
    assert arena("new-bot", "mine", "--home", str(tmp_path)).exit_code == 0
    path = tmp_path / "bots" / "mine.py"
    assert "class Bot" in path.read_text()
    again = arena("new-bot", "mine", "--home", str(tmp_path))
    assert again.exit_code == 1 and "not overwritten" in again.output
    result = arena("submit", str(path), "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert Workspace(tmp_path).registry.get("mine") is not None


def test_submit_takes_a_class_named_after_a_colon_as_tournaments_do(tmp_path):
    """Before, 'mine.py:Mine' was refused as 'not a Python file (.py)'."""
    source = write(tmp_path, "mine", GOOD.replace("class Bot:", "class Mine:"))
    result = arena("submit", f"{source}:Mine", "--seed", "1", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    entry = Workspace(tmp_path).registry.get("mine")
    assert entry is not None and entry.class_name == "Mine"


def test_replacing_a_bot_by_another_class_of_the_same_bytes_is_refused(tmp_path):
    """A tournament tells a registered bot's versions apart by its file's hash. Resubmitting
    the very same file under the same name with another class would have kept every stored
    game of the old class under the name, as if the new one had played them."""
    source = write(tmp_path, "two", GOOD + GOOD.replace("class Bot:", "class Other:"))
    assert arena("submit", str(source), "--seed", "1", "--home", str(tmp_path)).exit_code == 0
    switched = arena("submit", f"{source}:Other", "--seed", "1", "--home", str(tmp_path), "--replace")
    assert switched.exit_code == 1
    assert "another name" in switched.output and "Traceback" not in switched.output
    entry = Workspace(tmp_path).registry.get("two")
    assert entry is not None and entry.class_name == "Bot"  # the registry is as it was
    # the same class again, or another class of changed bytes, replaces as before
    assert arena("submit", str(source), "--seed", "1", "--home", str(tmp_path), "--replace").exit_code == 0
    source.write_text(source.read_text() + "\n# changed\n")
    assert arena("submit", f"{source}:Other", "--seed", "1", "--home", str(tmp_path),
                 "--replace").exit_code == 0
    assert Workspace(tmp_path).registry.get("two").class_name == "Other"


def test_new_bot_refuses_a_built_in_bots_name(tmp_path):
    """Its bots/random.py would have played as random in every tournament, duel and
    calibration of the workspace, while arena bots still listed the built-in one."""
    result = arena("new-bot", "random", "--home", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.strip() == "error: 'random' is a built-in bot's name: choose another"
    assert not (tmp_path / "bots" / "random.py").exists()


def test_a_registry_of_another_shape_is_named_in_one_line(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "registry.json").write_text("[1, 2]")
    result = arena("bots", "--home", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {tmp_path / 'bots' / 'registry.json'}: unreadable bot registry")
    assert "Traceback" not in result.output


def test_duel_prints_win_rates(tmp_path):
    result = arena("duel", "greedy", "random", "--games", "6", "--seats", "2", "--workers", "1",
                   "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "switch: 6 games, 2 seats" in result.output
    assert "greedy" in result.output and "random" in result.output


def test_submit_deals_from_a_fresh_seed_each_time_and_the_printed_seed_repeats_it(tmp_path):
    """No fixed validation deals: a bot that knows the arena's code cannot know its hands."""
    path = write(tmp_path, "teller", TELLS_ITS_HAND)
    first = arena("submit", str(path), "--home", str(tmp_path))
    second = arena("submit", str(path), "--home", str(tmp_path))
    assert first.exit_code == second.exit_code == 1, first.output
    assert printed_seed(first.output) != printed_seed(second.output)
    assert told_hand(first.output) != told_hand(second.output)   # other seed, other deal
    again = arena("submit", str(path), "--home", str(tmp_path), "--seed", str(printed_seed(first.output)))
    assert again.exit_code == 1
    assert printed_seed(again.output) == printed_seed(first.output)
    assert told_hand(again.output) == told_hand(first.output)
    deal = re.compile(r"game seed (\d+)")
    assert deal.findall(again.output) == deal.findall(first.output) != deal.findall(second.output)


def test_duel_deals_from_a_fresh_seed_each_time_and_the_printed_seed_repeats_it(tmp_path):
    def duel(*extra: str):
        result = arena("duel", "greedy", "random", "--games", "8", "--seats", "2", "--workers", "1",
                       "--home", str(tmp_path), *extra)
        assert result.exit_code == 0, result.output
        assert result.output.count("<ms>") == 0 and untimed(result.output).count("<ms>") == 2
        return untimed(result.output)

    first, second = duel(), duel()
    assert printed_seed(first) != printed_seed(second)
    again = duel("--seed", str(printed_seed(first)))
    assert again == first   # the same seed line and the same table: the same games


def test_a_duel_plays_the_same_games_with_one_worker_or_two(tmp_path):
    def duel(workers: str) -> str:
        result = arena("duel", "random", "greedy", "heuristic", "--games", "10", "--seed", "11",
                       "--workers", workers, "--home", str(tmp_path))
        assert result.exit_code == 0, result.output
        return untimed(result.output)

    one = duel("1")
    assert "switch: 10 games, 4 seats" in one
    assert duel("2") == one


def test_a_seed_out_of_range_is_refused(tmp_path):
    for seed in ("-1", str(2**63)):
        result = arena("duel", "greedy", "random", "--seed", seed, "--home", str(tmp_path))
        said = " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())   # out of its box
        assert result.exit_code == 64
        assert f"Invalid value for '--seed': {seed} is not in 0..9223372036854775807" in said


def test_the_seeds_range_is_not_cut_in_the_help_at_80_columns(tmp_path):
    """Typer printed the range of min/max as '[0<=x<=922337203685477580' and '7]'."""
    result = runner.invoke(app, ["duel", "--help"], env={"COLUMNS": "80"})
    assert "0..2**63-1" in result.output and "922337203685477580" not in result.output


def test_duel_names_an_unknown_bot(tmp_path):
    result = arena("duel", "greedy", "nobody", "--home", str(tmp_path))
    assert result.exit_code == 1 and "unknown bot 'nobody'" in result.output


def test_bots_names_the_folder_of_the_examples_the_guide_points_to(tmp_path):
    """writing-bots.md sends readers to the examples beside the built-in bots' files; arena bots
    cuts long paths to fit, so it names that folder whole, and the folder holds them."""
    result = runner.invoke(app, ["bots", "--home", str(tmp_path)], env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output
    folder = re.search(r"examples to copy \(a bot with options, a command bot\): (\S+)", result.output)
    assert folder, result.output
    assert {"epsilon.py", "first_legal_cmd.py"} <= {p.name for p in Path(folder[1]).iterdir()}
