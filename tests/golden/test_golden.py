"""Replay JSON, stored records and protocol messages are byte-for-byte what they were.

The digests in ``digests.json`` were captured (``capture.py``) before the engine, the referee and
the records were reorganised; every refactoring since must leave them unchanged. A difference in
the first game of a case is shown message by message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import capture  # noqa: E402

DIGESTS = json.loads((capture.HERE / "digests.json").read_text())
FIRSTS = json.loads((capture.HERE / "first_games.json").read_text())


def test_every_case_is_captured() -> None:
    assert sorted(DIGESTS) == sorted(f"{p}/{s}" for p, s in capture.cases())


@pytest.mark.parametrize("case", sorted(DIGESTS))
def test_transcripts_match_the_golden_digest(case: str) -> None:
    preset, seats = case.split("/")
    sizes = [s for p, s in capture.cases() if p == preset]
    transcripts = capture.play_case(preset, int(seats), range(capture.GAMES // len(sizes)))
    first = json.loads(json.dumps(transcripts[0]))
    for index, (got, want) in enumerate(zip(first, FIRSTS[case])):
        assert got == want, f"{case}, first game, message {index} differs"
    assert len(first) == len(FIRSTS[case])
    assert capture.digest(transcripts) == DIGESTS[case]
