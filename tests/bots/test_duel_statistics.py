"""The duel's statistics against values worked out by hand: Elo from a score, the score's
interval and LOS over deal pairs, the pentanomial LLR of the SPRT, and each bot's score in a game."""

from __future__ import annotations

import math

import pytest

from arena.engine.outcome import OutcomeReason
from arena.errors import ConfigError
from arena.services.duelstats import DuelScores, game_scores
from arena.tournament.records import GameRecord
from arena.tournament.sprt import (
    NELO_SCALE, Estimate, Pentanomial, Sprt, elo_from_score, score_from_elo,
)


def test_elo_from_a_score_is_the_logistic_difference() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(190.849, abs=1e-3)   # 400 log10(3)
    assert elo_from_score(0.25) == pytest.approx(-190.849, abs=1e-3)
    assert elo_from_score(10 / 11) == pytest.approx(400.0)             # odds of 10 to 1
    assert (elo_from_score(0.0), elo_from_score(1.0)) == (-math.inf, math.inf)
    assert score_from_elo(elo_from_score(0.64)) == pytest.approx(0.64)


def test_a_symmetric_set_of_pairs_scores_even_with_its_interval_from_the_pairs_spread() -> None:
    # 100 pairs: 10 lost both, 20 lost one and drew one, 40 split, 20 won one and drew one,
    # 10 won both. Per game: 0, 0.25, 0.5, 0.75, 1; the mean is 0.5 and the spread of a pair is
    # (10 * 0.25 + 20 * 0.0625 + 0 + 20 * 0.0625 + 10 * 0.25) / 100 = 0.075.
    estimate = Pentanomial((10, 20, 40, 20, 10)).estimate()
    assert (estimate.units, estimate.score) == (100, 0.5)
    assert estimate.variance == pytest.approx(0.075)
    half = 1.959964 * math.sqrt(0.075 / 100)                          # 0.05368
    assert estimate.interval == pytest.approx((0.5 - half, 0.5 + half))
    assert estimate.elo == 0.0 and estimate.los == 0.5
    low, high = estimate.elo_interval
    assert high == pytest.approx(-low) == pytest.approx(37.44, abs=0.01)   # 400 log10(0.5537 / 0.4463)
    # nElo divides by one game's deviation: sqrt(2 * 0.075) = 0.3873 for a pair of games.
    assert estimate.nelo == 0.0
    assert estimate.nelo_interval == pytest.approx((-half / 0.3873 * NELO_SCALE,
                                                    half / 0.3873 * NELO_SCALE), rel=1e-4)


def test_a_winning_record_has_its_los_from_the_normal_tail() -> None:
    # 64 units scoring 0.6 with a spread of 0.16: standard error 0.05, two of them above 0.5.
    estimate = Estimate(64, 2, 0.6, 0.16)
    assert estimate.stderr == pytest.approx(0.05)
    assert estimate.los == pytest.approx(0.97725, abs=1e-5)
    assert estimate.interval == pytest.approx((0.6 - 0.098, 0.6 + 0.098), abs=1e-3)


def test_even_pairs_every_time_leave_no_doubt_and_no_nelo() -> None:
    estimate = Pentanomial((0, 0, 73, 0, 0)).estimate()
    assert estimate.interval == (0.5, 0.5) and estimate.los == 0.5
    assert estimate.nelo is None and estimate.nelo_interval is None


def test_the_sprt_bounds_follow_alpha_and_beta() -> None:
    test = Sprt(0, 5)
    assert test.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert test.upper == pytest.approx(2.944, abs=1e-3)
    skewed = Sprt(0, 5, alpha=0.01, beta=0.2)
    assert (skewed.lower, skewed.upper) == pytest.approx((math.log(0.2 / 0.99), math.log(0.8 / 0.01)))
    assert (test.verdict(3.0), test.verdict(-3.0), test.verdict(2.9)) == ("H1", "H0", None)


def test_the_pentanomial_llr_of_pairs_that_are_all_won_or_all_lost_by_hand() -> None:
    """With 30 pairs lost twice and 70 won twice, the likeliest distribution with a mean score s
    puts s on winning both and 1 - s on losing both (the three kinds never seen count 0.001 of
    a pair each, which moves the LLR by less than 0.001 here). Against H0: s = 0.5 and H1:
    s = 0.75, the LLR is 100 (0.3 ln(0.25 / 0.5) + 0.7 ln(0.75 / 0.5)) = 7.5881."""
    pairs = Pentanomial((30, 0, 0, 0, 70))
    by_hand = 100 * (0.3 * math.log(0.25 / 0.5) + 0.7 * math.log(0.75 / 0.5))
    assert by_hand == pytest.approx(7.5881, abs=1e-4)
    # Logistic Elo: 0.75 is +190.85 Elo.
    assert Sprt(0, elo_from_score(0.75), model="logistic").llr(pairs) == pytest.approx(by_hand, abs=1e-3)
    # Normalized Elo: with two outcomes a share q of wins has t = (q - 0.5) / sqrt(q (1 - q)),
    # so q = 0.75 is t = 1 / sqrt(3) per pair, i.e. nElo t / sqrt(2) * 800 / ln 10 = 141.84.
    nelo = 1 / math.sqrt(3) / math.sqrt(2) * NELO_SCALE
    assert nelo == pytest.approx(141.84, abs=0.01)
    assert Sprt(0, nelo).llr(pairs) == pytest.approx(by_hand, abs=1e-3)


