"""Sleeps while being imported: INIT_FAIL."""
import time

time.sleep(60)


class Bot:
    def act(self, obs):
        return "draw"
