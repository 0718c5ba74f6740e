"""The package's annotations hold: ``mypy --strict`` over ``arena/`` finds nothing.

The package ships ``py.typed``, so bot authors' type checkers read these annotations; a wrong one
would mislead them. The configuration lives in ``pyproject.toml`` (``[tool.mypy]``).
"""

from __future__ import annotations

from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parents[1]


def test_mypy_strict_finds_no_error_in_the_package(tmp_path: Path) -> None:
    stdout, stderr, status = api.run([
        "--config-file", str(REPO / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache"),
        str(REPO / "arena"),
    ])
    assert status == 0, stdout + stderr
    assert "Success" in stdout
