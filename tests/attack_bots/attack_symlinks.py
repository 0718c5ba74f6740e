"""Class 7: symlinks for the referee to follow.

At the start of every game it fills its folder (cwd, HOME, TMPDIR) with symlinks to a file of
the test's, named like anything a referee might write there (its own bot file, logs, results,
lease files), and a few links to that file's folder. The file must stay untouched. It then
plays the whole game and reports, at its end, how many links it planted (a deliberate fault:
``PLANTED``, never ``LEAK``), so the test knows the attack ran.
"""

import os

CONFIG: dict = {}  # filled in by the test: {"victim": path}
VICTIM = CONFIG.get("victim", "/nonexistent/victim")
NAMES = ["bot.py", "bot.log", "log", "stdout", "stderr", "output", "result.json", "results.json",
         "core", "arena.log", "attacks.sqlite", "attacks.log", "registry.json", "0", "1", "2",
         ".lock", "arena_host.py", "bot.bpf", "command.bpf", "victim"]
FOLDER_NAMES = ["results", "bots", "home", "rt", "root"]


class Bot:
    def on_game_start(self, info: dict) -> None:
        self.planted = 0
        folders = {os.getcwd(), os.environ.get("HOME", ""), os.environ.get("TMPDIR", "")} - {""}
        own = os.path.basename(__file__)
        for folder in sorted(folders):
            for name in NAMES + [own]:
                self.plant(os.path.join(folder, name), VICTIM)
            for name in FOLDER_NAMES:
                self.plant(os.path.join(folder, name), os.path.dirname(VICTIM))

    def plant(self, path: str, target: str) -> None:
        try:
            if os.path.lexists(path):
                os.unlink(path)  # its own bot file too: the referee must not rewrite it
            os.symlink(target, path)
            self.planted += 1
        except OSError:
            pass

    def act(self, obs):
        return obs.legal[0]

    def on_game_end(self, result: dict) -> None:
        raise RuntimeError(f"PLANTED {self.planted} links to {VICTIM}")
