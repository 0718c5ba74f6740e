"""What every bot in bots/ gets tested for, for free: it loads in the sandbox, plays seeded games
under every preset without a fault (so it answers only legal actions), and plays the same way
given the same seeds."""

from __future__ import annotations

import pytest

from bot_helpers import BOT_FILES, REPO
from arena.play.referee import Referee
from arena.engine.rules import load_rules, preset_names
from arena.sandbox import BotSpec, Limits, SandboxedBot
from arena.sandbox.options import with_options

GAMES = 3
LIMITS = Limits(move_time=1.0, init_time=10.0)
# A search bot plays the contract on a small budget of iterations and no time budget: its
# moves are then a function of the seeds, and a tournament's time budget is not the contract.
CONTRACT_OPTIONS = {"mcts": {"iterations": 3, "time_ms": 0}}
# On so small a budget three searchers can play two-four-jacks to its decision cap (5,000
# decisions, six minutes of searching; each iteration's playout of that preset is a long game
# of its own): the search bot plays its contract under a lower cap, which ends such a game
# drawn after the same clean, replayable moves.
CONTRACT_CAPS = {"mcts": 60}


def contract_rules(path, preset: str, folder):
    """The preset, or for a bot in CONTRACT_CAPS a rule set of it with that decision cap."""
    cap = CONTRACT_CAPS.get(path.stem)
    if cap is None:
        return load_rules(preset)
    rule_file = folder / f"{preset}-capped.yaml"
    rule_file.write_text(f"base: {preset}\nname: {preset}-capped\ndecision_cap: {cap}\n")
    return load_rules(rule_file)


def play_games(path, preset: str, folder, seats: int = 3) -> list[tuple[str, ...]]:
    """The moves of GAMES seeded games, the bot in every seat; fails on any fault."""
    spec = with_options(BotSpec.parse(str(path.relative_to(REPO)), REPO),
                        CONTRACT_OPTIONS.get(path.stem, {}))
    bots = [SandboxedBot(spec, LIMITS) for _ in range(seats)]
    referee = Referee(contract_rules(path, preset, folder))
    try:
        games = []
        for seed in range(GAMES):
            result = referee.play(bots, seed)
            assert result.faults == (), f"{path.name} under {preset}, seed {seed}: {result.faults}"
            games.append(result.moves)
        return games
    finally:
        for bot in bots:
            bot.close()


@pytest.mark.parametrize("path", BOT_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("preset", preset_names())
def test_bot_plays_clean_seeded_games_and_replays_them(path, preset, tmp_path):
    first = play_games(path, preset, tmp_path)
    assert play_games(path, preset, tmp_path) == first


def test_every_builtin_bot_is_covered():
    assert {p.stem for p in BOT_FILES} >= {"random", "greedy", "heuristic", "mcts"}
