"""Per-bot statistics with bootstrap intervals, and the head-to-head crosstable.

:class:`Tally` takes games in schedule (``game_id``) order, the order the runner commits them
in, and keeps only sums, so its size never grows with the number of games: per bot, how many of
its deals ended with each ``(games, wins, place sum)`` over that deal's seatings (the deal's
*category*), the sums of the deal it is playing now, its faults, its moves timed and the
seconds they took (the records' ``think``); per pair of bots, their shared
games and how often one finished ahead. A deal's seatings come one after the other in the
schedule, so a bot's deal is over when one of its games belongs to a later deal. Places are
1-based in competition ranking (see :mod:`arena.tournament.records`); a win is the record's
``winner`` seat.

These are the sufficient statistics of every figure of the rankings: the results store keeps
them as it stores games (:mod:`arena.tournament.summary`), so ranking a million games reads a
few hundred rows.

Intervals are 95% percentile bootstrap intervals that resample a bot's deals with replacement
(the seatings of one duplicate deal are not independent, so whole deals are the unit). A
resample draws multinomial counts over the categories, so one resample costs O(categories), not
O(deals): 1,000 resamples stay fast at any tournament size.
Each bot's RNG is ``random.Random(f"{seed}:{bot}")``: output is deterministic.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import NormalDist

from arena.tournament.errors import RecordError
from arena.tournament.records import GameRecord

DEFAULT_RESAMPLES = 1000
DEFAULT_BOOTSTRAP_SEED = 2026
CONFIDENCE = 0.95

Interval = tuple[float, float]
Category = tuple[int, int, int]     # one deal of one bot: (games, wins, place sum)


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
    moves_asked: int = 0        # the moves its bot was asked for, in the games that timed them
    think_s: float = 0.0        # the seconds the referee waited for those moves' replies

    @property
    def ms_per_move(self) -> float | None:
        """Mean milliseconds the bot took to reply to a move, ``None`` with no move timed."""
        return 1000.0 * self.think_s / self.moves_asked if self.moves_asked else None


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


@dataclass(frozen=True)
class BotSums:
    """What :class:`Tally` keeps of one bot apart from its finished deals: its faults, the
    deal it is playing (``deal`` its id, ``-1`` before its first game) and its thinking time
    (``asked`` moves, ``think_s`` seconds)."""

    bot: str
    faults: int = 0
    deal: int = -1
    games: int = 0
    wins: int = 0
    places: int = 0
    asked: int = 0
    think_s: float = 0.0


class Tally:
    """Sums over games given in schedule order: deal categories per bot, faults, head-to-head."""

    def __init__(self) -> None:
        self._closed: dict[str, Counter[Category]] = defaultdict(Counter)
        self._open: dict[str, tuple[int, list[int]]] = {}   # bot -> (deal id, [games, wins, places])
        self._faults: Counter[str] = Counter()
        self._think: dict[str, tuple[int, float]] = {}     # bot -> (moves asked, seconds)
        # (a, b) -> [games, a ahead of b]
        self._pairs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.games = 0
        self._touched: set[str] = set()
        self._touched_categories: set[tuple[str, Category]] = set()
        self._touched_pairs: set[tuple[str, str]] = set()

    def add(self, record: GameRecord) -> None:
        """Count one game; a bot's games must come in deal order (schedule order does)."""
        places = record.seat_places()
        deal = record.deal_id
        for seat, bot in enumerate(record.table):
            current = self._open.get(bot)
            if current is None or current[0] != deal:
                if current is not None:
                    if deal < current[0]:
                        raise RecordError(
                            f"game {record.game_id} of deal {deal} comes after {bot!r} played deal "
                            f"{current[0]}: the statistics take games in schedule order")
                    self._close(bot, current[1])
                current = (deal, [0, 0, 0])
                self._open[bot] = current
            sums = current[1]
            sums[0] += 1
            sums[1] += record.winner == seat
            sums[2] += places[seat]
        for fault in record.faults:
            self._faults[fault.bot] += 1
        for bot, (moves, seconds) in zip(record.table, record.think):
            asked, waited = self._think.get(bot, (0, 0.0))
            self._think[bot] = (asked + moves, waited + seconds)
        self._add_pairs(record.table, places)
        self._touched.update(record.table)
        self.games += 1

    def add_many(self, records: Iterable[GameRecord]) -> None:
        """Count several games, in schedule order."""
        for record in records:
            self.add(record)

    def bots(self) -> list[str]:
        """Every bot seen so far, sorted."""
        return sorted(set(self._open) | set(self._faults))

    def faults(self, bot: str) -> int:
        """Number of faults recorded against ``bot``."""
        return self._faults[bot]

    def categories(self, bot: str) -> Counter[Category]:
        """How many of the deals of ``bot`` ended with each ``(games, wins, place sum)``; the
        deal it is playing counts with what it holds so far."""
        counts = Counter(self._closed.get(bot, {}))
        current = self._open.get(bot)
        if current is not None:
            counts[(current[1][0], current[1][1], current[1][2])] += 1
        return counts

    def stats(
        self, bot: str, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_BOOTSTRAP_SEED
    ) -> BotStats:
        """The statistics of ``bot`` with bootstrap intervals (deterministic for a ``seed``)."""
        categories = self.categories(bot)
        games = sum(g * k for (g, _, _), k in categories.items())
        asked, waited = self._think.get(bot, (0, 0.0))
        if not games:
            return BotStats(bot, 0, 0, None, None, None, None, self._faults[bot], asked, waited)
        wins = sum(w * k for (_, w, _), k in categories.items())
        places = sum(p * k for (_, _, p), k in categories.items())
        rng = random.Random(f"{seed}:{bot}")
        win_ci, place_ci = bootstrap_intervals(categories, resamples, rng)
        return BotStats(bot, games, wins, wins / games, win_ci, places / games, place_ci,
                        self._faults[bot], asked, waited)

    def head_to_head(self) -> dict[tuple[str, str], HeadToHead]:
        """Every ordered pair of bots that shared a game -> their :class:`HeadToHead`."""
        result = {}
        for (a, b), (games, ahead) in sorted(self._pairs.items()):
            behind = self._pairs[(b, a)][1]
            result[(a, b)] = HeadToHead(a, b, games, ahead, behind)
        return result

    # -- the sums as rows, to store them and read them back --------------------------------

    def bot_sums(self, bot: str) -> BotSums:
        """The faults, the open deal and the thinking time of ``bot``."""
        deal, sums = self._open.get(bot, (-1, [0, 0, 0]))
        asked, waited = self._think.get(bot, (0, 0.0))
        return BotSums(bot, self._faults[bot], deal, sums[0], sums[1], sums[2], asked, waited)

    def changes(self) -> tuple[list[BotSums], list[tuple[str, Category, int]],
                               list[tuple[str, str, int, int]]]:
        """What changed since the last call: the bots' sums, the deal categories
        ``(bot, category, deals)`` and the pairs ``(bot, opponent, games, ahead)``."""
        bots = [self.bot_sums(bot) for bot in sorted(self._touched)]
        categories = [(bot, cat, self._closed[bot][cat])
                      for bot, cat in sorted(self._touched_categories)]
        pairs = [(a, b, self._pairs[(a, b)][0], self._pairs[(a, b)][1])
                 for a, b in sorted(self._touched_pairs)]
        self._touched, self._touched_categories, self._touched_pairs = set(), set(), set()
        return bots, categories, pairs

    @classmethod
    def restore(
        cls, games: int, bots: Iterable[BotSums], categories: Iterable[tuple[str, Category, int]],
        pairs: Iterable[tuple[str, str, int, int]],
    ) -> Tally:
        """A tally holding what :meth:`changes` gave, for ``games`` games."""
        tally = cls()
        tally.games = games
        for row in bots:
            if row.faults:
                tally._faults[row.bot] = row.faults
            if row.deal >= 0:
                tally._open[row.bot] = (row.deal, [row.games, row.wins, row.places])
            if row.asked:
                tally._think[row.bot] = (row.asked, row.think_s)
        for bot, category, deals in categories:
            if deals:
                tally._closed[bot][category] = deals
        for a, b, shared, ahead in pairs:
            tally._pairs[(a, b)] = [shared, ahead]
        return tally

    def _close(self, bot: str, sums: list[int]) -> None:
        category = (sums[0], sums[1], sums[2])
        self._closed[bot][category] += 1
        self._touched_categories.add((bot, category))

    def _add_pairs(self, table: tuple[str, ...], places: tuple[int, ...]) -> None:
        touched = self._touched_pairs
        for i, a in enumerate(table):
            for j, b in enumerate(table):
                if i != j:
                    cell = self._pairs[(a, b)]
                    cell[0] += 1
                    cell[1] += places[i] < places[j]
                    touched.add((a, b))


