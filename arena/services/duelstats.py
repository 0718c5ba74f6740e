"""A duel's statistics: each bot's score against the field, and the SPRT of two bots.

:class:`DuelScores` is fed the duel's games in game order (the runner commits them in that
order whatever the number of workers, so everything here is deterministic) and keeps, per bot:

* its *score* in a game: against every seat of another bot, 1 when its seat finished ahead, 0.5
  when they share a place, 0 when behind (places: RULINGS G7; a faulty seat is placed last),
  averaged over those comparisons. At two seats that is 1 for a win, 0.5 for a draw, 0 for a
  loss; a bot no better than the others scores 0.5 in the long run;
* its score in a *deal*: the mean over every rotation of the deal. Deals are the independent
  units of the intervals (:class:`~arena.tournament.sprt.Estimate`); a deal cut short by the
  game budget is left out, since it gave some bots the better seats.

With two bots at two seats each deal is a pair of games, seats swapped, and the pairs'
pentanomial counts (:class:`~arena.tournament.sprt.Pentanomial`) feed the SPRT, checked after
every pair: the first pair at which the LLR crosses a bound is where the duel stops, and games
after it (still in flight when it was decided) are not counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.errors import ConfigError
from arena.tournament.records import GameRecord
from arena.tournament.sprt import Estimate, Pentanomial, Sprt, Verdict


@dataclass(frozen=True)
class SprtOutcome:
    """Where an SPRT stands: its LLR after ``games`` games and its verdict, ``None`` while no
    bound is crossed."""

    sprt: Sprt
    llr: float
    verdict: Verdict | None
    games: int


def check_sprt(bots: int, seats: int) -> None:
    """Refuse an SPRT the duel cannot run: it compares two bots over pairs of games."""
    if bots != 2 or seats != 2:
        raise ConfigError(f"an SPRT needs two bots at two seats (the pentanomial model pairs "
                          f"their games), not {bots} bots at {seats} seats")


class _Moments:
    """Count, sum and sum of squares of one bot's deal scores."""

    __slots__ = ("count", "total", "squares")

    def __init__(self) -> None:
        self.count, self.total, self.squares = 0, 0.0, 0.0

    def add(self, score: float) -> None:
        self.count += 1
        self.total += score
        self.squares += score * score

    def estimate(self, games_per_unit: int) -> Estimate | None:
        if not self.count:
            return None
        mean = self.total / self.count
        return Estimate(self.count, games_per_unit, mean, max(0.0, self.squares / self.count - mean * mean))


class DuelScores:
    """The running statistics of a duel between ``bots`` whose deals have ``games_per_deal``
    games each; with ``sprt`` (two bots at two seats only) the test is checked after each pair.

    :meth:`add` is the runner's ``on_game`` callback: it returns True once the test decides.
    """

    def __init__(self, bots: Sequence[str], seats: int, games_per_deal: int,
                 sprt: Sprt | None = None) -> None:
        if sprt is not None:
            check_sprt(len(bots), seats)
        self.bots = tuple(bots)
        self.games_per_deal = games_per_deal
        self.sprt = sprt
        self.games = 0                       # games counted (all of them until the SPRT decides)
        self.deals = 0                       # complete deals counted
        self.pairs: Pentanomial | None = Pentanomial() if len(bots) == 2 and seats == 2 else None
        self._moments = {bot: _Moments() for bot in self.bots}
        self._deal: dict[str, float] = dict.fromkeys(self.bots, 0.0)
        self._deal_id, self._deal_games = -1, 0
        self._outcome: SprtOutcome | None = None

    def add(self, record: GameRecord) -> bool:
        """Count the next game (in game order); True once the SPRT has decided (later games are
        ignored: the duel stopped at the pair that decided it)."""
        if self.decided:
            return True
        self.games += 1
        if record.deal_id != self._deal_id:  # a new deal (the one before it is complete)
            self._deal = dict.fromkeys(self.bots, 0.0)
            self._deal_id, self._deal_games = record.deal_id, 0
        for bot, score in game_scores(record).items():
            self._deal[bot] += score
        self._deal_games += 1
        if self._deal_games == self.games_per_deal:
            self._close_deal()
        return self.decided

    @property
    def decided(self) -> bool:
        """True once the SPRT has accepted one of its hypotheses."""
        return self._outcome is not None and self._outcome.verdict is not None

    def _close_deal(self) -> None:
        first = self.bots[0]
        for bot in self.bots:
            self._moments[bot].add(self._deal[bot] / self.games_per_deal)
        if self.pairs is not None:
            self.pairs = self.pairs.add(self._deal[first])
        self.deals += 1
        if self.sprt is not None and self.pairs is not None:
            llr = self.sprt.llr(self.pairs)
            self._outcome = SprtOutcome(self.sprt, llr, self.sprt.verdict(llr), self.games)

    def estimate(self, bot: str) -> Estimate | None:
        """``bot``'s score against the field over the complete deals (``None`` before one)."""
        return self._moments[bot].estimate(self.games_per_deal)

    @property
    def outcome(self) -> SprtOutcome | None:
        """The SPRT after the latest pair (``None`` without a test or before the first pair)."""
        if self.sprt is None:
            return None
        if self._outcome is None:
            return SprtOutcome(self.sprt, 0.0, None, self.games)
        return self._outcome


def game_scores(record: GameRecord) -> dict[str, float]:
    """Each bot's score in one game: the mean over its seats' comparisons with the other bots'
    seats (1 ahead, 0.5 a shared place, 0 behind)."""
    places = record.seat_places()
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for seat, bot in enumerate(record.table):
        for other, rival in enumerate(record.table):
            if rival == bot:
                continue
            mine, theirs = places[seat], places[other]
            sums[bot] = sums.get(bot, 0.0) + (1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
            counts[bot] = counts.get(bot, 0) + 1
    return {bot: sums[bot] / counts[bot] for bot in sums}
