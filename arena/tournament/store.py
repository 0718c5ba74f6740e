"""The results store: one SQLite file per tournament (``results/<name>.sqlite``).

It holds the configuration snapshot (YAML text and :attr:`TournamentConfig.config_hash`), the
tournament's seed and whether it was drawn at random (a file without ``seed``: the drawn seed
lives only here, so that a resume deals the same cards), the rules name and a JSON snapshot of
the rule settings, each bot's version (a SHA-256 of its file or command), the disqualified bots,
and every finished game as a raw :class:`GameRecord`.

* WAL mode; ``synchronous=NORMAL``: a crash of the process never loses a committed game, a power
  cut may lose the last few, which a resume simply replays (they are not in
  :meth:`Store.done_game_ids`).
* One transaction per game: :meth:`Store.add_game` commits at once, and refuses a game id that is
  already stored (:class:`DuplicateGameError`), so nothing is ever stored twice.
* A full disk or a read-only file or folder raises :class:`StoreWriteError` with one line; the
  transaction is rolled back, so no stored result is damaged and the store stays usable.
* :meth:`Store.init_tournament` refuses (:class:`ConfigChangedError`) to mix results of a
  different configuration, rule settings or bot versions under the same name; ``restart=True``
  first copies the whole file to ``<name>.<UTC time>.sqlite`` beside it, then clears it.

Only one process (the parent) should write; readers (``arena rankings`` during a run) are fine.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.tournament.config import TournamentConfig
from arena.tournament.errors import (
    ConfigChangedError, DuplicateGameError, RecordError, StoreError, StoreWriteError,
)
from arena.tournament.records import GameRecord

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (name TEXT PRIMARY KEY, version TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS disqualified (
    bot TEXT PRIMARY KEY, reason TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id INTEGER PRIMARY KEY,
    deal_id INTEGER NOT NULL,
    seats TEXT NOT NULL,
    deal_seed INTEGER NOT NULL,
    places TEXT NOT NULL,
    winner INTEGER,
    winner_bot TEXT,
    reason TEXT NOT NULL,
    decisions INTEGER NOT NULL,
    duration_s REAL NOT NULL,
    faults TEXT NOT NULL,
    moves TEXT NOT NULL,
    hands TEXT,
    finished_at TEXT NOT NULL);
"""

# The games table keeps one column per record field (for queries, and so that stores written
# before stay readable); each column holds the field's value in GameRecord.to_dict, the record's
# one serialisation, and the record is rebuilt with GameRecord.from_dict. Column -> dict key:
_RECORD_COLUMNS = {
    "game_id": "game_id", "deal_id": "deal_id", "seats": "table", "deal_seed": "deal_seed",
    "places": "places", "winner": "winner", "reason": "reason", "decisions": "decisions",
    "duration_s": "duration_s", "faults": "faults", "moves": "moves", "hands": "hands",
}
_JSON_KEYS = frozenset({"table", "places", "faults", "moves", "hands"})  # stored as JSON text
_ORDER = (
    "game_id", "deal_id", "seats", "deal_seed", "places", "winner", "winner_bot", "reason",
    "decisions", "duration_s", "faults", "moves", "hands", "finished_at",
)
_GAME_COLUMNS = ", ".join(_ORDER)


@dataclass(frozen=True)
class TournamentInfo:
    """What :meth:`Store.init_tournament` recorded about the tournament."""

    name: str
    config_text: str
    config_hash: str
    rules_name: str
    rules_snapshot: dict[str, Any]
    created_at: str
    seed: int | None = None     # None only in a store written before seeds were recorded
    seed_drawn: bool = False    # True when the seed was drawn at random (the file has none)


def results_path(name: str, results_dir: str | Path = "results") -> Path:
    """The store file of tournament ``name``: ``<results_dir>/<name>.sqlite``."""
    return Path(results_dir) / f"{name}.sqlite"


