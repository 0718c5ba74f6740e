"""The results store remembers which arena code played its games.

Seen before: a strength campaign resumed over several sessions, with the arena changed between
them, stored its games as one tournament and said nothing; its rankings mixed the games of two
engines with no trace of it. Now every run records the code that plays (its identity, from
:func:`arena.tournament.shipment.code_identity`), a resume under other code says so, and the
rankings count the versions.
"""

from __future__ import annotations

import sqlite3

from tournament_helpers import make_config

from arena.engine.outcome import OutcomeReason
from arena.tournament.ratings import rank_store
from arena.tournament.records import GameRecord
from arena.tournament.store import UNRECORDED_CODE, Store, results_path

TEXT = "bots: [a, b]\nseats: 2\nrounds: 4\nseed: 3\n"
RULES = {"preset": "switch"}
VERSIONS = {"a": "1" * 64, "b": "2" * 64}
OLD, NEW = "c0de" * 16, "beef" * 16


def a_game(game_id: int) -> GameRecord:
    """Game ``game_id`` of the schedule, won by seat 0."""
    table = ("a", "b") if game_id % 2 == 0 else ("b", "a")
    return GameRecord(game_id=game_id, deal_id=game_id // 2, table=table, deal_seed=game_id,
                      places=((0,), (1,)), winner=0, reason=OutcomeReason.EMPTIED,
                      decisions=12, duration_s=0.1)


def opened(tmp_path) -> Store:
    return Store.open(results_path("demo", tmp_path))


def begin(store: Store, code: str | None, restart: bool = False):
    return store.init_tournament(make_config(TEXT), TEXT, RULES, VERSIONS, code=code,
                                 restart=restart)


def test_a_new_tournament_records_the_code_that_plays_it(tmp_path):
    with opened(tmp_path) as store:
        opening = begin(store, OLD)
        assert store.code_versions() == (OLD,)
        assert not opening.code_changed


def test_resuming_with_the_same_code_changes_nothing(tmp_path):
    with opened(tmp_path) as store:
        begin(store, OLD)
        store.add_games([a_game(0), a_game(1)])
        opening = begin(store, OLD)
        assert not opening.code_changed and store.code_versions() == (OLD,)


def test_resuming_with_other_code_keeps_the_games_and_says_so(tmp_path):
    with opened(tmp_path) as store:
        begin(store, OLD)
        store.add_games([a_game(0), a_game(1)])
        opening = begin(store, NEW)
        assert opening.code_changed
        assert store.game_count() == 2
        assert store.code_versions() == (OLD, NEW)


def test_going_back_to_the_first_code_is_a_change_too(tmp_path):
    with opened(tmp_path) as store:
        begin(store, OLD)
        store.add_game(a_game(0))
        begin(store, NEW)
        store.add_game(a_game(1))
        assert begin(store, OLD).code_changed
        assert store.code_versions() == (OLD, NEW, OLD)
        assert len(set(rank_store(store).code_versions)) == 2


def test_other_code_on_a_store_without_games_is_no_change(tmp_path):
    """Nothing was played by the first code: the new one plays everything."""
    with opened(tmp_path) as store:
        begin(store, OLD)
        assert not begin(store, NEW).code_changed
        assert store.code_versions() == (NEW,)


def test_a_restart_forgets_the_old_code_with_the_old_games(tmp_path):
    with opened(tmp_path) as store:
        begin(store, OLD)
        store.add_game(a_game(0))
        opening = begin(store, NEW, restart=True)
        assert opening.archive is not None and not opening.code_changed
        assert store.code_versions() == (NEW,)
    with Store.open(opening.archive, readonly=True) as archived:
        assert archived.code_versions() == (OLD,)


def test_games_stored_before_versions_were_recorded_count_as_unrecorded(tmp_path):
    """A store written by an arena that did not record its code (its meta has no list)."""
    with opened(tmp_path) as store:
        begin(store, OLD)
        store.add_game(a_game(0))
    raw = sqlite3.connect(results_path("demo", tmp_path))
    with raw:
        raw.execute("DELETE FROM meta WHERE key = 'code_versions'")
    raw.close()
    with opened(tmp_path) as store:
        assert store.code_versions() == ()
        assert begin(store, NEW).code_changed
        assert store.code_versions() == (UNRECORDED_CODE, NEW)


def test_no_code_records_nothing(tmp_path):
    """A synthetic store (the rankings benchmark) has no code to record."""
    with opened(tmp_path) as store:
        begin(store, None)
        store.add_game(a_game(0))
        assert not begin(store, None).code_changed
        assert store.code_versions() == ()
        assert rank_store(store).code_versions == ()


def test_the_rankings_carry_the_versions_in_order(tmp_path):
    with opened(tmp_path) as store:
        begin(store, OLD)
        store.add_game(a_game(0))
        begin(store, NEW)
        assert rank_store(store).code_versions == (OLD, NEW)
