"""Allocates until the address-space limit stops it: MEMORY."""


class Bot:
    def act(self, obs):
        hoard = []
        while True:
            hoard.append(bytearray(32 * 1024 * 1024))
