"""BotSpec parsing and Limits validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.errors import ArenaError, ConfigError
from arena.digest import file_sha256, sha256_hex
from arena.sandbox import BotSpec, Limits
from arena.sandbox.snapshot import snapshot
from arena.sandbox.workspace import Registry


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
