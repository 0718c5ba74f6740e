"""How far a ranking is from being told apart from noise: the gaps between neighbouring bots.

With TrueSkill at ``tau=0`` a bot's sigma matches the real error of its mu, so the difference of
two neighbours' means, in units of the difference's own standard deviation
(``(mu_a - mu_b) / sqrt(sigma_a**2 + sigma_b**2)``), says how surely the upper one is better. A
ranking is *separated* at a margin when every neighbouring pair's gap reaches it: the stopping
signal of adaptive tournaments, and what calibration measures on equal bots (how often equals
look separated). One function serves the live view, the stopping rule, the rankings and
calibration, so they can never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEFAULT_MARGIN", "Gap", "Separation", "separation"]

#: Neighbours this many standard deviations of their difference apart count as separated.
DEFAULT_MARGIN = 1.5


@dataclass(frozen=True)
class Gap:
    """Two neighbours of a ranking (``upper`` ranked above ``lower``) and their gap in sigmas."""

    upper: str
    lower: str
    z: float

    def separated(self, margin: float) -> bool:
        """True when the gap reaches ``margin`` standard deviations."""
        return self.z >= margin


@dataclass(frozen=True)
class Separation:
    """Every neighbouring gap of one ranking, judged at one margin."""

    margin: float
    gaps: tuple[Gap, ...]

    @property
    def pairs_apart(self) -> int:
        """How many neighbouring pairs reach the margin."""
        return sum(gap.separated(self.margin) for gap in self.gaps)

    @property
    def complete(self) -> bool:
        """True when every neighbouring pair reaches the margin (a lone bot is separated)."""
        return self.pairs_apart == len(self.gaps)

    @property
    def closest(self) -> Gap | None:
        """The neighbouring pair closest to each other, ``None`` below two bots."""
        return min(self.gaps, key=lambda gap: gap.z, default=None)


def separation(ranking: Sequence[tuple[str, float, float]],
               margin: float = DEFAULT_MARGIN) -> Separation:
    """The gaps of ``ranking``, given best first as ``(bot, mu, sigma)``, judged at ``margin``.

    A pair ranked against its means (possible when ranking by ``mu - 3 sigma``) has a negative
    gap, so it is never separated.
    """
    gaps = []
    for (upper, mu_a, sigma_a), (lower, mu_b, sigma_b) in zip(ranking, ranking[1:]):
        spread = math.hypot(sigma_a, sigma_b)
        z = (mu_a - mu_b) / spread if spread > 0 else math.inf
        gaps.append(Gap(upper, lower, z))
    return Separation(margin, tuple(gaps))
