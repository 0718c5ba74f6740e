"""Plays its first legal action and ends every game with a fault whose message is the hand it
was dealt: what its author reads in the results, to build into its next version. Sitting in
every seat of a deal in turn, it learns every hand of the deal."""


class Bot:
    """Remembers its first hand of the game and tells it at the end."""

    def __init__(self):
        self.dealt = None

    def act(self, obs):
        """The first legal action; the hand, the first time it is asked."""
        if self.dealt is None:
            self.dealt = " ".join(sorted(str(card) for card in obs.hand))
        return obs.legal_actions()[0]

    def on_game_end(self, result):
        """The fault that carries the hand (a test reads ``dealt [...]`` from its message)."""
        raise RuntimeError(f"dealt [{self.dealt}]")
