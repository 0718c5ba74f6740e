"""Prints about 6 MB (to stdout and stderr) and then answers legally: no fault."""
import sys


class Bot:
    def act(self, obs):
        for i in range(100_000):
            print(f"flood line {i} " + "x" * 40)
        sys.stderr.write("stderr line\n")
        print("last words")
        return obs.legal[0]
