"""The separation measure: neighbouring gaps in sigmas of their difference."""

import math

from arena.tournament.separation import separation


def test_two_bots_three_sigmas_apart_are_separated_at_one_and_a_half():
    # mu 30 vs 24 with sigmas 1.6 and 1.2: the difference's sigma is 2.0, so z = 3.
    result = separation([("strong", 30.0, 1.6), ("weak", 24.0, 1.2)], margin=1.5)
    assert [g.z for g in result.gaps] == [3.0]
    assert result.complete and result.pairs_apart == 1


def test_one_close_pair_keeps_the_ranking_unseparated():
    ranking = [("a", 40.0, 1.0), ("b", 30.0, 1.0), ("c", 29.0, 1.0)]
    result = separation(ranking, margin=1.0)
    assert result.pairs_apart == 1 and not result.complete
    closest = result.closest
    assert closest is not None and (closest.upper, closest.lower) == ("b", "c")
    assert math.isclose(closest.z, 1 / math.sqrt(2))


def test_a_pair_ranked_against_its_means_is_never_separated():
    # Ranked by mu - 3 sigma, a sure bot can stand above one with a higher but vaguer mean.
    result = separation([("sure", 25.0, 0.5), ("vague", 27.0, 3.0)], margin=0.0)
    assert result.gaps[0].z < 0 and not result.complete


def test_a_lone_bot_is_separated_and_has_no_closest_pair():
    result = separation([("only", 25.0, 8.0)])
    assert result.complete and result.closest is None
