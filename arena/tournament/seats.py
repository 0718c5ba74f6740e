"""Which seat wins: the seat bias of a set of games, from running counts per seat.

A rule set may favour a seat: in a single hand seat 0 moves first (RULINGS G9), and a preset's
powers can help or hurt whoever sits next. A seat's *win rate* is the share of the games it won
(the record's ``winner``); a seat no better placed than the others wins its *fair share*, one
game in ``seats``. Drawn games (a tie for first place among the clean seats, the decision
cap) are won from no seat, so the rates add up to one less the share of draws.

The intervals are 95% Wilson score intervals (:func:`~arena.tournament.stats.wilson_interval`)
with the *deal* as the unit, not the game: every seating of a duplicate deal deals each seat
the same cards, so its games are not independent trials (copies of one seeded bot even play the
same game in every seating). A deal's share of games won from a seat lies in [0, 1] with mean
``p``, so its variance is at most ``p (1 - p)``: counted over deals the interval is exact when a
deal's seatings all end alike and wider than it need be otherwise, never too narrow.

:class:`SeatTally` keeps the counts of games given in schedule order. The results store keeps one
in its summary (:mod:`arena.tournament.summary`), so the seat bias of a million games is a read
of a few rows; :meth:`SeatTally.bias` gives the figure the rankings show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arena.tournament.records import GameRecord
from arena.tournament.stats import Interval, wilson_interval


@dataclass(frozen=True)
class SeatSums:
    """The running counts of one seat: games, wins, deals, and the deal it was last seen in
    (``-1`` before its first game)."""

    seat: int
    games: int = 0
    wins: int = 0
    deals: int = 0
    deal: int = -1


@dataclass(frozen=True)
class SeatRate:
    """One seat's win rate with its 95% interval (over ``deals``), ``None`` before a game."""

    seat: int
    games: int
    wins: int
    deals: int
    win_rate: float | None
    win_rate_ci: Interval | None


@dataclass(frozen=True)
class SeatBias:
    """Every seat's win rate over ``games`` games, and the fair share ``1 / seats``."""

    games: int
    seats: tuple[SeatRate, ...]

    @property
    def fair_share(self) -> float:
        """The win rate of a seat that neither helps nor hurts: one game in ``seats``."""
        return 1.0 / len(self.seats)

    @property
    def draws(self) -> int:
        """Games won from no seat."""
        return self.games - sum(rate.wins for rate in self.seats)

    @property
    def deals(self) -> int:
        """The deals the games came from (the intervals' unit)."""
        return max(rate.deals for rate in self.seats)


class SeatTally:
    """Games, wins and deals per seat, of games given in schedule (``game_id``) order."""

    def __init__(self) -> None:
        self._sums: dict[int, list[int]] = {}   # seat -> [games, wins, deals, last deal]
        self._touched: set[int] = set()

    def add(self, record: GameRecord) -> None:
        """Count one game (the seatings of a deal come one after the other in the schedule,
        so a seat's deal changes only when a new deal starts)."""
        deal, winner = record.deal_id, record.winner
        for seat in range(len(record.table)):
            sums = self._sums.get(seat)
            if sums is None:
                sums = self._sums[seat] = [0, 0, 0, -1]
            sums[0] += 1
            sums[1] += winner == seat
            if sums[3] != deal:
                sums[2] += 1
                sums[3] = deal
            self._touched.add(seat)

    def add_many(self, records: Iterable[GameRecord]) -> None:
        """Count several games, in schedule order."""
        for record in records:
            self.add(record)

    def sums(self, seat: int) -> SeatSums:
        """The counts of ``seat`` (zero before its first game)."""
        games, wins, deals, deal = self._sums.get(seat, (0, 0, 0, -1))
        return SeatSums(seat, games, wins, deals, deal)

    def bias(self) -> SeatBias | None:
        """Every seat's win rate and interval; ``None`` before the first game."""
        if not self._sums:
            return None
        rates = tuple(_rate(self.sums(seat)) for seat in range(max(self._sums) + 1))
        return SeatBias(rates[0].games, rates)

    def changes(self) -> list[SeatSums]:
        """The seats' counts that changed since the last call (every seat, the first time)."""
        rows = [self.sums(seat) for seat in sorted(self._touched)]
        self._touched = set()
        return rows

    @classmethod
    def restore(cls, rows: Iterable[SeatSums]) -> SeatTally:
        """A tally holding the counts :meth:`changes` gave."""
        tally = cls()
        tally._sums = {row.seat: [row.games, row.wins, row.deals, row.deal] for row in rows}
        return tally

    @classmethod
    def pooled(cls, tallies: Iterable[SeatTally]) -> SeatTally:
        """The counts of several separate sets of games taken together (the runs of a
        calibration, whose deals are numbered from 0 in each); no more games can be added."""
        pool = cls()
        for tally in tallies:
            for seat, (games, wins, deals, _) in tally._sums.items():
                sums = pool._sums.setdefault(seat, [0, 0, 0, -1])
                sums[0] += games
                sums[1] += wins
                sums[2] += deals
        return pool


def _rate(sums: SeatSums) -> SeatRate:
    if not sums.games:
        return SeatRate(sums.seat, 0, 0, 0, None, None)
    rate = sums.wins / sums.games
    return SeatRate(sums.seat, sums.games, sums.wins, sums.deals, rate,
                    wilson_interval(rate, sums.deals))
