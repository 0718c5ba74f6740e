"""Allocates until the address-space limit stops it: MEMORY.

``bytes(n)`` takes zeroed pages from calloc without touching them, so the bomb reaches the
limit in milliseconds on any machine (touching a gigabyte of pages could first run out of
CPU time on a busy one, which would be a TIMEOUT, not what this bot is for).
"""


class Bot:
    def act(self, obs):
        hoard = []
        while True:
            hoard.append(bytes(256 * 1024 * 1024))
