"""The benchmark service: what ``arena bench --peer openspiel`` times is the same work on both sides.

Timings themselves belong in ``arena bench``; these tests pin what makes its ratio a fair one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pyspiel  # in the test extra, as for the differential test: never skipped
import pytest

from arena.engine.rules import load_rules
from arena.services.bench import CHANCE, bench_inprocess, bench_openspiel, openspiel_parameters

TOURNAMENTS = Path(__file__).resolve().parent.parent / "tournaments"
FAMILY = ["openspiel", str(TOURNAMENTS / "openspiel-special-cards.yaml"),
          str(TOURNAMENTS / "openspiel-reshuffle.yaml")]


@pytest.mark.parametrize("name", FAMILY)
def test_openspiels_chance_nodes_are_uniform_so_a_pick_among_legal_actions_samples_them(name):
    """The peer loop samples the dealer, every dealt and every drawn card by a uniform pick among
    ``legal_actions()``: exact only because each chance node's outcomes are equally likely."""
    rules = load_rules(name)
    rng = random.Random(7)
    nodes = 0
    for seats in range(rules.seats_min, rules.seats_max + 1):
        game = pyspiel.load_game("crazy_eights", openspiel_parameters(rules, seats))
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.current_player() == CHANCE:
                    outcomes = state.chance_outcomes()
                    assert [a for a, _ in outcomes] == state.legal_actions()
                    assert len({p for _, p in outcomes}) == 1, outcomes
                    nodes += 1
                state.apply_action(rng.choice(state.legal_actions()))
    assert nodes > 1000


def test_both_sides_play_whole_games_of_about_the_same_length():
    """The same game under the same random policy: the decisions per game differ only by how a
    suit call is chosen (one action of ours, an extra decision of OpenSpiel's after an 8)."""
    rules = load_rules("openspiel")
    ours = bench_inprocess(rules, 300, 5)
    peer = bench_openspiel(rules, 300, 5)
    assert ours.games == peer.games == 300
    per_game = ours.decisions / ours.games, peer.decisions / peer.games
    assert 50 < per_game[0] < 110 and abs(per_game[0] - per_game[1]) < 0.15 * per_game[1], per_game


def test_a_seed_replays_the_same_games_on_both_sides():
    """Seeded on both sides: two runs with one seed play the same games, so runs compare."""
    rules = load_rules("openspiel")
    assert bench_inprocess(rules, 50, 4, 3).decisions == bench_inprocess(rules, 50, 4, 3).decisions
    assert bench_openspiel(rules, 50, 4, 3).decisions == bench_openspiel(rules, 50, 4, 3).decisions
    assert bench_inprocess(rules, 50, 4, 3).decisions != bench_inprocess(rules, 50, 4, 4).decisions
