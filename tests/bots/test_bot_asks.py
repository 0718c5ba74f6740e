"""A sandboxed bot asks its observation what is legal and plays only what it builds from the
answers (tests/bots/asking_bot.py): the referee finds no fault in it under any preset."""

from __future__ import annotations

import pytest

from bot_helpers import REPO
from arena.engine.rules import build_rules, load_rules, merge_settings, preset_names
from arena.play.referee import Referee
from arena.sandbox import BotSpec, Limits, SandboxedBot

LIMITS = Limits(move_time=1.0, init_time=10.0)
DECISIONS = 400  # random plays that never draw by choice can go on to the cap: this one is low


@pytest.mark.parametrize("preset", preset_names())
def test_a_bot_that_builds_its_plays_from_the_observations_answers_never_faults(preset):
    rules = load_rules(preset)
    rules = build_rules(merge_settings(rules.settings, {"decision_cap": DECISIONS}), preset)
    spec = BotSpec.parse("tests/bots/asking_bot.py", REPO)
    bots = [SandboxedBot(spec, LIMITS) for _ in range(3)]
    try:
        result = Referee(rules).play(bots, 1)
    finally:
        for bot in bots:
            bot.close()
    assert result.faults == ()
    assert sum(move not in ("draw", "pass") for move in result.moves) > 10
