"""The tables of one swiss round: neighbours in a random draw from every bot's rating.

Every bot plays every round. Before round ``r``, each bot's skill is drawn once from
``N(mu, sigma)`` of its TrueSkill rating after the rounds before (bots in name order, one
generator seeded from the tournament's seed and ``r``); the bots are sorted by their draws, best
first (ties by name), and cut into tables of ``seats`` neighbours. A bot the ratings are sure
of keeps meeting its neighbours; an uncertain one wanders, so no bot is locked in a wrong
cluster (``RATINGS.md``'s finding: always seating the most uncertain bot with its closest rivals
starved some and misplaced others).

When the bots are not a multiple of the seats, the round has ``ceil(bots / seats)`` tables
spread evenly over the order, each a window of ``seats`` neighbours, so the windows overlap:
``tables * seats - bots`` bots, the ones where two windows meet, play two tables that round
(five bots at four seats: positions 0-3 and 1-4, three bots twice; six bots at four seats:
0-3 and 2-5). Every bot plays every round, none sits out, no table is short of seats, and
since the order is drawn afresh each round, who plays twice changes from round to round.

A table lists its bots in name order: its deal's seed
(:func:`~arena.tournament.schedule.table_deal_seed`) depends on which bots sit there, not on
their draws, and the seatings rotate (or permute) them through the seats as in any format.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from arena.tournament.skill import Rating


def draw_order(bots: Sequence[str], rating: Callable[[str], Rating], seed: int,
               round_index: int) -> list[str]:
    """``bots`` sorted by one draw each from ``N(mu, sigma)``, best first (ties by name), from a
    generator seeded with ``seed`` and ``round_index`` (a string seed: the same on every
    machine and Python process)."""
    rng = random.Random(f"swiss:{seed}:{round_index}")
    names = sorted(bots)
    draws = {}
    for bot in names:
        skill = rating(bot)
        draws[bot] = rng.gauss(skill.mu, skill.sigma)
    return sorted(names, key=lambda bot: (-draws[bot], bot))


def window_starts(bots: int, seats: int) -> list[int]:
    """Where each table's window of ``seats`` neighbours begins in an order of ``bots`` bots:
    ``ceil(bots / seats)`` windows, the first at 0 and the last at ``bots - seats``, the others
    spread evenly between (rounded to the nearest)."""
    if not 1 <= seats <= bots:
        raise ValueError(f"{bots} bots cannot fill tables of {seats} seats")
    count = -(-bots // seats)
    if count == 1:
        return [0]
    span = bots - seats
    return [(k * span * 2 + count - 1) // (2 * (count - 1)) for k in range(count)]


def round_tables(bots: Sequence[str], seats: int, rating: Callable[[str], Rating], seed: int,
                 round_index: int) -> list[tuple[str, ...]]:
    """The tables of swiss round ``round_index`` (see the module docstring), in draw order: the
    table of the best drawn first; each table's bots in name order."""
    order = draw_order(bots, rating, seed, round_index)
    return [tuple(sorted(order[start:start + seats]))
            for start in window_starts(len(order), seats)]
