"""Adaptive tournaments: games made a round at a time, until the ranking is separated or the
budget is spent.

A tournament file with ``until`` (:class:`~arena.tournament.config.Until`), and every
``format: swiss`` one, is played as a :class:`Course`. Its games exist one round at a time: the
runner plays and commits a whole round, then asks :meth:`Course.next_round`, at that boundary,
with the ratings of every game so far, whether to stop or which round comes next:

* **separated**: every neighbouring pair of the ranking (the standings' order, ``mu - 3 sigma``,
  ties by name) is at least ``until.margin`` sigmas apart
  (:func:`~arena.tournament.separation.separation`, the one measure the rankings and the live
  view use too);
* **budget**: the next round would take the tournament past ``until.games``; a tournament always
  ends on a whole round, so it never plays more than its budget;
* **rounds**: a round-robin or gauntlet has played its last round (its ``rounds``).

Otherwise the next round is made: a round-robin or gauntlet's next round of its schedule
(:class:`~arena.tournament.schedule.Schedule`, whose game ids, deals and seeds it keeps), a
swiss round's tables from the ratings (:mod:`arena.tournament.swiss`). Game ids follow the rounds
(round ``r`` holds ids ``r * round_size`` and up, by table then seating), and a deal's seed is
:func:`~arena.tournament.schedule.table_deal_seed` of its round and table, duplicate deals
replayed over the seatings as in any format.

So the next round depends only on the seed and the stored games of the rounds before, in
``game_id`` order, whatever the number of workers. A resumed run rebuilds its rounds from the
store (:meth:`Course.replay`): it rates the stored games from the first, in order, and makes
each round again at its boundary, as the run that stored them did; a stored game that the
rebuilt rounds do not hold is refused (:class:`~arena.tournament.errors.StoreError`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from arena.tournament.config import SWISS, TournamentConfig
from arena.tournament.errors import StoreError
from arena.tournament.records import GameRecord
from arena.tournament.schedule import Schedule, ScheduledGame, deal_seatings, table_deal_seed
from arena.tournament.separation import Separation, separation
from arena.tournament.skill import Rating, Ratings
from arena.tournament.swiss import round_tables, table_count

RatingOf = Callable[[str], Rating]


class End(enum.Enum):
    """Why an adaptive tournament ended."""

    SEPARATED = "separated"     # every neighbouring pair reached the margin
    BUDGET = "budget"           # another round would have passed until.games
    ROUNDS = "rounds"           # a round-robin or gauntlet played all its rounds


@dataclass(frozen=True)
class CourseState:
    """Where an adaptive tournament stands: ``rounds`` made (the last one maybe still playing),
    the ``games`` they hold, its ``budget`` (the most games it may play: whole rounds within
    ``until.games``, which ``asked`` keeps as the file gave it), ``separation`` of the ranking
    (at the last round boundary, or live: :meth:`with_separation`), and ``end`` once it has
    ended."""

    format: str
    rounds: int
    games: int
    budget: int
    margin: float
    separation: Separation
    end: End | None = None
    asked: int | None = None

    def with_separation(self, measured: Separation) -> CourseState:
        """The same state with another measure of the ranking (the live one)."""
        return CourseState(self.format, self.rounds, self.games, self.budget, self.margin,
                           measured, self.end, self.asked)


def ranking(bots: Iterable[str], rating: RatingOf) -> list[tuple[str, float, float]]:
    """``(bot, mu, sigma)`` of ``bots`` in the standings' order: the higher ``mu - 3 sigma``
    first, ties by name (as :func:`arena.tournament.ratings.standings` ranks)."""
    rated = [(bot, rating(bot)) for bot in bots]
    rated.sort(key=lambda pair: (-pair[1].score, pair[0]))
    return [(bot, r.mu, r.sigma) for bot, r in rated]


class Course:
    """The games of an adaptive tournament, made a round at a time (see the module docstring).

    Indexable by ``game_id`` like a :class:`~arena.tournament.schedule.Schedule`; its length is
    the games of the rounds made so far.
    """

    def __init__(self, config: TournamentConfig, versions: Mapping[str, str] | None = None) -> None:
        if config.until is None or config.seed is None:
            raise ValueError("a course needs an adaptive config with its seed settled")
        self.config, self.until, self.seed = config, config.until, config.seed
        self.versions = versions    # deals by version, or by name when None (schedule module)
        self.bots = tuple(sorted(config.bot_names))
        # a round-robin or gauntlet's rounds are its schedule's, kept as they are
        self._fixed = (None if config.format == SWISS
                       else Schedule.from_config(config, versions=versions))
        self.arrangements = (deal_seatings(config) if self._fixed is None
                             else self._fixed.arrangements)
        self.tables_per_round = (table_count(len(self.bots), config.seats) if self._fixed is None
                                 else len(self._fixed.tables))
        self.round_size = self.tables_per_round * len(self.arrangements)
        self.budget = self._budget()
        self.rounds: list[list[tuple[str, ...]]] = []
        self.end: End | None = None
        self.separation = separation(ranking(self.bots, Ratings().rating), self.until.margin)

    def __len__(self) -> int:
        return len(self.rounds) * self.round_size

    def __getitem__(self, game_id: int) -> ScheduledGame:
        if not 0 <= game_id < len(self):
            raise IndexError(f"game id {game_id} is outside the rounds made (0..{len(self) - 1})")
        if self._fixed is not None:
            return self._fixed[game_id]
        per_deal = len(self.arrangements)
        deal_id, seating = divmod(game_id, per_deal)
        round_index, table_index = divmod(deal_id, self.tables_per_round)
        members = self.rounds[round_index][table_index]
        table = tuple(members[i] for i in self.arrangements[seating])
        seed = table_deal_seed(self.seed, round_index, members, self.versions)
        return ScheduledGame(game_id, deal_id, table, seed, seating)

    def _budget(self) -> int:
        """The most games it may play, in whole rounds: ``until.games``, and no more than a
        round-robin or gauntlet's schedule (a swiss file always sets ``until.games``)."""
        limits = [] if self.until.games is None else [self.until.games]
        if self._fixed is not None:
            limits.append(len(self._fixed))
        most = min(limits)
        return most - most % self.round_size

    @property
    def state(self) -> CourseState:
        """Where the tournament stands (see :class:`CourseState`)."""
        return CourseState(self.config.format, len(self.rounds), len(self), self.budget,
                           self.until.margin, self.separation, self.end, self.until.games)

    def next_round(self, rating: RatingOf) -> bool:
        """At a round boundary (every game made so far rated into ``rating``): make the next
        round and return True, or end the tournament and return False (see the module doc)."""
        if self.end is not None:
            return False
        self.separation = separation(ranking(self.bots, rating), self.until.margin)
        if self.rounds and self.separation.complete:
            self.end = End.SEPARATED
        elif self._fixed is not None and len(self.rounds) == self._fixed.rounds:
            self.end = End.ROUNDS
        elif len(self) + self.round_size > self.budget:
            self.end = End.BUDGET
        else:
            self.rounds.append(self._tables(len(self.rounds), rating))
            return True
        return False

    def _tables(self, round_index: int, rating: RatingOf) -> list[tuple[str, ...]]:
        if self._fixed is not None:
            return self._fixed.tables
        return round_tables(self.bots, self.config.seats, rating, self.seed, round_index)

    def replay(self, records: Iterable[GameRecord]) -> list[GameRecord]:
        """Rebuild the rounds of the stored games ``records`` (in ``game_id`` order, from the
        first): each round is made at its boundary from the ratings of the games before, as
        the run that stored them made it, then the next round after them (or the end) is
        decided. Returns the records; raises :class:`StoreError` for a stored game that the
        rebuilt rounds do not hold."""
        stored = list(records)
        for position, record in enumerate(stored):  # committed in order: the first games
            if record.game_id != position:
                raise StoreError(f"game {position} is missing from the stored games of an "
                                 "adaptive tournament, which are stored in order; restart it")
        ratings = Ratings()
        rated = 0
        while len(self) <= len(stored) and self.end is None:
            ratings.add_many(stored[rated:len(self)])
            rated = len(self)
            if not self.next_round(ratings.rating) and len(self) < len(stored):
                ended = self.end.value if self.end is not None else "ended"
                raise StoreError(f"the store holds {len(stored)} games, but its tournament ended "
                                 f"after {len(self)} ({ended}); restart it")
        for record in stored:
            self._check(record)
        return stored

    def _check(self, record: GameRecord) -> None:
        """Refuse a stored game that is not the game of the rebuilt rounds with its id."""
        if record.game_id >= len(self):
            raise StoreError(f"stored game {record.game_id} lies beyond the rounds its tournament "
                             f"makes ({len(self)} games); restart it")
        game = self[record.game_id]
        if (record.table, record.deal_seed, record.deal_id) != (game.table, game.deal_seed,
                                                                game.deal_id):
            raise StoreError(f"stored game {record.game_id} ({', '.join(record.table)}) is not the "
                             f"game its round makes ({', '.join(game.table)}): the stored rounds "
                             "cannot be rebuilt; restart it")


def course_of(config: TournamentConfig, versions: Mapping[str, str] | None = None) -> Course | None:
    """The :class:`Course` of an adaptive ``config`` (its seed settled; ``versions`` as for
    :class:`Course`), ``None`` for one that plays its whole schedule."""
    return Course(config, versions) if config.adaptive else None