class Store:
    """An open results store; create it with :meth:`Store.open`. Usable as a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    @classmethod
    def open(cls, path: str | Path, create: bool = True, readonly: bool = False) -> Store:
        """Open (or with ``create``, create) the store at ``path``; ``readonly`` never writes."""
        path = Path(path)
        if not path.exists() and (readonly or not create):
            raise StoreError(f"{path}: no results store there")
        if not readonly:
            _make_folder(path.parent)
        store = cls(_connect(path, readonly), path)
        store._prepare(readonly)
        return store

    def close(self) -> None:
        """Close the connection (every game is already committed)."""
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- tournament --------------------------------------------------------------------------

    def init_tournament(
        self,
        config: TournamentConfig,
        config_text: str,
        rules_snapshot: Mapping[str, Any],
        bot_versions: Mapping[str, str],
        *,
        restart: bool = False,
        seed_drawn: bool = False,
    ) -> Path | None:
        """Record the tournament's identity, or check it matches what is stored (resume).

        ``config.seed`` must be settled (see :func:`arena.tournament.setup.settle_seed`); it is
        recorded with ``seed_drawn`` (True when it was drawn at random, the file having none).

        Raises :class:`ConfigChangedError` when games or disqualifications are stored under a
        different configuration hash, rule settings or bot versions. With ``restart=True`` the old
        file is first copied beside the store and then cleared, whether or not the setup changed
        (a user who asks to start over gets a fresh start); returns that archive's path.
        A store with no results yet is simply re-initialised.
        """
        if config.seed is None:
            raise ConfigError(f"{self.path}: tournament {config.name!r} has no seed yet: draw one "
                              "(arena.tournament.setup.settle_seed) before recording it")
        info = self.tournament()
        rules_json = _dumps(rules_snapshot)
        if info is not None and self._has_results():
            changes = self._changes(info, config, rules_json, bot_versions)
            if not changes and not restart:
                return None  # the same tournament: resume it
            if changes and not restart:
                raise ConfigChangedError(
                    f"{self.path}: tournament {info.name!r} holds {self.game_count()} games of a "
                    f"different setup ({'; '.join(changes)}); restart it (the old results are "
                    "archived) or use another name"
                )
            archive = self._archive()
        else:
            archive = None
        self._write_identity(config, config_text, rules_json, bot_versions, seed_drawn)
        return archive

    def tournament(self) -> TournamentInfo | None:
        """The recorded tournament, or ``None`` before :meth:`init_tournament`."""
        meta = dict(self._read("SELECT key, value FROM meta", (), "read the tournament"))
        if "config_hash" not in meta:
            return None
        return TournamentInfo(
            name=meta["name"],
            config_text=meta["config_text"],
            config_hash=meta["config_hash"],
            rules_name=meta["rules_name"],
            rules_snapshot=json.loads(meta["rules_snapshot"]),
            created_at=meta["created_at"],
            seed=int(meta["seed"]) if "seed" in meta else None,
            seed_drawn=meta.get("seed_drawn") == "1",
        )

    def bot_versions(self) -> dict[str, str]:
        """Each bot's recorded version (name -> SHA-256)."""
        return dict(self._read("SELECT name, version FROM bots ORDER BY name", (), "read bots"))

    # -- games -------------------------------------------------------------------------------

    def add_game(self, record: GameRecord, finished_at: datetime | None = None) -> None:
        """Store one finished game in its own transaction; refuses a stored ``game_id``."""
        row = _game_row(record, finished_at or datetime.now(timezone.utc))
        sql = f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ({', '.join('?' * len(row))})"
        try:
            with self._transaction(f"store game {record.game_id}"):
                self._conn.execute(sql, row)
        except sqlite3.IntegrityError as exc:
            raise DuplicateGameError(record.game_id) from exc

    def done_game_ids(self) -> set[int]:
        """Ids of every stored game (to skip them on resume)."""
        return {row[0] for row in self._read("SELECT game_id FROM games", (), "read game ids")}

    def game_count(self) -> int:
        """Number of stored games."""
        return int(self._read("SELECT COUNT(*) FROM games", (), "count games")[0][0])

    def games(self) -> Iterator[GameRecord]:
        """Every stored game in ``game_id`` (schedule) order."""
        return (record for record, _ in self.finished_games())

    def game(self, game_id: int) -> GameRecord | None:
        """The stored game ``game_id``, or ``None`` if it is not stored."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = ?"
        rows = self._read(sql, (game_id,), f"read game {game_id}")
        return self._record(rows[0]) if rows else None

    def finished_games(self) -> Iterator[tuple[GameRecord, str]]:
        """Every stored game with its finishing time (ISO 8601, UTC), in ``game_id`` order."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games ORDER BY game_id"
        with self._guard("read games", write=False):
            cursor = self._conn.execute(sql)
        while True:
            with self._guard("read games", write=False):
                rows = cursor.fetchmany(500)
            if not rows:
                return
            for row in rows:
                yield self._record(row), row[-1]

    # -- disqualification --------------------------------------------------------------------

    def mark_disqualified(self, bot: str, reason: str) -> bool:
        """Record that ``bot`` is disqualified; the first reason is kept. True if newly marked."""
        now = datetime.now(timezone.utc).isoformat()
        with self._transaction(f"disqualify {bot!r}"):
            cursor = self._conn.execute(
                "INSERT INTO disqualified (bot, reason, at) VALUES (?, ?, ?) "
                "ON CONFLICT(bot) DO NOTHING",
                (bot, reason, now),
            )
        return cursor.rowcount == 1

    def disqualified(self) -> dict[str, str]:
        """Disqualified bots and the reason recorded for each."""
        sql = "SELECT bot, reason FROM disqualified ORDER BY bot"
        return dict(self._read(sql, (), "read disqualified bots"))

    # -- internals ---------------------------------------------------------------------------

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        """A stored row as its record; a row that is no valid record is a one-line StoreError."""
        try:
            return _record_from_row(row)
        except (RecordError, json.JSONDecodeError) as exc:
            raise StoreError(f"{self.path}: cannot read a stored game: {exc}") from exc

    def _prepare(self, readonly: bool) -> None:
        if readonly:
            self._check_schema()
            return
        with self._guard("prepare the store", write=True):
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
        with self._transaction("create the tables"):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )
        self._check_schema()

    def _check_schema(self) -> None:
        rows = self._read("SELECT value FROM meta WHERE key = 'schema_version'", (), "read schema")
        if not rows or rows[0][0] != str(SCHEMA_VERSION):
            found = rows[0][0] if rows else "none"
            raise StoreError(f"{self.path}: store schema version {found}, expected {SCHEMA_VERSION}")

    def _has_results(self) -> bool:
        return self.game_count() > 0 or bool(self.disqualified())

    def _changes(
        self, info: TournamentInfo, config: TournamentConfig, rules_json: str,
        bot_versions: Mapping[str, str],
    ) -> list[str]:
        changes = []
        if info.config_hash != config.config_hash:
            changes.append(_config_change(info, config))
        if _dumps(info.rules_snapshot) != rules_json:
            changes.append("rule settings changed")
        old = self.bot_versions()
        changed = sorted(n for n in set(old) | set(bot_versions) if old.get(n) != bot_versions.get(n))
        if changed:
            changes.append("bot versions changed: " + ", ".join(changed))
        return changes

    def _write_identity(
        self, config: TournamentConfig, config_text: str, rules_json: str,
        bot_versions: Mapping[str, str], seed_drawn: bool,
    ) -> None:
        meta = {
            "schema_version": str(SCHEMA_VERSION),
            "name": config.name,
            "config_text": config_text,
            "config_hash": config.config_hash,
            "rules_name": config.rules,
            "rules_snapshot": rules_json,
            "seed": str(config.seed),
            "seed_drawn": "1" if seed_drawn else "0",
            "created_at": datetime.now(timezone.utc).isoformat(),
        }
        with self._transaction("record the tournament"):
            for table in ("games", "disqualified", "bots", "meta"):
                self._conn.execute(f"DELETE FROM {table}")
            self._conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            self._conn.executemany(
                "INSERT INTO bots (name, version) VALUES (?, ?)", sorted(bot_versions.items())
            )

    def _archive(self) -> Path:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.stem}.{stamp}.sqlite")
        counter = 1
        while target.exists():
            target = self.path.with_name(f"{self.path.stem}.{stamp}-{counter}.sqlite")
            counter += 1
        try:
            with self._guard(f"archive the old results to {target}", write=True):
                archive = sqlite3.connect(target)
                try:
                    self._conn.backup(archive)
                finally:
                    archive.close()
        except StoreWriteError:
            target.unlink(missing_ok=True)
            raise
        return target

    def _read(self, sql: str, params: tuple[Any, ...], action: str) -> list[tuple[Any, ...]]:
        with self._guard(action, write=False):
            return self._conn.execute(sql, params).fetchall()

    @contextlib.contextmanager
    def _transaction(self, action: str) -> Iterator[None]:
        with self._guard(action, write=True):
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def _guard(self, action: str, write: bool) -> Iterator[None]:
        try:
            yield
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            kind = StoreWriteError if write else StoreError
            raise kind(f"{self.path}: cannot {action}: {_explain(exc)}") from exc


