"""TrueSkill ratings and the final standings, computed from stored games in schedule order.

The ratings themselves are :mod:`arena.tournament.skill`'s (the ``trueskill`` package's
computation, made fast; settings from ``RATINGS.md``: ``tau=0``, draw probability 0.005):
:class:`Ratings` applies games in ``game_id`` order, the order the runner commits them in, so the
result never depends on the order games finished in. The results store keeps the ratings and the
statistics' sums up to date as games are stored (:mod:`arena.tournament.summary`), so
:func:`rank_store` reads them instead of re-rating every game: instant at any size.

Each game is one TrueSkill match of one-player teams ranked by the record's places (tied seats
share a rank). A fault costs the game it happened in and nothing more: the referee places the
faulty bot last in that game (a disqualified bot's seat too, played by its fallback), and the
ratings do the rest. :func:`standings` ranks every bot by ``mu - 3 sigma`` (ties by name),
faults or not; each line shows its fault count and rate. Beside the standings, the rankings give
the tournament's seat bias (:mod:`arena.tournament.seats`): each seat's win rate, to tell how
much the seat a bot sat in, rather than the bot, decided its games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from arena.tournament.records import GameRecord
from arena.tournament.seats import SeatBias
from arena.tournament.skill import DEFAULT_DRAW_PROBABILITY, Rating, RatingSettings, Ratings
from arena.tournament.stats import DEFAULT_BOOTSTRAP_SEED, DEFAULT_RESAMPLES, BotStats, HeadToHead, Tally
from arena.tournament.store import Store
from arena.tournament.summary import Summary

__all__ = [
    "DEFAULT_DRAW_PROBABILITY", "Rating", "RatingSettings", "Ratings", "Rankings", "Standing",
    "rank_games", "rank_store", "rank_summary", "standings",
]


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
    """Standings in rank order plus the head-to-head crosstable and the seat bias.

    ``tournament_seed`` is the seed the tournament's deals came from (``None`` when unknown:
    ranked from bare records, or a store older than the seed record), ``seed_drawn`` that it was
    drawn at random, hence secret (see :meth:`seed_hidden`); ``seat_bias`` is each
    seat's win rate over the games (``None`` before the first game); ``code_versions`` the
    versions of the arena code that played them (:meth:`Store.code_versions`, empty when not
    recorded).
    """

    tournament: str
    games: int
    standings: tuple[Standing, ...]
    head_to_head: Mapping[tuple[str, str], HeadToHead]
    tournament_seed: int | None = None
    seat_bias: SeatBias | None = None
    code_versions: tuple[str, ...] = ()
    seed_drawn: bool = False

    def seed_hidden(self, reveal: bool = False) -> bool:
        """Whether a view of the rankings leaves the seed out: a drawn one, unless ``reveal``
        (a seed the file wrote is always shown). Rankings get published while games remain to
        be played, and a drawn seed deals every one of them."""
        return self.seed_drawn and not reveal and self.tournament_seed is not None

    def seed_shown(self, reveal: bool = False) -> int | None:
        """The seed a view of the rankings shows (``None``: hidden, or not recorded)."""
        return None if self.seed_hidden(reveal) else self.tournament_seed

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
    summary = Summary(settings)
    summary.add_many(sorted(records, key=lambda record: record.game_id))
    return rank_summary(tournament, summary, disqualified, bots, resamples, seed)


def rank_summary(
    tournament: str,
    summary: Summary,
    disqualified: Iterable[str] = (),
    bots: Iterable[str] = (),
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
    tournament_seed: int | None = None,
) -> Rankings:
    """Rankings from a :class:`~arena.tournament.summary.Summary` of the games."""
    lines = standings(summary.ratings, summary.tally, disqualified, bots, resamples, seed)
    return Rankings(tournament, summary.games, tuple(lines), summary.tally.head_to_head(),
                    tournament_seed, summary.seats.bias())


def rank_store(
    store: Store,
    settings: RatingSettings | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> Rankings:
    """Rankings of everything in a results store (bots recorded at init appear even unplayed),
    with the tournament's seed and the arena code's versions; read from the store's summary
    (:meth:`Store.summary`)."""
    info = store.tournament()
    name = info.name if info else store.path.stem
    rankings = rank_summary(name, store.summary(settings), store.disqualified(),
                            store.bot_versions(), resamples, seed, info.seed if info else None)
    return replace(rankings, code_versions=store.code_versions(),
                   seed_drawn=info is not None and info.seed_drawn)
