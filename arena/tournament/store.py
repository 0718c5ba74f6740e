"""The results store: one SQLite file per tournament (``results/<name>.sqlite``).

It holds the configuration snapshot (YAML text and :attr:`TournamentConfig.config_hash`), the
tournament's seed and whether it was drawn at random (a file without ``seed``: the drawn seed
lives only here, so that a resume deals the same cards), the rules name and a JSON snapshot of
the rule settings, each bot's version (a SHA-256 of its file or command), the schedule's layout,
how its deals are seeded (:attr:`Store.deals`), the versions of the arena code that played its
games (:meth:`Store.code_versions`: one identity per version, in the order they ran; a resume
under another version says so through :attr:`Opening.code_changed`, and keeps the games), the
disqualified bots, every finished game as a raw :class:`GameRecord`, and the running
:class:`~arena.tournament.summary.Summary` of those games (TrueSkill ratings and the statistics'
sums), which the rankings read instead of re-rating every game.

* WAL mode; ``synchronous=NORMAL``: a crash of the process never loses a committed game, a power
  cut may lose the last few, which a resume simply replays (they are not in
  :meth:`Store.done_game_ids`).
* :meth:`Store.add_games` stores several games in one transaction (the runner commits a batch
  every half second or so), and refuses a game id that is already stored
  (:class:`DuplicateGameError`, the whole batch rolled back), so nothing is ever stored twice.
  The summary is brought up to date in the same transaction, so it always describes exactly the
  stored games; games stored out of schedule order make it stale, and it is rebuilt once.
* A full disk or a read-only file or folder raises :class:`StoreWriteError` with one line; the
  transaction is rolled back, so no stored result is damaged and the store stays usable.
* :meth:`Store.init_tournament` resumes the same tournament, grows a changed one whose stored
  games stay valid (more bots, more rounds, a new version of a bot: :mod:`arena.tournament.growth`
  keeps them, renumbered to the grown schedule, and drops the changed bots' games; an adaptive
  tournament whose ``until`` was raised goes on from them), and refuses
  (:class:`ConfigChangedError`, naming what changed) to mix results of a different
  configuration; ``restart=True`` first copies the whole file to ``<name>.<UTC time>.sqlite``
  beside it, then clears it.
* A store written before the summary existed (schema 1), before it counted the wins per seat
  (schema 2), before the referee timed each seat's moves (schema 3), or before a faulty seat's
  game went to the clean seat placed first (schema 4), is upgraded the first time it is opened
  (when its file can be written; otherwise the summary is computed in memory at every read,
  with schema 5's winners). Schema 2 gets only the seats' counts, from one read of its games,
  and schema 3 only the new columns, its games counting as untimed: their ratings are kept as
  they are. Every old schema's games with a fault get the winner their places give
  (:func:`_rewon`; the places, and so the ratings, are unchanged), and a store where that
  changed a winner gets its whole summary again from its games, in the upgrade. A reader leaves
  the file as it is while the tournament's run lock is held (a run of an older arena may be
  writing it) and reads it with the new winners.

Only one process (the parent) should write; readers (``arena rankings`` during a run) are fine.
"""

from __future__ import annotations

import contextlib
import copy
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from arena.engine.outcome import winner_of
from arena.errors import ConfigError
from arena.tournament.config import TournamentConfig
from arena.tournament.errors import (
    ConfigChangedError, DuplicateGameError, RecordError, StoreError, StoreWriteError,
)
from arena.tournament.growth import Growth, StoredSetup, judge
from arena.tournament.lock import is_running
from arena.tournament.records import GameRecord
from arena.tournament.schedule import (DEAL_SCHEMES, DEALS_BY_NAME, DEALS_BY_VERSION, LAYOUTS,
                                       ROUNDS_FIRST, TABLES_FIRST)
from arena.tournament.seats import SeatSums, SeatTally
from arena.tournament.skill import RatingSettings
from arena.tournament.stats import BotSums
from arena.tournament.summary import BotRow, Summary, SummaryRows

# 5: a faulty seat's game won by the clean seat placed first; 4: each seat's thinking time
# too; 3: the seats' counts; 2: the summary tables; 1: games only
SCHEMA_VERSION = 5
OLD_SCHEMAS = ("1", "2", "3", "4")    # read, and upgraded

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
    finished_at TEXT NOT NULL,
    think TEXT);
