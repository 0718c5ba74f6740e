"""Returns readable text the rules would refuse; the sandbox passes it through unchanged."""


class Bot:
    def act(self, obs):
        return "KS KS KS=Q"
