"""Fixtures for the sandbox tests: bots from tests/hostile_bots, and checks that nothing is left."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Callable, Iterator

import pytest

from arena.sandbox import BotSpec, Limits, SandboxedBot
from arena.sandbox import confine
from arena.sandbox.bench import SAMPLE_OBS

HOSTILE = Path(__file__).resolve().parent.parent / "hostile_bots"
REPO = Path(__file__).resolve().parents[2]
IS_ROOT = os.geteuid() == 0
FAST = Limits(move_time=0.3, wall_factor=2.0, bank=0.2, memory_mb=256, init_time=5.0,
              log_bytes=16 * 1024)

needs_root = pytest.mark.skipif(not IS_ROOT, reason="this confinement layer needs root")


def act_message(**changes: object) -> dict:
    """An ``act`` message with a complete wire observation."""
    return {"obs": {**SAMPLE_OBS, **changes}}


@pytest.fixture
def slot() -> int:
    """A slot (hence uid) unlikely to be used by another test run on the same machine."""
    return random.randrange(400, 3000)


@pytest.fixture
def make_bot(slot: int) -> Iterator[Callable[..., SandboxedBot]]:
    """Build bots from hostile_bots/<file>; on teardown close them and assert nothing is left."""
    bots: list[SandboxedBot] = []

    def make(file: str, limits: Limits = FAST, spec: BotSpec | None = None, **kw: object) -> SandboxedBot:
        bot = SandboxedBot(spec or BotSpec.parse(file, HOSTILE), limits, slot + len(bots), **kw)
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        folder = bot._folder.path if bot._folder else None
        uid_slot = bot.slot
        bot.close()
        assert_nothing_left(uid_slot, folder)


def assert_nothing_left(slot: int, folder: Path | None) -> None:
    """No process of the slot's uid survives; the bot's folder is gone."""
    if IS_ROOT:
        assert confine.pids_of_uid(confine.slot_uid(slot)) == []
    if folder is not None:
        assert not folder.exists()
