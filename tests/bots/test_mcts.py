"""The search bot (issue 13 point 3): it takes a win it sees, its hint is a legal move with a
win chance, its budget is its options, and with no time budget it is a function of the seed."""

from __future__ import annotations

import importlib.util

from arena.engine.cards import RANK_OF, Card

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


KEEPER_FLUSH = {"7D", "TD", "TC", "8D", "4D", "4C"}  # the 7 pours the plain cards, aces kept


def keeper_flush_position():
    """On the 3D, 7D pours the plain cards TD TC 8D 4D 4C and keeps both aces for later; the
    legal list offers only the shortest and the fullest pours (the aces included), and the
    heuristic builds the pour that keeps them itself."""
    obs = rigged(["7D TD TC 8D 4D 4C AD AC 5H 9H", "KS QS JS 6S 5S"], "3D")
    assert not any(set(text.split()) == KEEPER_FLUSH for text in obs.legal)
    return obs


def root_plays(root) -> dict:
    """Every play searched at the root, by its text: its node."""
    return {text: node for group in root.children.values() for text, node in group.children.items()}


def test_the_search_weighs_the_heuristics_own_flushes_too() -> None:
    """The root holds the legal list and the pours the heuristic builds, so the search can play
    the pour that keeps the aces, which the legal list leaves out."""
    obs = keeper_flush_position()
    plays = root_plays(mcts(iterations=400, time_ms=0, prior=0)._search(obs))
    kept = [node for text, node in plays.items() if set(text.split()) == KEEPER_FLUSH]
    assert kept and kept[0].visits > 0
    assert set(obs.legal) <= set(plays) | {"draw"}


def test_the_heuristics_judgement_steers_a_short_search() -> None:
    """The heuristic scores the 7s' pours best (the rest cost a card or an ace each). With its
    prior a short search spends most visits on the 7s; without it, under half (the search has
    not yet told the five first ranks apart)."""
    obs = keeper_flush_position()

    def share_of_the_sevens(prior: float) -> float:
        root = mcts(iterations=200, time_ms=0, prior=prior)._search(obs)
        sevens = root.children[RANK_OF[Card.parse("7D")]].visits
        return sevens / sum(group.visits for group in root.children.values())

    assert share_of_the_sevens(30.0) > 0.6 and share_of_the_sevens(0.0) < 0.5
