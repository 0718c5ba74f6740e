"""Per-bot statistics, deal-level bootstrap intervals and the head-to-head crosstable."""

from __future__ import annotations

import random
import statistics

import pytest
from tournament_helpers import make_config, play_synthetic

from arena.engine.outcome import OutcomeReason
from arena.tournament.errors import RecordError
from arena.tournament.records import GameRecord
from arena.tournament.stats import Tally, binomial, multinomial, percentile_interval


def g(game_id, deal_id, table, places, winner):
    return GameRecord(game_id, deal_id, table, 1, places, winner, OutcomeReason.EMPTIED, 3, 0.1)


HAND = [
    g(0, 0, ("a", "b", "c"), ((1,), (0, 2)), 1),    # b 1st, a and c share 2nd
    g(1, 0, ("b", "c", "a"), ((2,), (0,), (1,)), 2),  # a 1st, b 2nd, c 3rd
    g(2, 1, ("a", "b", "c"), ((0, 1, 2),), None),     # everyone tied first, no winner
]


def test_counts_wins_and_mean_place_by_hand():
    tally = Tally()
    tally.add_many(HAND)
    a, b, c = (tally.stats(x) for x in "abc")
    assert (a.games, a.wins, a.mean_place) == (3, 1, pytest.approx((2 + 1 + 1) / 3))
    assert (b.games, b.wins, b.mean_place) == (3, 1, pytest.approx((1 + 2 + 1) / 3))
    assert (c.games, c.wins, c.mean_place) == (3, 0, pytest.approx((2 + 3 + 1) / 3))
    assert a.win_rate == pytest.approx(1 / 3) and c.win_rate == 0.0


def test_head_to_head_by_hand():
    tally = Tally()
    tally.add_many(HAND)
    h2h = tally.head_to_head()
    ab, ba, ac = h2h[("a", "b")], h2h[("b", "a")], h2h[("a", "c")]
    assert (ab.games, ab.ahead, ab.behind, ab.tied) == (3, 1, 1, 1)
    assert (ba.ahead, ba.behind) == (1, 1)
    assert (ac.games, ac.ahead, ac.behind, ac.tied) == (3, 1, 0, 2)
    assert ac.ahead_rate == pytest.approx(1 / 3)


def test_bootstrap_interval_contains_the_estimate_and_is_deterministic():
    config = make_config("bots: [a, b, c, d, e]\nrounds: 6\nseed: 5")
    records = play_synthetic(config, {"a": 2, "b": 1, "c": 0, "d": 0, "e": -1}, seed=2)
    tally, again = Tally(), Tally()
    tally.add_many(records)
    again.add_many(records)
    for bot in "abcde":
        stats = tally.stats(bot)
        assert stats.win_rate_ci[0] <= stats.win_rate <= stats.win_rate_ci[1]
        assert stats.mean_place_ci[0] <= stats.mean_place <= stats.mean_place_ci[1]
        assert stats.win_rate_ci[0] < stats.win_rate_ci[1]
        assert again.stats(bot) == stats
    assert tally.stats("a", seed=1) != tally.stats("a", seed=2)


def test_a_deal_is_a_category_once_its_bot_plays_a_later_one():
    tally = Tally()
    tally.add_many(HAND[:2])
    assert tally.categories("a") == {(2, 1, 3): 1}      # deal 0 so far: 2 games, 1 win, 2 + 1
    tally.add(HAND[2])
    assert tally.categories("a") == {(2, 1, 3): 1, (1, 0, 1): 1}


def test_games_of_an_earlier_deal_after_a_later_one_are_refused():
    tally = Tally()
    tally.add(HAND[2])
    with pytest.raises(RecordError, match="schedule order"):
        tally.add(HAND[0])


def test_the_sums_stored_and_read_back_give_the_same_statistics():
    config = make_config("bots: [a, b, c, d]\nrounds: 5\nseed: 5")
    records = play_synthetic(config, {"a": 1, "b": 0, "c": 0, "d": -1}, seed=4)
    whole, first = Tally(), Tally()
    whole.add_many(records)
    first.add_many(records[:30])
    bots, categories, pairs = first.changes()
    restored = Tally.restore(first.games, bots, categories, pairs)
    restored.add_many(records[30:])
    assert restored.games == whole.games == len(records)
    assert [restored.stats(b) for b in "abcd"] == [whole.stats(b) for b in "abcd"]
    assert restored.head_to_head() == whole.head_to_head()


def test_a_single_deal_gives_a_degenerate_interval():
    tally = Tally()
    tally.add_many(HAND[:2])
    stats = tally.stats("c")
    assert stats.mean_place_ci == (stats.mean_place, stats.mean_place)


def test_fast_bootstrap_agrees_with_a_naive_deal_resampling():
    config = make_config("bots: [a, b, c, d, e, f]\nrounds: 5\nseed: 5")
    records = play_synthetic(config, {"a": 1, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0}, seed=3)
    tally = Tally()
    tally.add_many(records)
    fast = tally.stats("a", resamples=2000)
    per_deal: dict[int, list[int]] = {}
    for rec in records:
        if "a" in rec.table:
            seat = rec.table.index("a")
            sums = per_deal.setdefault(rec.deal_id, [0, 0])
            sums[0] += 1
            sums[1] += int(rec.winner == seat)
    deals = list(per_deal.values())
    rng = random.Random(0)
    rates = []
    for _ in range(2000):
        sample = rng.choices(deals, k=len(deals))
        rates.append(sum(s[1] for s in sample) / sum(s[0] for s in sample))
    naive = percentile_interval(rates)
    assert fast.win_rate_ci[0] == pytest.approx(naive[0], abs=0.03)
    assert fast.win_rate_ci[1] == pytest.approx(naive[1], abs=0.03)


@pytest.mark.parametrize(("n", "p"), [(8, 0.3), (40, 0.1), (1000, 0.2), (1000, 0.7), (5, 1.0)])
def test_binomial_sampler_has_the_right_mean_and_variance(n, p):
    rng = random.Random(11)
    draws = [binomial(rng, n, p) for _ in range(20_000)]
    assert all(0 <= x <= n for x in draws)
    assert statistics.fmean(draws) == pytest.approx(n * p, abs=0.05 * max(1, n * p) ** 0.5 + 1e-9)
    assert statistics.pvariance(draws) == pytest.approx(n * p * (1 - p), rel=0.06, abs=1e-9)


def test_multinomial_counts_sum_to_n_and_follow_weights():
    rng = random.Random(3)
    totals = [0, 0, 0]
    for _ in range(2000):
        counts = multinomial(rng, 50, [5, 3, 2])
        assert sum(counts) == 50
        totals = [t + c for t, c in zip(totals, counts)]
    shares = [t / (2000 * 50) for t in totals]
    assert shares == pytest.approx([0.5, 0.3, 0.2], abs=0.01)


def test_percentile_interval_of_known_values():
    assert percentile_interval([float(i) for i in range(1000)]) == (25.0, 974.0)
