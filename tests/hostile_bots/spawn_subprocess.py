"""Starts a long-lived subprocess in its own session (escaping the process group)."""
import subprocess


class Bot:
    def act(self, obs):
        subprocess.Popen(["sleep", "300"], start_new_session=True)
        return "draw"
