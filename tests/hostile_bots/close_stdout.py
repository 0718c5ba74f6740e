"""Closes every descriptor but stderr, including the private protocol one, then waits."""
import os
import time


class Bot:
    def act(self, obs):
        for fd in range(256):
            if fd != 2:
                try:
                    os.close(fd)
                except OSError:
                    pass
        time.sleep(60)
        return "draw"
