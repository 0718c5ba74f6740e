"""TrueSkill ratings and the final standings, computed from stored games in schedule order.

Facts followed (``RATINGS.md``): ``tau=0`` (a fixed pool; any drift keeps ratings wandering),
a draw probability that fits rare ties (share of tied games / 6; default 0.005, never 0), and
incremental updates: :class:`Ratings` applies games in ``game_id`` order as they become
contiguous and buffers the rest, so the result is identical whatever order games finish in.

Each game is one TrueSkill match of one-player teams ranked by the record's places (tied seats
share a rank). A fault costs the game it happened in and nothing more: the referee places the
faulty bot last in that game (a disqualified bot's seat too, played by its fallback), and the
ratings do the rest. :func:`standings` ranks every bot by ``mu - 3 sigma`` (ties by name),
faults or not; each line shows its fault count and rate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import trueskill

from arena.errors import ConfigError
from arena.tournament.errors import RecordError
from arena.tournament.records import GameRecord
from arena.tournament.store import Store
from arena.tournament.stats import DEFAULT_BOOTSTRAP_SEED, DEFAULT_RESAMPLES, BotStats, HeadToHead, Tally

DEFAULT_DRAW_PROBABILITY = 0.005


@dataclass(frozen=True)
class RatingSettings:
    """TrueSkill settings; ``draw_probability`` ~ share of games holding a tie / 6 (0 < p < 1)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 0.0
    draw_probability: float = DEFAULT_DRAW_PROBABILITY

    def __post_init__(self) -> None:
        if not 0.0 < self.draw_probability < 1.0:
            raise ConfigError(
                f"rating setting 'draw_probability': expected a number strictly between 0 and 1 "
                f"(0 breaks tied games), got {self.draw_probability!r}"
            )
        if self.sigma <= 0 or self.beta <= 0 or self.tau < 0:
            raise ConfigError("rating settings: sigma and beta must be positive, tau >= 0")

    def environment(self) -> trueskill.TrueSkill:
        """A TrueSkill environment with these settings (pure-Python backend)."""
        return trueskill.TrueSkill(
            mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau,
            draw_probability=self.draw_probability, backend=None,
        )


@dataclass(frozen=True)
class _Result:
    game_id: int
    table: tuple[str, ...]
    ranks: tuple[int, ...]


class Ratings:
    """Incremental TrueSkill in schedule order.

    Feed finished games with :meth:`add` in any order; a game is applied once every lower id
    (from ``first_id``) is applied or declared never-to-come with :meth:`skip`. :meth:`flush`
    applies whatever is buffered, in id order, ignoring gaps (for a final table from a partial
    run; later games with lower ids would then break schedule order, so flush only at the end).
    """

    def __init__(self, settings: RatingSettings | None = None, first_id: int = 0) -> None:
        self.settings = settings or RatingSettings()
        self._env = self.settings.environment()
        self._ratings: dict[str, trueskill.Rating] = {}
        self._buffer: dict[int, _Result] = {}
        self._skipped: set[int] = set()
        self._next = first_id
        self.applied = 0

    @property
    def next_id(self) -> int:
        """The lowest game id not yet applied or skipped."""
        return self._next

    @property
    def pending(self) -> int:
        """Games received but waiting for a lower id."""
        return len(self._buffer)

    def add(self, record: GameRecord) -> int:
        """Receive one finished game; returns how many games were applied as a result."""
        gid = record.game_id
        if gid < self._next or gid in self._buffer or gid in self._skipped:
            raise RecordError(f"game {gid} was already given to the ratings")
        ranks = tuple(_ranks(record))
        self._buffer[gid] = _Result(gid, record.table, ranks)
        return self._advance()

    def add_many(self, records: Iterable[GameRecord]) -> int:
        """Receive several games; returns how many were applied."""
        return sum(self.add(record) for record in records)

    def skip(self, game_id: int) -> int:
        """Declare that ``game_id`` will never be played; returns how many games were applied."""
        if game_id >= self._next and game_id not in self._buffer:
            self._skipped.add(game_id)
        return self._advance()

    def flush(self) -> int:
        """Apply every buffered game in id order, ignoring missing ids; returns the count."""
        count = 0
        for gid in sorted(self._buffer):
            self._apply(self._buffer.pop(gid))
            self._next = gid + 1
            count += 1
        self._skipped = {g for g in self._skipped if g >= self._next}
        return count

    def rating(self, bot: str) -> trueskill.Rating:
        """The current rating of ``bot`` (the prior if it has not played)."""
        return self._ratings.get(bot) or self._env.create_rating()

    def ratings(self) -> dict[str, trueskill.Rating]:
        """Current ratings of every bot that has played, by name."""
        return dict(self._ratings)

    def _advance(self) -> int:
        count = 0
        while True:
            if self._next in self._buffer:
                self._apply(self._buffer.pop(self._next))
                count += 1
            elif self._next in self._skipped:
                self._skipped.discard(self._next)
            else:
                return count
            self._next += 1

    def _apply(self, result: _Result) -> None:
        groups = [(self.rating(bot),) for bot in result.table]
        rated = self._env.rate(groups, ranks=list(result.ranks))
        for bot, (new,) in zip(result.table, rated):
            self._ratings[bot] = new
        self.applied += 1


