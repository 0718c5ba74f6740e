"""An example bot with an option: greedy, except for a share of random moves.

It shows how a bot declares options (docs/writing-bots.md): ``OPTIONS`` is a literal the
referee reads without running the file, and each option reaches the constructor as a keyword
argument. ``epsilon`` is the share of moves played at random (0 plays like ``greedy``, 1 like
``random``): a dial of strength, e.g. ``{name: eps-30, bot: bots/examples/epsilon.py,
options: {epsilon: 0.3}}`` in a tournament, or ``arena duel bots/examples/epsilon.py greedy
--option 1:epsilon=0.5``.
"""

import random

from arena.engine.actions import Play


class Bot:
    """Lays the longest legal play, or with chance ``epsilon`` any legal action."""

    OPTIONS = {
        "epsilon": {"type": "float", "default": 0.1, "min": 0, "max": 1,
                    "help": "share of moves played at random"},
    }

    def __init__(self, epsilon: float = 0.1) -> None:
        self.epsilon = epsilon
        self.rng = random.Random(0)

    def on_game_start(self, info: dict) -> None:
        """Seed this game's randomness from the referee's per-seat seed (reproducible games)."""
        self.rng = random.Random(info["seed"])

    def act(self, obs):
        """The longest play (the first of equals); a random legal action with chance ``epsilon``."""
        legal = obs.legal_actions()
        plays = [action for action in legal if isinstance(action, Play)]
        if not plays or self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        return max(plays, key=lambda play: len(play.cards))
