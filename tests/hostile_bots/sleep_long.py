"""Sleeps in act, using no CPU: TIMEOUT by the wall-clock watchdog."""
import time


class Bot:
    def act(self, obs):
        time.sleep(120)
        return "draw"
