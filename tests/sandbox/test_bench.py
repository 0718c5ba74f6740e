"""The raw round trip baseline of ``arena bench --sandbox`` returns a sane number (timings are
for the benchmark itself, never pass/fail)."""

from __future__ import annotations

import math

from arena.sandbox import bench


def test_raw_round_trip_is_measured() -> None:
    raw = bench.raw_round_trip_us(200)
    assert raw > 0 and math.isfinite(raw)
    assert bench.raw_round_trip_us(50, children=3) > 0
