"""Forks a child that leaves the process group (setsid) and lives on; then answers."""
import os
import time


class Bot:
    def act(self, obs):
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:  # the grandchild: orphaned, in its own session
                time.sleep(300)
            os._exit(0)
        os.waitpid(pid, 0)
        return "draw"
