"""Fixtures for the sandbox tests: bots from tests/hostile_bots, and checks that nothing is left."""

from __future__ import annotations

from typing import Callable, Iterator

import pytest
from sandbox_helpers import FAST, HOSTILE

from arena.sandbox import BotSpec, Limits, SandboxedBot
from process_helpers import descendants, wait_until_gone


@pytest.fixture
def make_bot() -> Iterator[Callable[..., SandboxedBot]]:
    """Build bots from hostile_bots/<file>; on teardown close them and assert that no process
    any of them started is left."""
    bots: list[SandboxedBot] = []

    def make(file: str, limits: Limits = FAST, spec: BotSpec | None = None, **kw: object) -> SandboxedBot:
        bot = SandboxedBot(spec or BotSpec.parse(file, HOSTILE), limits, **kw)
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        template = bot._template
        tree = descendants(template.proc.pid) | {template.proc.pid} if template and template.proc else set()
        bot.close()
        assert wait_until_gone(tree) == []
