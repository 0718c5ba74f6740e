"""A legal bot that thinks for a set CPU time on every decision (``think`` seconds, named in
the start message: most of its allowance)."""
import time


class Bot:
    def on_game_start(self, info):
        self.think = info.get("think", 0.2)

    def act(self, obs):
        end = time.process_time() + self.think
        while time.process_time() < end:
            pass
        return obs.legal[0]
