"""A deterministic test bot: always the first legal action (no state between games)."""


class Bot:
    """Plays ``obs.legal_actions()[0]``."""

    def act(self, obs):
        """The first legal action in the engine's deterministic order."""
        return obs.legal_actions()[0]