def _config_change(info: TournamentInfo, config: TournamentConfig) -> str:
    """What changed in a configuration whose hash differs: the seed alone, or something else."""
    if info.seed is not None and info.seed != config.seed:
        if replace(config, seed=info.seed).config_hash == info.config_hash:
            origin = "a seed drawn at random" if info.seed_drawn else "the seed the file had"
            return f"seed changed (the stored games were dealt from {origin})"
    return "configuration changed"


def _explain(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "full" in text:
        return "the disk is full (nothing stored was changed)"
    if "readonly" in text or "read-only" in text:
        return "the results file or its folder is read-only (nothing stored was changed)"
    if "not a database" in text:
        return "the file is not a results store"
    return text


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreWriteError(f"{folder}: cannot create the results folder: {exc.strerror or exc}") from exc


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    try:
        if readonly:
            uri = path.resolve().as_uri() + "?mode=ro"
            return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)
        return sqlite3.connect(path, isolation_level=None, timeout=30)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the results store: {_explain(exc)}") from exc


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _game_row(record: GameRecord, finished_at: datetime) -> tuple[Any, ...]:
    """The row of ``record`` in :data:`_ORDER`, built from its :meth:`GameRecord.to_dict`."""
    data = record.to_dict()
    row = {column: _column(key, data[key]) for column, key in _RECORD_COLUMNS.items()}
    row["winner_bot"] = record.winner_bot  # derived, kept for queries
    row["finished_at"] = finished_at.isoformat()
    return tuple(row[column] for column in _ORDER)


def _column(key: str, value: Any) -> Any:
    if key == "hands" and not value:
        return None  # a one-hand game: no per-hand details (NULL, as stores have always held)
    return _dumps(value) if key in _JSON_KEYS else value


def _record_from_row(row: tuple[Any, ...]) -> GameRecord:
    """Rebuild a stored row's record with :meth:`GameRecord.from_dict`."""
    data: dict[str, Any] = {}
    for column, value in zip(_ORDER, row):
        key = _RECORD_COLUMNS.get(column)
        if key is not None:
            data[key] = json.loads(value) if key in _JSON_KEYS and value is not None else value
    return GameRecord.from_dict(data)
