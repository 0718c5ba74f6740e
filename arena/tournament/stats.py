"""Per-bot statistics with bootstrap intervals, and the head-to-head crosstable.

:class:`Tally` accumulates games in any order (it only keeps sums, so arrival order never
matters). Per bot it keeps, for every deal it played, the sums of games, wins and places over
that deal's seatings. Places are 1-based in competition ranking (see
:mod:`arena.tournament.records`); a win is the record's ``winner`` seat.

Intervals are 95% percentile bootstrap intervals that resample a bot's deals with replacement
(the seatings of one duplicate deal are not independent, so whole deals are the unit). Deals with
equal sums are pooled into categories and a resample draws multinomial category counts, so one
resample costs O(categories), not O(deals): 1,000 resamples stay fast at any tournament size.
Each bot's RNG is ``random.Random(f"{seed}:{bot}")``: output is deterministic.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from arena.tournament.records import GameRecord

DEFAULT_RESAMPLES = 1000
DEFAULT_BOOTSTRAP_SEED = 2026
CONFIDENCE = 0.95

Interval = tuple[float, float]


@dataclass(frozen=True)
class BotStats:
    """One bot's results; rates and means are ``None`` (intervals too) before its first game."""

    bot: str
    games: int
    wins: int
    win_rate: float | None
    win_rate_ci: Interval | None
    mean_place: float | None
    mean_place_ci: Interval | None
    faults: int


@dataclass(frozen=True)
class HeadToHead:
    """How bot ``a`` fared against bot ``b`` in the games both played."""

    a: str
    b: str
    games: int
    ahead: int
    behind: int

    @property
    def tied(self) -> int:
        """Shared games where they shared a place."""
        return self.games - self.ahead - self.behind

    @property
    def ahead_rate(self) -> float | None:
        """Share of shared games where ``a`` finished ahead of ``b``."""
        return self.ahead / self.games if self.games else None


class Tally:
    """Order-independent sums over games: per-deal results per bot, faults, head-to-head."""

    def __init__(self) -> None:
        # bot -> deal_id -> [games, wins, place sum]
        self._deals: dict[str, dict[int, list[int]]] = defaultdict(dict)
        self._faults: Counter[str] = Counter()
        # (a, b) -> [games, a ahead of b]
        self._pairs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.games = 0

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        places = record.seat_places()
        for seat, bot in enumerate(record.table):
            sums = self._deals[bot].setdefault(record.deal_id, [0, 0, 0])
            sums[0] += 1
            sums[1] += int(record.winner == seat)
            sums[2] += places[seat]
        self._faults.update(fault.bot for fault in record.faults)
        self._add_pairs(record.table, places)
        self.games += 1

    def add_many(self, records: Iterable[GameRecord]) -> None:
        """Count several games."""
        for record in records:
            self.add(record)

    def bots(self) -> list[str]:
        """Every bot seen so far, sorted."""
        return sorted(set(self._deals) | set(self._faults))

    def faults(self, bot: str) -> int:
        """Number of faults recorded against ``bot``."""
        return self._faults[bot]

    def stats(
        self, bot: str, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
    ) -> BotStats:
        """The statistics of ``bot`` with bootstrap intervals (deterministic for a ``seed``)."""
        deals = self._deals.get(bot, {})
        games = sum(s[0] for s in deals.values())
        wins = sum(s[1] for s in deals.values())
        if not games:
            return BotStats(bot, 0, 0, None, None, None, None, self._faults[bot])
        places = sum(s[2] for s in deals.values())
        rng = random.Random(f"{seed}:{bot}")
        win_ci, place_ci = bootstrap_intervals(
            [tuple(s) for s in deals.values()], resamples, rng  # type: ignore[misc]
        )
        return BotStats(
            bot, games, wins, wins / games, win_ci, places / games, place_ci, self._faults[bot]
        )

    def head_to_head(self) -> dict[tuple[str, str], HeadToHead]:
        """Every ordered pair of bots that shared a game -> their :class:`HeadToHead`."""
        result = {}
        for (a, b), (games, ahead) in sorted(self._pairs.items()):
            behind = self._pairs[(b, a)][1]
            result[(a, b)] = HeadToHead(a, b, games, ahead, behind)
        return result

    def _add_pairs(self, table: tuple[str, ...], places: tuple[int, ...]) -> None:
        for i, a in enumerate(table):
            for j, b in enumerate(table):
                if i != j:
                    cell = self._pairs[(a, b)]
                    cell[0] += 1
                    cell[1] += int(places[i] < places[j])


def bootstrap_intervals(
    deal_sums: list[tuple[int, int, int]], resamples: int, rng: random.Random
) -> tuple[Interval, Interval]:
    """95% percentile intervals of (win rate, mean place) resampling deals with replacement.

    ``deal_sums`` holds one ``(games, wins, place sum)`` per deal, each with ``games >= 1``.
    """
    categories = sorted(Counter(deal_sums).items())
    n = len(deal_sums)
    win_rates, mean_places = [], []
    for _ in range(resamples):
        counts = multinomial(rng, n, [freq for _, freq in categories])
        games = wins = places = 0
        for ((g, w, p), _), k in zip(categories, counts):
            games += k * g
            wins += k * w
            places += k * p
        win_rates.append(wins / games)
        mean_places.append(places / games)
    return percentile_interval(win_rates), percentile_interval(mean_places)


def percentile_interval(values: list[float], confidence: float = CONFIDENCE) -> Interval:
    """The central ``confidence`` interval of ``values`` (percentile method)."""
    ordered = sorted(values)
    tail = (1.0 - confidence) / 2.0
    lo = ordered[math.floor(tail * len(ordered))]
    hi = ordered[max(math.ceil((1.0 - tail) * len(ordered)) - 1, 0)]
    return lo, hi


def multinomial(rng: random.Random, n: int, weights: list[int]) -> list[int]:
    """Counts of ``n`` draws over categories with integer ``weights`` (conditional binomials)."""
    counts = []
    left, weight_left = n, sum(weights)
    for weight in weights:
        if left == 0 or weight >= weight_left:
            k = left
        else:
            k = binomial(rng, left, weight / weight_left)
        counts.append(k)
        left -= k
        weight_left -= weight
    return counts


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A Binomial(n, p) draw in O(1) expected time.

    Ported from CPython 3.12 ``random.binomialvariate`` (PSF licence; not in Python 3.11):
    Devroye's geometric method for ``n*p < 10``, else Hörmann's BTRS transformed rejection.
    """
    if p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - binomial(rng, n, 1.0 - p)
    if n * p < 10.0:
        return _binomial_geometric(rng, n, p)
    return _binomial_btrs(rng, n, p)


def _binomial_geometric(rng: random.Random, n: int, p: float) -> int:
    x = y = 0
    c = math.log2(1.0 - p)
    if not c:
        return x
    while True:
        y += math.floor(math.log2(rng.random()) / c) + 1
        if y > n:
            return x
        x += 1


def _binomial_btrs(rng: random.Random, n: int, p: float) -> int:
    spq = math.sqrt(n * p * (1.0 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = math.log(p / (1.0 - p))
    m = math.floor((n + 1) * p)
    h = math.lgamma(m + 1) + math.lgamma(n - m + 1)
    while True:
        u = rng.random() - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + c)
        if k < 0 or k > n:
            continue
        v = rng.random()
        if us >= 0.07 and v <= vr:
            return k
        v *= alpha / (a / (us * us) + b)
        if math.log(v) <= h - math.lgamma(k + 1) - math.lgamma(n - k + 1) + (k - m) * lpq:
            return k
