"""TrueSkill ratings: the trueskill package's numbers, schedule order, order independence, ties;
a fault costs only its game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import trueskill
from tournament_helpers import make_config, play_synthetic

from arena.errors import ConfigError
from arena.tournament.ratings import RatingSettings, Ratings, rank_games, rank_store
from arena.engine.outcome import OutcomeReason
from arena.play.faults import FaultCode
from arena.tournament.records import Fault, GameRecord
from arena.tournament.store import Store

SKILLS = {"ace": 4.0, "bob": 1.0, "cat": 0.5, "dan": 0.0, "eve": -0.5, "fox": -1.0}
CONFIG = make_config("bots: [ace, bob, cat, dan, eve, fox]\nrounds: 4\nseed: 9")


def g(game_id: int, table: tuple[str, ...], places, winner=None, faults=()) -> GameRecord:
    return GameRecord(game_id, game_id, table, game_id, places, winner, OutcomeReason.EMPTIED, 5, 0.1, faults)


def test_settings_follow_ratings_md():
    settings = RatingSettings()
    assert settings.tau == 0.0 and settings.draw_probability == 0.005
    with pytest.raises(ConfigError, match="draw_probability"):
        RatingSettings(draw_probability=0.0)


def test_clearly_stronger_bot_ranks_first():
    rankings = rank_games("t", play_synthetic(CONFIG, SKILLS, seed=3))
    assert rankings.bots[0] == "ace"
    assert rankings.standings[0].score > rankings.standings[1].mu
    assert rankings.bots[-1] in ("fox", "eve")


def test_same_games_in_any_arrival_order_give_identical_rankings():
    records = play_synthetic(CONFIG, SKILLS, seed=4)
    reference = rank_games("t", records)
    for seed in range(3):
        shuffled = records[:]
        random.Random(seed).shuffle(shuffled)
        assert rank_games("t", shuffled) == reference


def test_tied_bots_from_equal_ratings_stay_equal_and_pass_equal_ranks():
    record = g(0, ("a", "b", "c", "d"), ((2,), (0, 3), (1,)), winner=2)
    ratings = Ratings()
    ratings.add(record)
    a, d = ratings.rating("a"), ratings.rating("d")
    assert a.mu == pytest.approx(d.mu, abs=1e-3) and a.sigma == pytest.approx(d.sigma, abs=1e-3)
    assert ratings.rating("c").mu > a.mu > ratings.rating("b").mu
    env = trueskill.TrueSkill(tau=0.0, draw_probability=0.005, backend=None)
    expected = env.rate([(env.create_rating(),)] * 4, ranks=[1, 2, 0, 1])
    assert (a.mu, d.mu) == pytest.approx((expected[0][0].mu, expected[3][0].mu), abs=1e-12)


def test_a_fault_costs_its_game_and_nothing_more():
    """Two faults in 60 games (each placing the bot last) leave the best bot first: the ratings
    weigh them like any other lost game."""
    records = []
    for gid in range(60):
        table = ("star", "x", "y", "z")
        faults = (Fault(0, "star", FaultCode.TIMEOUT, "slow"),) if gid in (7, 41) else ()
        places = ((1, 2, 3), (0,)) if faults else ((0,), (1,), (2,), (3,))
        records.append(g(gid, table, places, winner=None if faults else 0, faults=faults))
    rankings = rank_games("t", records)
    star = rankings.standings[0]
    assert star.bot == "star" and star.score > max(s.score for s in rankings.standings[1:])
    assert star.stats.faults == 2 and star.fault_rate == pytest.approx(2 / 60) and not star.clean
    assert rankings.standings[1].fault_rate == 0.0


def test_a_disqualified_bot_is_flagged_and_ranked_by_its_rating():
    records = play_synthetic(CONFIG, SKILLS, seed=7)
    rankings = rank_games("t", records, disqualified=["ace"])
    assert rankings.bots[0] == "ace" and rankings.standings[0].disqualified
    assert [s.rank for s in rankings.standings] == list(range(1, 7))
    scores = [s.score for s in rankings.standings]
    assert scores == sorted(scores, reverse=True)


def test_bots_without_games_appear_with_the_prior():
    rankings = rank_games("t", [], bots=["a", "b"])
    assert rankings.bots == ("a", "b") and rankings.games == 0
    assert rankings.standings[0].mu == 25.0 and rankings.standings[0].stats.win_rate is None


def test_rank_store_equals_ranking_the_records(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=8, faulty={"eve": 0.05})
    with Store.open(tmp_path / "t.sqlite") as store:
        store.init_tournament(CONFIG, "", {}, {b: "v" for b in SKILLS})
        shuffled = records[:]
        random.Random(1).shuffle(shuffled)
        for rec in shuffled:
            store.add_game(rec)
        store.mark_disqualified("fox", "crashed")
        from_store = rank_store(store)
    assert from_store.tournament_seed == CONFIG.seed == 9
    assert from_store == replace(rank_games("demo", records, disqualified=["fox"]), tournament_seed=9)
    assert from_store.standings[from_store.bots.index("fox")].disqualified
