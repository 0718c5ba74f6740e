"""`arena calibrate` as a library: copies of one bot in real sandboxed tournaments, every figure
of the report counted again here from the stored games (ratings with the ``trueskill`` package
itself), and a rigged rule set whose seat 0 always wins."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import groupby
from pathlib import Path

import pytest
import trueskill

from arena.engine.outcome import OutcomeReason
from arena.engine.rules import load_rules
from arena.errors import ArenaError
from arena.sandbox.workspace import Workspace
from arena.services.calibrate import calibrate, calibration_plan, judge_run, run_seed
from arena.tournament.records import GameRecord
from arena.tournament.schedule import Schedule
from arena.tournament.store import Store

Z95 = 1.959963984540054
ENV = trueskill.TrueSkill(mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=0.0, draw_probability=0.005)

# One card each and every card wild: seat 0 lays its card on the starter and has won.
SEAT_ZERO = Path(__file__).with_name("seat_zero.yaml")


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The Wilson score interval, from the textbook formula."""
    p = successes / trials
    centre = p + Z95 ** 2 / (2 * trials)
    spread = Z95 * math.sqrt(p * (1 - p) / trials + Z95 ** 2 / (4 * trials ** 2))
    return (centre - spread) / (1 + Z95 ** 2 / trials), (centre + spread) / (1 + Z95 ** 2 / trials)


def bot(tmp_path: Path, name: str = "random"):
    return Workspace(tmp_path).resolve_bot(name)


def stored_runs(folder: Path, runs: int) -> list[list[GameRecord]]:
    """Every run's stored games, read straight from its store."""
    games = []
    for run in range(1, runs + 1):
        with Store.open(folder / f"calibrate-{run}.sqlite", readonly=True) as store:
            games.append(list(store.games(moves=False)))
    return games


def rate(ratings: dict, record: GameRecord) -> None:
    """One game rated by the trueskill package: each seat a team of one, ranked by its place."""
    rank_of = {seat: rank for rank, group in enumerate(record.places) for seat in group}
    teams = [(ratings[name],) for name in record.table]
    rated = ENV.rate(teams, ranks=[rank_of[seat] for seat in range(len(record.table))])
    for name, (new,) in zip(record.table, rated):
        ratings[name] = new


def gaps(ratings: dict) -> list[float]:
    """The neighbouring gaps in sigmas of the ranking by mu - 3 sigma (then name)."""
    ranked = sorted(ratings, key=lambda name: (-(ratings[name].mu - 3 * ratings[name].sigma), name))
    return [(ratings[a].mu - ratings[b].mu) / math.hypot(ratings[a].sigma, ratings[b].sigma)
            for a, b in zip(ranked, ranked[1:])]


def replay(records: list[GameRecord], bots, margin: float, seatings: int, once: bool):
    """(games rated when every gap first reached ``margin`` or None, the final gaps): the ranking
    checked after every deal; ``once`` rates only seating ``deal mod seatings`` of each deal."""
    ratings = {name: ENV.create_rating() for name in bots}
    rated, first = 0, None
    for deal_id, deal in groupby(records, key=lambda r: r.deal_id):
        for record in deal:
            if once and record.game_id % seatings != deal_id % seatings:
                continue
            rate(ratings, record)
            rated += 1
        if first is None and all(z >= margin for z in gaps(ratings)):
            first = rated
    return first, gaps(ratings)


def test_a_calibration_reports_what_its_stored_games_say(tmp_path):
    result = calibrate(bot(tmp_path), load_rules("switch"), copies=4, games=12, runs=2, seed=7,
                       workers=1, folder=tmp_path)
    assert result.copies == ("random#1", "random#2", "random#3", "random#4")
    runs = stored_runs(tmp_path, 2)
    assert [len(games) for games in runs] == [12, 12] and len(result.runs) == 2
    for number, (games, run) in enumerate(zip(runs, result.runs), start=1):
        with Store.open(tmp_path / f"calibrate-{number}.sqlite", readonly=True) as store:
            assert store.tournament().seed == run.seed == run_seed(7, number)
        for view, once in ((run.as_played, False), (run.each_deal_once, True)):
            first, final = replay(games, result.copies, 1.5, 4, once)
            assert view.separated_at == first
            assert [g.z for g in view.final.gaps] == pytest.approx(final, abs=1e-9)
        assert run.each_deal_once.games == 3   # one seating of each of the 3 deals
    # every seating of a deal is the same game: the seed of each bot goes with its seat
    deals = [list(d) for games in runs for _, d in groupby(games, key=lambda r: r.deal_id)]
    alike = sum(len({(r.places, r.winner, r.decisions) for r in deal}) == 1 for deal in deals)
    assert (result.deals, result.identical_deals) == (6, alike)
    # the seat bias of all 24 games, over their 6 deals
    played = [record for games in runs for record in games]
    wins = Counter(record.winner for record in played if record.winner is not None)
    bias = result.seat_bias
    assert (bias.games, bias.deals, bias.draws) == (24, 6, 24 - sum(wins.values()))
    for seat in bias.seats:
        assert (seat.wins, seat.games) == (wins[seat.seat], 24)
        assert seat.win_rate_ci == pytest.approx(wilson(wins[seat.seat] / 4, 6))
    assert result.as_played.runs.total == 2 and result.as_played.pairs.total == 6


