#!/usr/bin/env python3
"""A bot in any language, written here in plain Python without the arena package.

It speaks docs/protocol.md directly: one JSON object per line on stdin, one line back on
stdout. Run it as a command bot, e.g. ``{name: first, cmd: [python3, bots/examples/first_legal_cmd.py]}``.
It plays the first legal action; debugging output goes to stderr, never to stdout.
"""
import json
import sys


def answer(message: dict) -> str:
    """The reply line for one message."""
    if message["type"] == "act":
        return message["obs"]["legal"][0]
    return "ok"  # "start" and "end" are acknowledged with ok


def main() -> None:
    for line in sys.stdin:
        print(answer(json.loads(line)), flush=True)


if __name__ == "__main__":
    main()
