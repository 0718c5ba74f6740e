"""BotSpec parsing and Limits validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.errors import ArenaError, ConfigError
from arena.digest import file_sha256, sha256_hex
from arena.sandbox import BotSpec, Limits
from arena.sandbox.snapshot import snapshot
from arena.sandbox.spec import is_command
from arena.sandbox.workspace import Registry, Workspace


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "x.py").write_text("class Bot: pass\n")
    (tmp_path / "bots" / "run.sh").write_text("#!/bin/sh\n")
    return tmp_path


def test_file_and_class(bots: Path) -> None:
    assert BotSpec.parse("bots/x.py", bots) == BotSpec("x", bots / "bots" / "x.py")
    spec = BotSpec.parse("bots/x.py:MyBot", bots)
    assert (spec.name, spec.class_name, spec.path) == ("x:MyBot", "MyBot", bots / "bots" / "x.py")


def test_mapping_forms(bots: Path) -> None:
    spec = BotSpec.parse({"name": "alpha", "path": "bots/x.py", "class": "Alpha"}, bots)
    assert (spec.name, spec.class_name) == ("alpha", "Alpha")
    cmd = BotSpec.parse({"name": "sh", "cmd": ["/bin/sh", "bots/run.sh", "--fast"]}, bots)
    assert cmd.command == ("/bin/sh", str(bots / "bots" / "run.sh"), "--fast")
    assert BotSpec.parse({"name": "s", "cmd": "python3 -u bot.py"}, bots).command == (
        "python3", "-u", "bot.py")


@pytest.mark.parametrize("bad, words", [
    ("bots/missing.py", "no such file"),
    ("bots/x.txt", "Python file"),
    ({"name": "a"}, "exactly one"),
    ({"name": "a", "path": "bots/x.py", "cmd": ["x"]}, "exactly one"),
    ({"cmd": ["python3"]}, "needs a 'name'"),
    ({"name": "a", "cmd": []}, "non-empty"),
    ({"name": "a", "cmd": ["ok"], "colour": "red"}, "unknown key"),
    (42, "mapping"),
])
def test_bad_specs_raise_config_errors(bots: Path, bad: object, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        BotSpec.parse(bad, bots)  # type: ignore[arg-type]


def test_limits_validation() -> None:
    assert Limits().move_time == 1.0
    with pytest.raises(ArenaError):
        Limits(move_time=0)
    with pytest.raises(ArenaError):
        Limits(memory_mb=-1)


@pytest.mark.parametrize("name, bad, good", [
    ("move_time", 0, 0.01), ("wall_factor", 0.9, 1), ("bank", -0.1, 0), ("memory_mb", 31, 32),
    ("init_time", 0, 0.5), ("log_bytes", -1, 0), ("disk_mb", 0, 1), ("files", 7, 8),
    ("hook_time", 0, 0.1), ("memory_mb", 64.0, 64), ("files", True, 9), ("bank", float("nan"), 1),
])
def test_each_limit_refuses_what_is_past_its_bound_and_names_itself(name: str, bad: object,
                                                                    good: object) -> None:
    assert getattr(Limits(**{name: good}), name) == good
    with pytest.raises(ConfigError, match=rf"^limits: {name} must be (a number|an integer) >=? "):
        Limits(**{name: bad})


def test_a_snapshot_and_the_registry_name_a_file_by_the_same_hash(tmp_path: Path) -> None:
    bot = tmp_path / "x.py"
    bot.write_text("class Bot: pass\n")
    copy, version = snapshot(BotSpec("x", bot), tmp_path / "snapshots")
    entry = Registry.new_entry("x", bot)
    assert version == entry.sha256 == file_sha256(bot) == sha256_hex("class Bot: pass\n")
    assert copy.path == tmp_path / "snapshots" / version / "x.py"


def test_a_cmd_text_is_a_command_bot_named_after_its_file(bots: Path) -> None:
    spec = BotSpec.parse("cmd:/bin/sh bots/run.sh --fast", bots)
    assert spec == BotSpec("run", command=("/bin/sh", str(bots / "bots" / "run.sh"), "--fast"))
    assert BotSpec.parse("cmd:./bots/run.sh", bots).name == "run"
    assert BotSpec.parse("  cmd:python3 -u 'my bot.py'", bots).command == ("python3", "-u", "my bot.py")
    assert BotSpec.parse("cmd:python3", bots) == BotSpec("python3", command=("python3",))
    assert is_command("cmd:./x") and is_command({"name": "a", "cmd": ["x"]})
    assert not is_command("bots/x.py") and not is_command({"name": "a", "path": "x.py"})


@pytest.mark.parametrize("bad, words", [
    ("cmd:", "the command is empty"),
    ("cmd:python3 'unclosed", "cannot split the command"),
    ("bots/run.sh", "a program in another language: 'cmd:bots/run.sh'"),
])
def test_a_bad_cmd_text_names_the_problem(bots: Path, bad: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        BotSpec.parse(bad, bots)


def test_command_files_are_looked_for_in_each_folder_in_turn(tmp_path: Path) -> None:
    """The tournament file's folder first, then the workspace: each argument in the first that
    holds it; an argument no folder holds stays as written."""
    cup, home = tmp_path / "cup", tmp_path / "home"
    for folder, names in ((cup, ["bot.py", "both.txt"]), (home, ["data.txt", "both.txt"])):
        folder.mkdir()
        for name in names:
            (folder / name).write_text(name)
    spec = BotSpec.parse({"name": "b", "cmd": "python3 bot.py data.txt both.txt other.txt"}, cup, home)
    assert spec.command == ("python3", str(cup / "bot.py"), str(home / "data.txt"),
                            str(cup / "both.txt"), "other.txt")
    from_home = Workspace(home).resolve_entry({"name": "b", "cmd": ["python3", "both.txt"]}, [home, cup])
    assert from_home.command == ("python3", str(cup / "both.txt"))
    text = Workspace(home).resolve_entry("cmd:python3 data.txt", [home, cup])
    assert text.command == ("python3", str(home / "data.txt"))


def test_a_bot_file_in_no_folder_names_every_place_looked_in_that_order(tmp_path: Path) -> None:
    """A tournament's `bots/myr.py` is looked for in the workspace, then beside the tournament
    file. Seen: the error named only the second place, where the operator had never put it."""
    home, cup = tmp_path / "home", tmp_path / "home" / "tournaments"
    cup.mkdir(parents=True)
    with pytest.raises(ConfigError) as missing:
        Workspace(home).resolve_entry("bots/myr.py", [home, cup])
    assert str(missing.value) == (f"bot 'bots/myr.py': no such file '{home / 'bots' / 'myr.py'}' nor "
                                  f"'{cup / 'bots' / 'myr.py'}' (looked for in this order)")
    with pytest.raises(ConfigError) as absolute:   # the same place from both folders: said once
        Workspace(home).resolve_entry("/nonexistent/x.py", [home, cup])
    assert str(absolute.value) == "bot '/nonexistent/x.py': no such file '/nonexistent/x.py'"


def test_a_registered_command_bot_round_trips_through_the_registry(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "bots" / "registry.json")
    registry.add(Registry.new_command_entry("first", ("python3", "first.py"), "ab" * 32))
    registry.add(Registry.new_entry("x", _write(tmp_path / "bots" / "x.py", "class Bot: pass\n")))
    entries = registry.entries()
    assert entries["first"].command == ("python3", "first.py") and entries["first"].file == "first"
    assert entries["x"].command is None
    stored = {e["name"]: e for e in json.loads(registry.path.read_text())["bots"]}
    assert stored["first"]["command"] == ["python3", "first.py"] and "command" not in stored["x"]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
