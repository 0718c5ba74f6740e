"""Signals its whole process group (kill(0, SIGTERM)), SIGTERM blocked in itself: where the
game process shares its template's group, the template and its init die with it."""
import os
import signal


class Bot:
    def act(self, obs):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        try:
            os.kill(0, signal.SIGTERM)
        except OSError as exc:
            return f"refused {exc.errno}"
        return "draw"
