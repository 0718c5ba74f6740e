"""Elo from scores, and the sequential probability ratio test (SPRT) over pairs of games.

The statistics chess engine testers read first, computed as fastchess computes them by default.
A *score* is a bot's share of the points: 1 for a win, 0.5 for a draw, 0 for a loss, averaged.

* :func:`elo_from_score` is the logistic Elo difference: ``-400 log10(1 / score - 1)``, so 0.5 is
  0 and 0.75 is ``400 log10 3`` = 190.85.
* :class:`Estimate` is a mean score over independent *units* (the two games of a deal pair, or
  every rotation of one deal) with its 95% interval from the normal approximation (the units'
  own spread, not a binomial guess: duplicate deals make the games of a unit dependent), the
  Elo difference at the interval's ends, the normalized Elo (nElo: the score's distance from
  0.5 in standard deviations of one game) and the likelihood of superiority (LOS: the chance
  that the true score is above 0.5).
* The pentanomial model: for two bots at two seats every deal is played twice, seats swapped,
  and the pair earns the first bot 0, 0.5, 1, 1.5 or 2 points. :class:`Pentanomial` counts the
  pairs of each kind; :meth:`Sprt.llr` is the log-likelihood ratio of ``elo1`` against ``elo0``
  given those counts: each hypothesis's maximum-likelihood distribution of the five outcomes
  (Van den Bergh, *Comments on Normalized Elo*: section 4.1 for the normalized model, fastchess's
  default; proposition 1.1 for the logistic one), a kind never seen counting as 0.001 of a pair.
  The test accepts H1 once the LLR reaches ``log((1 - beta) / alpha)`` and H0 once it falls to
  ``log(beta / (1 - alpha))``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.errors import ConfigError

Z95 = 1.959963984540054           # the standard normal's 97.5% quantile
NELO_SCALE = 800 / math.log(10)   # nElo per standard deviation of a game's score
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
PAIR_SCORES = tuple(p / 2 for p in PAIR_POINTS)    # the same outcomes as scores per game
UNSEEN = 1e-3                     # the count given to an outcome never seen (fastchess's)

Model = Literal["normalized", "logistic"]
MODELS: tuple[Model, ...] = ("normalized", "logistic")
Verdict = Literal["H0", "H1"]
# The widest bounds each model's likelihood is computed for: past about 230 nElo the normalized
# model's fixed point has no start (and such a test decides in a handful of pairs anyway).
ELO_REACH: dict[Model, int] = {"normalized": 200, "logistic": 800}


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of a score: 0.5 -> 0, 0.75 -> +190.85; 0 and 1 are infinite."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """The expected score at a logistic Elo difference (the inverse of :func:`elo_from_score`)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class Estimate:
    """A mean score over ``units`` independent units of ``games_per_unit`` games each.

    ``variance`` is the spread of one unit's score (its population variance over the units, as
    fastchess computes it). Every figure is derived from these four numbers.
    """

    units: int
    games_per_unit: int
    score: float
    variance: float

    @property
    def stderr(self) -> float:
        """The standard error of :attr:`score`."""
        return math.sqrt(self.variance / self.units)

    @property
    def interval(self) -> tuple[float, float]:
        """The score's 95% interval, within 0..1."""
        half = Z95 * self.stderr
        return max(0.0, self.score - half), min(1.0, self.score + half)

    @property
    def elo(self) -> float:
        """The logistic Elo difference of the score."""
        return elo_from_score(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The Elo differences at the ends of the score's interval (infinite at 0 or 1)."""
        low, high = self.interval
        return elo_from_score(low), elo_from_score(high)

    @property
    def nelo(self) -> float | None:
        """Normalized Elo: ``(score - 0.5) / sigma * 800 / ln 10`` with ``sigma`` the standard
        deviation of one game's score (a unit's times the square root of its games);
        ``None`` while every unit scored the same."""
        sigma = math.sqrt(self.variance * self.games_per_unit)
        return (self.score - 0.5) / sigma * NELO_SCALE if sigma > 0 else None

    @property
    def nelo_interval(self) -> tuple[float, float] | None:
        """The nElo at the ends of the score's 95% interval (``None`` as :attr:`nelo`)."""
        sigma = math.sqrt(self.variance * self.games_per_unit)
        if sigma == 0:
            return None
        half = Z95 * self.stderr
        return ((self.score - half - 0.5) / sigma * NELO_SCALE,
                (self.score + half - 0.5) / sigma * NELO_SCALE)

    @property
    def los(self) -> float:
        """The likelihood of superiority: the chance that the true score is above 0.5."""
        if self.stderr == 0:
            return 0.5 if self.score == 0.5 else float(self.score > 0.5)
        return normal_cdf((self.score - 0.5) / self.stderr)


@dataclass(frozen=True)
class Pentanomial:
    """How many deal pairs earned the first bot 0, 0.5, 1, 1.5 and 2 points (in that order)."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return sum(self.counts)

    def add(self, points: float) -> Pentanomial:
        """These counts with one more pair that earned ``points`` (0, 0.5, 1, 1.5 or 2)."""
        index = PAIR_POINTS.index(points)
        counts = list(self.counts)
        counts[index] += 1
        return Pentanomial((counts[0], counts[1], counts[2], counts[3], counts[4]))

    def estimate(self) -> Estimate:
        """The first bot's score per game over the pairs (two games each)."""
        pairs = self.pairs
        mean = sum(n * s for n, s in zip(self.counts, PAIR_SCORES)) / pairs
        variance = sum(n * (s - mean) ** 2 for n, s in zip(self.counts, PAIR_SCORES)) / pairs
        return Estimate(pairs, 2, mean, variance)


@dataclass(frozen=True)
class Sprt:
    """The test of ``elo1`` (H1) against ``elo0`` (H0), with error rates ``alpha`` (accepting H1
    when H0 holds) and ``beta`` (accepting H0 when H1 holds); the Elo of ``model``'s kind.

    Raises :class:`~arena.errors.ConfigError` for bounds it cannot test.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: Model = "normalized"

    def __post_init__(self) -> None:
        if not all(math.isfinite(x) for x in (self.elo0, self.elo1)):
            raise ConfigError(f"sprt: elo0 and elo1 must be numbers, not {self.elo0}, {self.elo1}")
        if self.elo0 >= self.elo1:
            raise ConfigError(f"sprt: elo0 must be below elo1, got {self.elo0:g} and {self.elo1:g}")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 1:
                raise ConfigError(f"sprt: {name} must be between 0 and 1, got {rate:g}")
        if self.alpha + self.beta >= 1:
            raise ConfigError(f"sprt: alpha + beta must be below 1, got {self.alpha + self.beta:g}")
        if self.model not in MODELS:
            raise ConfigError(f"sprt: model must be one of {', '.join(MODELS)}, not {self.model!r}")
        reach = ELO_REACH[self.model]
        if max(abs(self.elo0), abs(self.elo1)) > reach:
            raise ConfigError(f"sprt: elo0 and elo1 of the {self.model} model must lie within "
                              f"-{reach}..{reach}, got {self.elo0:g} and {self.elo1:g}")

    @property
    def lower(self) -> float:
        """The LLR at which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, pairs: Pentanomial) -> float:
        """The log-likelihood ratio of H1 against H0 given the pairs' outcomes."""
        counts = [n if n else UNSEEN for n in pairs.counts]
        total = sum(counts)
        observed = [n / total for n in counts]
        if self.model == "normalized":
            # nElo's t is per pair: a pair's score spreads 1/sqrt(2) as much as one game's.
            t0, t1 = (math.sqrt(2) * e / NELO_SCALE for e in (self.elo0, self.elo1))
            p0, p1 = _normalized_mle(observed, t0), _normalized_mle(observed, t1)
        else:
            p0 = _mean_mle(observed, score_from_elo(self.elo0))
            p1 = _mean_mle(observed, score_from_elo(self.elo1))
        return total * sum(q * (math.log(a) - math.log(b)) for q, a, b in zip(observed, p1, p0))

    def verdict(self, llr: float) -> Verdict | None:
        """``"H1"`` at or above :attr:`upper`, ``"H0"`` at or below :attr:`lower`, else ``None``."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


def _mean_mle(observed: Sequence[float], score: float) -> list[float]:
    """The distribution of the five outcomes closest to ``observed`` (maximum likelihood) whose
    mean score is ``score``: ``observed_i / (1 + theta (a_i - score))``."""
    phi = [a - score for a in PAIR_SCORES]
    theta = _theta(observed, phi)
    return [q / (1 + theta * f) for q, f in zip(observed, phi)]


def _normalized_mle(observed: Sequence[float], t: float, tolerance: float = 1e-10) -> list[float]:
    """The maximum-likelihood distribution whose ``(mean - 0.5) / sigma`` is ``t``: a fixed
    point, reached from the uniform distribution (Van den Bergh, section 4.1)."""
    p = [1 / len(observed)] * len(observed)
    for _ in range(100):
        mean = sum(q * a for q, a in zip(p, PAIR_SCORES))
        sigma = math.sqrt(sum(q * (a - mean) ** 2 for q, a in zip(p, PAIR_SCORES)))
        phi = [a - 0.5 - t * sigma / 2 * (1 + ((a - mean) / sigma) ** 2) for a in PAIR_SCORES]
        theta = _theta(observed, phi)
        new = [q / (1 + theta * f) for q, f in zip(observed, phi)]
        moved = max(abs(a - b) for a, b in zip(new, p))
        p = new
        if moved < tolerance:
            break
    return p


def _theta(observed: Sequence[float], phi: Sequence[float]) -> float:
    """The root of ``sum(observed_i phi_i / (1 + theta phi_i))``, which falls from +inf to -inf
    over ``(-1 / max phi, -1 / min phi)``: Newton's steps, kept inside a shrinking bracket."""
    low, high = -1 / max(phi), -1 / min(phi)
    theta = 0.0   # inside: the bracket always holds zero (min phi < 0 < max phi)
    pairs = list(zip(observed, phi))
    for _ in range(100):
        value = slope = 0.0
        for q, f in pairs:
            share = f / (1 + theta * f)
            value += q * share
            slope -= q * share * share
        if value > 0:
            low = theta
        elif value < 0:
            high = theta
        else:
            return theta
        step = theta - value / slope
        new = step if low < step < high else (low + high) / 2
        if abs(new - theta) <= 1e-12 * (1 + abs(theta)):
            return new
        theta = new
    return theta
