"""Make the helpers importable and give each sandboxed test its own slot range."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def slot_base() -> int:
    """A sandbox slot range unlikely to be used by another test run on the same machine."""
    return random.randrange(3000, 6000, 16)
