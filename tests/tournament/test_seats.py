"""The seat bias: each seat's win rate with a Wilson interval over the deals, kept by the store's
summary as games are stored, read by the rankings, and given to old stores on first open."""

from __future__ import annotations

import math
import sqlite3
from collections import Counter

import pytest
from tournament_helpers import (downgraded_store, make_config, play_synthetic, stored_schema,
                                upgrades_fail)

from arena.tournament.export import rankings_json
from arena.tournament.ratings import rank_games, rank_store
from arena.tournament.seats import SeatTally
from arena.tournament.stats import wilson_interval
from arena.tournament.store import SCHEMA_VERSION, Store

SKILLS = {"ace": 1.0, "bob": 0.5, "cat": 0.0, "dan": -0.5, "eve": -1.0}
CONFIG = make_config("bots: [ace, bob, cat, dan, eve]\nrounds: 6\nseed: 5")   # 120 games, 30 deals
VERSIONS = {bot: "v" for bot in SKILLS}
Z95 = 1.959963984540054


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The Wilson score interval, written out from the textbook formula."""
    p = successes / trials
    centre = p + Z95 ** 2 / (2 * trials)
    spread = Z95 * math.sqrt(p * (1 - p) / trials + Z95 ** 2 / (4 * trials ** 2))
    return (centre - spread) / (1 + Z95 ** 2 / trials), (centre + spread) / (1 + Z95 ** 2 / trials)


def counted(records) -> tuple[Counter[int], int, int]:
    """Wins per seat, games and distinct deals, counted from the records themselves."""
    wins = Counter(r.winner for r in records if r.winner is not None)
    return wins, len(records), len({r.deal_id for r in records})


def test_wilson_intervals_match_the_formula_and_stay_inside_zero_and_one():
    for successes, trials in [(3, 10), (1, 1), (17, 40), (0, 20), (20, 20)]:
        low, high = wilson_interval(successes / trials, trials)
        want = wilson(successes, trials)
        assert low == pytest.approx(max(0.0, want[0]), abs=1e-12)
        assert high == pytest.approx(min(1.0, want[1]), abs=1e-12)
    assert wilson_interval(1.0, 10) == (pytest.approx(10 / (10 + Z95 ** 2)), 1.0)
    assert wilson_interval(0.0, 10)[0] == 0.0


def test_each_seat_wins_its_share_of_the_games_with_an_interval_over_the_deals():
    records = play_synthetic(CONFIG, SKILLS, seed=3)
    tally = SeatTally()
    tally.add_many(records)
    bias = tally.bias()
    wins, games, deals = counted(records)
    assert (bias.games, bias.deals, len(bias.seats)) == (games, deals, 4) == (120, 30, 4)
    assert bias.draws == games - sum(wins.values()) > 0   # the synthetic games tie sometimes
    assert bias.fair_share == 0.25
    for rate in bias.seats:
        assert (rate.games, rate.wins, rate.deals) == (120, wins[rate.seat], 30)
        assert rate.win_rate == wins[rate.seat] / 120
        # 30 deals, not 120 games: the seatings of a deal are not independent
        assert rate.win_rate_ci == pytest.approx(wilson(wins[rate.seat] / 4, 30))


def test_the_rankings_of_a_store_show_the_seat_bias_of_its_games(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=4)
    with Store.open(tmp_path / "t.sqlite") as store:
        store.init_tournament(CONFIG, "", {}, VERSIONS)
        store.add_games(records[:50])
        store.add_games(records[50:])
    with Store.open(tmp_path / "t.sqlite", readonly=True) as reader:
        bias = rank_store(reader).seat_bias
    wins, games, deals = counted(records)
    assert [(r.seat, r.wins, r.games, r.deals) for r in bias.seats] == [
        (seat, wins[seat], games, deals) for seat in range(4)]
    assert bias == rank_games("demo", records).seat_bias   # stored sums = counting afresh


def test_rankings_json_holds_the_seat_bias(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=5)
    data = rankings_json(rank_games("demo", records))["seat_bias"]
    wins, games, deals = counted(records)
    assert (data["games"], data["deals"], data["draws"]) == (games, deals, games - sum(wins.values()))
    assert [(s["seat"], s["wins"]) for s in data["seats"]] == [(seat, wins[seat]) for seat in range(4)]
    assert rankings_json(rank_games("demo", []))["seat_bias"] is None


def schema_2_store(path, records) -> None:
    """A results file as the store wrote it before it counted the seats (schema 2), its
    ratings marked so that a re-rating would show."""
    downgraded_store(path, CONFIG, VERSIONS, records, 2, [
        "DROP TABLE summary_seats", "UPDATE summary_bots SET mu = 99.0 WHERE bot = 'eve'"])


def test_a_store_of_schema_2_gets_its_seat_counts_once_on_first_open_and_keeps_its_ratings(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=6)
    path = tmp_path / "old.sqlite"
    schema_2_store(path, records)
    with Store.open(path, readonly=True) as reader:   # arena rankings on an old file
        rankings = rank_store(reader)
    wins, games, _ = counted(records)
    assert [r.wins for r in rankings.seat_bias.seats] == [wins[seat] for seat in range(4)]
    eve = next(s for s in rankings.standings if s.bot == "eve")
    assert eve.mu == 99.0   # the seats were counted, the games not rated again
    assert stored_schema(path) == str(SCHEMA_VERSION)
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT SUM(games) FROM summary_seats").fetchone() == (4 * games,)
    raw.close()


def test_a_schema_2_store_that_cannot_be_written_is_ranked_from_its_games(tmp_path, monkeypatch):
    records = play_synthetic(CONFIG, SKILLS, seed=7)
    path = tmp_path / "old.sqlite"
    schema_2_store(path, records)

    upgrades_fail(monkeypatch)
    with Store.open(path, readonly=True) as reader:
        rankings = rank_store(reader)
    assert rankings.seat_bias == rank_games("demo", records).seat_bias
    eve = next(s for s in rankings.standings if s.bot == "eve")
    assert eve.mu != 99.0   # rated from the games, as a read-only old store always is
