"""The engine's fast paths give the answers of the general code they stand in for.

The golden and OpenSpiel differential tests prove whole games unchanged; these pin each
shortcut to its reference directly, so a drift shows where it is.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from arena.engine import legality
from arena.engine.actions import DRAW, PASS, Play
from arena.engine.game import shuffle
from arena.engine.rules import load_rules

from tests.engine.engine_helpers import random_positions

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seed", range(40))
def test_the_deal_shuffles_exactly_as_random_shuffle_does(seed):
    """Same order for every length a deck or a recycled pile can have, and the same draws from
    the generator, so every later shuffle and random first player is unchanged too."""
    for length in (0, 1, 2, 3, 17, 52, 54, 130):
        ours, reference = random.Random(seed), random.Random(seed)
        cards, expected = list(range(length)), list(range(length))
        shuffle(ours, cards)
        reference.shuffle(expected)
        assert cards == expected, (seed, length)
        assert ours.random() == reference.random(), (seed, length)


@pytest.mark.parametrize("name", ["openspiel", "switch-classic",
                                  str(ROOT / "tournaments/openspiel-special-cards.yaml")])
def test_one_card_rule_sets_list_the_plays_the_general_listing_lists(name):
    """The per-(top, active suit) table lists, in the same order, exactly the plays of
    legality.legal_plays, with and without a pending penalty, skip or 8 starter."""
    rules = load_rules(name)
    assert rules.single_card_fast
    positions = 0
    for game in random_positions(rules, range(30)):
        actions = game.legal_actions()
        plays = [a for a in actions if isinstance(a, Play)]
        assert plays == legality.legal_plays(game), (name, game.to_json())
        assert actions[len(plays):] in ([], [DRAW], [PASS])
        positions += 1
    assert positions > 1000
