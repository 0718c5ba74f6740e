"""`arena duel` as a library: the tournament it plays, and the tally it reads from the stored games."""

from __future__ import annotations

import tempfile

import pytest

from arena.engine.rules import load_rules
from arena.errors import ConfigError
from arena.sandbox import BotSpec
from arena.sandbox.workspace import Workspace
from arena.services.duel import duel, duel_plan
from arena.tournament.schedule import Schedule

RAISES = '''
class Bot:
    def act(self, obs):
        raise ValueError("boom in act")
'''


def builtins(tmp_path, *names: str) -> list[BotSpec]:
    return [Workspace(tmp_path).resolve_bot(name) for name in names]


def duel_games(tmp_path, names: tuple[str, ...], games: int, seats: int):
    """The games a duel plays, in order: the first ``games`` of its tournament's schedule."""
    plan = duel_plan(builtins(tmp_path, *names), load_rules("switch"), games, seats, seed=3)
    return list(Schedule.from_config(plan.config))[:games]


def test_two_bots_at_four_seats_sit_in_turn_and_swap_over_each_deal(tmp_path):
    games = duel_games(tmp_path, ("random", "greedy"), games=5, seats=4)
    ab, ba = ("random", "greedy") * 2, ("greedy", "random") * 2
    assert [g.table for g in games] == [ab, ba, ab, ba, ab]   # the third deal cut short
    assert games[0].deal_seed == games[1].deal_seed != games[2].deal_seed == games[3].deal_seed


def test_the_first_bot_named_takes_the_extra_seat_and_sits_in_every_one(tmp_path):
    games = duel_games(tmp_path, ("heuristic", "random", "greedy"), games=4, seats=4)
    assert [g.table for g in games] == [
        ("heuristic", "random", "greedy", "heuristic"),
        ("random", "greedy", "heuristic", "heuristic"),
        ("greedy", "heuristic", "heuristic", "random"),
        ("heuristic", "heuristic", "random", "greedy"),
    ]
    assert len({g.deal_seed for g in games}) == 1


def test_with_a_seat_each_the_bots_sit_in_name_order_as_at_a_tournament_table(tmp_path):
    games = duel_games(tmp_path, ("random", "heuristic", "greedy"), games=3, seats=3)
    assert [g.table for g in games] == [
        ("greedy", "heuristic", "random"),
        ("heuristic", "random", "greedy"),
        ("random", "greedy", "heuristic"),
    ]


def test_a_duel_refuses_what_it_cannot_seat(tmp_path):
    rules = load_rules("switch")
    with pytest.raises(ConfigError, match="at least two bots"):
        duel_plan(builtins(tmp_path, "random"), rules, 10)
    with pytest.raises(ConfigError, match="3 bots do not fit 2 seats"):
        duel_plan(builtins(tmp_path, "random", "greedy", "heuristic"), rules, 10, seats=2)
    with pytest.raises(ConfigError, match="must differ"):
        duel_plan(builtins(tmp_path, "random", "random"), rules, 10)


def test_a_faulty_bot_plays_every_game_and_its_faults_are_counted(tmp_path, monkeypatch):
    """No disqualification in a duel (a tournament's would stop it after three games), and
    the temporary store is gone afterwards."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    source = tmp_path / "raiser.py"
    source.write_text(RAISES)
    raiser = BotSpec.parse(str(source), tmp_path)
    result = duel([raiser, *builtins(tmp_path, "greedy")], load_rules("switch"), 5, seats=2,
                  seed=8, workers=1)
    faulty, greedy = result.tallies
    assert (result.games, faulty.games, greedy.games) == (5, 5, 5)
    assert faulty.faults == {"INVALID": 5} and not greedy.faults
    # A faulty seat is placed last: it never wins, and a game its fallback empties first is
    # won by nobody.
    assert faulty.wins == 0 and greedy.wins + result.draws == 5
    assert [f.bot for f in result.faults] == ["raiser"] * 5
    assert all("boom in act" in f.detail + f.log_tail for f in result.faults)
    assert not list(tmp_path.glob("arena-duel-*"))


def test_the_drawn_seed_comes_back_and_replays_the_duel(tmp_path):
    bots, rules = builtins(tmp_path, "random", "greedy"), load_rules("switch")
    first = duel(bots, rules, 6, workers=1)
    again = duel(bots, rules, 6, seed=first.seed, workers=2)
    assert again == first
    assert sum(t.wins for t in first.tallies) + first.draws == 6
    assert [(t.name, t.seats, t.games) for t in first.tallies] == [("random", 2, 6), ("greedy", 2, 6)]
