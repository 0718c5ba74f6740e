"""Fixtures for the tournament tests (helpers live in tournament_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tournament_helpers import Play, make_config, play_synthetic

from arena.tournament.config import TournamentConfig


@pytest.fixture
def config_of() -> Callable[..., TournamentConfig]:
    """Factory: config text -> TournamentConfig (source demo.yaml)."""
    return make_config


@pytest.fixture
def play() -> Play:
    """Factory: (config, skills, seed=..., faulty=...) -> synthetic game records."""
    return play_synthetic
