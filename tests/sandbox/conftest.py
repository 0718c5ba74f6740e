"""Fixtures for the sandbox tests: bots from tests/hostile_bots, and checks that nothing is left."""

from __future__ import annotations

import random
from typing import Callable, Iterator

import pytest
from sandbox_helpers import FAST, HOSTILE, assert_nothing_left

from arena.sandbox import BotSpec, Limits, SandboxedBot


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


