"""How a game or a match ended: :class:`Outcome` and its :class:`OutcomeReason` (RULINGS G7, F2).

After python-chess's ``Outcome``/``Termination``: the reason is a closed set of values, one per
way the engine or a match ends, so a record, the store and the CLI can tell them apart without
comparing loose strings. The values are the texts the protocol, the replay JSON and stored
records have always carried (``OutcomeReason("emptied")`` reads one back).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class OutcomeReason(StrEnum):
    """Why a game or a match ended; the value is the text sent to bots and stored."""

    EMPTIED = "emptied"  # a seat played its last card (the hand's winner)
    BLOCKED = "blocked"  # every seat passed in turn: the lowest score wins, a tie is a draw (S14)
    CAP = "cap"          # the decision cap of a hand, or the hand cap of a match: a draw
    PLAY_CAP = "play-cap"  # a rule set's cap on card plays: scored as a blocked game (O7)
    WINS = "wins"        # a match: a seat won the hands it needed (F2)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished hand ended: ``status`` ``won``/``drawn``, its reason, winner and places (G7)."""

    status: str
    reason: OutcomeReason
    winner: int | None
    places: tuple[tuple[int, ...], ...]


def winner_of(places: tuple[tuple[int, ...], ...], reason: str) -> int | None:
    """The winner ``places`` give (G7): the seat alone in first place, unless the game or match
    was drawn by its cap, whatever its places. The engine's own outcomes always agree with it;
    a tournament applies it once the faulty seats are placed last (a faulty seat counts as
    beaten, so the clean seat it led, or tied with, wins)."""
    return None if reason == OutcomeReason.CAP or len(places[0]) != 1 else places[0][0]
