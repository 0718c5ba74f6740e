"""The heuristic's memory of the cards gone is the pile, also where recycling is unlimited.

Its odds that a seat holds an answer count the unseen cards, so a card it believes gone and
that went back to the stock is a miscount. It once forgot only when the count of recycles
left changed, which in two-four-jacks (unlimited recycles, W3/G4) never happens: after a few
hundred decisions it believed every card gone and every penalty unanswerable.
"""

from __future__ import annotations

import random

import pytest

from arena.engine.match import Match
from arena.engine.observation import observe
from arena.engine.rules import load_rules
from arena.heuristic import HeuristicPlayer


@pytest.mark.parametrize("preset", ["two-four-jacks", "switch", "london"])
def test_the_cards_it_counts_gone_are_the_cards_in_the_pile(preset: str) -> None:
    """Random games of 4 seats, checked at every decision, until the pile has gone back to the
    stock a few times."""
    rules = load_rules(preset)
    rng = random.Random(5)
    recycles = decisions = 0
    for seed in range(1000, 1040):
        game = Match.new(rules, 4, seed).current
        player = HeuristicPlayer()
        starter = game.discard[0]  # dealt, not laid
        while game.outcome is None and decisions < 3000:
            obs = observe(game, game.to_move)
            player.scored(obs)
            assert player.played - {starter} == set(game.discard) - {starter}
            decisions += 1
            actions = game.legal_actions()
            stock = len(game.stock)
            game.apply_legal(actions[int(rng.random() * len(actions))])
            recycles += len(game.stock) > stock
        if recycles >= 3:
            break
    assert recycles >= 3
