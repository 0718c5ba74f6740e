"""CSV and JSON Lines export of games and rankings."""

from __future__ import annotations

import csv
import json
import sqlite3

import pytest
from tournament_helpers import make_config, play_synthetic

from arena.engine.outcome import OutcomeReason
from arena.play.faults import FaultCode
from arena.tournament.errors import ExportError, StoreError
from arena.tournament.export import export, games_json
from arena.tournament.ratings import rank_store
from arena.tournament.records import GameRecord
from arena.tournament.store import Store

CONFIG = make_config("bots: [a, b, c, d, e]\nrounds: 2\nseed: 6", name="cup")


@pytest.fixture
def store(tmp_path):
    records = play_synthetic(CONFIG, {"a": 2, "b": 1, "c": 0, "d": 0, "e": -1}, faulty={"e": 0.1})
    with Store.open(tmp_path / "cup.sqlite") as opened:
        opened.init_tournament(CONFIG, "", {}, {b: "v" for b in "abcde"})
        for rec in records:
            opened.add_game(rec)
        yield opened


def test_jsonl_export_round_trips_games_and_keeps_rank_order(store, tmp_path):
    games_path, ranks_path = export(store, "jsonl", tmp_path / "out")
    assert (games_path.name, ranks_path.name) == ("cup-games.jsonl", "cup-rankings.jsonl")
    rows = [json.loads(line) for line in games_path.read_text().splitlines()]
    assert len(rows) == store.game_count() == 40
    assert [GameRecord.from_dict(r) for r in rows] == list(store.games())
    assert all(r["winner_bot"] == (None if r["winner"] is None else r["table"][r["winner"]]) for r in rows)
    ranks = [json.loads(line) for line in ranks_path.read_text().splitlines()]
    assert [r["bot"] for r in ranks] == list(rank_store(store).bots)
    assert [r["rank"] for r in ranks] == [1, 2, 3, 4, 5]
    assert {r["seed"] for r in ranks} == {6}  # the tournament's seed (from CONFIG)


def test_csv_export_has_headers_and_json_cells(store, tmp_path):
    games_path, ranks_path = export(store, "csv", tmp_path / "out")
    with games_path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 40 and rows[0]["game_id"] == "0"
    assert json.loads(rows[3]["table"]) == list(next(r for r in store.games() if r.game_id == 3).table)
    faulted = [r for r in rows if json.loads(r["faults"])]
    assert faulted and all(json.loads(r["faults"])[0]["bot"] == "e" for r in faulted)
    with ranks_path.open(newline="") as handle:
        ranking = list(csv.DictReader(handle))
    assert ranking[0]["bot"] == "a" and ranking[-1]["bot"] == "e"
    assert {row["seed"] for row in ranking} == {"6"}
    assert float(ranking[0]["win_rate_lo"]) <= float(ranking[0]["win_rate"]) <= float(ranking[0]["win_rate_hi"])
    assert not list((tmp_path / "out").glob("*.part"))


def test_unknown_format_is_refused(store, tmp_path):
    with pytest.raises(ExportError, match="unknown export format 'xml'"):
        export(store, "xml", tmp_path)


def test_unwritable_destination_is_an_export_error(store, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ExportError, match="cannot create"):
        export(store, "csv", blocker / "out")


def test_a_record_keeps_its_enums_from_the_store_through_the_export(store, tmp_path):
    stored = list(store.games())
    assert all(r.reason is OutcomeReason.EMPTIED for r in stored)
    faulted = [r for r in stored if r.faults]
    assert faulted and all(f.code is FaultCode.TIMEOUT for r in faulted for f in r.faults)
    games_path, _ = export(store, "jsonl", tmp_path / "out")
    rows = [json.loads(line) for line in games_path.read_text().splitlines()]
    assert {r["reason"] for r in rows} == {"emptied"}
    assert {f["code"] for r in rows for f in r["faults"]} == {"TIMEOUT"}
    back = [GameRecord.from_dict(r) for r in rows]
    assert back == stored
    assert all(r.reason is OutcomeReason.EMPTIED for r in back)
    assert all(f.code is FaultCode.TIMEOUT for r in back for f in r.faults)
    listed = games_json(stored)
    assert [g["reason"] for g in listed] == [r["reason"] for r in rows]
    assert [g["faults"] for g in listed] == [
        [{k: f[k] for k in ("seat", "bot", "code", "detail")} for f in r["faults"]] for r in rows
    ]


