"""A faulty seat's result: placed last, as if beaten, so the game goes to the clean seat alone
in first place (none if several tie there, none in a cap's draw); stores written before that
rule (schema 4 and older) get it on their first open, or as they are read where they cannot be
written."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest
from tournament_helpers import downgraded_store, make_config, play_synthetic, stored_schema, upgrades_fail

from arena.engine.outcome import OutcomeReason
from arena.play.referee import faulty_last
from arena.tournament.ratings import rank_store
from arena.tournament.records import GameRecord
from arena.tournament.lock import run_lock
from arena.tournament.store import SCHEMA_VERSION, Store

EMPTIED, BLOCKED, CAP = OutcomeReason.EMPTIED, OutcomeReason.BLOCKED, OutcomeReason.CAP


@pytest.mark.parametrize("places, winner, faulty, reason, stored", [
    # seat 0 faulted, its fallback went out first: seat 1 beat it
    (((0,), (1,)), 0, {0}, EMPTIED, (((1,), (0,)), 1)),
    # four seats: the clean seat with fewest cards left is alone behind the faulty winner
    (((0,), (2,), (1, 3)), 0, {0}, EMPTIED, (((2,), (1, 3), (0,)), 2)),
    # two clean seats tie behind it: nobody won
    (((0,), (1, 2), (3,)), 0, {0}, EMPTIED, (((1, 2), (3,), (0,)), None)),
    # S14: a blocked game tied between a faulty seat and a clean one is the clean one's
    (((0, 1), (2,)), None, {0}, BLOCKED, (((1,), (2,), (0,)), 1)),
    # G6: the decision cap draws the game, whatever the cards left
    (((1,), (0, 2)), None, {2}, CAP, (((1,), (0,), (2,)), None)),
    # a clean winner keeps its game; the faulty seat still goes last
    (((1,), (0,), (2,)), 1, {0}, EMPTIED, (((1,), (2,), (0,)), 1)),
    # every seat faulted: all last together, no winner
    (((0,), (1,)), 0, {0, 1}, EMPTIED, (((0, 1),), None)),
])
def test_a_faulty_seat_is_placed_last_as_if_beaten(places, winner, faulty, reason, stored) -> None:
    assert faulty_last(places, winner, faulty, reason) == stored


CONFIG = make_config("bots: [ace, bob, cat, dan]\nrounds: 5\nseed: 3")
SKILLS = {"ace": 1.0, "bob": 0.5, "cat": 0.0, "dan": -0.5}
VERSIONS = {bot: "v" for bot in SKILLS}


def faulty_records() -> list[GameRecord]:
    """Synthetic games where dan often faults (placed last, the clean first seat winning)."""
    records = play_synthetic(CONFIG, SKILLS, seed=4, faulty={"dan": 0.5})
    assert sum(bool(r.faults) and r.winner is not None for r in records) >= 5
    return records


def schema_4_store(path, records: list[GameRecord]) -> None:
    """The file schema 4 wrote for these games had it played them with dan's fallback going
    out first in each faulty game: no winner stored there, and the wins counted without them."""
    old_wins = Counter(r.winner_bot for r in records if r.winner is not None and not r.faults)
    downgraded_store(path, CONFIG, VERSIONS, records, 4, [
        "UPDATE games SET winner = NULL, winner_bot = NULL WHERE faults != '[]'",
        *(f"UPDATE summary_bots SET wins = {old_wins[bot]} WHERE bot = '{bot}'" for bot in SKILLS)])


def wins(records) -> dict[str, int]:
    """Each bot's games won, counted from the records."""
    counted = Counter(r.winner_bot for r in records if r.winner is not None)
    return {bot: counted[bot] for bot in SKILLS}


def test_a_schema_4_store_gives_the_clean_first_seats_their_wins_on_first_open(tmp_path) -> None:
    records = faulty_records()
    path = tmp_path / "old.sqlite"
    schema_4_store(path, records)
    with Store.open(path, readonly=True) as store:   # arena rankings: upgraded through a writer
        stored = list(store.games(moves=False))
        table = rank_store(store)
    assert stored_schema(path) == str(SCHEMA_VERSION)
    assert [(r.game_id, r.winner) for r in stored] == [(r.game_id, r.winner) for r in records]
    assert {s.bot: s.stats.wins for s in table.standings} == wins(records)
    raw = sqlite3.connect(path)   # kept in the file: readers do not rate every game again
    assert raw.execute("SELECT value FROM meta WHERE key = 'summary_next'").fetchone() == (str(len(records)),)
    raw.close()
    with Store.open(path) as again:   # done once: the file holds it now
        assert {s.bot: s.stats.wins for s in rank_store(again).standings} == wins(records)


def test_an_unreadable_faulty_game_does_not_stop_the_upgrade(tmp_path) -> None:
    """arena verify --drop opens the store for writing to remove a broken row: the upgrade must
    not fail on it (the row is left for verify to name), and the other games are re-won."""
    records = faulty_records()
    path = tmp_path / "old.sqlite"
    schema_4_store(path, records)
    broken = next(r.game_id for r in records if r.faults)
    raw = sqlite3.connect(path)
    with raw:
        raw.execute("UPDATE games SET places = 'not json' WHERE game_id = ?", (broken,))
    raw.close()
    with Store.open(path) as store:
        read = dict(store.games_as_read())
    assert stored_schema(path) == str(SCHEMA_VERSION)
    assert "cannot read stored game" in str(read.pop(broken))
    assert {gid: r.winner for gid, r in read.items()} == {r.game_id: r.winner for r in records
                                                          if r.game_id != broken}


def test_a_store_a_run_is_writing_is_read_with_the_new_winners_but_not_upgraded(tmp_path) -> None:
    """A run of an older arena may be writing the file: a reader then leaves its schema alone
    (the run would go on writing old-rule games into an upgraded file) and reads it as it is;
    once the run is over, the next reader upgrades it."""
    records = faulty_records()
    path = tmp_path / "demo.sqlite"
    schema_4_store(path, records)
    with run_lock("demo", tmp_path):
        with Store.open(path, readonly=True) as store:
            assert [r.winner for r in store.games(moves=False)] == [r.winner for r in records]
        assert stored_schema(path) == "4"
    with Store.open(path, readonly=True) as store:
        assert {s.bot: s.stats.wins for s in rank_store(store).standings} == wins(records)
    assert stored_schema(path) == str(SCHEMA_VERSION)


def test_a_schema_4_store_that_cannot_be_written_is_read_with_the_same_winners(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = faulty_records()
    path = tmp_path / "old.sqlite"
    schema_4_store(path, records)
    upgrades_fail(monkeypatch)
    with Store.open(path, readonly=True) as store:
        stored = list(store.games(moves=False))
        table = rank_store(store)
    assert stored_schema(path) == "4"
    assert [r.winner for r in stored] == [r.winner for r in records]
    assert {s.bot: s.stats.wins for s in table.standings} == wins(records)
