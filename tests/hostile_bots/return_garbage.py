"""Returns an object that is not an action: INVALID."""


class Bot:
    def act(self, obs):
        return {"not": "an action"}
