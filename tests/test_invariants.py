"""Invariant sweep: thousands of seeded random games per preset and seat count, checked after
every action (issue 2, point 7; RULINGS G4, G6, G8).

After each action: every card is in exactly one place; each seat's observation shows its own
hand and the true hand sizes; the active suit and the pending penalty are consistent; the game
ends within the decision cap; and replaying the recorded moves from the seed reproduces it.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from arena.engine.actions import DRAW, Play
from arena.engine.game import Game
from arena.engine.rules import RuleSet, load_rules, preset_names
from arena.engine.observation import observe

# Sized to the suite's budget of 10 minutes on 2 cores (the sweep is its largest CPU cost in
# pure Python): 60 cases of 300 games, every tenth one with every invariant at every decision.
GAMES_PER_CASE = 300
# The two slowest presets (london: the costliest legality, two-four-jacks: the longest games)
# sweep fewer games per case; each still plays tens of thousands of checked decisions across
# its seat counts.
GAMES_FOR = {"london": 130, "two-four-jacks": 130,
             # OpenSpiel's rule sets: games of many draws; their engine is also checked
             # decision by decision against OpenSpiel (tests/engine/test_engine_openspiel_differential.py)
             "openspiel": 80, "openspiel-special-cards": 80, "openspiel-reshuffle": 80}
VOLUNTARY_DRAW_ODDS = 0.1  # see choose()


def choose(rng: random.Random, legal: list):
    """Uniform among the legal actions, except that a draw offered beside plays (W2's draw by
    choice) is taken one time in ten: uniform random play would draw a third of the time and
    grow its hands until the cap, which tests nothing more and costs minutes."""
    if len(legal) > 1 and legal[-1] is DRAW and isinstance(legal[0], Play):
        if rng.random() >= VOLUNTARY_DRAW_ODDS:
            return rng.choice(legal[:-1])
        return DRAW
    return rng.choice(legal)


CUSTOM = [str(Path(__file__).parent.parent / "tournaments" / f)
          for f in ("switch-no-flush.yaml", "crazy-eights-unlimited.yaml",
                    "openspiel-special-cards.yaml", "openspiel-reshuffle.yaml")]


def cases() -> list[tuple[str, int]]:
    """Every preset (and the shipped custom rule sets) with every seat count it allows."""
    out = []
    for name in preset_names() + CUSTOM:
        rules = load_rules(name)
        out += [(name, seats) for seats in range(rules.seats_min, rules.seats_max + 1)]
    return out


def check_cards(game: Game, deck: Counter) -> None:
    """Every card of the deal is in exactly one place: a hand, the stock or the pile."""
    assert Counter(game.all_cards()) == deck


def check_observations(game: Game) -> None:
    sizes = tuple(len(h) for h in game.hands)
    for seat in range(game.seats):
        obs = observe(game, seat)
        assert obs.hand_sizes == sizes
        assert list(obs.hand) == game.hands[seat]
        assert obs.stock_size == len(game.stock)
        assert (obs.legal != ()) == (seat == game.to_move and not game.is_over)


def check_table(game: Game) -> None:
    """The active suit is a suit (or 'any' only before the first play on a suit-calling
    starter), and a pending penalty has a known kind and a positive size."""
    if game.active_suit < 0:
        assert len(game.discard) == 1 and game.rules.power_of[game.top].calls_suit
        assert game.rules.starter_calls
    else:
        assert game.active_suit in (0, 1, 2, 3)
    kinds = game.rules.penalty_kinds()
    if game.pending_kind is None:
        assert game.pending_amount == 0
    else:
        assert game.pending_kind in kinds and game.pending_amount > 0
    assert game.recycles_left is None or game.recycles_left >= 0
    assert game.direction in (1, -1) and 0 <= game.to_move < game.seats


def play_checked(rules: RuleSet, seats: int, seed: int) -> Game:
    game = Game.new(rules, seats, seed)
    deck = Counter(game.all_cards())
    assert len(deck) == rules.deck_size()
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, "a game in progress always has a legal action"
        game.apply(choose(rng, legal))
        check_cards(game, deck)
        check_table(game)
        check_observations(game)
        assert game.decisions <= rules.decision_cap
    return game


@pytest.mark.parametrize("name,seats", cases())
def test_random_games_keep_every_invariant(name: str, seats: int) -> None:
    endings: Counter = Counter()
    rules = load_rules(name)  # once: reading the rule set's file every game cost most of the time
    games = GAMES_FOR.get(rules.name, GAMES_PER_CASE)
    for seed in range(games):
        game = play_checked(rules, seats, seed) if seed % 10 == 0 else play_fast(rules, seats, seed)
        outcome = game.outcome
        assert outcome is not None
        endings[outcome.reason] += 1
        check_places(game)
        if seed % 10 == 0:
            check_replay(game)
    # random play still mostly ends by shedding; where a seat may pass at will on an empty
    # stock (O4) random passing blocks about half the two-seat games
    assert endings["emptied"] > games // (3 if rules.pass_on_empty else 2)


def play_fast(rules: RuleSet, seats: int, seed: int) -> Game:
    """The same random game with the cheap invariants only (cards and table), for volume."""
    game = Game.new(rules, seats, seed)
    deck = Counter(game.all_cards())
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(choose(rng, game.legal_actions()))
        check_table(game)
    check_cards(game, deck)
    return game


def check_places(game: Game) -> None:
    """G7: every seat placed once; the winner alone first; a lower score (fewer cards, or fewer
    points where the rule set scores by points, F7) never behind a higher one."""
    outcome = game.outcome
    seats = [s for place in outcome.places for s in place]
    assert sorted(seats) == list(range(game.seats))
    if outcome.winner is not None:
        assert outcome.places[0] == (outcome.winner,)
    rest = outcome.places[1:] if outcome.winner is not None else outcome.places
    counts = [game.score(p[0]) for p in rest]
    assert counts == sorted(counts)
    for place in rest:
        assert len({game.score(s) for s in place}) == 1


def check_replay(game: Game) -> None:
    """The recorded moves, replayed from the seed, reproduce the game exactly."""
    again = Game.new(game.rules, game.seats, game.seed)
    for event in game.history:
        again.apply(str(event.action))
    assert again.to_json() == game.to_json()
