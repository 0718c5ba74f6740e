"""Disqualification: a bot whose games fault three times in a row is out of the tournament.

The rule is applied to stored games **in schedule order** (``game_id``), the order in which the
runner commits them, so it never depends on the number of workers or on which game finished
first: the same tournament disqualifies the same bot at the same game. "In a row" counts the
bot's own games: a clean game of that bot resets its count; other bots' games do not.

A disqualified bot's later games are not played (no fallback games): its opponents' ratings then
only hold games the bot really played. The rankings show it as disqualified, below every clean
bot (:func:`arena.tournament.ratings.standings`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from arena.play.faults import FaultCode
from arena.tournament.records import GameRecord

FAULTS_IN_A_ROW = 3


@dataclass
class _Streak:
    games: list[int] = field(default_factory=list)
    codes: list[FaultCode] = field(default_factory=list)


class Discipline:
    """Counts each bot's consecutive faulty games; feed it games in ``game_id`` order."""

    def __init__(self, limit: int = FAULTS_IN_A_ROW, disqualified: Iterable[str] = ()) -> None:
        self.limit = limit
        self._streaks: dict[str, _Streak] = {}
        self.out: dict[str, str] = {name: "disqualified earlier" for name in disqualified}

    def is_out(self, bot: str) -> bool:
        """True once ``bot`` is disqualified."""
        return bot in self.out

    def blocks(self, table: Iterable[str]) -> bool:
        """True when a game at ``table`` must not be played (a disqualified bot sits there)."""
        return any(bot in self.out for bot in table)

    def apply(self, record: GameRecord) -> dict[str, str]:
        """Count one committed game; returns the bots it disqualifies, with the reason."""
        codes = {fault.bot: fault.code for fault in record.faults}
        newly: dict[str, str] = {}
        for bot in record.table:
            streak = self._streaks.setdefault(bot, _Streak())
            if bot not in codes:
                self._streaks[bot] = _Streak()
                continue
            streak.games.append(record.game_id)
            streak.codes.append(codes[bot])
            if len(streak.games) >= self.limit and bot not in self.out:
                newly[bot] = self._reason(streak)
        self.out.update(newly)
        return newly

    def _reason(self, streak: _Streak) -> str:
        games = ", ".join(str(g) for g in streak.games[-self.limit:])
        codes = ", ".join(code.name for code in streak.codes[-self.limit:])
        return f"{self.limit} faulty games in a row (games {games}: {codes})"
