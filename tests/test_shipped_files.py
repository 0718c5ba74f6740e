"""The files the repository ships for users to run are valid: the demo tournament, the sample
position, the rule-set examples in tournaments/."""

from __future__ import annotations

from pathlib import Path

from arena.engine.position import load_position
from arena.tournament.config import load_config
from arena.tournament.schedule import Schedule
from arena.sandbox.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent


def test_the_demo_tournament_is_valid_and_names_the_builtin_bots() -> None:
    config = load_config(ROOT / "tournaments" / "demo.yaml")
    assert config.rules == "switch"
    assert set(config.bot_names) == {"random", "greedy", "heuristic"}
    workspace = Workspace(ROOT)
    for entry in config.bots:
        assert workspace.resolve_bot(entry.spec).path.is_file()
    # 3 two-seat tables x 1,000 deals x 2 seatings (the README's "about 20 s")
    assert len(Schedule.from_config(config)) == 6000


def test_the_sample_position_replays_to_the_end_of_its_moves() -> None:
    position = load_position(ROOT / "tournaments" / "sample-position.yaml")
    for move in position.moves:
        position.game.apply(move)
    assert position.game.decisions == len(position.moves)
