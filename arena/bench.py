"""Benchmarks: random-vs-random games in-process, and the same workload on OpenSpiel's engine.

The random policy is the one a random bot uses: a uniform choice among
:meth:`~arena.game.Game.legal_actions`, seeded, so two runs play the same games. Forced actions
(RULINGS G2) go through the same path, since every decision counts in decisions/s.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass

from arena.errors import ArenaError
from arena.game import Game
from arena.rules import RuleSet

OPENSPIEL_INSTALL = "pip install open-spiel   (or: python -m pip install -e '.[peers]')"


@dataclass(frozen=True)
class BenchResult:
    """Throughput of one benchmark run."""

    rules: str
    games: int
    seats: int
    seconds: float
    decisions: int

    @property
    def games_per_s(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        """Decisions (every applied action) per second."""
        return self.decisions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict:
        """The object ``arena bench --json`` prints."""
        data = asdict(self)
        data.pop("decisions")
        data["games_per_s"] = round(self.games_per_s, 1)
        data["decisions_per_s"] = round(self.decisions_per_s, 1)
        data["seconds"] = round(self.seconds, 4)
        return data


def play_random_game(rules: RuleSet, seats: int, seed: int, rng: random.Random) -> Game:
    """Play one game to its end with every seat choosing uniformly among legal actions."""
    game = Game.new(rules, seats, seed)
    choice = rng.choice
    while game.outcome is None:
        game.apply_legal(choice(game.legal_actions()))
    return game


def bench_inprocess(rules: RuleSet, games: int, seats: int, seed: int = 0) -> BenchResult:
    """Play ``games`` random games in this process and time them."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        decisions += play_random_game(rules, seats, seed + index, rng).decisions
    return BenchResult(rules.name, games, seats, time.perf_counter() - start, decisions)


class PeerUnavailable(ArenaError):
    """The peer engine to compare with is not installed."""


def bench_openspiel(games: int, seats: int, seed: int = 0) -> BenchResult:
    """OpenSpiel's C++ ``crazy_eights`` (max_draw_cards=3, no reshuffle) under a uniform random
    policy driven from Python, chance nodes (the deal) sampled the same way."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        raise PeerUnavailable(f"open-spiel is not installed; install it with: {OPENSPIEL_INSTALL}") from None
    game = pyspiel.load_game("crazy_eights", {"players": seats, "max_draw_cards": 3, "reshuffle": False})
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return BenchResult("openspiel:crazy_eights", games, seats, time.perf_counter() - start, decisions)
