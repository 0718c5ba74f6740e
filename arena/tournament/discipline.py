"""Disqualification: the rule that puts a bot whose games keep faulting out of a tournament.

A fault costs the bot the game it happened in (the referee places it last) and nothing more: the
ratings do the rest. Only a bot that keeps faulting is disqualified, by the tournament file's
``max_faults`` (:class:`FaultLimit`): ``in_a_row`` faulty games of its own in a row (default 3;
a clean game of that bot resets its count, other bots' games do not), or ``total`` faulty games
in all (default: no such limit); ``null`` turns a limit off.

The rule is applied to stored games **in schedule order** (``game_id``), the order in which the
runner commits them, so it never depends on the number of workers or on which game finished
first: the same tournament disqualifies the same bot at the same game.

A disqualified bot's later games are still played, its seat played by the seeded fallback from
the first move (its bot is never started) and placed last, with a ``DISQUALIFIED`` fault
(:meth:`Discipline.absent`): every other bot keeps its whole, balanced schedule. The reason
names the games, their codes and the first fault's own words (a ``SyntaxError`` and its line).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from arena.errors import ConfigError
from arena.play.faults import Fault, FaultCode
from arena.tournament.records import GameRecord

FAULTS_IN_A_ROW = 3


@dataclass(frozen=True)
class FaultLimit:
    """When faults disqualify a bot (``max_faults``): ``in_a_row`` faulty games of its own in a
    row, or ``total`` faulty games in all; ``None`` is no such limit (both: never)."""

    in_a_row: int | None = FAULTS_IN_A_ROW
    total: int | None = None

    def __post_init__(self) -> None:
        for name in ("in_a_row", "total"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError(f"max_faults.{name}: expected an integer >= 1 or nothing, "
                                  f"got {value!r}")


NEVER = FaultLimit(in_a_row=None, total=None)


@dataclass
class _Record:
    """One bot's faulty games so far: the last ones of its current streak (as many as the rule
    reads, so a bot that faults in every game of a long tournament costs no memory), their
    count in all, and the first of them (each a game id and the fault)."""

    streak: deque[tuple[int, Fault]]
    total: int = 0
    first: tuple[int, Fault] | None = None


class Discipline:
    """Counts each bot's faulty games; feed it stored games in ``game_id`` order (a resume
    feeds it the stored games first, which disqualify the same bots at the same games again).
    """

    def __init__(self, limit: FaultLimit = FaultLimit()) -> None:
        self.limit = limit
        self._records: dict[str, _Record] = {}
        self.out: dict[str, str] = {}      # bot -> why it is out
        self._after: dict[str, int] = {}   # bot -> the game that disqualified it

    def is_out(self, bot: str) -> bool:
        """True once ``bot`` is disqualified."""
        return bot in self.out

    def absent(self, table: tuple[str, ...]) -> dict[int, Fault]:
        """The seats of ``table`` whose bot is out, each with the ``DISQUALIFIED`` fault its
        fallback seat is recorded with (empty when every bot of the table is in)."""
        return {seat: Fault(seat, bot, FaultCode.DISQUALIFIED, self._absence(bot))
                for seat, bot in enumerate(table) if bot in self.out}

    def apply(self, record: GameRecord) -> dict[str, str]:
        """Count one committed game; returns the bots it disqualifies, with the reason."""
        faults: dict[str, Fault] = {}
        for fault in record.faults:  # a bot's first fault of the game (it may hold two seats)
            if fault.code is not FaultCode.DISQUALIFIED:
                faults.setdefault(fault.bot, fault)
        newly: dict[str, str] = {}
        for bot in dict.fromkeys(record.table):
            if bot in self.out:
                continue
            counts = self._records.setdefault(bot, _Record(deque(maxlen=self.limit.in_a_row or 0)))
            if bot not in faults:
                counts.streak.clear()
                continue
            entry = (record.game_id, faults[bot])
            counts.streak.append(entry)
            counts.total += 1
            counts.first = counts.first or entry
            reason = self._reason(counts)
            if reason is not None:
                newly[bot] = reason
                self._after[bot] = record.game_id
        self.out.update(newly)
        return newly

    def _reason(self, counts: _Record) -> str | None:
        """Why the rule puts the bot out, or ``None`` while it does not."""
        in_a_row, total = self.limit.in_a_row, self.limit.total
        if in_a_row is not None and len(counts.streak) >= in_a_row:
            games = list(counts.streak)
            listed = ", ".join(str(g) for g, _ in games)
            codes = ", ".join(f.code.name for _, f in games)
            return f"{in_a_row} faulty games in a row (games {listed}: {codes}); {_cause(games[0])}"
        if total is not None and counts.total >= total:
            assert counts.first is not None
            return f"{total} faulty games in all; {_cause(counts.first)}"
        return None

    def _absence(self, bot: str) -> str:
        return (f"disqualified after game {self._after[bot]}: its seat is played by the "
                "fallback from the first move")


def _cause(entry: tuple[int, Fault]) -> str:
    """The first counted fault in its own words: ``game 4, INVALID: ValueError: ...``."""
    game, fault = entry
    return f"game {game}, {fault.code.name}: {fault.summary()}"