CREATE TABLE IF NOT EXISTS summary_bots (
    bot TEXT PRIMARY KEY,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    faults INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    places INTEGER NOT NULL,
    asked INTEGER NOT NULL DEFAULT 0,
    think_s REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS summary_deals (
    bot TEXT NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    places INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    PRIMARY KEY (bot, games, wins, places));
CREATE TABLE IF NOT EXISTS summary_pairs (
    bot TEXT NOT NULL,
    opponent TEXT NOT NULL,
    games INTEGER NOT NULL,
    ahead INTEGER NOT NULL,
    PRIMARY KEY (bot, opponent));
CREATE TABLE IF NOT EXISTS summary_seats (
    seat INTEGER PRIMARY KEY,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    deal INTEGER NOT NULL);
"""
_SUMMARY_TABLES = ("summary_bots", "summary_deals", "summary_pairs", "summary_seats")
# the columns later schemas added to tables an older store already has: (table, column, type)
_ADDED_COLUMNS = (
    ("games", "think", "TEXT"),
    ("summary_bots", "asked", "INTEGER NOT NULL DEFAULT 0"),
    ("summary_bots", "think_s", "REAL NOT NULL DEFAULT 0"),
)
# meta key of the versions of the arena code that played the games (a JSON list, oldest first);
# UNRECORDED_CODE stands for the games of a store written before versions were recorded
_CODE_VERSIONS = "code_versions"
_DEALS = "deals"   # the deal scheme (Store.deals); absent in the stores begun before it
UNRECORDED_CODE = "unrecorded"
# meta keys of the summary: the next game id it may take and the games it holds; no summary_next
# means there is no valid summary (a store of schema 1, or games stored out of order)
_SUMMARY_META = ("summary_next", "summary_games")

# The games table keeps one column per record field (for queries, and so that stores written
# before stay readable); each column holds the field's value in GameRecord.to_dict, the record's
# one serialisation, and the record is rebuilt with GameRecord.from_dict. Column -> dict key:
_RECORD_COLUMNS = {
    "game_id": "game_id", "deal_id": "deal_id", "seats": "table", "deal_seed": "deal_seed",
    "places": "places", "winner": "winner", "reason": "reason", "decisions": "decisions",
    "duration_s": "duration_s", "faults": "faults", "moves": "moves", "hands": "hands",
    "think": "think",
}
_JSON_KEYS = frozenset({"table", "places", "faults", "moves", "hands", "think"})  # JSON text
_ORDER = (    # finished_at last: a read gives it beside the record
    "game_id", "deal_id", "seats", "deal_seed", "places", "winner", "winner_bot", "reason",
    "decisions", "duration_s", "faults", "moves", "hands", "think", "finished_at",
)
_INSERT_GAME = f"INSERT INTO games ({', '.join(_ORDER)}) VALUES ({', '.join('?' * len(_ORDER))})"
_BOT_SUMS = "bot, mu, sigma, faults, deal, games, wins, places, asked, think_s"


def _select(missing: frozenset[str], light: bool = False) -> str:
    """The games' columns in :data:`_ORDER` for a SELECT, ``NULL`` for those the store lacks
    (an old schema's file read as it is) and, ``light``, for the moves and hands (the bulk of
    a row, which the summary does not read)."""
    blank = missing | ({"moves", "hands"} if light else set())
    return ", ".join("NULL" if column in blank else column for column in _ORDER)


@dataclass(frozen=True)
class Opening:
    """What :meth:`Store.init_tournament` did: the archive of a restart, the growth it applied
    (:meth:`arena.tournament.growth.Growth.describe`), both ``None`` for a plain resume;
    ``code_changed`` when the stored games were played by another version of the arena code than
    the one given (or by one that did not record itself): the games are kept, and the store now
    lists both (:meth:`Store.code_versions`)."""

    archive: Path | None = None
    growth: str | None = None
    code_changed: bool = False


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


def remove_store(path: Path) -> None:
    """Delete the closed store ``path`` with the files SQLite keeps beside it (its write-ahead
    log and shared memory); for a store that holds nothing, made by a run that was refused."""
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


class Store:
    """An open results store; create it with :meth:`Store.open`. Usable as a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool = False) -> None:
        self._conn = conn
        self.path = path
        self.readonly = readonly
        self._old_schema = False        # an old schema's store read as it is (a read-only file)
        self._wal = False               # switched to WAL (at the first write)
        self._summary: Summary | None = None    # the stored summary, as loaded (writers only)
        self._top = -1                  # the highest stored game id, once the summary is loaded
        self._columns = _select(frozenset())                # a SELECT of a game's columns
        self._light_columns = _select(frozenset(), light=True)  # ... without moves and hands

    @classmethod
    def open(cls, path: str | Path, create: bool = True, readonly: bool = False) -> Store:
        """Open (or with ``create``, create) the store at ``path``; ``readonly`` never writes
        through this connection (a store of an older schema is first upgraded through another
        one, when its file can be written)."""
        path = Path(path)
        if not path.exists() and (readonly or not create):
            raise StoreError(f"{path}: no results store there")
        if not readonly:
            _make_folder(path.parent)
        store = cls(_connect(path, readonly), path, readonly)
        try:
            store._prepare(readonly)
        except BaseException:
            store.close()
            raise
        # upgrade it, once, if it can be written and no run is writing it now: a run of an older
        # arena would go on writing the old schema's games into the upgraded file
        if store._old_schema and not is_running(path.stem, path.parent):
            store.close()
            with contextlib.suppress(StoreError):
                cls.open(path, create=False).close()
            store = cls(_connect(path, readonly), path, readonly)
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
        code: str | None = None,
        deals: str = DEALS_BY_VERSION,
    ) -> Opening:
        """Record the tournament's identity, or check it against what is stored: resume the same
        tournament, grow a changed one whose stored games stay valid (see the module doc).

        ``config.seed`` must be settled (see :func:`arena.tournament.setup.settle_seed`); it is
        recorded with ``seed_drawn`` (True when it was drawn at random, the file having none).

        Raises :class:`ConfigChangedError`, naming every change, when games or
        disqualifications are stored under a configuration, rule settings or bot versions that
        the stored games do not survive. With ``restart=True`` the old file is first copied
        beside the store and then cleared, whether or not the setup changed (a user who asks to
        start over gets a fresh start). A store with no results yet is simply re-initialised.

        ``code`` is the identity of the arena code about to play
        (:func:`arena.tournament.shipment.code_identity`): added to :meth:`code_versions` when
        it is not the last one there, with :attr:`Opening.code_changed` set when games are
        stored; a fresh start lists it alone. ``None`` records nothing (a synthetic store).

        ``deals`` is how a fresh start's deals are seeded (:attr:`deals`); a resumed or grown
        tournament keeps its own.
        """
        if deals not in DEAL_SCHEMES:
            raise ValueError(f"unknown deal scheme {deals!r}")
        if config.seed is None:
            raise ConfigError(f"{self.path}: tournament {config.name!r} has no seed yet: draw one "
                              "(arena.tournament.setup.settle_seed) before recording it")
        info = self.tournament()
        rules_json = _dumps(rules_snapshot)
        if info is not None and self._has_results() and not restart:
            opening = self._resume(info, config, config_text, rules_snapshot, rules_json,
                                   bot_versions, seed_drawn)
            return replace(opening, code_changed=self._note_code(code))
        archive = self._archive() if info is not None and self._has_results() else None
        self._write_identity(config, config_text, rules_json, bot_versions, seed_drawn, deals)
        self._note_code(code)
        return Opening(archive=archive)

    def _resume(
        self, info: TournamentInfo, config: TournamentConfig, config_text: str,
        rules_snapshot: Mapping[str, Any], rules_json: str, bot_versions: Mapping[str, str],
        seed_drawn: bool,
    ) -> Opening:
        """:meth:`init_tournament` on a store holding results: resume, grow, or refuse
        (``rules_json`` is ``rules_snapshot`` as the store writes it)."""
        verdict = judge(self._stored_setup(info), config, rules_snapshot, bot_versions)
        if verdict.refusals:
            raise ConfigChangedError(
                f"{self.path}: tournament {info.name!r} holds {self.game_count()} games of a "
                f"different setup ({'; '.join(verdict.refusals)})"
            )
        if verdict.note is not None:  # a swiss tournament goes on: its new identity
            with self._transaction("record the tournament"):
                self._identity(config, config_text, rules_json, bot_versions, seed_drawn)
            return Opening(growth=verdict.note)
        if verdict.growth is None:
            return Opening()  # the same tournament: resume it
        told = verdict.growth.describe(self._stored_per_table(verdict.growth), bool(self.disqualified()))
        self._grow(verdict.growth, config, config_text, rules_json, bot_versions, seed_drawn)
        return Opening(growth=told)

    def code_versions(self) -> tuple[str, ...]:
        """The versions of the arena code that played the stored games, in the order they ran
        (one entry per change: a version run again after another is listed again): each a
        :func:`~arena.tournament.shipment.code_identity`, or :data:`UNRECORDED_CODE` for games
        stored before versions were recorded. Empty when nothing was recorded."""
        text = self._meta().get(_CODE_VERSIONS)
        return tuple(json.loads(text)) if text else ()

    def _note_code(self, code: str | None) -> bool:
        """Record that ``code`` plays from now on; whether stored games were played by another
        version (the last recorded, or an unrecorded one: a store with games and no list gets
        :data:`UNRECORDED_CODE` first)."""
        known = list(self.code_versions())
        if code is None or known[-1:] == [code]:
            return False
        changed = self.game_count() > 0
        if changed and not known:
            known.append(UNRECORDED_CODE)
        with self._transaction("record the arena code"):
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                               (_CODE_VERSIONS, json.dumps([*known, code])))
        return changed

    def tournament(self) -> TournamentInfo | None:
        """The recorded tournament, or ``None`` before :meth:`init_tournament`."""
        meta = self._meta()
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

    @property
    def layout(self) -> str:
        """The schedule layout the stored games follow (:mod:`arena.tournament.schedule`): that
        of every new tournament, or the one of a store written before tournaments could grow."""
        layout = self._meta().get("schedule", TABLES_FIRST)
        if layout not in LAYOUTS:
            raise StoreError(f"{self.path}: unknown schedule layout {layout!r}")
        return layout

    @property
    def deals(self) -> str:
        """How the stored tournament's deals are seeded (:mod:`arena.tournament.schedule`),
        fixed at its fresh start: from the bots' names and versions, or from their names alone
        (a duel's, and the stores begun before versions counted)."""
        scheme = self._meta().get(_DEALS, DEALS_BY_NAME)
        if scheme not in DEAL_SCHEMES:
            raise StoreError(f"{self.path}: unknown deal scheme {scheme!r}")
        return scheme

    def deal_versions(self, versions: Mapping[str, str]) -> Mapping[str, str] | None:
        """What the schedule deals from (:meth:`~arena.tournament.schedule.Schedule.from_config`'s
        ``versions``): ``versions`` when :attr:`deals` counts them, else ``None``."""
        return versions if self.deals == DEALS_BY_VERSION else None

    def bot_versions(self) -> dict[str, str]:
        """Each bot's recorded version (name -> SHA-256)."""
        return dict(self._read("SELECT name, version FROM bots ORDER BY name", (), "read bots"))

    # -- games -------------------------------------------------------------------------------

    def add_game(self, record: GameRecord, finished_at: datetime | None = None) -> None:
        """Store one finished game in its own transaction; refuses a stored ``game_id``."""
        self.add_games([record], finished_at)

    def add_games(self, records: Sequence[GameRecord], finished_at: datetime | None = None) -> None:
        """Store finished games in one transaction, with the summary brought up to date.

        Refuses (:class:`DuplicateGameError`, nothing of the batch stored) a game id that is
        already stored. Games given in schedule order, each above every stored one, keep the
        summary current; an earlier one makes it stale until :meth:`summary` rebuilds it.
        """
        if not records:
            return
        at = (finished_at or datetime.now(timezone.utc)).isoformat()
        summary = self._writable_summary()
        try:
            with self._transaction(f"store game {records[0].game_id}"
                                   + (f" and {len(records) - 1} more" if len(records) > 1 else "")):
                self._conn.executemany(_INSERT_GAME, [_game_row(r, at) for r in records])
                if summary is not None:
                    self._extend(summary, records)
        except sqlite3.IntegrityError as exc:   # rolled back by now
            self._summary = None
            raise DuplicateGameError(self._first_stored(records)) from exc
        except BaseException:
            self._summary = None  # it may hold games that were rolled back: load it again
            raise
        self._top = max(self._top, max(r.game_id for r in records))

    def _first_stored(self, records: Sequence[GameRecord]) -> int:
        """The first of ``records`` (refused, rolled back) whose id is stored or repeated."""
        ids = [r.game_id for r in records]
        seen: set[int] = set()
        for gid in ids:
            if gid in seen:
                return gid
            seen.add(gid)
        marks = ", ".join("?" * len(ids))
        rows = self._conn.execute(f"SELECT game_id FROM games WHERE game_id IN ({marks}) "
                                  "ORDER BY game_id LIMIT 1", ids).fetchall()
        return int(rows[0][0]) if rows else ids[0]

    def drop_game(self, game_id: int) -> None:
        """Take a stored game out (a grown tournament's kept game that a disqualification
        before it makes out of date; it is played again). The summary never holds such a game:
        it holds the games up to the first one still to play."""
        with self._transaction(f"drop game {game_id}"):
            self._conn.execute("DELETE FROM games WHERE game_id = ?", (game_id,))

    def drop_games(self, game_ids: Iterable[int]) -> None:
        """Take stored games out, anywhere in the schedule (games that no longer replay, see
        :mod:`arena.tournament.verify`), so that a run plays them again. The summary counted
        them: it is made stale in the same transaction, and rebuilt from the games left."""
        ids = sorted(set(game_ids))
        if not ids:
            return
        with self._transaction(f"drop {len(ids)} games"):
            self._conn.executemany("DELETE FROM games WHERE game_id = ?", [(i,) for i in ids])
            self._conn.execute(f"DELETE FROM meta WHERE key IN {_SUMMARY_META}")
        self._summary = None

    def done_game_ids(self) -> set[int]:
        """Ids of every stored game (to skip them on resume)."""
        return {row[0] for row in self._read("SELECT game_id FROM games", (), "read game ids")}

    def game_count(self) -> int:
        """Number of stored games."""
        return int(self._read("SELECT COUNT(*) FROM games", (), "count games")[0][0])

    def games(self, moves: bool = True) -> Iterator[GameRecord]:
        """Every stored game in ``game_id`` (schedule) order; without ``moves``, each without
        its moves and hands (the bulk of a stored game: reading the results only is faster)."""
        if not moves:
            return self._light_games(0)
        return (record for record, _ in self.finished_games())

    def game(self, game_id: int) -> GameRecord | None:
        """The stored game ``game_id``, or ``None`` if it is not stored."""
        sql = f"SELECT {self._columns} FROM games WHERE game_id = ?"
        rows = self._read(sql, (game_id,), f"read game {game_id}")
        return self._record(rows[0]) if rows else None

    def finished_games(self) -> Iterator[tuple[GameRecord, str]]:
        """Every stored game with its finishing time (ISO 8601, UTC), in ``game_id`` order."""
        return self._rows(f"SELECT {self._columns} FROM games ORDER BY game_id", ())

    def games_as_read(self) -> Iterator[tuple[int, GameRecord | StoreError]]:
        """Every stored game's id with its record, or the one-line error saying why its row
        cannot be read (where :meth:`games` stops): what ``arena verify`` lists and ``--drop``
        takes out."""
        for row in self._raw_rows(f"SELECT {self._columns} FROM games ORDER BY game_id", ()):
            try:
                yield int(row[0]), self._record(row)
            except StoreError as error:
                yield int(row[0]), error

    # -- the summary -------------------------------------------------------------------------

    def summary(self, settings: RatingSettings | None = None) -> Summary:
        """The summary of every stored game, in schedule order.

        Read from the store, plus any stored game it does not hold yet (the kept games of a
        grown tournament still being played); a stale or missing summary is rebuilt from the
        games once (and kept, when this connection writes). Other rating ``settings`` than the
        defaults are computed from the games every time.
        """
        if settings is not None and settings != RatingSettings():
            return self._summarise(self._light_games(0), settings)
        with self.reading():
            stored = None if self._old_schema else self._load_summary()
            ahead = [] if stored is None else list(self._light_games(stored.next_id))
        if stored is None:
            return self._rebuild()
        if not ahead:
            return stored
        summary = copy.deepcopy(stored)
        summary.add_many(ahead)
        return summary

    def kept_summary(self) -> Summary | None:
        """The summary as this writer keeps it while storing games (the live rankings): every
        stored game up to the first one still to play; ``None`` while it is stale."""
        return self._writable_summary()

    def catch_up(self) -> None:
        """Add to the stored summary every stored game it does not hold yet, for good: call it
        once no game below them will be stored any more (the end of a complete run)."""
        summary = self._writable_summary()
        if summary is None:
            self._rebuild()
        elif self._top >= summary.next_id:
            with self._transaction("bring the rankings up to date"):
                self._extend(summary, [])

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

    # -- internals: the summary --------------------------------------------------------------

    def _writable_summary(self) -> Summary | None:
        """The stored summary, loaded once for a writer; ``None`` when stale (or read-only)."""
        if self.readonly or self._old_schema:
            return None
        if self._summary is None:
            self._summary = self._load_summary()
            rows = self._read("SELECT MAX(game_id) FROM games", (), "read game ids")
            self._top = -1 if rows[0][0] is None else int(rows[0][0])
        return self._summary

    def _extend(self, summary: Summary, records: Sequence[GameRecord]) -> None:
        """Inside a transaction: count ``records`` (just inserted) into ``summary`` and save it.

        Stored games between the summary and a record (a grown tournament's kept games) are
        counted first; a record below the summary makes it stale. With no records, every
        stored game beyond the summary is counted.
        """
        top = self._top
        try:
            for record in records:
                if record.game_id < summary.next_id:
                    raise RecordError(f"game {record.game_id} is below the summary")
                if top >= summary.next_id:
                    summary.add_many(self._light_games(summary.next_id, record.game_id))
                summary.add(record)
            if not records and top >= summary.next_id:
                summary.add_many(self._light_games(summary.next_id))
        except RecordError:
            self._conn.execute(f"DELETE FROM meta WHERE key IN {_SUMMARY_META}")
            self._summary = None
            return
        self._save_summary(summary)

    def _save_summary(self, summary: Summary, everything: bool = False) -> None:
        """Inside a transaction: write the summary's changed rows (or all, into empty tables)."""
        if everything:
            for table in _SUMMARY_TABLES:
                self._conn.execute(f"DELETE FROM {table}")
        rows = summary.changes()
        self._conn.executemany(
            f"INSERT OR REPLACE INTO summary_bots ({_BOT_SUMS}) VALUES ({', '.join('?' * 10)})",
            [(r.sums.bot, r.mu, r.sigma, r.sums.faults, r.sums.deal, r.sums.games, r.sums.wins,
              r.sums.places, r.sums.asked, r.sums.think_s) for r in rows.bots])
        self._conn.executemany(
            "INSERT OR REPLACE INTO summary_deals VALUES (?, ?, ?, ?, ?)",
            [(bot, *category, deals) for bot, category, deals in rows.categories])
        self._conn.executemany("INSERT OR REPLACE INTO summary_pairs VALUES (?, ?, ?, ?)", rows.pairs)
        self._save_seats(rows.seats)
        self._conn.executemany(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [("summary_next", str(summary.next_id)), ("summary_games", str(summary.games))])

    def _load_summary(self) -> Summary | None:
        """The stored summary, or ``None`` when there is none (stale, or never built)."""
        meta = self._meta()
        if "summary_next" not in meta:
            return None
        bots = [BotRow(mu, sigma, BotSums(bot, faults, deal, games, wins, places, asked, think_s))
                for bot, mu, sigma, faults, deal, games, wins, places, asked, think_s
                in self._read(f"SELECT {_BOT_SUMS} FROM summary_bots", (), "read the rankings")]
        categories = [(bot, (games, wins, places), deals) for bot, games, wins, places, deals
                      in self._read("SELECT * FROM summary_deals", (), "read the rankings")]
        pairs = [(str(a), str(b), int(games), int(ahead)) for a, b, games, ahead
                 in self._read("SELECT * FROM summary_pairs", (), "read the rankings")]
        seats = [SeatSums(*row) for row in self._read("SELECT seat, games, wins, deals, deal "
                                                      "FROM summary_seats", (), "read the rankings")]
        return Summary.restore(SummaryRows(bots, categories, pairs, seats),
                               int(meta["summary_next"]), int(meta["summary_games"]))

    def _save_seats(self, rows: Iterable[SeatSums]) -> None:
        """Inside a transaction: write the seats' counts."""
        self._conn.executemany("INSERT OR REPLACE INTO summary_seats VALUES (?, ?, ?, ?, ?)",
                               [(r.seat, r.games, r.wins, r.deals, r.deal) for r in rows])

    def _rebuild(self) -> Summary:
        """The summary from every stored game; kept when this connection may write."""
        if self.readonly or self._old_schema or self._conn.in_transaction:  # in reading(): not kept
            return self._summarise(self._light_games(0))
        with self._transaction("rebuild the rankings"):
            summary = self._summarise(self._light_games(0))
            self._save_summary(summary, everything=True)
        self._summary = None  # loaded afresh (with the top id) by the next writer
        return summary

    def _reset_summary(self) -> None:
        """Inside a transaction: an empty summary (the games are counted again as they come)."""
        for table in _SUMMARY_TABLES:
            self._conn.execute(f"DELETE FROM {table}")
        self._save_summary(Summary())
        self._summary = None

    @staticmethod
    def _summarise(records: Iterable[GameRecord], settings: RatingSettings | None = None) -> Summary:
        summary = Summary(settings)
        summary.add_many(records)
        return summary

    def _light_games(self, start: int, stop: int | None = None) -> Iterator[GameRecord]:
        """The stored games with ``start <= game_id < stop``, in order, without their moves."""
        where, params = ("game_id >= ?", (start,)) if stop is None else (
            "game_id >= ? AND game_id < ?", (start, stop))
        sql = f"SELECT {self._light_columns} FROM games WHERE {where} ORDER BY game_id"
        return (record for record, _ in self._rows(sql, params))

    # -- internals: growth -------------------------------------------------------------------

    def _stored_setup(self, info: TournamentInfo) -> StoredSetup:
        (last,) = self._read("SELECT MAX(game_id) FROM games", (), "read game ids")[0]
        return StoredSetup(info.name, info.config_text, info.config_hash, info.seed,
                           info.seed_drawn, info.rules_snapshot, self.bot_versions(), self.layout,
                           last)

    def _stored_per_table(self, growth: Growth) -> dict[int, int]:
        """Stored games per table index of the old schedule (rounds first)."""
        per_deal, tables = growth.old.seatings_per_deal, len(growth.old.tables)
        sql = f"SELECT (game_id / {per_deal}) % {tables}, COUNT(*) FROM games GROUP BY 1"
        return {int(t): int(n) for t, n in self._read(sql, (), "count the stored games")}

    def _grow(self, growth: Growth, config: TournamentConfig, config_text: str, rules_json: str,
              bot_versions: Mapping[str, str], seed_drawn: bool) -> None:
        """Drop the changed bots' games, give the kept ones their ids in the grown schedule, and
        record the new identity, in one transaction."""
        per_deal, old_tables = growth.old.seatings_per_deal, len(growth.old.tables)
        new_tables = len(growth.new.tables)
        kept = growth.table_map()
        table = f"(game_id / {per_deal}) % {old_tables}"
        with self._transaction("grow the tournament"):
            self._conn.execute("CREATE TEMP TABLE IF NOT EXISTS grown (old INTEGER PRIMARY KEY, "
                               "new INTEGER NOT NULL)")
            self._conn.execute("DELETE FROM grown")
            self._conn.executemany("INSERT INTO grown VALUES (?, ?)", sorted(kept.items()))
            if growth.drops:
                self._conn.execute(f"DELETE FROM games WHERE {table} NOT IN (SELECT old FROM grown)")
            if growth.drops or growth.renumbers:
                # games come in before kept ones: the runner decides disqualifications again,
                # in schedule order, as it commits (and checks each kept game against them)
                self._conn.execute("DELETE FROM disqualified")
            if growth.renumbers:
                # through negative ids, so that no two rows ever share one
                self._conn.execute(
                    f"UPDATE games SET game_id = -1 - (((game_id / {per_deal}) / {old_tables} * "
                    f"{new_tables} + (SELECT new FROM grown WHERE old = {table})) * {per_deal} "
                    f"+ game_id % {per_deal})")
                self._conn.execute(f"UPDATE games SET game_id = -1 - game_id, "
                                   f"deal_id = (-1 - game_id) / {per_deal}")
            if growth.drops or growth.renumbers:
                self._reset_summary()
            self._conn.execute("DROP TABLE grown")
            self._identity(config, config_text, rules_json, bot_versions, seed_drawn)

    # -- internals ---------------------------------------------------------------------------

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        """A stored row as its record; a row that is no valid record is a one-line StoreError.
        An old schema's store read as it is gets schema 5's winners (:func:`_rewon`)."""
        try:
            record = _record_from_row(row)
        except (RecordError, json.JSONDecodeError) as exc:
            raise StoreError(f"{self.path}: cannot read stored game {row[0]}: {exc}") from exc
        return _rewon(record) if self._old_schema else record

    def _rows(self, sql: str, params: tuple[Any, ...]) -> Iterator[tuple[GameRecord, str]]:
        for row in self._raw_rows(sql, params):
            yield self._record(row), row[-1]

    def _raw_rows(self, sql: str, params: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        with self._guard("read games", write=False):
            cursor = self._conn.execute(sql, params)
        while True:
            with self._guard("read games", write=False):
                rows = cursor.fetchmany(500)
            if not rows:
                return
            yield from rows

    def _meta(self) -> dict[str, str]:
        return dict(self._read("SELECT key, value FROM meta", (), "read the tournament"))

    def _prepare(self, readonly: bool) -> None:
        if readonly:
            self._check_schema(readonly)
            return
        if self._stored_schema() == str(SCHEMA_VERSION):
            return  # nothing to create: a store that is only read, or refused, stays as it was
        with self._transaction("create the tables"):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )
        if self._check_schema(readonly) != SCHEMA_VERSION:
            self._upgrade()

    def _stored_schema(self) -> str | None:
        """The schema version the file records, or ``None`` for a file without one (new)."""
        tables = self._read("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
                            (), "read schema")
        if not tables:
            return None
        rows = self._read("SELECT value FROM meta WHERE key = 'schema_version'", (), "read schema")
        return str(rows[0][0]) if rows else None

    def _use_wal(self) -> None:
        """Before the first write: WAL, so that readers (`arena rankings` during a run) never
        wait for the writer. Deferred to the first write because the mode is kept in the file:
        a store opened only to be refused, or shipped in another mode, is left as it was."""
        if self._wal:
            return
        with self._guard("prepare the store", write=True):
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
        self._wal = True

    def _check_schema(self, readonly: bool) -> int:
        """The store's schema version: this one, or an older one (then upgraded, or read as it is)."""
        found = self._stored_schema() or "none"
        if found == str(SCHEMA_VERSION):
            return SCHEMA_VERSION
        if found in OLD_SCHEMAS:
            self._old_schema = readonly
            if readonly:
                missing = frozenset(column for table, column, _ in _ADDED_COLUMNS
                                    if table == "games" and column not in self._table_columns(table))
                self._columns = _select(missing)
                self._light_columns = _select(missing, light=True)
            return int(found)
        raise StoreError(f"{self.path}: store schema version {found}, expected {SCHEMA_VERSION}")

    def _upgrade(self) -> None:
        """An older schema -> this one. The new tables are created by now and the new columns
        are added (a game stored before has no thinking time: NULL, counted as none); faulty
        games get schema 5's winners. Schema 1, and any store where that changed a winner, gets
        its whole summary from the stored games; schema 2 the seats' counts of the games its
        summary holds (a stale summary is rebuilt, seats and all, when it is next read)."""
        with self._transaction("upgrade the store (computing the rankings of its games once)"):
            for table, column, kind in _ADDED_COLUMNS:
                if column not in self._table_columns(table):
                    self._conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            meta = self._meta()
            rewon = self._rewin_faulty_games()
            if meta["schema_version"] == "1" or rewon:
                self._summarise_anew()
            elif meta["schema_version"] == "2" and "summary_next" in meta:
                seats = SeatTally()
                seats.add_many(self._light_games(0, int(meta["summary_next"])))
                self._save_seats(seats.changes())
            self._conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                               (str(SCHEMA_VERSION),))

    def _summarise_anew(self) -> None:
        """Inside a transaction: the whole summary from the stored games; with a game that
        cannot be read, none (stale: rebuilt at a read once arena verify --drop removed it)."""
        try:
            self._save_summary(self._summarise(self._light_games(0)), everything=True)
        except StoreError:
            self._conn.execute(f"DELETE FROM meta WHERE key IN {_SUMMARY_META}")

    def _rewin_faulty_games(self) -> int:
        """Inside the upgrade: schema 5's winner for every stored game with a fault
        (:func:`_rewon`); how many changed."""
        sql = f"SELECT {self._columns} FROM games WHERE faults != '[]' ORDER BY game_id"
        changed = []
        for row in self._raw_rows(sql, ()):
            try:
                record = _record_from_row(row)
            except (RecordError, json.JSONDecodeError):
                continue   # left as it is, for arena verify to name and --drop to remove
            rewon = _rewon(record)
            if rewon is not record:
                changed.append((rewon.winner, rewon.winner_bot, rewon.game_id))
        self._conn.executemany("UPDATE games SET winner = ?, winner_bot = ? WHERE game_id = ?", changed)
        return len(changed)

    def _table_columns(self, table: str) -> set[str]:
        """The names of ``table``'s columns in this file."""
        return {row[1] for row in self._read(f"PRAGMA table_info({table})", (), "read the schema")}

    def _has_results(self) -> bool:
        return self.game_count() > 0 or bool(self.disqualified())

    def _write_identity(
        self, config: TournamentConfig, config_text: str, rules_json: str,
        bot_versions: Mapping[str, str], seed_drawn: bool, deals: str,
    ) -> None:
        """A fresh start: no games, no disqualifications, an empty summary, the new identity
        dealt by ``deals``."""
        with self._transaction("record the tournament"):
            for table in ("games", "disqualified"):
                self._conn.execute(f"DELETE FROM {table}")
            self._conn.execute("DELETE FROM meta WHERE key = ?", (_CODE_VERSIONS,))
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                               (_DEALS, deals))
            self._reset_summary()
            self._identity(config, config_text, rules_json, bot_versions, seed_drawn)

    def _identity(
        self, config: TournamentConfig, config_text: str, rules_json: str,
        bot_versions: Mapping[str, str], seed_drawn: bool,
    ) -> None:
        """Inside a transaction: record the tournament's identity (the games stay)."""
        meta = {
            "name": config.name,
            "config_text": config_text,
            "config_hash": config.config_hash,
            "rules_name": config.rules,
            "rules_snapshot": rules_json,
            "seed": str(config.seed),
            "seed_drawn": "1" if seed_drawn else "0",
            "schedule": ROUNDS_FIRST,
            "created_at": datetime.now(timezone.utc).isoformat(),
        }
        self._conn.execute("DELETE FROM bots")
        self._conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", meta.items())
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
    def reading(self) -> Iterator[None]:
        """Reads that all see one state of the store (a read transaction), whatever a run
        commits meanwhile: an export's games and rankings describe the same games."""
        if self._conn.in_transaction:
            yield
            return
        with self._guard("read the store", write=False):
            self._conn.execute("BEGIN")
        try:
            yield
        finally:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")

    @contextlib.contextmanager
    def _transaction(self, action: str) -> Iterator[None]:
        self._use_wal()
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


