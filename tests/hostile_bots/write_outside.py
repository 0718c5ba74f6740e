"""Tries to create each file named in the start message; reports which writes succeeded.

It also writes into its own folder (allowed) and reads it back first, so a "draw" proves the
bot ran and its own folder works.
"""


class Bot:
    def on_game_start(self, info):
        self.targets = info["targets"]

    def act(self, obs):
        with open("own-file.txt", "w") as f:
            f.write("mine")
        with open("own-file.txt") as f:
            assert f.read() == "mine"
        written = []
        for target in self.targets:
            try:
                with open(target, "w") as f:
                    f.write("pwned")
                written.append(target)
            except OSError:
                pass
        return "wrote " + " ".join(written) if written else "draw"
