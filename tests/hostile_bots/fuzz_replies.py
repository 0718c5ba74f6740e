"""A command bot (docs/protocol.md, no arena import) that answers every request with hostile
bytes: deep nesting, forged host reports, invalid UTF-8, lone surrogates, NULs, carriage
returns, huge and empty lines, or random bytes seeded from its start message."""
import json
import random
import sys

ADVERSARIAL = [
    b"!error " + b"[" * 60000,
    b"!error " + b'{"a":' * 20000,
    b"!memory " + b"[" * 30000,
    b'!error "\\ud800\\udfff\\ud800"',
    b"!ok",
    b"\xff\xfe\xfd",
    b"\x00draw",
    b"draw\rKS",
    b"\x1b[2J\x1b[32maccepted",
    b"KS " * 20000,
    b"7H=" + b"H" * 5000,
    b"!",
    b"",
    b" ",
    "\u2603 \U0001f0a1".encode(),
    json.dumps({"type": "act"}).encode(),
]


def main():
    rng = random.Random(0)
    count, pick = 0, None
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message.get("type") == "start":
            seed = message.get("seed", 0)
            rng = random.Random(seed)
            count = 0
            pick = message.get("payload")  # a test may name one payload; else seeded choices
            out.write(b"ok\n")
        elif message.get("type") == "end":
            out.write(b"ok\n")
        else:
            if pick is not None:
                payload = ADVERSARIAL[pick]
            elif count < len(ADVERSARIAL) and rng.random() < 0.7:
                payload = ADVERSARIAL[rng.randrange(len(ADVERSARIAL))]
            else:
                payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
                payload = payload.replace(b"\n", b"")
            count += 1
            out.write(payload + b"\n")
        out.flush()


main()