def _ranks(record: GameRecord) -> list[int]:
    ranks = [0] * len(record.table)
    for rank, group in enumerate(record.places):
        for seat in group:
            ranks[seat] = rank
    return ranks


@dataclass(frozen=True)
class Standing:
    """One line of the rankings: rating, statistics and status of a bot."""

    rank: int
    bot: str
    mu: float
    sigma: float
    stats: BotStats
    disqualified: bool

    @property
    def score(self) -> float:
        """The conservative rating ``mu - 3 sigma`` used to rank."""
        return self.mu - 3.0 * self.sigma

    @property
    def clean(self) -> bool:
        """True when the bot never faulted and is not disqualified."""
        return self.stats.faults == 0 and not self.disqualified

    @property
    def fault_rate(self) -> float | None:
        """Faults per game played (``stats.faults / stats.games``), ``None`` before a game."""
        return self.stats.faults / self.stats.games if self.stats.games else None


@dataclass(frozen=True)
class Rankings:
    """Standings in rank order plus the head-to-head crosstable.

    ``tournament_seed`` is the seed the tournament's deals came from (``None`` when unknown:
    ranked from bare records, or a store older than the seed record).
    """

    tournament: str
    games: int
    standings: tuple[Standing, ...]
    head_to_head: Mapping[tuple[str, str], HeadToHead]
    tournament_seed: int | None = None

    @property
    def bots(self) -> tuple[str, ...]:
        """Bot names in rank order."""
        return tuple(s.bot for s in self.standings)


def standings(
    ratings: Ratings,
    tally: Tally,
    disqualified: Iterable[str] = (),
    bots: Iterable[str] = (),
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> list[Standing]:
    """Rank every bot seen in ``tally`` or named in ``bots``/``disqualified`` (see module doc)."""
    banned = set(disqualified)
    names = sorted(set(tally.bots()) | set(bots) | banned | set(ratings.ratings()))
    lines = []
    for name in names:
        rating = ratings.rating(name)
        stats = tally.stats(name, resamples, seed)
        lines.append(Standing(0, name, rating.mu, rating.sigma, stats, name in banned))
    lines.sort(key=lambda s: (-s.score, s.bot))
    return [
        Standing(i + 1, s.bot, s.mu, s.sigma, s.stats, s.disqualified) for i, s in enumerate(lines)
    ]


def rank_games(
    tournament: str,
    records: Iterable[GameRecord],
    disqualified: Iterable[str] = (),
    bots: Iterable[str] = (),
    settings: RatingSettings | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Rankings:
    """Rankings from finished games given in any order (rated in ``game_id`` order)."""
    ratings, tally = Ratings(settings), Tally()
    for record in records:
        ratings.add(record)
        tally.add(record)
    ratings.flush()
    lines = standings(ratings, tally, disqualified, bots, resamples, seed)
    return Rankings(tournament, tally.games, tuple(lines), tally.head_to_head())


def rank_store(
    store: Store,
    settings: RatingSettings | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Rankings:
    """Rankings of everything in a results store (bots recorded at init appear even unplayed),
    with the tournament's seed."""
    info = store.tournament()
    name = info.name if info else store.path.stem
    rankings = rank_games(
        name, store.games(), store.disqualified(), store.bot_versions(), settings, resamples, seed
    )
    return replace(rankings, tournament_seed=info.seed if info else None)