# json.dumps with arguments builds an encoder a call; one made once writes the same text
_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def _game_row(record: GameRecord, finished_at: str) -> tuple[Any, ...]:
    """The row of ``record`` in :data:`_ORDER`, built from its :meth:`GameRecord.to_dict`;
    ``finished_at`` in ISO 8601."""
    data = record.to_dict()
    row = {column: _column(key, data[key]) for column, key in _RECORD_COLUMNS.items()}
    row["winner_bot"] = record.winner_bot  # derived, kept for queries
    row["finished_at"] = finished_at
    return tuple(row[column] for column in _ORDER)


def _column(key: str, value: Any) -> Any:
    if key in ("hands", "think") and not value:
        return None  # a one-hand game has no per-hand details, a bare record no thinking: NULL
    return _dumps(value) if key in _JSON_KEYS else value


def _rewon(record: GameRecord) -> GameRecord:
    """``record`` with the winner its places give (:func:`~arena.engine.outcome.winner_of`):
    before schema 5, a game whose winner had faulted was stored with no winner at all, and the
    clean seat placed first in its stead (or left alone there by a faulty co-leader) got none."""
    if not record.faults:
        return record
    winner = winner_of(record.places, record.reason)
    return record if winner == record.winner else replace(record, winner=winner)


def _record_from_row(row: tuple[Any, ...]) -> GameRecord:
    """Rebuild a stored row's record with :meth:`GameRecord.from_dict`."""
    data: dict[str, Any] = {}
    for column, value in zip(_ORDER, row):
        key = _RECORD_COLUMNS.get(column)
        if key == "moves" and value is None:
            continue  # read without its moves (the summary's reads): none
        if key is not None:
            data[key] = json.loads(value) if key in _JSON_KEYS and value is not None else value
    return GameRecord.from_dict(data)
