"""Raises in act: INVALID, with the traceback's last lines as detail."""


class Bot:
    def act(self, obs):
        raise ValueError("boom-7f3a in act")
