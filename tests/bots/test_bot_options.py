"""Bot options: a bot declares them (read without running it), an entry or ``--option`` sets
them, a bad one is one line naming the entry, the key and the file, and the bot receives them at
construction. Options are part of a bot's identity: one file under two settings is two bots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ConfigError
from arena.sandbox.options import declared_options, parse_assignments, with_options
from arena.sandbox.snapshot import snapshot
from arena.sandbox.spec import BotSpec
from arena.sandbox.workspace import Workspace
from arena.tournament.config import parse_config
from arena.tournament.replay import open_results
from arena.tournament.runner import run_tournament

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
EPSILON = ROOT / "bots" / "examples" / "epsilon.py"

# A bot that tells what it was built with: it plays its first move (which passes the probe a
# tournament puts every bot to), then raises with its options in the message, which the fault's
# detail carries back.
TELLER = '''
import json

class Bot:
    OPTIONS = {
        "depth": {"type": "int", "default": 3, "min": 1, "max": 9, "help": "plies"},
        "style": {"type": "str", "default": "calm", "choices": ["calm", "wild"]},
        "bold": {"type": "bool", "default": False},
        "weight": {"type": "float", "default": 0.5},
    }

    def __init__(self, **options):
        self.options, self.asked = options, 0

    def act(self, obs):
        self.asked += 1
        if self.asked == 1:
            return obs.legal_actions()[0]
        raise ValueError("built with " + json.dumps(self.options, sort_keys=True))
'''
# A command bot whose sidecar declares one option; it tells its $ARENA_OPTIONS the same way.
COMMAND = '''
import json, os, sys
asked = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        asked += 1
        if asked == 1:
            print(message["obs"]["legal"][0], flush=True)
            continue
        print("!error " + json.dumps("got " + os.environ.get("ARENA_OPTIONS", "none")), flush=True)
    else:
        print("ok", flush=True)
'''


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def arena(*args: str):
    return runner.invoke(app, list(args))


def teller(tmp_path: Path) -> BotSpec:
    return BotSpec(name="teller", path=write(tmp_path / "src", "teller.py", TELLER))


def test_the_declaration_is_read_from_the_source_without_running_it(tmp_path: Path) -> None:
    path = write(tmp_path, "boom.py", "raise SystemExit('ran!')\n" + TELLER)
    options = {o.name: o for o in declared_options(BotSpec(name="boom", path=path))}
    assert list(options) == ["depth", "style", "bold", "weight"]
    assert (options["depth"].default, options["depth"].min, options["depth"].max) == (3, 1, 9)
    assert options["depth"].describe() == "depth: int 1..9, default 3; plies"
    assert options["style"].describe() == "style: str in calm|wild, default calm"
    assert declared_options(BotSpec(name="greedy", path=ROOT / "bots" / "greedy.py")) == ()


def test_values_are_checked_and_the_defaults_filled_in(tmp_path: Path) -> None:
    spec = with_options(teller(tmp_path), {"depth": 5, "weight": 1})
    assert spec.options == (("bold", False), ("depth", 5), ("style", "calm"), ("weight", 1.0))
    assert isinstance(dict(spec.options)["weight"], float)


@pytest.mark.parametrize("given, words", [
    ({"dept": 4}, ["option 'dept'", "teller.py", "did you mean 'depth'"]),
    ({"depth": 10}, ["option 'depth'", "an integer 1..9", "got 10"]),
    ({"depth": True}, ["option 'depth'", "an integer 1..9", "got True"]),
    ({"depth": 2.5}, ["option 'depth'", "got 2.5"]),
    ({"style": "mad"}, ["option 'style'", "one of 'calm', 'wild'"]),
    ({"bold": "yes"}, ["option 'bold'", "true or false"]),
])
def test_a_bad_value_is_one_line_naming_the_bot_the_key_and_the_file(tmp_path: Path, given, words) -> None:
    with pytest.raises(ConfigError) as caught:
        with_options(teller(tmp_path), given)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("bot 'teller'")
    for word in words:
        assert word in message


@pytest.mark.parametrize("declaration, words", [
    ("OPTIONS = {'n': {'type': 'int', 'default': 'x'}}", ["option 'n'", "default 'x'"]),
    ("OPTIONS = {'n': {'type': 'integer', 'default': 1}}", ["'type' must be one of"]),
    ("OPTIONS = {'n': {'type': 'int', 'defualt': 1}}", ["unknown field 'defualt'", "did you mean 'default'"]),
    ("LIMIT = 3\nOPTIONS = {'n': {'type': 'int', 'default': LIMIT}}", ["line 2", "literal"]),
    ("OPTIONS = {'not-a-name': {'type': 'int', 'default': 1}}", ["identifier"]),
])
def test_a_bad_declaration_names_the_file(tmp_path: Path, declaration: str, words) -> None:
    path = write(tmp_path, "decl.py", declaration + "\nclass Bot:\n    def act(self, obs): pass\n")
    with pytest.raises(ConfigError) as caught:
        declared_options(BotSpec(name="decl", path=path))
    assert str(caught.value).startswith(str(path))
    for word in words:
        assert word in str(caught.value)


def test_command_line_values_are_typed_by_the_declaration(tmp_path: Path) -> None:
    spec = teller(tmp_path)
    assert parse_assignments(spec, ["depth=4", "bold=yes", "weight=2", "style=wild"]) == \
        {"depth": 4, "bold": True, "weight": 2.0, "style": "wild"}
    with pytest.raises(ConfigError, match="option 'depth': expected an integer 1..9, got 'deep'"):
        parse_assignments(spec, ["depth=deep"])
    with pytest.raises(ConfigError, match="expected KEY=VALUE"):
        parse_assignments(spec, ["depth"])


def test_options_are_part_of_the_version_and_no_options_keep_the_old_one(tmp_path: Path) -> None:
    plain = BotSpec(name="greedy", path=ROOT / "bots" / "greedy.py")
    _, old = snapshot(plain, tmp_path)
    assert snapshot(with_options(plain, {}), tmp_path)[1] == old  # declares nothing: unchanged
    spec = teller(tmp_path)
    versions = {snapshot(with_options(spec, {"depth": d}), tmp_path)[1] for d in (1, 2)}
    assert len(versions) == 2


def tournament(folder: Path, entries: str, name: str = "opts") -> Path:
    return write(folder, f"{name}.yaml", f"name: {name}\nseats: 2\nrounds: 1\nseed: 7\nbots:\n{entries}")


def test_an_entry_configures_a_bot_and_it_is_built_with_those_options(tmp_path: Path) -> None:
    write(tmp_path, "teller.py", TELLER)
    path = tournament(tmp_path, "  - {name: deep, bot: teller.py, options: {depth: 8, style: wild}}\n"
                                "  - {name: shallow, bot: teller.py}\n")
    report = run_tournament(path, tmp_path, workers=1)
    assert report.complete
    with open_results(tmp_path, "opts") as store:
        details = {fault.bot: fault.detail for record in store.games() for fault in record.faults}
        versions = store.bot_versions()
    assert '"depth": 8' in details["deep"] and '"style": "wild"' in details["deep"]
    assert '"depth": 3' in details["shallow"] and '"style": "calm"' in details["shallow"]
    assert versions["deep"] != versions["shallow"]  # one file, two bots


def test_changing_an_entrys_options_is_a_new_version_whose_games_are_played_again(tmp_path: Path) -> None:
    write(tmp_path, "teller.py", TELLER)
    path = tournament(tmp_path, "  - {name: a, bot: teller.py, options: {depth: 2}}\n  - greedy\n"
                                "  - random\n")
    first = run_tournament(path, tmp_path, workers=1)
    path.write_text(path.read_text().replace("depth: 2", "depth: 4"))
    grown = run_tournament(path, tmp_path, workers=1)
    assert grown.growth is not None and "bot 'a' changed" in grown.growth
    assert grown.complete and 0 < grown.played < first.played   # a's games; greedy-random's kept


def test_an_entry_without_options_hashes_as_it_always_did() -> None:
    text = "name: t\nseats: 2\nbots: [random, {name: g, path: bots/greedy.py}]\n"
    config = parse_config(text)
    assert "options" not in json.dumps(config.canonical())
    with_options_text = text.replace("path: bots/greedy.py}", "path: bots/greedy.py, options: {}}")
    assert parse_config(with_options_text).config_hash != config.config_hash


@pytest.mark.parametrize("entry, words", [
    ("{name: x, bot: teller.py, options: {dept: 4}}", ["opts.yaml", "bot 'x'", "option 'dept'",
                                                       "teller.py", "did you mean 'depth'"]),
    ("{name: x, bot: teller.py, options: {depth: 99}}", ["opts.yaml", "bot 'x'", "option 'depth'",
                                                         "an integer 1..9"]),
    ("{name: x, bot: teller.py, options: [depth]}", ["opts.yaml", "key 'bots[0].options'"]),
    ("{name: x, bot: teller.py, options: {depth: [1]}}", ["key 'bots[0].options.depth'"]),
    ("{name: x, bot: teller.py, path: teller.py}", ["'bot' names the bot"]),
])
def test_a_bad_entry_is_one_line_and_nothing_is_stored(tmp_path: Path, entry: str, words) -> None:
    write(tmp_path, "teller.py", TELLER)
    tournament(tmp_path, f"  - {entry}\n  - greedy\n")
    result = arena("run", str(tmp_path / "opts.yaml"), "--home", str(tmp_path))
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    for word in words:
        assert word in lines[0]
    assert not (tmp_path / "results" / "opts.sqlite").exists()


def test_a_command_bot_declares_in_its_sidecar_and_reads_its_environment(tmp_path: Path) -> None:
    script = write(tmp_path, "cbot.py", COMMAND)
    write(tmp_path, "cbot.options.json", json.dumps({"level": {"type": "int", "default": 1, "min": 1}}))
    spec = Workspace(tmp_path).resolve_entry({"name": "c", "cmd": ["python3", str(script)],
                                              "options": {"level": 4}}, [tmp_path])
    assert spec.options == (("level", 4),)
    with pytest.raises(ConfigError, match="option 'levle'.*cbot.options.json.*did you mean 'level'"):
        Workspace(tmp_path).resolve_entry({"name": "c", "cmd": ["python3", str(script)],
                                           "options": {"levle": 4}}, [tmp_path])
    path = tournament(tmp_path, f"  - {{name: c, cmd: [python3, {script}], options: {{level: 4}}}}\n"
                                "  - greedy\n")
    run_tournament(path, tmp_path, workers=1)
    with open_results(tmp_path, "opts") as store:
        details = [fault.detail for record in store.games() for fault in record.faults]
    assert details and all('got {"level": 4}' in detail for detail in details)


def test_duel_sets_options_by_position_and_names_the_bot_with_them(tmp_path: Path) -> None:
    write(tmp_path, "teller.py", TELLER)
    result = arena("duel", str(tmp_path / "teller.py"), str(tmp_path / "teller.py"),
                   "--option", "2:depth=7", "--games", "2", "--seats", "2", "--seed", "1",
                   "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "teller[depth=7]" in result.output and '"depth": 7' in result.output


@pytest.mark.parametrize("option, words", [
    ("3:depth=7", ["N the position of a bot named (1..2)"]),
    ("depth=7", ["expected N:KEY=VALUE"]),
    ("1:dept=7", ["option 'dept'", "teller.py", "did you mean 'depth'"]),
    ("1:depth=70", ["option 'depth'", "an integer 1..9"]),
])
def test_a_bad_duel_option_is_one_line_before_any_game(tmp_path: Path, option: str, words) -> None:
    write(tmp_path, "teller.py", TELLER)
    result = arena("duel", str(tmp_path / "teller.py"), "greedy", "--option", option,
                   "--home", str(tmp_path))
    assert result.exit_code != 0
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "seed:" not in result.output
    for word in words:
        assert word in result.output


def test_submit_validates_with_the_options_and_bots_lists_them(tmp_path: Path) -> None:
    result = arena("submit", str(EPSILON), "--option", "epsilon=0.5", "--seed", "2",
                   "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    listing = arena("bots", "--home", str(tmp_path))
    assert "epsilon  epsilon: float 0..1, default 0.1; share of moves played at random" in listing.output
    refused = arena("submit", str(EPSILON), "--name", "e2", "--option", "epsilon=2",
                    "--seed", "2", "--home", str(tmp_path))
    assert refused.exit_code != 0
    assert "option 'epsilon'" in refused.output and "epsilon.py" in refused.output
    assert Workspace(tmp_path).registry.get("e2") is None


def test_bots_lists_wide_bounds_as_numbers_and_wraps_under_the_text(tmp_path: Path) -> None:
    """mcts's iterations range to a million: '1..1,000,000', not '1..1e+06'; at 80 columns its
    help wraps under the option's text, not back to column 0."""
    listing = runner.invoke(app, ["bots", "--home", str(tmp_path)], env={"COLUMNS": "80"})
    lines = listing.output.splitlines()
    first = next(i for i, line in enumerate(lines) if "iterations: int" in line)
    assert lines[first].startswith("  mcts  iterations: int 1..1,000,000, default 10000;")
    assert lines[first + 1].startswith(" " * 8) and lines[first + 1].strip() == "move"


def test_a_declaration_of_more_options_than_are_read_is_refused(tmp_path: Path) -> None:
    many = ", ".join(f"'o{i}': {{'type': 'int', 'default': {i}}}" for i in range(65))
    path = write(tmp_path, "many.py", f"OPTIONS = {{{many}}}\nclass Bot:\n    def act(self, obs): pass\n")
    with pytest.raises(ConfigError, match="65 options declared, at most 64"):
        declared_options(BotSpec(name="many", path=path))
    fewer = ", ".join(f"'o{i}': {{'type': 'int', 'default': {i}}}" for i in range(64))
    path = write(tmp_path, "fewer.py", f"OPTIONS = {{{fewer}}}\nclass Bot:\n    def act(self, obs): pass\n")
    assert len(declared_options(BotSpec(name="fewer", path=path))) == 64
