"""A test bot that faults whenever it sits in seat 0 (it raises at its first decision there),
and plays the first legal action in any other seat: a fault in every other game, never two in
a row, so it is never disqualified."""


class Bot:
    """Raises in seat 0, else plays ``obs.legal_actions()[0]``."""

    def act(self, obs):
        """The first legal action, or a crash in seat 0."""
        if obs.seat == 0:
            raise RuntimeError("seat 0 does not suit me")
        return obs.legal_actions()[0]
