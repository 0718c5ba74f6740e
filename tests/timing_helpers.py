"""Masks for the wall-clock cells of printed tables, which no two runs share."""

from __future__ import annotations

import re


def untimed(output: str) -> str:
    """A duel's printed output with each ms/move cell (the table's last column) as ``<ms>``."""
    return re.sub(r" +[\d.]+ │$", " <ms> │", output, flags=re.MULTILINE)
