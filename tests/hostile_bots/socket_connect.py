"""Connects to the loopback port given in the start message."""
import socket


class Bot:
    def on_game_start(self, info):
        self.port = info["port"]

    def act(self, obs):
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as conn:
            conn.sendall(b"stolen")
        return "draw"
