"""A test bot of a strength set by its option: greedy, except that with chance ``dawdle`` it
draws (or passes) though it could play. Under rules that let a player draw by choice
(``openspiel``) a high ``dawdle`` loses to a low one nearly every game, and the games stay short
(its plays are capped), so adaptive tournaments of these bots end in a few dozen games."""

import random

from arena.engine.actions import Play


class Bot:
    """Lays the longest legal play, unless it dawdles (chance ``dawdle``) and a draw is legal."""

    OPTIONS = {
        "dawdle": {"type": "float", "default": 0.0, "min": 0, "max": 1,
                   "help": "share of turns it draws though it could play"},
    }

    def __init__(self, dawdle: float = 0.0) -> None:
        self.dawdle = dawdle
        self.rng = random.Random(0)

    def on_game_start(self, info: dict) -> None:
        """Seed this game's randomness from the referee's per-seat seed."""
        self.rng = random.Random(info["seed"])

    def act(self, obs):
        """The longest play, or (chance ``dawdle``) any action that is not a play."""
        legal = obs.legal_actions()
        plays = [action for action in legal if isinstance(action, Play)]
        others = [action for action in legal if not isinstance(action, Play)]
        if not plays or (others and self.rng.random() < self.dawdle):
            return others[0]
        return max(plays, key=lambda play: len(play.cards))
