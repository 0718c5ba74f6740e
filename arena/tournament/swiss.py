"""The tables of one swiss round: neighbours in a random draw from every bot's rating.

Every bot plays every round. Before round ``r``, each bot's skill is drawn once from
``N(mu, sigma)`` of its TrueSkill rating after the rounds before (bots in name order, one
generator seeded from the tournament's seed and ``r``); the bots are sorted by their draws, best
first (ties by name), and cut into tables of ``seats`` neighbours. A bot the ratings are sure
of keeps meeting its neighbours; an uncertain one wanders, so no bot is locked in a wrong
cluster (``RATINGS.md``'s finding: always seating the most uncertain bot with its closest rivals
starved some and misplaced others).

A round has ``ceil((bots - 1) / (seats - 1))`` tables (:func:`table_count`), windows of
``seats`` neighbours spread evenly over the order so that each table shares at least one bot
with the next: every pair of neighbours in the order is linked within the round, at one table
or through the bot that plays both. Without that link the pair at a cut between two tables
would only meet when the draw swapped a bot across it; with ratings as sure as their games make
them that is rare, TrueSkill's sigmas shrink regardless (they carry no correlation between
bots), and the stopping rule then passed pairs across the cut in the wrong order: measured on
synthetic bots 0.4 points of skill apart (Gaussian performances, sd 2), margin 1.5, 12 seeds
each, cutting side by side found the right order in 9 of 12 runs at 8 bots and 4 seats, 8 of 12
at 12 bots, 7 of 12 at 6 bots and 2 or 3 seats; linked tables found it in all of them, in about
as many games or fewer. The bots where two windows meet play two tables that round (eight bots
at four seats: positions 0-3, 2-5 and 4-7, so four bots play twice; four bots at two seats:
0-1, 1-2 and 2-3). Every bot plays every round, none sits out, no table is short of seats, and
since the order is drawn afresh each round, who plays twice changes from round to round (the
bots the ratings are surest of, at the two ends, play once).

A table lists its bots in name order: its deal's seed
(:func:`~arena.tournament.schedule.table_deal_seed`) depends on which bots sit there, not on
their draws, and the seatings rotate (or permute) them through the seats as in any format.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only a shape here: the config imports this module without the ratings
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


def table_count(bots: int, seats: int) -> int:
    """The tables of a round: the fewest windows of ``seats`` that cover ``bots`` positions with
    each window sharing at least one with the next, ``ceil((bots - 1) / (seats - 1))``."""
    if not 2 <= seats <= bots:
        raise ValueError(f"{bots} bots cannot fill tables of {seats} seats")
    return max(1, -(-(bots - 1) // (seats - 1)))


def window_starts(bots: int, seats: int) -> list[int]:
    """Where each table's window of ``seats`` neighbours begins in an order of ``bots`` bots:
    :func:`table_count` windows, the first at 0 and the last at ``bots - seats``, the others
    spread evenly between (rounded to the nearest), so that each overlaps the next."""
    count = table_count(bots, seats)
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
