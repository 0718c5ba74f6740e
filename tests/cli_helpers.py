"""What the command-line tests share: ``arena ARGS`` run through typer's runner in a workspace of
the test's own, the one ``error:`` line a refused command prints, and ``arena ARGS`` run as a
process whose output goes to a full disk."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner, Result

from arena.cli import app

runner = CliRunner()


def invoke(home: Path, *args: str, columns: int = 200) -> Result:
    """Run ``arena ARGS`` with ``home`` as the workspace, private sandbox slots (a base of its
    own, so that tests running beside each other never share one) and ``columns`` of output."""
    env = {"ARENA_HOME": str(home), "ARENA_SLOT_BASE": str(random.randrange(5000, 30000, 50)),
           "COLUMNS": str(columns)}
    return runner.invoke(app, list(args), env=env)


def error_line(result: Result) -> str:
    """The one ``error:`` line of a refused command (exit status 1, no traceback)."""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def into_full_disk(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS > /dev/full`` in ``home``: every write of the output fails with ENOSPC."""
    env = {k: v for k, v in os.environ.items() if k != "ARENA_HOME"}
    with open("/dev/full", "w") as full:
        return subprocess.run([sys.executable, "-m", "arena", *args, "--home", str(home)], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=300)
