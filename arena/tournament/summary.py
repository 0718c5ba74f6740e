"""The running summary of a tournament's stored games: everything its rankings are made of.

A :class:`Summary` is the TrueSkill ratings (:class:`~arena.tournament.skill.Ratings`), the
statistics' sums (:class:`~arena.tournament.stats.Tally`) and the counts per seat
(:class:`~arena.tournament.seats.SeatTally`) of games given in schedule order. The
results store keeps one beside the games (:meth:`arena.tournament.store.Store.add_games`
updates it in the same transaction), so the rankings of any number of games are a read of a few
hundred rows, not a re-rating of every game.

It covers exactly the stored games with an id below :attr:`Summary.next_id`: a game stored in
order extends it; a game stored below it (only an out-of-order writer does that) makes the store
rebuild it from the games, once.

:meth:`Summary.changes` gives the rows that changed since it was last called, and
:meth:`Summary.restore` rebuilds a summary from every row, which is how the store saves and
loads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from arena.tournament.records import GameRecord
from arena.tournament.seats import SeatSums, SeatTally
from arena.tournament.skill import Rating, Ratings, RatingSettings
from arena.tournament.stats import BotSums, Category, Tally


@dataclass(frozen=True)
class BotRow:
    """One bot's row of a stored summary: its rating as carried between games and its sums."""

    mu: float
    sigma: float
    sums: BotSums


@dataclass(frozen=True)
class SummaryRows:
    """A summary as rows: per bot, per (bot, deal category), per ordered pair of bots, per seat."""

    bots: list[BotRow]
    categories: list[tuple[str, Category, int]]
    pairs: list[tuple[str, str, int, int]]
    seats: list[SeatSums] = field(default_factory=list)


class Summary:
    """Ratings, statistics' sums and seat counts of the games given so far, in schedule order."""

    def __init__(self, settings: RatingSettings | None = None) -> None:
        self.ratings = Ratings(settings)
        self.tally = Tally()
        self.seats = SeatTally()

    @property
    def next_id(self) -> int:
        """Every game below this id that will be counted is counted; the next one must be above."""
        return self.ratings.next_id

    @property
    def games(self) -> int:
        """Games counted."""
        return self.tally.games

    def add(self, record: GameRecord) -> None:
        """Count one game; its id must be above every id counted before (``RecordError``)."""
        self.ratings.add(record)
        self.tally.add(record)
        self.seats.add(record)

    def add_many(self, records: Iterable[GameRecord]) -> None:
        """Count several games, in schedule order."""
        for record in records:
            self.add(record)

    def rating(self, bot: str) -> Rating:
        """The current TrueSkill rating of ``bot`` (the prior before its first game)."""
        return self.ratings.rating(bot)

    def changes(self) -> SummaryRows:
        """The rows that changed since the last call (every row, the first time)."""
        bots, categories, pairs = self.tally.changes()
        carried = self.ratings.state()
        prior = self.ratings.skill.prior
        rows = [BotRow(*carried.get(sums.bot, prior), sums) for sums in bots]
        return SummaryRows(rows, categories, pairs, self.seats.changes())

    @classmethod
    def restore(cls, rows: SummaryRows, next_id: int, games: int) -> Summary:
        """The summary of ``games`` games, the last one ``next_id - 1``, from all its rows."""
        summary = cls()
        summary.ratings.restore({row.sums.bot: (row.mu, row.sigma) for row in rows.bots},
                                next_id, games)
        summary.tally = Tally.restore(games, (row.sums for row in rows.bots), rows.categories,
                                      rows.pairs)
        summary.seats = SeatTally.restore(rows.seats)
        return summary
