"""Adaptive tournaments on synthetic games of known skill: rounds made one at a time, stopped
once the ranking is separated or the budget is spent, rebuilt from the stored games."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tournament_helpers import make_config, play_course

from arena.tournament.adaptive import Course, End, course_of
from arena.tournament.errors import StoreError
from arena.tournament.ratings import rank_games
from arena.tournament.schedule import Schedule, table_deal_seed
from arena.tournament.separation import separation

EIGHT = "[b0, b1, b2, b3, b4, b5, b6, b7]"
SPREAD = {f"b{i}": 3.0 * (7 - i) for i in range(8)}     # b0 the best, 3 points apart
EQUAL = {f"b{i}": 0.0 for i in range(8)}


def swiss(games: int = 2000, margin: float = 1.5, bots: str = EIGHT, seats: int = 4,
          seed: int = 7) -> Course:
    config = make_config(f"bots: {bots}\nseats: {seats}\nformat: swiss\nseed: {seed}\n"
                         f"until: {{margin: {margin}, games: {games}}}\n")
    course = course_of(config)
    assert course is not None
    return course


def test_bots_of_known_strength_stop_separated_before_the_budget_in_the_right_order() -> None:
    course = swiss()
    records = play_course(course, SPREAD)
    assert course.end is End.SEPARATED
    assert len(records) == len(course) < course.budget
    assert len(records) % course.round_size == 0               # whole rounds only
    ranked = rank_games("cup", records)
    assert ranked.bots == tuple(f"b{i}" for i in range(8))
    final = separation([(s.bot, s.mu, s.sigma) for s in ranked.standings], 1.5)
    assert final.complete and course.state.separation == final


def test_equal_bots_play_to_the_budget() -> None:
    course = swiss(games=100)                                  # rounds of 3 tables x 4 rotations
    records = play_course(course, EQUAL)
    assert (course.end, len(records), course.budget) == (End.BUDGET, 96, 96)
    assert not course.state.separation.complete


def test_every_bot_plays_every_round() -> None:
    course = swiss(games=200, bots="[a, b, c, d, e, f]")        # six bots at four seats
    play_course(course, dict.fromkeys("abcdef", 0.0))
    for tables in course.rounds:
        assert {bot for table in tables for bot in table} == set("abcdef")


def test_a_deal_is_replayed_over_the_seatings_with_its_round_and_table_s_seed() -> None:
    course = swiss(games=64)
    play_course(course, EQUAL)
    per_deal = len(course.arrangements)
    for game_id in range(len(course)):
        game = course[game_id]
        round_index, table_index = divmod(game_id // per_deal, course.tables_per_round)
        members = course.rounds[round_index][table_index]
        assert game.deal_id == game_id // per_deal and game.seating == game_id % per_deal
        assert game.deal_seed == table_deal_seed(7, round_index, members)
        assert sorted(game.table) == sorted(members)


def test_the_same_seed_and_results_make_the_same_rounds_another_seed_others() -> None:
    first, again, other = swiss(), swiss(), swiss(seed=8)
    assert play_course(first, SPREAD) == play_course(again, SPREAD)
    play_course(other, SPREAD)
    assert first.rounds == again.rounds and first.rounds[:3] != other.rounds[:3]


def test_a_round_robin_with_until_stops_between_rounds_with_the_schedule_s_games() -> None:
    config = make_config("bots: [a, b, c, d]\nseats: 3\nrounds: 200\nseed: 3\nuntil: {margin: 1.0}\n")
    course = course_of(config)
    assert course is not None and course.round_size == 12      # 4 tables x 3 rotations
    records = play_course(course, {"a": 9.0, "b": 6.0, "c": 3.0, "d": 0.0})
    schedule = Schedule.from_config(config)
    assert course.end is End.SEPARATED and len(records) < len(schedule)
    assert [course[g] for g in range(len(course))] == [schedule[g] for g in range(len(course))]


def test_a_round_robin_of_equals_plays_every_round_and_a_budget_cuts_it_to_whole_rounds() -> None:
    text = "bots: [a, b, c, d]\nseats: 3\nrounds: 5\nseed: 3\nuntil: {margin: 1.5%s}\n"
    every = course_of(make_config(text % ""))
    cut = course_of(make_config(text % ", games: 40"))
    assert every is not None and cut is not None
    assert len(play_course(every, dict.fromkeys("abcd", 0.0))) == 60 and every.end is End.ROUNDS
    assert len(play_course(cut, dict.fromkeys("abcd", 0.0))) == 36 and cut.end is End.BUDGET


def test_a_resumed_course_rebuilds_its_rounds_from_the_stored_games() -> None:
    played = swiss()
    records = play_course(played, SPREAD)
    middle = 3 * played.round_size + 5                          # in the middle of round 4
    resumed = swiss()
    assert resumed.replay(records[:middle]) == records[:middle]
    assert resumed.rounds == played.rounds[:4] and resumed.end is None
    whole = swiss()
    whole.replay(records)
    assert (whole.rounds, whole.end, whole.state) == (played.rounds, End.SEPARATED, played.state)


def test_a_stored_game_the_rounds_do_not_make_is_refused() -> None:
    played = swiss(games=60)                                   # five rounds of 3 tables x 4
    records = play_course(played, EQUAL)
    moved = records[:9] + [replace(records[9], table=tuple(reversed(records[9].table)))]
    with pytest.raises(StoreError, match="stored game 9 .* is not the game its round makes"):
        swiss(games=60).replay(moved)
    with pytest.raises(StoreError, match="holds 60 games, but its tournament ended after 48"):
        swiss(games=48).replay(records)
    with pytest.raises(StoreError, match="game 9 is missing"):
        swiss(games=60).replay(records[:9] + records[10:])
