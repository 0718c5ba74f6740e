"""Swiss rounds: every bot plays every round, at tables of neighbours in a draw from the ratings."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.tournament.skill import Rating
from arena.tournament.swiss import draw_order, round_tables, table_count, window_starts

PRIOR = Rating(25.0, 25.0 / 3.0)


def names(count: int) -> list[str]:
    return [f"bot{i:02d}" for i in range(count)]


@pytest.mark.parametrize(("bots", "seats", "starts"), [
    (4, 4, [0]),            # one table
    (5, 4, [0, 1]),         # positions 1-3 play both tables
    (8, 4, [0, 2, 4]),      # positions 2-5 play twice: each table shares two bots with the next
    (9, 4, [0, 3, 5]),      # positions 3, 5 and 6 play twice
    (12, 4, [0, 3, 5, 8]),
    (4, 2, [0, 1, 2]),      # at two seats, every neighbouring pair meets every round
    (7, 3, [0, 2, 4]),
])
def test_tables_are_windows_spread_evenly_each_sharing_a_bot_with_the_next(
        bots: int, seats: int, starts: list[int]) -> None:
    assert window_starts(bots, seats) == starts


@pytest.mark.parametrize("seats", range(2, 11))
def test_every_bot_plays_every_round_and_none_more_than_twice(seats: int) -> None:
    for count in range(seats, 24):
        tables = round_tables(names(count), seats, lambda bot: PRIOR, seed=3, round_index=count)
        assert len(tables) == table_count(count, seats) == max(1, -(-(count - 1) // (seats - 1)))
        assert all(len(set(table)) == seats for table in tables)
        assert all(set(a) & set(b) for a, b in zip(tables, tables[1:]))  # linked tables
        plays = Counter(bot for table in tables for bot in table)
        assert set(plays) == set(names(count))                  # nobody sits out
        assert max(plays.values()) <= 2


def test_each_table_holds_neighbours_of_the_draw_in_name_order() -> None:
    bots = names(10)
    order = draw_order(bots, lambda bot: PRIOR, seed=9, round_index=4)
    tables = round_tables(bots, 4, lambda bot: PRIOR, seed=9, round_index=4)
    assert tables == [tuple(sorted(order[start:start + 4])) for start in (0, 3, 6)]


def test_ratings_the_draw_is_sure_of_seat_the_ranking_s_neighbours_together() -> None:
    bots = names(8)
    sure = {bot: Rating(40.0 - 3 * i, 0.01) for i, bot in enumerate(bots)}
    for round_index in range(5):
        tables = round_tables(bots, 4, sure.__getitem__, seed=1, round_index=round_index)
        assert tables == [tuple(bots[:4]), tuple(bots[2:6]), tuple(bots[4:])]


def test_uncertain_ratings_mix_the_tables_from_round_to_round() -> None:
    bots = names(8)
    orders = {tuple(draw_order(bots, lambda bot: PRIOR, seed=1, round_index=r)) for r in range(6)}
    assert len(orders) == 6


def test_the_draw_depends_on_the_seed_and_the_round_only() -> None:
    bots = names(7)
    first = draw_order(bots, lambda bot: PRIOR, seed=5, round_index=2)
    assert draw_order(list(reversed(bots)), lambda bot: PRIOR, seed=5, round_index=2) == first
    assert draw_order(bots, lambda bot: PRIOR, seed=6, round_index=2) != first
    assert draw_order(bots, lambda bot: PRIOR, seed=5, round_index=3) != first


def test_fewer_bots_than_seats_cannot_make_a_table() -> None:
    with pytest.raises(ValueError, match="3 bots cannot fill tables of 4 seats"):
        table_count(3, 4)
