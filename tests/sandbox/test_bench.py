"""The speed helpers run and return sane numbers (no tight timing assertions)."""

from __future__ import annotations

import math

from arena.sandbox import bench


def test_round_trips_are_measured() -> None:
    raw = bench.raw_round_trip_us(200)
    sandboxed, start_ms = bench.sandboxed_round_trip_us(200)
    assert 0 < raw < 10_000 and math.isfinite(raw)
    assert 0 < sandboxed < 10_000 and 0 < start_ms < 10_000
    # The goal is <= 2x; only a gross regression (or no pinning) fails this bound.
    assert sandboxed < 10 * raw + 200
