"""The baseline of ``arena bench --sandbox``: a bare JSON-line round trip with no sandbox.

``raw_round_trip_us`` runs a trivial echo child over the same :class:`LineChannel` code path
(poll with a deadline, capped read) as the referee uses with a sandboxed bot
(:func:`arena.services.bench.bench_sandboxed` measures that one, in real games). It pins the child to
the CPU the referee runs on, when ``pin`` is set, because cross-core wake-ups cost 40-100 us.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from typing import Iterator

from arena.sandbox.channel import LineChannel

SAMPLE_OBS = {
    "seat": 0, "seats": 4, "to_move": 0, "hand": ["7H", "2H", "2C", "5H", "JH", "3S", "KD"],
    "top": "9H", "active_suit": "H", "pending": None, "direction": 1,
    "hand_sizes": [7, 7, 7, 7], "stock_size": 23, "discard_size": 1, "recycles_left": 20,
    "draws_this_turn": 0, "drawn_card": None, "legal": ["7H", "draw"], "events": [],
}
_ECHO = (
    "import sys, json, os\n"
    "for line in sys.stdin.buffer:\n"
    "    json.loads(line)\n"
    "    os.write(1, b'draw\\n')\n"
)


@contextmanager
def pinned(pin: bool) -> Iterator[set[int] | None]:
    """Pin this process to one of its CPUs for the measurement (yield it), then restore."""
    if not pin:
        yield None
        return
    before = os.sched_getaffinity(0)
    cpu = {min(before)}
    os.sched_setaffinity(0, cpu)
    try:
        yield cpu
    finally:
        os.sched_setaffinity(0, before)


def raw_round_trip_us(n: int = 2000, pin: bool = True, children: int = 1) -> float:
    """Microseconds per JSON-line request/response with echo children (no confinement).

    With ``children`` > 1 the requests go round the children in turn, as a game's decisions go
    round its seats: each request then wakes a different process, which costs more than
    talking to one process again and again.
    """
    with pinned(pin) as cpus:
        return _raw_round_trip_us(n, cpus, children)


def _raw_round_trip_us(n: int, cpus: set[int] | None, children: int) -> float:
    """The measurement of :func:`raw_round_trip_us`."""
    procs, channels = [], []
    try:
        for _ in range(children):
            to_r, to_w = os.pipe2(os.O_CLOEXEC)
            from_r, from_w = os.pipe2(os.O_CLOEXEC)
            procs.append(subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _ECHO], stdin=to_r, stdout=from_w,
                preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
            ))
            os.close(to_r)
            os.close(from_w)
            channels.append(LineChannel(to_w, from_r))
        turn = iter(range(1 << 62))
        return _time_loop(n, lambda: _echo_once(channels[next(turn) % children]))
    finally:
        for channel in channels:
            channel.close()
        for proc in procs:
            proc.wait(5)


def _echo_once(channel: LineChannel) -> None:
    """One request/response as the referee does it."""
    data = (json.dumps({"type": "act", "obs": SAMPLE_OBS}, separators=(",", ":")) + "\n").encode()
    channel.send(data, 5.0)
    if channel.read_line(5.0) != b"draw":
        raise RuntimeError("echo child answered wrongly")


def _time_loop(n: int, once) -> float:  # type: ignore[no-untyped-def]
    """Mean microseconds of ``once()`` after a short warm-up."""
    for _ in range(min(200, n)):
        once()
    started = time.perf_counter()
    for _ in range(n):
        once()
    return (time.perf_counter() - started) / n * 1e6
