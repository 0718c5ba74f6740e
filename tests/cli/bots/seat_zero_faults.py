"""A test bot that faults whenever it sits in seat 0 (it raises at its second decision there:
its first move is legal, so it passes the check before the first game), and plays the first
legal action in any other seat: a fault in every other game, never two in a row, so it is
never disqualified."""


class Bot:
    """Raises at its second decision in seat 0, else plays ``obs.legal_actions()[0]``."""

    def on_game_start(self, info):
        """A new game: no decision made yet."""
        self.decisions = 0

    def act(self, obs):
        """The first legal action, or a crash at the second decision in seat 0."""
        self.decisions += 1
        if obs.seat == 0 and self.decisions > 1:
            raise RuntimeError("seat 0 does not suit me")
        return obs.legal_actions()[0]
