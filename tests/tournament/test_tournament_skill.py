"""TrueSkill as the trueskill package computes it: the same numbers, game after game, faster."""

from __future__ import annotations

import random

import pytest
import trueskill
from tournament_helpers import make_config, play_synthetic

from arena.tournament.errors import RecordError
from arena.tournament.skill import Ratings, Skill

SKILLS = {"ace": 4.0, "bob": 1.0, "cat": 0.5, "dan": 0.0, "eve": -0.5, "fox": -1.0}
CONFIG = make_config("bots: [ace, bob, cat, dan, eve, fox]\nrounds: 4\nseed: 9")


def package_ratings(records) -> dict[str, trueskill.Rating]:
    """The ratings of the trueskill package itself, the games rated one by one in order."""
    env = trueskill.TrueSkill(tau=0.0, draw_probability=0.005, backend=None)
    expected: dict[str, trueskill.Rating] = {}
    for rec in records:
        ranks = [next(i for i, grp in enumerate(rec.places) if s in grp) for s in range(len(rec.table))]
        groups = [(expected.get(b, env.create_rating()),) for b in rec.table]
        for bot, (new,) in zip(rec.table, env.rate(groups, ranks=ranks)):
            expected[bot] = new
    return expected


def test_ratings_in_schedule_order_are_the_trueskill_packages():
    records = play_synthetic(CONFIG, SKILLS, seed=5)[:60]
    ratings = Ratings()
    ratings.add_many(records)
    assert ratings.applied == 60 and ratings.next_id == 60
    expected = package_ratings(records)
    assert set(ratings.ratings()) == set(expected)
    for bot, rating in ratings.ratings().items():
        assert rating.mu == pytest.approx(expected[bot].mu, abs=1e-12)
        assert rating.sigma == pytest.approx(expected[bot].sigma, abs=1e-12)


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_every_table_size_and_tie_is_rated_as_the_package_rates_it(seats):
    """Random results with many ties, from any prior: one game at a time against the package."""
    env = trueskill.TrueSkill(tau=0.0, draw_probability=0.005, backend=None)
    skill = Skill()
    rng = random.Random(seats)
    for _ in range(300):
        priors = [(rng.uniform(0, 50), rng.uniform(0.5, 9)) for _ in range(seats)]
        ranks = [rng.randrange(seats) for _ in range(seats)]
        mine = skill.rate(priors, ranks)
        theirs = env.rate([(trueskill.Rating(mu, sigma),) for mu, sigma in priors], ranks=ranks)
        for (mu, sigma), (rating,) in zip(mine, theirs):
            assert mu == pytest.approx(rating.mu, abs=1e-9)
            assert sigma == pytest.approx(rating.sigma, abs=1e-9)


def test_a_game_before_one_already_rated_is_refused():
    records = play_synthetic(CONFIG, SKILLS, seed=6)[:3]
    ratings = Ratings()
    ratings.add(records[0])
    ratings.add(records[2])
    with pytest.raises(RecordError, match="schedule order"):
        ratings.add(records[1])
    with pytest.raises(RecordError):
        ratings.add(records[2])
    assert ratings.applied == 2
