"""The `random` bot: a uniform choice among the legal actions.

The simplest possible bot, and the baseline every other bot must beat. It uses its per-game
seed (``info["seed"]`` in ``on_game_start``) so that the same tournament replays the same way.
"""

import random


class Bot:
    """Plays a uniformly random legal action."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def on_game_start(self, info: dict) -> None:
        """Seed this game's randomness from the referee's per-seat seed (reproducible games)."""
        self.rng = random.Random(info["seed"])

    def act(self, obs):
        """Pick any legal action; ``obs.legal_actions()`` is never empty when we are asked."""
        return self.rng.choice(obs.legal_actions())
