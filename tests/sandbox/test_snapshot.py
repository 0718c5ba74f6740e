"""Snapshots of command bots: the bot's files are copied and hashed, the programs that run
them are not (issue 9, point 5)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from arena.sandbox import BotSpec
from arena.sandbox.snapshot import snapshot


def test_a_command_keeps_its_program_and_copies_its_files(tmp_path: Path) -> None:
    script = tmp_path / "mine.py"
    script.write_text("print('ok')\n")
    for program in ("/usr/bin/python3", sys.executable):
        spec = BotSpec("cmd", command=(program, str(script), "--fast"))
        frozen, version = snapshot(spec, tmp_path / "store")
        assert frozen.command is not None
        # The interpreter (the system's, or the referee's own, which the template maps to its
        # Python) is run in place: copying it would run an interpreter away from its library.
        assert frozen.command[0] == program
        copy = Path(frozen.command[1])
        assert copy != script and copy.read_text() == "print('ok')\n"
        assert copy.parent.name == hashlib.sha256(script.read_bytes()).hexdigest()
        assert len(version) == 64 and version != copy.parent.name  # the command is hashed too
        assert frozen.command[2] == "--fast"



def test_the_class_played_is_not_part_of_a_version_so_stored_versions_stay(tmp_path: Path) -> None:
    """Every store recorded a Python bot's version as its file's hash; hashing the class too
    would make every class-named bot of a stored tournament look changed after an upgrade (a
    fixed schedule replays its games, an adaptive one is refused). A class switch is caught
    where the entries are compared (tests/tournament/test_tournament_store.py)."""
    bot = tmp_path / "two.py"
    bot.write_text("class Bot:\n    pass\n\nclass First:\n    pass\n")
    file_hash = hashlib.sha256(bot.read_bytes()).hexdigest()
    _, default = snapshot(BotSpec("mine", path=bot), tmp_path / "store")
    _, first = snapshot(BotSpec("mine", path=bot, class_name="First"), tmp_path / "store")
    assert default == first == file_hash
