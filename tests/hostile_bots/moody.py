"""Plays the first legal action, or misbehaves as the start message's "mode" says.

Used for process reuse and restart after a fault; it prints, for log_tail.
"""
import os
import time


class Bot:
    def __init__(self):
        self.mode = "ok"

    def on_game_start(self, info):
        self.mode = info.get("mode", "ok")
        print(f"game start pid={os.getpid()} mode={self.mode}")

    def act(self, obs):
        print(f"act pid={os.getpid()}")
        if self.mode == "raise":
            raise RuntimeError("moody raised")
        if self.mode == "loop":
            while True:
                pass
        if self.mode == "burn":
            end = time.process_time() + 0.15
            while time.process_time() < end:
                pass
        return obs.legal_actions()[0]

    def on_game_end(self, result):
        print(f"game end {result}")
