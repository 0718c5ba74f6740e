"""Forks a child that would outlive the game (it sleeps); then answers."""
import os
import time


class Bot:
    def act(self, obs):
        pid = os.fork()
        if pid == 0:
            time.sleep(300)
            os._exit(0)
        return "draw"
