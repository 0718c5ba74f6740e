"""Every refereed game replays from its stored record (docs/tournaments.md: `arena watch` and
`arena games` rebuild a stored game from its deal seed and moves alone).

The referee plays a game as a match of hands (RULINGS F2), one hand for a rule set without
``match``; the record keeps the moves, and a match's hands each with its seed and lead. This
sweep plays random games of every preset through the referee, turns each result into the record
the store keeps, and replays it: each move must be legal where it was played, and the replay
must end as the record says. A drawn hand is where the two could part (C6, S14: a blocked tie
is a draw), so the sweep checks that it met some.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from arena.engine.rules import load_rules, preset_names
from arena.play.referee import Referee
from arena.tournament.replay import record_hands
from arena.tournament.schedule import ScheduledGame
from arena.tournament.verify import divergence
from arena.tournament.worker import to_record
from clients import RandomClient

GAMES = 60
# Random players rarely finish a two-four-jacks game: most run to the 5,000-decision cap. Twelve
# of its games replay 30,000 to 50,000 decisions, more than sixty games of any other preset.
GAMES_FOR = {"two-four-jacks": 12}


def replayed_outcomes(name: str, seats: int, seed: int):
    """Play one game through the referee; replay its record; both outcomes, hand by hand."""
    rules = load_rules(name)
    table = tuple(f"bot-{s}" for s in range(seats))
    result = Referee(rules).play([RandomClient(seed * 10 + s) for s in range(seats)], seed)
    record = to_record(ScheduledGame(seed, seed, table, seed, 0), result)
    replayed = []
    for hand in record_hands(record, rules):
        for move in hand.moves:
            hand.game.apply(move)  # raises if the record's move is not legal in the replay
        replayed.append(hand.game.outcome)
    assert divergence(record, rules) is None  # what `arena verify` says of it
    return record, replayed


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("name", preset_names())
def test_every_refereed_game_replays_from_its_record(name: str, seats: int) -> None:
    statuses: Counter[str] = Counter()
    for seed in range(GAMES_FOR.get(name, GAMES)):
        record, replayed = replayed_outcomes(name, seats, seed)
        assert all(outcome is not None for outcome in replayed), f"seed {seed}: a hand did not end"
        if not record.hands:  # one hand: the record's result is that hand's
            (outcome,) = replayed
            assert (outcome.places, outcome.winner, outcome.reason) == (
                record.places, record.winner, record.reason), f"seed {seed}"
        else:
            stored = [(tuple(map(tuple, h["places"])), h["winner"], h["reason"]) for h in record.hands]
            assert [(o.places, o.winner, o.reason) for o in replayed] == stored, f"seed {seed}"
        statuses.update(o.status for o in replayed)
    assert statuses["won"] > 0


def test_the_sweep_meets_drawn_hands_of_a_rule_set_without_a_match() -> None:
    """C6: crazy-eights (no recycling) blocks often enough with random play that a tie for
    fewest cards turns up among the sweep's games: the case a second deal used to hide."""
    drawn = 0
    for seed in range(GAMES):
        record, replayed = replayed_outcomes("crazy-eights", 4, seed)
        drawn += replayed[-1].status == "drawn"
        if replayed[-1].status == "drawn":
            assert record.winner is None and len(record.places[0]) > 1
    assert drawn > 0


class GarbageOnce(RandomClient):
    """A seat that answers garbage at its third decision (a fallback plays it from then on)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def act(self, message: dict[str, Any]) -> str:
        self.asked += 1
        return "not a card" if self.asked == 3 else super().act(message)


@pytest.mark.parametrize("name", ["switch", "switch-classic"])
def test_a_game_with_a_faulty_seat_replays_to_its_stored_result(name: str) -> None:
    """The faulty seat is stored last, whatever its cards did; `arena verify` judges the
    replay by the same rule, so the game is not reported."""
    rules = load_rules(name)
    faulted = 0
    for seed in range(10):
        clients = [GarbageOnce(seed), RandomClient(seed + 100), RandomClient(seed + 200)]
        result = Referee(rules).play(clients, seed)
        record = to_record(ScheduledGame(seed, seed, ("bad", "b", "c"), seed, 0), result)
        if record.faults:
            faulted += 1
            assert record.places[-1] == (0,) and record.winner != 0
        assert divergence(record, rules) is None, f"seed {seed}"
    assert faulted > 0