@pytest.mark.parametrize("counts, model, elo0, elo1, llr", [
    # Cross-checked by maximising the same likelihoods under the same constraints with a
    # general-purpose constrained optimiser (SLSQP), independently of this code's solver.
    ((10, 40, 80, 50, 20), "normalized", 0, 50, 1.86768),
    ((10, 40, 80, 50, 20), "logistic", 0, 50, 0.38226),
    ((3, 20, 50, 22, 5), "normalized", -20, 20, 1.13716),
    ((3, 20, 50, 22, 5), "logistic", 0, 50, -3.06249),
    ((1, 2, 3, 4, 5), "normalized", 0, 5, 0.14094),
    ((0, 0, 0, 0, 50), "logistic", 0, 200, 20.91939),
])
def test_the_pentanomial_llr_matches_an_independent_optimiser(counts, model, elo0, elo1, llr) -> None:
    assert Sprt(elo0, elo1, model=model).llr(Pentanomial(counts)) == pytest.approx(llr, abs=1e-4)


def test_better_results_raise_the_llr() -> None:
    test = Sprt(0, 10)
    worse, better = Pentanomial((5, 20, 50, 20, 5)), Pentanomial((5, 20, 50, 20, 5)).add(2.0)
    assert test.llr(better) > test.llr(worse)
    assert better.counts == (5, 20, 50, 20, 6)


@pytest.mark.parametrize("arguments, words", [
    ((5, 0), "elo0 must be below elo1"),
    ((0, 5, 0.0, 0.05), "alpha must be between 0 and 1"),
    ((0, 5, 0.05, 1.0), "beta must be between 0 and 1"),
    ((0, 5, 0.6, 0.5), "alpha \\+ beta must be below 1"),
    ((0, 300), "normalized model must lie within -200..200"),
    ((0, math.nan), "must be numbers"),
])
def test_an_sprt_it_cannot_run_is_refused(arguments, words) -> None:
    with pytest.raises(ConfigError, match=words):
        Sprt(*arguments)
    with pytest.raises(ConfigError, match="model must be one of normalized, logistic"):
        Sprt(0, 5, model="bayesian")  # type: ignore[arg-type]


def game(game_id: int, table: tuple[str, ...], places: tuple[tuple[int, ...], ...]) -> GameRecord:
    """A finished game of deal ``game_id // 2``; the first place's seat won (if alone)."""
    winner = places[0][0] if len(places[0]) == 1 else None
    return GameRecord(game_id, game_id // 2, table, 1, places, winner, OutcomeReason.EMPTIED, 10, 0.0)


def test_a_bot_scores_against_every_seat_of_another_bot() -> None:
    assert game_scores(game(0, ("a", "b"), ((1,), (0,)))) == {"a": 0.0, "b": 1.0}
    assert game_scores(game(0, ("a", "b"), ((0, 1),))) == {"a": 0.5, "b": 0.5}   # a drawn game
    # a b a b; places: seat 1 (b), then seats 0 and 3 (a, b) shared, then seat 2 (a).
    # a's seat 0 vs b's seats 1 and 3: 0 + 0.5; a's seat 2: 0 + 0. Mean 0.5 / 4.
    four = game(0, ("a", "b", "a", "b"), ((1,), (0, 3), (2,)))
    assert game_scores(four) == {"a": 0.125, "b": 0.875}
    three = game(0, ("a", "b", "c"), ((2,), (0,), (1,)))
    assert game_scores(three) == {"a": 0.5, "b": 0.0, "c": 1.0}


def test_the_pairs_feed_the_sprt_and_the_duel_stops_at_the_pair_that_decides() -> None:
    scores = DuelScores(("a", "b"), seats=2, games_per_deal=2, sprt=Sprt(0, 200))
    a_wins = [game(i, ("a", "b") if i % 2 == 0 else ("b", "a"), ((i % 2,), (1 - i % 2,)))
              for i in range(40)]
    stops = [scores.add(record) for record in a_wins]
    decided_at = stops.index(True)
    assert decided_at % 2 == 1                       # at the end of a pair, never inside one
    assert all(stops[decided_at:]) and scores.games == decided_at + 1
    assert scores.pairs is not None and scores.pairs.counts == (0, 0, 0, 0, scores.deals)
    outcome = scores.outcome
    assert outcome is not None and outcome.verdict == "H1" and outcome.games == decided_at + 1
    assert outcome.llr >= outcome.sprt.upper
    estimate = scores.estimate("a")
    assert estimate is not None and estimate.score == 1.0 and estimate.units == scores.deals


def test_a_deal_cut_short_counts_in_no_score() -> None:
    scores = DuelScores(("a", "b"), seats=2, games_per_deal=2)
    scores.add(game(0, ("a", "b"), ((0,), (1,))))
    assert scores.estimate("a") is None and scores.deals == 0
    scores.add(game(1, ("b", "a"), ((0,), (1,))))     # b wins the return game: a split pair
    scores.add(game(2, ("a", "b"), ((0,), (1,))))     # the next deal, cut short
    estimate = scores.estimate("a")
    assert estimate is not None and (estimate.units, estimate.score) == (1, 0.5)
    assert scores.pairs == Pentanomial((0, 0, 1, 0, 0)) and scores.outcome is None


def test_an_sprt_needs_two_bots_at_two_seats() -> None:
    with pytest.raises(ConfigError, match="two bots at two seats.*3 bots at 4 seats"):
        DuelScores(("a", "b", "c"), seats=4, games_per_deal=4, sprt=Sprt(0, 5))
    with pytest.raises(ConfigError, match="2 bots at 4 seats"):
        DuelScores(("a", "b"), seats=4, games_per_deal=2, sprt=Sprt(0, 5))