def synthetic(plan, seed: int) -> list[GameRecord]:
    """The plan's schedule with each seating of a deal finishing in a random order of its own."""
    records = []
    for game in Schedule.from_config(plan.config):
        order = list(range(len(game.table)))
        random.Random(f"{seed}:{game.game_id}").shuffle(order)
        records.append(GameRecord(game.game_id, game.deal_id, game.table, game.deal_seed,
                                  tuple((seat,) for seat in order), order[0],
                                  OutcomeReason.EMPTIED, 20, 0.01))
    return records


def test_judging_a_run_checks_the_ranking_after_every_deal_at_the_margin(tmp_path):
    """Games that differ in every seating (random orders, no bots): the copies drift apart, and
    where the ranking first looks separated is found again by the trueskill package."""
    separated = 0
    for seed in range(6):
        plan = calibration_plan(bot(tmp_path), load_rules("switch"), 4, 60, 3, seed=seed)
        records = synthetic(plan, seed)
        for margin in (0.25, 0.75):
            run = judge_run(1, plan, records, margin)
            for view, once in ((run.as_played, False), (run.each_deal_once, True)):
                first, final = replay(records, plan.config.bot_names, margin, 3, once)
                assert view.separated_at == first
                assert view.final.pairs_apart == sum(z >= margin for z in final)
                separated += first is not None
            assert run.identical_deals == sum(
                len({r.places for r in records[d * 3:d * 3 + 3]}) == 1 for d in range(20))
    assert separated > 0   # the checks above were not all of rankings that never separated


def test_a_rigged_rule_set_shows_seat_zero_winning_every_game_with_an_interval(tmp_path):
    result = calibrate(bot(tmp_path), load_rules(SEAT_ZERO), copies=2, games=6, seats=2,
                       runs=1, seed=3, workers=1)
    first, second = result.seat_bias.seats
    assert (first.wins, first.games, first.deals) == (6, 6, 3)
    assert first.win_rate == 1.0 and first.win_rate_ci == pytest.approx((wilson(3, 3)[0], 1.0))
    assert first.win_rate_ci[0] < 0.6   # three deals cannot tell "always" from "mostly"
    assert second.win_rate == 0.0 and second.win_rate_ci[0] == 0.0
    assert result.seat_bias.fair_share == 0.5


@pytest.mark.parametrize("kwargs, words", [
    ({"copies": 1}, "at least 2 copies of the bot, got 1"),
    ({"copies": 3}, "3 copies cannot each hold one of 4 seats"),
    ({"games": 0}, "at least one game, got 0"),
    ({"runs": 0}, "at least one run, got 0"),
    ({"margin": 0.0}, "above 0, got 0.0"),
    ({"margin": math.nan}, "above 0, got nan"),
    ({"seats": 9}, "seats must be 2..6, got 9"),
])
def test_a_calibration_refuses_what_it_cannot_play_before_any_game(tmp_path, kwargs, words):
    with pytest.raises(ArenaError, match=words):
        calibrate(bot(tmp_path), load_rules("switch"), **{"copies": 4, "runs": 1, **kwargs},
                  folder=tmp_path)
    assert not list(tmp_path.glob("*.sqlite"))


def test_numbers_past_what_a_run_can_hold_are_refused_at_once(tmp_path):
    """A hundred thousand copies make five billion tables; a billion billion games, more
    rounds than a tournament file may ask for. Both are said in one line, before any table."""
    with pytest.raises(ArenaError, match=r"100,000 copies at 2 seats make 4,999,950,000 tables"):
        calibration_plan(bot(tmp_path), load_rules("switch"), 100_000, 4, 2, seed=1)
    with pytest.raises(ArenaError, match=r"rounds of deals; at most 2,000,000 games"):
        calibration_plan(bot(tmp_path), load_rules("switch"), 2, 10**21, 2, seed=1)
