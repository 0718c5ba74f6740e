"""Returns None: INVALID."""


class Bot:
    def act(self, obs):
        return None
