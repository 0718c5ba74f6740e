"""The search bot (issue 13 point 3): it takes a win it sees, its hint is a legal move with a
win chance, its budget is its options, and with no time budget it is a function of the seed."""

from __future__ import annotations

import importlib.util

from bot_helpers import BOTS_DIR, rigged


def mcts(**options):
    """``bots/mcts.py``'s Bot, constructed as `arena play` does: ``Bot(**options)``."""
    spec = importlib.util.spec_from_file_location("_test_bot_mcts_options", BOTS_DIR / "mcts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot = module.Bot(**options)
    bot.on_game_start({"seed": 3})
    return bot


def test_it_lays_the_pair_that_empties_its_hand() -> None:
    """5H 5C on the 9 of hearts wins at once; every other move leaves cards in hand."""
    obs = rigged(["5H 5C", "KD QD JD TD"], "9H")
    assert "5H 5C" in obs.legal or "5C 5H" in obs.legal
    text, chance = mcts(iterations=300, time_ms=0).advise(obs)
    assert set(text.split()) == {"5H", "5C"} and chance > 0.95


def test_advise_is_a_legal_move_and_a_chance_and_act_plays_it() -> None:
    obs = rigged(["3H 7D KS 9C", "4D 6S", "TD 8C"], "3S")
    bot = mcts(iterations=60, time_ms=0)
    text, chance = bot.advise(obs)
    assert text in obs.legal and 0.0 <= chance <= 1.0
    assert mcts(iterations=60, time_ms=0).act(obs) == text


def test_a_forced_move_is_played_without_a_search() -> None:
    obs = rigged(["3D 4D", "KC QC"], "9H")
    assert obs.legal == ("draw",)
    assert mcts(iterations=1_000_000, time_ms=0).act(obs) == "draw"


def test_the_iterations_bound_the_search() -> None:
    obs = rigged(["3H 7D KS 9C", "4D 6S", "TD 8C"], "3S")
    bot = mcts(iterations=40, time_ms=0)
    root = bot._search(obs)
    assert sum(child.visits for child in root.children.values()) == 40


def test_the_search_stops_once_the_iterations_left_could_not_change_its_move(monkeypatch) -> None:
    """5H 5C on the 9H wins at once: the pair gathers the visits so fast that the search stops
    long before its 4,000 iterations, and plays what the full search plays."""
    obs = rigged(["5H 5C", "KD QD JD TD"], "9H")

    def searched(bot) -> int:
        return sum(group.visits for group in bot._search(obs).children.values())

    def full_search():
        bot = mcts(iterations=4000, time_ms=0)
        monkeypatch.setitem(bot._search.__func__.__globals__, "SETTLED_EVERY", 10**9)
        return bot

    assert searched(mcts(iterations=4000, time_ms=0)) < 4000
    assert searched(full_search()) == 4000
    assert mcts(iterations=4000, time_ms=0).act(obs) == full_search().act(obs)
