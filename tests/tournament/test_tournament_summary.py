"""The store's summary: ratings and statistics kept as games are stored, equal to re-rating them.

``arena rankings`` reads the summary instead of every game; these tests hold it to a from-scratch
rating of the stored games, through batches, reopening, out-of-order writers, a failed write
and a store written before the summary existed.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace

import pytest
from tournament_helpers import make_config, play_synthetic, stored_schema, upgrades_fail

from arena.tournament.errors import StoreWriteError
from arena.tournament.ratings import rank_games, rank_store
from arena.tournament.store import SCHEMA_VERSION, Store

SKILLS = {"ace": 3.0, "bob": 1.0, "cat": 0.5, "dan": 0.0, "eve": -1.0}
CONFIG = make_config("bots: [ace, bob, cat, dan, eve]\nrounds: 15\nseed: 21")   # 300 games
VERSIONS = {bot: "v" for bot in SKILLS}


def fresh_store(path, records=()) -> Store:
    store = Store.open(path)
    store.init_tournament(CONFIG, "", {}, VERSIONS)
    for start in range(0, len(records), 37):  # batches of any size, as the runner's
        store.add_games(records[start:start + 37])
    return store


def same_rankings(got, records, **extra) -> None:
    """``got`` equals ranking ``records`` from scratch: every number, mu and sigma to 1e-9."""
    want = replace(rank_games("demo", records, bots=SKILLS, **extra), tournament_seed=21)
    assert [s.bot for s in got.standings] == [s.bot for s in want.standings]
    for mine, theirs in zip(got.standings, want.standings):
        assert mine.mu == pytest.approx(theirs.mu, abs=1e-9)
        assert mine.sigma == pytest.approx(theirs.sigma, abs=1e-9)
        assert mine.stats == theirs.stats and mine.disqualified == theirs.disqualified
    assert got.head_to_head == want.head_to_head and got.games == want.games


def test_the_summary_kept_while_storing_equals_rating_the_stored_games_from_scratch(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=2, faulty={"eve": 0.05})
    assert len(records) == 300
    with fresh_store(tmp_path / "t.sqlite", records) as store:
        store.mark_disqualified("dan", "crashed")
        summary = store.kept_summary()
        assert summary is not None and (summary.games, summary.next_id) == (300, 300)
        same_rankings(rank_store(store), records, disqualified=["dan"])


def test_rankings_read_the_summary_not_the_games(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=3)
    fresh_store(tmp_path / "t.sqlite", records).close()
    raw = sqlite3.connect(tmp_path / "t.sqlite")
    with raw:  # every stored game made unreadable: only the summary can rank them now
        raw.execute("UPDATE games SET places = 'not json', seats = 'not json'")
    raw.close()
    with Store.open(tmp_path / "t.sqlite", readonly=True) as reader:
        same_rankings(rank_store(reader), records)


def test_a_half_stored_tournament_continues_its_summary_after_reopening(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=4)
    fresh_store(tmp_path / "t.sqlite", records[:90]).close()
    with Store.open(tmp_path / "t.sqlite") as store:
        store.add_games(records[90:])
        same_rankings(rank_store(store), records)
        assert store.kept_summary().games == 300


def test_games_stored_out_of_order_make_the_summary_rebuild_once(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=5)
    shuffled = records[:]
    random.Random(1).shuffle(shuffled)
    with Store.open(tmp_path / "t.sqlite") as store:
        store.init_tournament(CONFIG, "", {}, VERSIONS)
        for record in shuffled:
            store.add_game(record)
        assert store.kept_summary() is None  # stale
        same_rankings(rank_store(store), records)
        assert store.kept_summary().games == 300  # rebuilt, kept, and kept up to date again


def test_a_failed_write_leaves_the_summary_of_the_stored_games(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=6)
    with fresh_store(tmp_path / "t.sqlite", records[:50]) as store:
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")
        big = [replace(r, moves=tuple(f"move {i}" for i in range(5000))) for r in records[50:60]]
        with pytest.raises(StoreWriteError, match="disk is full"):
            store.add_games(big)
        same_rankings(rank_store(store), records[:50])
        store._conn.execute("PRAGMA max_page_count = 1073741823")
        store.add_games(records[50:])
        same_rankings(rank_store(store), records)


SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE bots (name TEXT PRIMARY KEY, version TEXT NOT NULL);
CREATE TABLE disqualified (bot TEXT PRIMARY KEY, reason TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE games (
    game_id INTEGER PRIMARY KEY, deal_id INTEGER NOT NULL, seats TEXT NOT NULL,
    deal_seed INTEGER NOT NULL, places TEXT NOT NULL, winner INTEGER, winner_bot TEXT,
    reason TEXT NOT NULL, decisions INTEGER NOT NULL, duration_s REAL NOT NULL,
    faults TEXT NOT NULL, moves TEXT NOT NULL, hands TEXT, finished_at TEXT NOT NULL);
"""


# the games' columns of schema 1 (to 3: schema 4 added the seats' thinking)
OLD_COLUMNS = ("game_id, deal_id, seats, deal_seed, places, winner, winner_bot, reason, decisions, "
               "duration_s, faults, moves, hands, finished_at")


def old_store(path, records) -> None:
    """A results file as the store wrote it before the summary (schema 1)."""
    with Store.open(tmp := path.with_name("scratch.sqlite")) as scratch:
        scratch.init_tournament(CONFIG, "", {}, VERSIONS)
        scratch.add_games(records)
    source = sqlite3.connect(tmp)
    rows = source.execute(f"SELECT {OLD_COLUMNS} FROM games").fetchall()
    meta = [r for r in source.execute("SELECT key, value FROM meta")
            if not r[0].startswith("summary") and r[0] not in ("schema_version", "schedule", "deals")]
    source.close()
    raw = sqlite3.connect(path)
    with raw:
        raw.executescript(SCHEMA_1)
        raw.executemany("INSERT INTO meta VALUES (?, ?)", meta + [("schema_version", "1")])
        raw.executemany("INSERT INTO bots VALUES (?, ?)", VERSIONS.items())
        raw.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 14)})", rows)
    raw.close()


def test_a_store_of_schema_1_gets_its_summary_once_on_first_open(tmp_path):
    records = play_synthetic(CONFIG, SKILLS, seed=7)
    path = tmp_path / "old.sqlite"
    old_store(path, records)
    with Store.open(path, readonly=True) as reader:   # arena rankings on an old file
        same_rankings(rank_store(reader), records)
        assert reader.layout == "tables-first"        # it resumes as it was played
    raw = sqlite3.connect(path)
    assert stored_schema(path) == str(SCHEMA_VERSION)
    assert raw.execute("SELECT COUNT(*) FROM summary_bots").fetchone() == (5,)
    raw.close()


def test_a_store_of_schema_1_that_cannot_be_written_is_ranked_from_its_games(tmp_path, monkeypatch):
    records = play_synthetic(CONFIG, SKILLS, seed=8)
    path = tmp_path / "old.sqlite"
    old_store(path, records)

    upgrades_fail(monkeypatch)
    with Store.open(path, readonly=True) as reader:
        same_rankings(rank_store(reader), records)
    assert stored_schema(path) == "1"
