"""The SQLite results store: round trip, duplicates, resume, changed setups, write failures."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

import pytest
from tournament_helpers import make_config

from arena.engine.outcome import OutcomeReason
from arena.errors import ArenaError
from arena.play.faults import FaultCode
from arena.tournament.errors import ConfigChangedError, DuplicateGameError, StoreError, StoreWriteError
from arena.tournament.records import Fault, GameRecord
from arena.tournament.store import Opening, Store, results_path

CONFIG_TEXT = "bots: [a, b, c, d]\nrounds: 3\nseed: 8\n"
RULES = {"preset": "switch", "hand_size": 7, "drawing": {"after_draw": "may-play", "per_turn": 1}}
VERSIONS = {"a": "1" * 64, "b": "2" * 64, "c": "3" * 64, "d": "4" * 64}


def rotate(k: int) -> tuple[str, ...]:
    bots = ("a", "b", "c", "d")
    return bots[k:] + bots[:k]


def game(game_id: int, winner: int = 0, **extra) -> GameRecord:
    others = tuple((s,) for s in range(4) if s != winner)
    return GameRecord(
        game_id=game_id, deal_id=game_id // 4, table=rotate(game_id % 4),
        deal_seed=2**63 - 1 - game_id, places=((winner,),) + others, winner=winner,
        reason=OutcomeReason.EMPTIED, decisions=30 + game_id, duration_s=0.5, **extra,
    )


@pytest.fixture
def store(tmp_path):
    with Store.open(results_path("demo", tmp_path / "results")) as opened:
        opened.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, RULES, VERSIONS)
        yield opened


def test_results_path_is_one_file_per_tournament(tmp_path):
    assert results_path("demo", tmp_path) == tmp_path / "demo.sqlite"
    assert results_path("x").as_posix() == "results/x.sqlite"


def test_store_uses_wal_and_records_the_tournament(store):
    raw = sqlite3.connect(store.path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()
    info = store.tournament()
    assert info.name == "demo" and info.config_text == CONFIG_TEXT
    assert info.config_hash == make_config(CONFIG_TEXT).config_hash
    assert info.rules_name == "switch" and info.rules_snapshot == RULES
    assert store.bot_versions() == VERSIONS


def test_round_trip_in_game_id_order_whatever_the_insert_order(store):
    records = [
        game(2, winner=3, faults=(Fault(0, "c", FaultCode.TIMEOUT, "slow", "last words"),)),
        game(0, moves=("7H", "draw"), hands=({"hand": 1, "points": [0, 3]},)),
        game(1, winner=2),
    ]
    for rec in records:
        store.add_game(rec)
    assert list(store.games()) == sorted(records, key=lambda r: r.game_id)
    assert store.game_count() == 3 and store.done_game_ids() == {0, 1, 2}
    assert all(at.endswith("+00:00") for _, at in store.finished_games())


def test_winner_bot_column_is_stored(store):
    store.add_game(game(1, winner=2))
    raw = sqlite3.connect(store.path)
    assert raw.execute("SELECT winner_bot, hands FROM games").fetchone() == ("d", None)
    raw.close()


def test_duplicate_game_is_refused_and_the_first_kept(store):
    store.add_game(game(5, winner=1))
    with pytest.raises(DuplicateGameError, match="game 5 is already stored"):
        store.add_game(game(5, winner=2))
    assert [r.winner for r in store.games()] == [1]


def test_a_batch_holding_a_stored_game_is_refused_whole(store):
    store.add_game(game(5, winner=1))
    with pytest.raises(DuplicateGameError, match="game 5 is already stored"):
        store.add_games([game(4), game(5, winner=2), game(6)])
    with pytest.raises(DuplicateGameError, match="game 7 is already stored"):
        store.add_games([game(7), game(7)])
    assert [(r.game_id, r.winner) for r in store.games()] == [(5, 1)]
    store.add_games([game(6), game(7)])
    assert store.done_game_ids() == {5, 6, 7}


def test_resume_sees_done_games_after_reopening(tmp_path):
    path = tmp_path / "demo.sqlite"
    config = make_config(CONFIG_TEXT)
    with Store.open(path) as first:
        first.init_tournament(config, CONFIG_TEXT, RULES, VERSIONS)
        for gid in (0, 1, 4):
            first.add_game(game(gid))
    with Store.open(path, create=False) as second:
        assert second.init_tournament(config, CONFIG_TEXT, RULES, VERSIONS) == Opening()
        assert second.done_game_ids() == {0, 1, 4}


IRISH = {"name": "irish", "deal": {"hand_size": 7, "jokers": 0}, "play": {"sets": ["J"]}}


def test_how_jokers_are_laid_changes_no_game_without_jokers(tmp_path) -> None:
    """`irish` came to name `play.jokers: named` (I2): its games stored before, with no joker
    dealt, are the same games and resume; with jokers dealt the setting is a changed game."""
    named = {**IRISH, "play": {"sets": ["J"], "jokers": "named"}}
    with Store.open(results_path("irish", tmp_path / "results")) as opened:
        opened.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, IRISH, VERSIONS)
        opened.add_game(game(0))
        assert opened.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, named, VERSIONS) == Opening()
    dealt = {**IRISH, "deal": {"hand_size": 7, "jokers": 2}}
    with Store.open(results_path("jokers", tmp_path / "results")) as opened:
        opened.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, dealt, VERSIONS)
        opened.add_game(game(0))
        with pytest.raises(ConfigChangedError, match=r"rule settings changed \('play.jokers': nothing -> 'named'\) "
                                                          r"in the rule set's file or this arena's preset"):
            opened.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT,
                                   {**dealt, "play": {"sets": ["J"], "jokers": "named"}}, VERSIONS)


@pytest.mark.parametrize(
    ("config_text", "rules", "versions", "why"),
    [
        ("bots: [a, b, c, d]\nrounds: 3\nseed: 8\nseats: 3\n", RULES, VERSIONS,
         r"key 'seats' changed \(4 -> 3\)"),
        ("bots: [a, b, c, d]\nrounds: 3\nseed: 9\n", RULES, VERSIONS,
         r"seed changed \(the stored games were dealt from the seed the file had\)"),
        (CONFIG_TEXT, {**RULES, "hand_size": 5}, VERSIONS,
         r"rule settings changed \('hand_size': 7 -> 5\)"),
        (CONFIG_TEXT, {**RULES, "drawing": {"after_draw": "may-play-alone", "per_turn": 1}}, VERSIONS,
         r"rule settings changed \('drawing.after_draw': 'may-play' -> 'may-play-alone'\)"),
        ("bots: [a, b, c]\nrounds: 3\nseed: 8\nseats: 3\n", RULES, VERSIONS,
         r"key 'seats' changed \(4 -> 3\); bot 'd' taken out"),
        ("bots: [a, b, c, d]\nrounds: 3\nseed: 8\nlimits: {move_time: 2.0}\n", RULES, VERSIONS,
         r"key 'limits.move_time' changed \(1.0 -> 2.0\)"),
        # seen accepted as a growth of nothing, the disqualifications left as the old rule made them
        ("bots: [a, b, c, d]\nrounds: 3\nseed: 8\nmax_faults: {in_a_row: null}\n", RULES, VERSIONS,
         r"key 'max_faults' changed \(in_a_row 3, total null -> in_a_row null, total null: the "
         r"stored games' disqualifications were decided by the old rule\)"),
    ],
)
def test_a_changed_setup_is_refused_and_results_kept(store, config_text, rules, versions, why):
    store.add_game(game(0))
    with pytest.raises(ConfigChangedError, match=why):
        store.init_tournament(make_config(config_text), config_text, rules, versions)
    assert store.done_game_ids() == {0}
    assert store.tournament().config_hash == make_config(CONFIG_TEXT).config_hash


def test_an_entry_switched_to_another_class_of_its_file_is_refused(tmp_path) -> None:
    """Seen: {name: mine, path: two.py} switched to two.py:First kept its stored games and
    played on as First under the same name (the version is the file's hash: the class is not
    in it, so that stored versions stay as they were). The entries tell the class."""
    before = "bots: [a, b, c, {name: d, path: two.py}]\nrounds: 3\nseed: 8\n"
    after = before.replace("path: two.py}", "path: two.py, class: First}")
    with Store.open(results_path("two", tmp_path / "results")) as opened:
        opened.init_tournament(make_config(before), before, RULES, VERSIONS)
        opened.add_game(game(0))
        with pytest.raises(ConfigChangedError, match=r"bot 'd' plays another class of its file "
                                                     r"\(Bot -> First\): give it another name"):
            opened.init_tournament(make_config(after), after, RULES, VERSIONS)
        assert opened.done_game_ids() == {0}


GOES_ON = "tournament 'demo' goes on: its file changed, not its games (1 stored games kept, 11 to play)"


@pytest.mark.parametrize(("written", "told"), [
    ("limits: {bank: 2.0, wall_factor: 3.0, init_time: 10.0}", GOES_ON),
    ("limits: {hook_time: 2.0, disk_mb: 16, files: 512, log_bytes: 65536}", GOES_ON),
    ("max_faults: {in_a_row: 3, total: null}", None),   # the identity itself leaves it out
])
def test_a_default_written_out_is_no_change(store, written, told):
    """The documented defaults, written into the file, are the limits and rule the stored games
    were played under: seen refused as 'limits.bank changed (nothing -> 2.0)'. The run goes on
    (saying the file changed but not its games, where its identity changed)."""
    store.add_game(game(0))
    text = CONFIG_TEXT + written + "\n"
    assert store.init_tournament(make_config(text), text, RULES, VERSIONS).growth == told
    assert store.done_game_ids() == {0}


def test_fewer_rounds_are_refused_only_when_a_stored_game_lies_in_the_rounds_taken_out(store):
    shorter = "bots: [a, b, c, d]\nrounds: 2\nseed: 8\n"    # one table, 4 rotations a round
    store.add_games([game(0), game(9)])                      # rounds 1 and 3
    with pytest.raises(ConfigChangedError, match=r"key 'rounds' lowered \(3 -> 2: games of round 3 "
                                                 r"are stored"):
        store.init_tournament(make_config(shorter), shorter, RULES, VERSIONS)
    store.drop_game(9)
    opening = store.init_tournament(make_config(shorter), shorter, RULES, VERSIONS)
    assert opening.growth is not None and "rounds 3 -> 2 (no game of the rounds taken out" in opening.growth
    assert store.done_game_ids() == {0} and store.tournament().config_hash == make_config(shorter).config_hash


def test_the_same_setup_resumes_and_restart_starts_over(store):
    """Running the same tournament again continues it; --restart on it starts afresh."""
    store.add_game(game(0))
    assert store.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, RULES, VERSIONS) == Opening()
    assert store.done_game_ids() == {0}
    archive = store.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, RULES, VERSIONS,
                                    restart=True).archive
    assert archive is not None and store.game_count() == 0
    with Store.open(archive, readonly=True) as old:
        assert old.done_game_ids() == {0}


def test_restart_archives_the_old_results_then_clears(store):
    store.add_game(game(0))
    store.add_game(game(1))
    store.mark_disqualified("c", "crashed 3 times")
    new_text = "bots: [a, b, c, d]\nrounds: 5\nseed: 8\n"
    archive = store.init_tournament(make_config(new_text), new_text, RULES, VERSIONS, restart=True).archive
    assert archive is not None and archive.parent == store.path.parent and archive != store.path
    assert store.game_count() == 0 and store.disqualified() == {}
    assert store.tournament().config_text == new_text
    with Store.open(archive, readonly=True) as old:
        assert old.done_game_ids() == {0, 1}
        assert old.disqualified() == {"c": "crashed 3 times"}
        assert old.tournament().config_text == CONFIG_TEXT


def test_a_store_without_results_may_be_reinitialised(store):
    new_text = "bots: [a, b, c, d]\nrounds: 9\nseed: 8\n"
    assert store.init_tournament(make_config(new_text), new_text, RULES, VERSIONS) == Opening()
    assert store.tournament().config_text == new_text


def test_the_seed_is_recorded_and_a_config_without_one_is_refused(tmp_path):
    with Store.open(tmp_path / "s.sqlite") as store:
        store.init_tournament(make_config(CONFIG_TEXT), CONFIG_TEXT, RULES, VERSIONS, seed_drawn=True)
        info = store.tournament()
        assert (info.seed, info.seed_drawn) == (8, True)
        seedless = "bots: [a, b, c, d]\nrounds: 3\n"
        with pytest.raises(ArenaError, match="no seed yet"):
            store.init_tournament(make_config(seedless), seedless, RULES, VERSIONS)
        assert store.tournament().seed == 8


def test_disqualification_keeps_the_first_reason(store):
    assert store.mark_disqualified("b", "timeouts") is True
    assert store.mark_disqualified("b", "crash") is False
    assert store.disqualified() == {"b": "timeouts"}


def test_a_read_only_store_refuses_writes_with_one_line(store):
    store.add_game(game(0))
    with Store.open(store.path, readonly=True) as reader:
        assert reader.done_game_ids() == {0}
        with pytest.raises(StoreWriteError) as err:
            reader.add_game(game(1))
    assert "read-only" in str(err.value) and "\n" not in str(err.value)
    assert store.done_game_ids() == {0}


def test_a_full_disk_raises_a_write_error_and_damages_nothing(store):
    for gid in range(3):
        store.add_game(game(gid))
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")  # the database cannot grow: SQLITE_FULL
    big = game(3, moves=tuple(f"move number {i}" for i in range(20_000)))
    with pytest.raises(StoreWriteError) as err:
        store.add_game(big)
    assert "disk is full" in str(err.value) and "\n" not in str(err.value)
    assert store.done_game_ids() == {0, 1, 2}
    assert [r.game_id for r in store.games()] == [0, 1, 2]
    store._conn.execute("PRAGMA max_page_count = 1073741823")
    store.add_game(big)
    assert store.done_game_ids() == {0, 1, 2, 3}


def test_a_failing_commit_is_a_typed_error(store):
    class FailingConnection:
        """Wraps the real connection; every INSERT fails like a full disk."""

        def __init__(self, conn):
            self.conn = conn

        def __getattr__(self, name):
            return getattr(self.conn, name)

        def execute(self, sql, *args):
            if sql.startswith("INSERT INTO games"):
                raise sqlite3.OperationalError("database or disk is full")
            return self.conn.execute(sql, *args)

        def executemany(self, sql, *args):
            if sql.startswith("INSERT INTO games"):
                raise sqlite3.OperationalError("database or disk is full")
            return self.conn.executemany(sql, *args)

    store.add_game(game(0))
    store._conn = FailingConnection(store._conn)
    with pytest.raises(StoreWriteError, match="disk is full"):
        store.add_game(game(1))
    assert store.done_game_ids() == {0}
    assert not store._conn.in_transaction


def test_opening_a_missing_store_without_create_fails(tmp_path):
    with pytest.raises(StoreError, match="no results store"):
        Store.open(tmp_path / "none.sqlite", create=False)
    assert not (tmp_path / "none.sqlite").exists()


def test_opening_a_file_that_is_not_a_store_fails_cleanly(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ArenaError, match="not a results store"):
        Store.open(path)


def test_a_results_folder_that_cannot_be_created_is_a_write_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreWriteError, match="results folder"):
        Store.open(blocker / "results" / "demo.sqlite")


# A row as the store wrote it up to schema 3 (the games table was unchanged from schema 1 to 3;
# schema 4 added the seats' thinking, a last column, NULL for a record that has none).
OLD_COLUMNS = ("game_id, deal_id, seats, deal_seed, places, winner, winner_bot, reason, decisions, "
               "duration_s, faults, moves, hands, finished_at")
OLD_ROW = (
    6, 1, '["c","d","a","b"]', 17, '[[2],[0,1],[3]]', 2, "a", "blocked", 40, 0.25,
    '[{"bot":"b","code":"MEMORY","detail":"out of memory","log_tail":"","seat":3}]',
    '["7H","draw"]', None, "2024-05-01T10:00:00+00:00",
)


def test_a_stored_row_reads_back_with_typed_reason_and_fault_codes(store):
    raw = sqlite3.connect(store.path)
    with raw:
        raw.execute(f"INSERT INTO games ({OLD_COLUMNS}) VALUES ({', '.join('?' * len(OLD_ROW))})",
                    OLD_ROW)
    raw.close()
    record = store.game(6)
    assert record is not None
    assert record.reason is OutcomeReason.BLOCKED
    assert [(f.seat, f.bot, f.code) for f in record.faults] == [(3, "b", FaultCode.MEMORY)]
    assert record.places == ((2,), (0, 1), (3,)) and record.hands == () and record.think == ()


def test_a_game_is_stored_in_the_same_columns_as_ever(store):
    store.add_game(GameRecord(
        game_id=6, deal_id=1, table=("c", "d", "a", "b"), deal_seed=17, places=((2,), (0, 1), (3,)),
        winner=2, reason=OutcomeReason.BLOCKED, decisions=40, duration_s=0.25,
        faults=(Fault(3, "b", FaultCode.MEMORY, "out of memory"),), moves=("7H", "draw"),
    ))
    raw = sqlite3.connect(store.path)
    row = raw.execute(f"SELECT {OLD_COLUMNS}, think FROM games").fetchone()
    raw.close()
    assert row[:13] == OLD_ROW[:13] and row[14] is None  # all but the finishing time; no thinking


def test_each_seats_thinking_is_stored_as_moves_and_seconds_and_reads_back(store):
    timed = replace(game(3), think=((12, 3.5), (0, 0.0), (7, 0.25), (9, 0.125)))
    store.add_game(timed)
    raw = sqlite3.connect(store.path)
    (text,) = raw.execute("SELECT think FROM games WHERE game_id = 3").fetchone()
    raw.close()
    assert json.loads(text) == [[12, 3.5], [0, 0.0], [7, 0.25], [9, 0.125]]
    assert store.game(3) == timed


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("UPDATE games SET reason = 'fault'", "unknown outcome reason 'fault'"),
        ("UPDATE games SET faults = replace(faults, 'TIMEOUT', 'LATE')", "unknown fault code 'LATE'"),
        ("UPDATE games SET moves = 'not json'", "stored game 2: Expecting value"),
    ],
)
def test_an_unknown_stored_reason_or_code_is_a_one_line_store_error(store, sql, named):
    store.add_game(game(2, winner=3, faults=(Fault(0, "c", FaultCode.TIMEOUT, "slow"),)))
    raw = sqlite3.connect(store.path)
    with raw:
        raw.execute(sql)
    raw.close()
    for read in (lambda: list(store.games()), lambda: store.game(2)):
        with pytest.raises(StoreError) as err:
            read()
        message = str(err.value)
        assert named in message and str(store.path) in message and "\n" not in message


def test_a_refused_reopening_leaves_the_file_as_it_was(store):
    """A store shipped in rollback-journal mode (as `results/` ships them) and opened by a run
    that is then refused keeps every byte: no switch to WAL, no -wal or -shm file beside it."""
    store.add_game(game(0))
    store.close()
    raw = sqlite3.connect(store.path)
    raw.execute("PRAGMA journal_mode=DELETE")
    raw.close()
    before = store.path.read_bytes()
    changed = "bots: [a, b, c, d]\nrounds: 3\nseed: 9\n"
    with Store.open(store.path) as reopened, pytest.raises(ConfigChangedError):
        reopened.init_tournament(make_config(changed), changed, RULES, VERSIONS)
    assert store.path.read_bytes() == before
    assert sorted(p.name for p in store.path.parent.iterdir()) == [store.path.name]
