"""Passes the check before the first game (its first move is legal), then fails every game at
its second decision: a bot that breaks in play, ``SyntaxError``-like in its own words."""


class Bot:
    """The first legal action once a game, then an error."""

    def on_game_start(self, info):
        """A new game: nothing decided yet."""
        self.decisions = 0

    def act(self, obs):
        """Legal at the first decision, an exception at the next."""
        self.decisions += 1
        if self.decisions > 1:
            raise RuntimeError("breaks-later-51c2 at its second decision")
        return obs.legal_actions()[0]
