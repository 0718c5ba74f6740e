"""Class 4: files left in its own folder for a later game or a later run.

At the start of every game it looks in its cwd, HOME, TMPDIR, the temp folder and /tmp for
files it left before (named after a marker); then it leaves a new one in each, holding the
run it came from (its runtime's path, different in every run of the referee). A file found is
a LEAK, saying whether it came from this run or another.
"""

import os
import tempfile

import arena

CONFIG: dict = {}  # filled in by the test: {"marker": text}
MARK = CONFIG.get("marker", "leftover-marker")
RUN = os.path.dirname(os.path.abspath(arena.__file__))


def _folders() -> list:
    folders = [os.getcwd(), os.environ.get("HOME", ""), os.environ.get("TMPDIR", ""),
               tempfile.gettempdir(), "/tmp"]
    return [f for i, f in enumerate(folders) if f and f not in folders[:i]]


class Bot:
    games = 0

    def on_game_start(self, info: dict) -> None:
        found = []
        for folder in _folders():
            try:
                names = [n for n in os.listdir(folder) if n.startswith(MARK)]
            except OSError:
                continue
            for name in names:
                try:
                    with open(os.path.join(folder, name)) as f:
                        run = f.read().strip()
                except OSError:
                    run = "?"
                where = "this run" if run == RUN else "another run"
                found.append(f"{folder}/{name} from {where} ({run})")
        for folder in _folders():
            try:
                path = os.path.join(folder, f"{MARK}-{os.getpid()}-{id(self):x}")
                with open(path, "w") as f:
                    f.write(RUN)
            except OSError:
                pass
        if found:
            raise RuntimeError("LEAK: " + "; ".join(found[:6]))

    def act(self, obs):
        return obs.legal[0]
