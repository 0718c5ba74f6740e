"""Thinks forever in ``on_game_start``: only ``limits.hook_time`` of CPU stops it."""


class Bot:
    """Never gets past the start of a game."""

    def on_game_start(self, info):
        """Burns CPU until the sandbox's hook limit ends the game."""
        while True:
            pass

    def act(self, obs):
        """Never reached."""
        return obs.legal_actions()[0]
