"""Matches of several hands (RULINGS F2): first to ``match.wins`` hand wins, the lead moving on.

A rule set with ``match: {wins: N}`` is played as a :class:`Match`; any other rule set is a
match of one hand, so a referee can always play a ``Match``. Every hand is an ordinary
:class:`~arena.engine.game.Game` (a position file and ``arena replay`` are always one hand).

* **Seeds.** Hand ``i`` is dealt from :func:`hand_seed` ``(seed, i)``, a deterministic function of
  the match seed and the hand's index (the first hand: the seed itself), so a match replays from
  its seed alone.
* **Lead.** The first hand is led by seat 0 (the dealer is the last seat); the deal, and so the
  lead, moves one seat on each hand: hand ``i`` is led by seat ``i % seats``.
* **End.** The match is won by the first seat to win ``wins`` hands. A drawn hand (a blocked tie or
  the decision cap) counts for nobody. A rule set without ``match`` ends after its one hand,
  drawn when that hand is (a blocked tie is a draw, C6, S14), never dealt again. Every match
  ends: after :func:`hand_cap` hands without a winner the match is drawn, reason ``cap``.
* **Places** (for ratings): by hands won, most first; seats with as many wins are ordered by their
  places in the last hand (G7), and share a place only when they shared it there too.

The referee's loop: ``match = Match.new(rules, seats, seed)``; while not ``match.is_over``: play
``match.current`` (a fresh Game) to its end, then call ``match.next_hand()``. ``match.hands``
keeps every finished hand (seed, lead, moves, outcome) and ``match.outcome`` the result.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from arena.engine.game import Game
from arena.engine.outcome import Outcome, OutcomeReason
from arena.engine.rules import RuleSet

HANDS_CAP_PER_WIN = 4  # a match ends drawn after 4 x wins x seats hands without a winner


def hand_seed(seed: int, index: int) -> int:
    """The deal seed of hand ``index`` (0-based) of the match played from ``seed``.

    The first hand is dealt from the match seed itself, so a one-hand match is exactly the
    game ``Game.new(rules, seats, seed)`` (stored single games replay from their seed alone).
    """
    if index == 0:
        return seed
    digest = hashlib.sha256(f"arena-match:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def hand_cap(rules: RuleSet, seats: int) -> int:
    """The most hands a match plays before it is drawn (every match ends)."""
    return HANDS_CAP_PER_WIN * (rules.match_wins or 1) * seats


@dataclass(frozen=True)
class HandRecord:
    """One finished hand: its index, deal seed, leading seat, moves (notation) and outcome."""

    index: int
    seed: int
    lead: int
    moves: tuple[str, ...]
    outcome: Outcome

    def to_json(self) -> dict[str, Any]:
        """A plain object for storage: the hand can be replayed from ``seed`` and ``lead``."""
        o = self.outcome
        return {"index": self.index, "seed": self.seed, "lead": self.lead, "moves": list(self.moves),
                "status": o.status, "reason": o.reason, "winner": o.winner,
                "places": [list(p) for p in o.places]}


@dataclass(frozen=True)
class MatchOutcome:
    """How a match ended: ``won`` (reason ``wins``) or ``drawn`` (reason ``cap``), with places;
    a rule set without ``match`` ends as its one hand did (its status and reason)."""

    status: str
    reason: OutcomeReason
    winner: int | None
    places: tuple[tuple[int, ...], ...]
    wins: tuple[int, ...]
    hands: int


class Match:
    """A match of hands of one rule set at one table. Build with :meth:`new`."""

    def __init__(self, rules: RuleSet, seats: int, seed: int) -> None:
        rules.check_seats(seats)
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.target = rules.match_wins or 1
        self.wins = [0] * seats
        self.hands: list[HandRecord] = []
        self.outcome: MatchOutcome | None = None
        self.current = self._deal(0)

    @classmethod
    def new(cls, rules: RuleSet, seats: int | None = None, seed: int = 0) -> Match:
        """A match whose first hand is dealt and ready (``match.current``)."""
        return cls(rules, rules.seats_default if seats is None else seats, seed)

    @property
    def is_over(self) -> bool:
        """True once the match has an outcome."""
        return self.outcome is not None

    def _deal(self, index: int) -> Game:
        return Game.new(self.rules, self.seats, hand_seed(self.seed, index), lead=index % self.seats)

    def next_hand(self) -> Game | None:
        """Record the finished current hand; deal the next one, or end the match (returns None)."""
        game = self.current
        if game.outcome is None:
            raise ValueError("the current hand is not over")
        if self.outcome is not None:
            raise ValueError("the match is over")
        index = len(self.hands)
        lead = index % self.seats
        moves = tuple(str(e.action) for e in game.history)
        self.hands.append(HandRecord(index, game.seed, lead, moves, game.outcome))
        if game.outcome.winner is not None:
            self.wins[game.outcome.winner] += 1
        if self.rules.match_wins is None:  # one hand is the game: its draw is the game's (C6, S14)
            self._finish(game.outcome.status, game.outcome.reason)
            return None
        if max(self.wins) >= self.target:
            self._finish("won", OutcomeReason.WINS)
            return None
        if len(self.hands) >= hand_cap(self.rules, self.seats):
            self._finish("drawn", OutcomeReason.CAP)
            return None
        self.current = self._deal(index + 1)
        return self.current

    def _finish(self, status: str, reason: OutcomeReason) -> None:
        winner = self.wins.index(max(self.wins)) if status == "won" else None
        self.outcome = MatchOutcome(status, reason, winner, self._places(), tuple(self.wins), len(self.hands))

    def _places(self) -> tuple[tuple[int, ...], ...]:
        """By hands won, then by the last hand's places (G7); equal in both share a place."""
        last = {s: i for i, place in enumerate(self.hands[-1].outcome.places) for s in place}
        key = {s: (-self.wins[s], last[s]) for s in range(self.seats)}
        places: list[list[int]] = []
        for seat in sorted(range(self.seats), key=lambda s: (key[s], s)):
            if places and key[places[-1][0]] == key[seat]:
                places[-1].append(seat)
            else:
                places.append([seat])
        return tuple(tuple(p) for p in places)
