"""Class 2: files around the bot, by absolute path.

Opens the tournament file, the results database and other bots' sources (the test bakes
their paths in, as an attacker who read the arena's code knows the layout), and lists the
workspace, the user's home folder, /tmp, /work and the folder its own file came from. A file
read, or a listing that names anything but its own file, is a LEAK.
"""

import os
import sys

CONFIG: dict = {}  # filled in by the test: {"read": [paths], "list": [folders]}


def _own_names() -> set:
    """Names a listing may show without leaking: its own file, and the folders that lead to
    the interpreter the sandbox mounts on purpose."""
    names = {os.path.basename(__file__)}
    for prefix in (sys.base_prefix, sys.prefix):
        parts = os.path.realpath(prefix).strip("/").split("/")
        names.update(parts)
    return names


class Bot:
    def on_game_start(self, info: dict) -> None:
        found = []
        for path in CONFIG.get("read", []):
            try:
                with open(path, "rb") as f:
                    data = f.read(64)
                found.append(f"read {path}: {data[:24]!r}")
            except OSError:
                pass
        own = _own_names()
        for folder in CONFIG.get("list", []) + ["/tmp", "/work", os.path.expanduser("~")]:
            try:
                names = set(os.listdir(folder))
            except OSError:
                continue
            foreign = sorted(names - own)
            if foreign:
                found.append(f"listed {folder}: {foreign[:6]}")
        if found:
            raise RuntimeError("LEAK: " + "; ".join(found))

    def act(self, obs):
        return obs.legal[0]
