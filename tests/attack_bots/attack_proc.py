"""Class 1: other processes through /proc.

Counts the pids it can see (it must see only itself, as pid 1), then reads every other
process's command line, environment and context-switch counters (the referee, the opponents,
their templates) and the parent it may still name. Anything read is a LEAK.
"""

import os

CONFIG: dict = {}  # filled in by the test


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(4096)
    except OSError:
        return b""


class Bot:
    def __init__(self) -> None:
        self.checked = False

    def on_game_start(self, info: dict) -> None:
        self.checked = False

    def act(self, obs):
        if not self.checked:  # the opponents' processes exist once the game is under way
            self.checked = True
            self.attack()
        return obs.legal[0]

    def attack(self) -> None:
        found = []
        me = os.getpid()
        pids = sorted(int(e) for e in os.listdir("/proc") if e.isdigit())
        if me != 1:
            found.append(f"my pid is {me}, not 1")
        others = [p for p in pids if p != me]
        if others:
            found.append(f"{len(pids)} pids visible")
        parent = os.getppid()
        if parent > 0 and parent not in others:
            others.append(parent)
        examples: dict = {}
        for pid in others:
            cmdline = _read(f"/proc/{pid}/cmdline").replace(b"\0", b" ").strip()
            host = b"arena_host.py" in cmdline  # an opponent, or a bot's template
            if cmdline and ("cmdline" not in examples or host):
                examples["cmdline"] = f"cmdline of {pid}: {cmdline[:100]!r}"
            environ = _read(f"/proc/{pid}/environ")
            if environ and ("environ" not in examples or host):
                examples["environ"] = f"environ of {pid}: {environ[:60]!r}"
            status = _read(f"/proc/{pid}/status")
            switches = [line for line in status.splitlines() if b"ctxt_switches" in line]
            if switches and ("switches" not in examples or host):
                examples["switches"] = f"context switches of {pid}: {b' '.join(switches)!r}"
        found += examples.values()
        if found:
            raise RuntimeError("LEAK: " + "; ".join(found))
