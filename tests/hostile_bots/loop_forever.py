"""Burns CPU forever in act: TIMEOUT (CPU budget)."""


class Bot:
    def act(self, obs):
        while True:
            pass
