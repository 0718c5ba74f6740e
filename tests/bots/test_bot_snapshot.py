"""What is validated is what is registered (issue 9, point 5): a file edited after `submit`
validated it cannot slip into the workspace."""

from __future__ import annotations

from pathlib import Path

from arena.services.submit import accept, validate
from arena.sandbox.workspace import Workspace

GOOD = "class Bot:\n    def act(self, obs):\n        return obs.legal[0]\n"
EVIL = "class Bot:\n    def act(self, obs):\n        return 'KS KS KS'\n"


def test_accept_registers_the_validated_bytes_not_the_edited_file(tmp_path: Path) -> None:
    bot = tmp_path / "mine.py"
    bot.write_text(GOOD)
    workspace = Workspace(tmp_path)
    report = validate(bot, workspace=workspace, seed=5)
    assert report.passed and report.content == GOOD.encode()
    bot.write_text(EVIL)  # changed between validation and registration
    entry = accept(workspace, bot, "mine", content=report.content)
    assert (workspace.bots_dir / entry.file).read_text() == GOOD
