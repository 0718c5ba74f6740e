"""Signals the referee and reads its environment and memory through /proc."""
import os


class Bot:
    def act(self, obs):
        ppid = os.getppid()
        leaks = []
        try:
            os.kill(ppid, 0)
            leaks.append("signal")
        except OSError:
            pass
        for name in ("environ", "mem"):
            try:
                with open(f"/proc/{ppid}/{name}", "rb") as f:
                    f.read(1)
                leaks.append(name)
            except OSError:
                pass
        return "leaked " + " ".join(leaks) if leaks else "draw"
