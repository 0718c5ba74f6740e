"""Schedule properties: counts, seat balance, shared deal seeds, determinism."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter, defaultdict

import pytest

from arena.errors import ConfigError
from arena.tournament.config import BotEntry, TournamentConfig
from arena.tournament.schedule import (
    TABLES_FIRST, Schedule, deal_seed, fresh_seed, schedule_size, table_deal_seed,
)

from tournament_helpers import make_config


def names(n: int) -> list[str]:
    return [f"b{i:02d}" for i in range(n)]


def rr(n: int, seats: int, rounds: int = 3, seatings: str = "rotations", seed: int = 7):
    text = f"bots: [{', '.join(names(n))}]\nseats: {seats}\nrounds: {rounds}\n"
    text += f"seatings: {seatings}\nseed: {seed}\n"
    return Schedule.from_config(make_config(text))


@pytest.mark.parametrize(("n", "seats"), [(2, 2), (4, 4), (5, 3), (6, 4), (7, 2)])
def test_round_robin_count_is_tables_times_rounds_times_rotations(n, seats):
    schedule = rr(n, seats, rounds=3)
    assert len(schedule) == math.comb(n, seats) * 3 * seats
    assert len(list(schedule)) == len(schedule)
    assert schedule_size(n, seats, 3) == len(schedule)


def test_permutations_count_and_distinct_seatings():
    schedule = rr(5, 3, rounds=2, seatings="permutations")
    assert len(schedule) == math.comb(5, 3) * 2 * 6
    by_deal = defaultdict(list)
    for game in schedule:
        by_deal[game.deal_id].append(game.table)
    for tables in by_deal.values():
        assert len(set(tables)) == 6
        assert {tuple(sorted(t)) for t in tables} == {tuple(sorted(tables[0]))}


def test_every_table_is_a_combination_of_the_pool_once():
    schedule = rr(6, 4, rounds=2)
    tables = {frozenset(g.table) for g in schedule}
    assert tables == {frozenset(c) for c in itertools.combinations(names(6), 4)}


@pytest.mark.parametrize("seatings", ["rotations", "permutations"])
def test_every_bot_sits_in_every_seat_equally_often_per_table(seatings):
    schedule = rr(5, 3, rounds=4, seatings=seatings)
    per_table = defaultdict(Counter)
    for game in schedule:
        for seat, bot in enumerate(game.table):
            per_table[frozenset(game.table)][(bot, seat)] += 1
    expected = 4 * (1 if seatings == "rotations" else 2)
    for counts in per_table.values():
        assert len(counts) == 3 * 3
        assert set(counts.values()) == {expected}


def test_rotation_k_gives_seat_i_the_member_i_plus_k():
    game_rows = list(rr(4, 4, rounds=1))
    members = sorted(names(4))
    for k, game in enumerate(game_rows):
        assert game.seating == k
        assert game.table == tuple(members[(i + k) % 4] for i in range(4))


def test_fewer_bots_than_seats_fill_one_table_in_turn_and_no_line_up_is_played_twice():
    """A duel's table (a file cannot ask for it): the order given, not sorted, decides who
    holds the extra seats; a seating that repeats a line-up would only replay its game."""
    bots = (BotEntry("b", "b"), BotEntry("a", "a"), BotEntry("c", "c"))
    three = Schedule.from_config(TournamentConfig("d", bots, seats=5, rounds=2, seed=1))
    assert three.tables == [("b", "a", "c", "b", "a")]
    assert three.seatings_per_deal == 5    # a 5-cycle: every rotation differs
    two = TournamentConfig("d", bots[:2], seats=4, rounds=2, seatings="permutations", seed=1)
    schedule = Schedule.from_config(two)
    first_deal = [g.table for g in schedule if g.deal_id == 0]
    assert len(first_deal) == len(set(first_deal)) == 6     # 4! / (2! 2!)
    assert len(schedule) == 2 * 6


def test_ids_are_positions_and_deals_group_their_replays():
    schedule = rr(5, 3, rounds=2)
    games = list(schedule)
    assert [g.game_id for g in games] == list(range(len(games)))
    for game in games:
        assert schedule[game.game_id] == game
    deals = [g.deal_id for g in games]
    assert deals == sorted(deals)
    assert Counter(deals) == {d: 3 for d in range(math.comb(5, 3) * 2)}


def test_deal_seeds_shared_by_replays_and_distinct_across_deals():
    games = list(rr(6, 4, rounds=3))
    seeds_by_deal = defaultdict(set)
    for game in games:
        seeds_by_deal[game.deal_id].add(game.deal_seed)
    assert all(len(seeds) == 1 for seeds in seeds_by_deal.values())
    all_seeds = [next(iter(s)) for s in seeds_by_deal.values()]
    assert len(set(all_seeds)) == len(all_seeds)


def test_a_deals_seed_is_sha256_of_seed_round_and_table_in_63_bits():
    expected = int(hashlib.sha256(b'2026:5:["b00","b01","b02","b03"]').hexdigest()[:16], 16) // 2
    assert table_deal_seed(2026, 5, ("b00", "b01", "b02", "b03")) == expected
    assert 0 <= table_deal_seed(2**62, 10**6, ("x",)) < 2**63
    assert rr(4, 4, rounds=6, seed=2026)[4 * 5 + 2].deal_seed == expected


def test_rounds_come_first_and_every_round_deals_once_at_every_table():
    schedule = rr(5, 3, rounds=2)
    games = list(schedule)
    per_round = len(games) // 2
    first, second = games[:per_round], games[per_round:]
    assert {frozenset(g.table) for g in first} == {frozenset(g.table) for g in second}
    assert len({frozenset(g.table) for g in first}) == math.comb(5, 3)
    for game in games:
        assert schedule.game_id(*schedule.locate(game.game_id)) == game.game_id


def test_a_store_written_before_growth_keeps_its_tables_first_layout_and_deal_seeds():
    config = make_config("bots: [b00, b01, b02, b03, b04]\nseats: 4\nrounds: 3\nseed: 2026")
    old = Schedule.from_config(config, layout=TABLES_FIRST)
    expected = int(hashlib.sha256(b"2026:5").hexdigest()[:16], 16) // 2
    assert deal_seed(2026, 5) == expected
    game = old[5 * 4 + 2]  # deal 5: the second table's third round, in rotation 2
    assert (game.deal_id, game.deal_seed, old.locate(game.game_id)) == (5, expected, (2, 1, 2))
    assert sorted(game.table) == ["b00", "b01", "b02", "b04"]
    assert [g.table for g in old] != [g.table for g in Schedule.from_config(config)]


def test_determinism_and_seed_only_changes_deal_seeds():
    first, again, other = list(rr(5, 4, seed=1)), list(rr(5, 4, seed=1)), list(rr(5, 4, seed=2))
    assert first == again
    assert [g.table for g in first] == [g.table for g in other]
    assert all(a.deal_seed != b.deal_seed for a, b in zip(first, other))


def test_bot_order_in_the_file_does_not_change_the_schedule():
    one = make_config("bots: [c, a, d, b, e]\nrounds: 2\nseed: 3")
    two = make_config("bots: [e, d, c, b, a]\nrounds: 2\nseed: 3")
    assert list(Schedule.from_config(one)) == list(Schedule.from_config(two))


def test_pending_skips_done_games_and_keeps_order():
    schedule = rr(4, 4, rounds=3)
    done = {0, 3, 4, 11}
    pending = [g.game_id for g in schedule.pending(done)]
    assert pending == [i for i in range(12) if i not in done]


def test_out_of_range_id_raises_index_error():
    schedule = rr(4, 4, rounds=1)
    with pytest.raises(IndexError):
        schedule[len(schedule)]
    with pytest.raises(IndexError):
        schedule[-1]


def test_gauntlet_plays_each_candidate_with_every_field_combination():
    config = make_config(
        "bots: [f1, f2, f3, f4]\nformat: gauntlet\ncandidates: [z, y]\nseats: 3\nrounds: 2\nseed: 3"
    )
    schedule = Schedule.from_config(config)
    assert len(schedule) == 2 * math.comb(4, 2) * 2 * 3
    seen = Counter()
    for game in schedule:
        cands = [b for b in game.table if b in ("y", "z")]
        assert len(cands) == 1
        seen[(cands[0], frozenset(game.table) - {cands[0]})] += 1
    expected = {(c, frozenset(p)) for c in "yz" for p in itertools.combinations(["f1", "f2", "f3", "f4"], 2)}
    assert set(seen) == expected and set(seen.values()) == {2 * 3}


def test_games_of_lists_only_that_bots_games():
    schedule = rr(5, 3, rounds=2)
    mine = list(schedule.games_of("b02"))
    assert mine == [g for g in schedule if "b02" in g.table]


def test_a_config_without_seed_cannot_be_scheduled_until_one_is_drawn():
    with pytest.raises(ConfigError, match="no seed yet"):
        Schedule.from_config(make_config("bots: [a, b, c, d]"))


def test_fresh_seeds_differ_and_fit_a_tournament_file():
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert all(0 <= seed < 2**63 for seed in seeds)  # 63 bits, as SQLite and seed: take
    assert max(seeds).bit_length() > 40  # drawn from the whole range, not a small one


def test_a_field_too_large_for_a_round_robin_is_refused_before_a_table_is_made():
    """200 bots at four seats make 64,684,950 tables: listing them would take gigabytes, so
    the schedule counts them first and points to swiss, which seats each bot once a round."""
    with pytest.raises(ConfigError, match=r"^demo: 200 bots at 4 seats make 64,684,950 tables, "
                                          r"more than the 1,000,000 .*format: swiss"):
        rr(200, 4)
    assert len(rr(60, 4, rounds=1).tables) == math.comb(60, 4)   # 487,635: still scheduled
