"""Signals the referee and reads its environment and memory through /proc.

It tries its parent and the pid the start message names (the referee's own pid, as a bot that
read the arena's code could guess it).
"""
import os


class Bot:
    def on_game_start(self, info):
        self.targets = [p for p in (os.getppid(), info.get("referee", 0)) if p > 1]

    def act(self, obs):
        leaks = []
        for pid in self.targets:
            try:
                os.kill(pid, 0)
                leaks.append(f"signal {pid}")
            except OSError:
                pass
            for name in ("environ", "mem", "cmdline"):
                try:
                    with open(f"/proc/{pid}/{name}", "rb") as f:
                        f.read(1)
                    leaks.append(f"{name} {pid}")
                except OSError:
                    pass
        return "leaked " + " ".join(leaks) if leaks else "draw"