def test_a_copy_of_a_results_file_exports_under_its_own_name(store, tmp_path):
    """A copy of cup's results, cup-copy.sqlite, holds the tournament 'cup'; its export must not
    write over cup's own export in the same folder."""
    out = tmp_path / "out"
    export(store, "csv", out)
    cups = (out / "cup-games.csv").read_bytes()
    with sqlite3.connect(tmp_path / "cup.sqlite") as source, \
            sqlite3.connect(tmp_path / "cup-copy.sqlite") as target:
        source.backup(target)     # the open store's games are still in its write-ahead log
    source.close(), target.close()
    with Store.open(tmp_path / "cup-copy.sqlite", readonly=True) as copy:
        written = export(copy, "csv", out)
    assert [p.name for p in written] == ["cup-copy-games.csv", "cup-copy-rankings.csv"]
    assert (out / "cup-games.csv").read_bytes() == cups


def test_an_export_stopped_by_an_unreadable_game_leaves_no_part_file(store, tmp_path, monkeypatch):
    def unreadable():
        yield from ()
        raise StoreError("cup.sqlite: cannot read a stored game: Expecting value")

    monkeypatch.setattr(store, "finished_games", unreadable)
    with pytest.raises(StoreError, match="cannot read a stored game"):
        export(store, "csv", tmp_path / "out")
    assert not list((tmp_path / "out").iterdir())


def test_the_games_and_rankings_files_tell_of_the_same_games_while_a_run_stores_more(tmp_path, monkeypatch):
    """`arena export` may run during a run. Seen: a games file of 4,046 games beside rankings
    counting 4,031, the rankings read first and the games after the run stored more. Here a
    writer stores a game right after the rankings are read: neither file holds it."""
    import arena.tournament.export as exporting

    records = play_synthetic(CONFIG, {"a": 2, "b": 1, "c": 0, "d": 0, "e": -1})
    path = tmp_path / "cup.sqlite"
    with Store.open(path) as writer:
        writer.init_tournament(CONFIG, "", {}, {b: "v" for b in "abcde"})
        for rec in records[:-1]:
            writer.add_game(rec)
        ranked = exporting.rank_store

        def rank_then_a_game_is_stored(store):
            rankings = ranked(store)
            writer.add_game(records[-1])
            return rankings

        monkeypatch.setattr(exporting, "rank_store", rank_then_a_game_is_stored)
        with Store.open(path, readonly=True) as reader:
            games_path, ranks_path = export(reader, "jsonl", tmp_path / "out")
    games = [json.loads(line) for line in games_path.read_text().splitlines()]
    ranks = [json.loads(line) for line in ranks_path.read_text().splitlines()]
    assert len(games) == len(records) - 1
    assert sum(r["games"] for r in ranks) == sum(len(g["table"]) for g in games)


def test_an_export_into_a_folder_it_cannot_write_is_one_error_even_when_its_cleanup_fails(
        store, tmp_path, monkeypatch):
    """Seen on a read-only results folder: the failed write's cleanup raised too (unlink of the
    half file: read-only file system), a traceback instead of the one-line ExportError."""
    from pathlib import Path

    def read_only(self, *args, **kwargs):
        raise OSError(30, "Read-only file system", str(self))

    monkeypatch.setattr(Path, "open", read_only)
    monkeypatch.setattr(Path, "unlink", read_only)
    with pytest.raises(ExportError, match=r"cup-games\.csv: cannot write: Read-only file system"):
        export(store, "csv", tmp_path / "out")
