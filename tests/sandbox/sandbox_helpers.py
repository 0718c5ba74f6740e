"""Shared constants and helpers of the sandbox tests."""

from __future__ import annotations

import os
from pathlib import Path

from arena.sandbox import Limits
from arena.sandbox.bench import SAMPLE_OBS

HOSTILE = Path(__file__).resolve().parent.parent / "hostile_bots"
REPO = Path(__file__).resolve().parents[2]
IS_ROOT = os.geteuid() == 0
FAST = Limits(move_time=0.3, wall_factor=2.0, bank=0.2, memory_mb=256, init_time=5.0,
              log_bytes=16 * 1024)


def act_message(**changes: object) -> dict:
    """An ``act`` message with a complete wire observation."""
    return {"obs": {**SAMPLE_OBS, **changes}}