def bootstrap_intervals(
    deal_categories: Mapping[Category, int], resamples: int, rng: random.Random
) -> tuple[Interval, Interval]:
    """95% percentile intervals of (win rate, mean place) resampling deals with replacement.

    ``deal_categories`` counts the deals by their ``(games, wins, place sum)``, each with
    ``games >= 1``.
    """
    categories = sorted((cat, k) for cat, k in deal_categories.items() if k)
    n = sum(k for _, k in categories)
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


def wilson_interval(rate: float, units: int, confidence: float = CONFIDENCE) -> Interval:
    """The Wilson score interval of a share ``rate`` seen over ``units`` independent trials.

    Unlike the plain ``rate +- z * se`` it stays inside [0, 1] and is not empty at a share of 0
    or 1 (3 runs of 3 give ``[0.44, 1.0]``, not ``[1.0, 1.0]``): the interval for small counts,
    as the runs of a calibration are.
    """
    if units < 1:
        raise ValueError(f"a Wilson interval needs at least one trial, got {units}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    z2n = z * z / units
    centre = (rate + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(rate * (1.0 - rate) / units + z2n / (4.0 * units)) / (1.0 + z2n)
    # at a share of 0 or 1 one end is exact: no rounding residue of ``centre - half``
    low = 0.0 if rate <= 0.0 else max(0.0, centre - half)
    high = 1.0 if rate >= 1.0 else min(1.0, centre + half)
    return low, high


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
